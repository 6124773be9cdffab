#include "ui/shell/shortcuts_dialog.hpp"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QKeySequence>
#include <QSet>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/views/view_helpers.hpp"

namespace hs::ui {

QList<ShortcutRow> shortcutRows(const QWidget& window) {
    // The window's own actions and those of its children (menus, views, docks' toggles); an action added to
    // several widgets is listed once.
    QList<QAction*> actions = window.actions();
    actions += window.findChildren<QAction*>();
    QSet<QAction*> seen;
    QList<ShortcutRow> rows;
    for (QAction* action : actions) {
        if (action->shortcuts().isEmpty() || seen.contains(action)) continue;
        seen.insert(action);
        QStringList keys;
        for (const QKeySequence& shortcut : action->shortcuts())
            keys << shortcut.toString(QKeySequence::NativeText);
        const QString text = QString(action->text()).remove(QLatin1Char('&')).remove(QStringLiteral("…"));
        // Qt's tool tip falls back to the text, which would only repeat the first column.
        QString tip = action->statusTip().isEmpty() ? action->toolTip() : action->statusTip();
        if (QString(tip).remove(QLatin1Char('&')).remove(QStringLiteral("…")) == text) tip.clear();
        rows.append({text, keys.join(QStringLiteral(", ")), tip});
    }
    std::sort(rows.begin(), rows.end(), [](const ShortcutRow& a, const ShortcutRow& b) {
        return QString::localeAwareCompare(a.action, b.action) < 0;
    });
    return rows;
}

ShortcutsDialog::ShortcutsDialog(const QWidget& window, QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Keyboard Shortcuts — HistoScope"));
    table_ = readOnlyTable({tr("Action"), tr("Keys"), tr("What it does")}, this);
    const QList<ShortcutRow> rows = shortcutRows(window);
    table_->setRowCount(static_cast<int>(rows.size()));
    for (int row = 0; row < rows.size(); ++row) {
        table_->setItem(row, 0, tableCell(rows[row].action, Qt::AlignLeft | Qt::AlignVCenter));
        table_->setItem(row, 1, tableCell(rows[row].keys, Qt::AlignLeft | Qt::AlignVCenter));
        table_->setItem(row, 2, tableCell(rows[row].whatItDoes, Qt::AlignLeft | Qt::AlignVCenter));
    }
    table_->horizontalHeader()->setStretchLastSection(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(table_);
    layout->addWidget(buttons);
    // Wide enough for the title and the three columns; a table taller than that scrolls.
    resize(std::max(560, fontMetrics().horizontalAdvance(windowTitle()) + 160), 420);
}

}  // namespace hs::ui
