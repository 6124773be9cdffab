#pragma once
// A stage kind's page in the Transform panel, made from its declaration (stages/stage.hpp): a checkable group
// titled with the kind's label, one editor per parameter (a spin box for numbers, a check box for a flag, a
// list for a choice, a line for text) with the parameter's range, default and help, and the kind's
// strategies. A new stage kind gets its page, its settings keys and its tooltips from here, with no code of
// its own in the app.

#include <QGroupBox>
#include <QMap>
#include <QString>
#include <memory>

#include "stages/stage.hpp"

class QComboBox;

namespace hs::ui {

class StagePage : public QGroupBox {
    Q_OBJECT

  public:
    explicit StagePage(const stages::StageKind& kind, QWidget* parent = nullptr);

    const stages::StageKind& kind() const { return kind_; }
    // The stage as set; null while the page is switched off. Throws UsageError for a value the kind refuses.
    std::shared_ptr<const stages::Stage> stage() const;

    // What to remember between sessions, by key: "on", "strategy" and each parameter's name, as text.
    QMap<QString, QString> settings() const;
    // Sets the page from remembered `settings` (absent keys keep the declared defaults).
    void applySettings(const QMap<QString, QString>& settings);

    // The editor of parameter `name` (a QDoubleSpinBox, QCheckBox, QComboBox or QLineEdit); null if none.
    QWidget* editor(const QString& name) const { return editors_.value(name); }
    QComboBox* strategyBox() const { return strategy_; }

  signals:
    // Switched on or off, or a value or the strategy changed.
    void changed();

  private:
    stages::Values values() const;

    const stages::StageKind& kind_;
    QMap<QString, QWidget*> editors_;
    QComboBox* strategy_ = nullptr;
};

}  // namespace hs::ui
