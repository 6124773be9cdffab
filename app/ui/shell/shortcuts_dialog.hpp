#pragma once
// Help ▸ Keyboard Shortcuts: every action of a window that has a shortcut, with its keys and what it does.
// The list is read from the actions themselves when the dialog opens, so it never drifts from what the keys
// do.

#include <QDialog>
#include <QList>
#include <QString>

class QTableWidget;

namespace hs::ui {

struct ShortcutRow {
    QString action;      // the action's text without its mnemonic and ellipsis: "Open", "Export plot"
    QString keys;        // its shortcuts as the platform writes them, joined by ", ": "F5, Ctrl+R"
    QString whatItDoes;  // its status tip, or its tool tip
};

// The actions of `window` and its children that have a shortcut, each once, sorted by name.
QList<ShortcutRow> shortcutRows(const QWidget& window);

class ShortcutsDialog : public QDialog {
    Q_OBJECT

  public:
    explicit ShortcutsDialog(const QWidget& window, QWidget* parent = nullptr);

    QTableWidget* table() const { return table_; }

  private:
    QTableWidget* table_;
};

}  // namespace hs::ui
