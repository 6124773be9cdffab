#include "ui/shell/stage_page.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>

#include "engine/runtime/error.hpp"
#include "engine/stages/builtin.hpp"
#include "ui/shell/number_field.hpp"

namespace hs::ui {

namespace {

QString text(std::string_view value) {
    return QString::fromUtf8(value.data(), static_cast<qsizetype>(value.size()));
}

using Type = stages::Parameter::Type;

}  // namespace

StagePage::StagePage(const stages::StageKind& kind, QWidget* parent) : QGroupBox(parent), kind_(kind) {
    setTitle(text(kind.label()));
    setToolTip(text(kind.help()));
    setObjectName(text(kind.name()) + QStringLiteral("Stage"));
    setCheckable(true);
    setChecked(false);
    connect(this, &QGroupBox::toggled, this, &StagePage::changed);
    auto* form = new QFormLayout(this);
    for (const auto& parameter : kind.parameters()) {
        const QString name = QString::fromStdString(parameter.name);
        QWidget* editor = nullptr;
        QLabel* note = nullptr;  // a number field's: what it refused
        switch (parameter.type) {
            case Type::Real:
            case Type::Integer:
            case Type::OddInteger: {
                auto* box = new RealField(parameterRule(parameter));
                box->setRange(parameter.min, parameter.max);
                box->setSingleStep(parameter.type == Type::OddInteger ? 2 : parameter.step);
                box->setDecimals(parameter.type == Type::Real ? 2 : 0);
                box->setValue(parameter.defaultValue);
                connect(box, &QDoubleSpinBox::valueChanged, this, &StagePage::changed);
                note = box->note();
                editor = box;
                break;
            }
            case Type::Flag: {
                auto* box = new QCheckBox;
                connect(box, &QCheckBox::toggled, this, &StagePage::changed);
                editor = box;
                break;
            }
            case Type::Choice: {
                auto* box = new QComboBox;
                for (const auto& choice : parameter.choices) box->addItem(QString::fromStdString(choice));
                box->setCurrentText(QString::fromStdString(parameter.defaultText));
                connect(box, &QComboBox::currentIndexChanged, this, &StagePage::changed);
                editor = box;
                break;
            }
            case Type::Text: {
                auto* line = new QLineEdit(QString::fromStdString(parameter.defaultText));
                connect(line, &QLineEdit::editingFinished, this, &StagePage::changed);
                editor = line;
                break;
            }
        }
        editor->setObjectName(text(kind.name()) + QLatin1Char('_') + name);
        editor->setToolTip(QString::fromStdString(parameter.help));
        form->addRow(QString::fromStdString(parameter.label), editor);
        if (note) form->addRow(note);
        editors_.insert(name, editor);
    }
    if (!kind.strategies().empty()) {
        strategy_ = new QComboBox;
        strategy_->setObjectName(text(kind.name()) + QStringLiteral("Strategy"));
        for (const auto* strategy : kind.strategies()) {
            strategy_->addItem(text(strategy->name()));
            strategy_->setItemData(strategy_->count() - 1, text(strategy->description()), Qt::ToolTipRole);
        }
        strategy_->setCurrentText(text(kind.defaultStrategy()));
        connect(strategy_, &QComboBox::currentIndexChanged, this, &StagePage::changed);
        form->addRow(tr("Strategy"), strategy_);
    }
    // A kind with nothing to set says what it does instead of showing an empty box.
    if (form->rowCount() == 0) {
        auto* what = new QLabel(text(kind.help()));
        what->setWordWrap(true);
        form->addRow(what);
    }
}

stages::Values StagePage::values() const {
    stages::Values values;
    for (const auto& parameter : kind_.parameters()) {
        QWidget* editor = editors_.value(QString::fromStdString(parameter.name));
        if (auto* number = qobject_cast<QDoubleSpinBox*>(editor))
            values.emplace(parameter.name, stages::numberText(number->value()));
        else if (auto* flag = qobject_cast<QCheckBox*>(editor)) {
            if (flag->isChecked()) values.emplace(parameter.name, std::string());
        } else if (auto* choice = qobject_cast<QComboBox*>(editor))
            values.emplace(parameter.name, choice->currentText().toStdString());
        else if (auto* line = qobject_cast<QLineEdit*>(editor); line && !line->text().isEmpty())
            values.emplace(parameter.name, line->text().toStdString());
    }
    return values;
}

std::shared_ptr<const stages::Stage> StagePage::stage() const {
    if (!isChecked()) return nullptr;
    // A generated page has no file editor: a kind that would read a file its text names is told so in words.
    const stages::FileReader noFiles = [](const std::string& path, std::uint64_t,
                                          std::string_view what) -> std::string {
        throw UsageError(path + ": the Transform panel's generated pages read no " + std::string(what));
    };
    return kind_.configure(values(), strategy_ ? strategy_->currentText().toStdString() : std::string(),
                           noFiles);
}

QMap<QString, QString> StagePage::settings() const {
    QMap<QString, QString> settings;
    settings.insert(QStringLiteral("on"), isChecked() ? QStringLiteral("true") : QStringLiteral("false"));
    if (strategy_) settings.insert(QStringLiteral("strategy"), strategy_->currentText());
    const stages::Values given = values();
    for (const auto& parameter : kind_.parameters()) {
        const auto value = given.find(parameter.name);
        if (parameter.type == Type::Flag)
            settings.insert(QString::fromStdString(parameter.name),
                            value != given.end() ? QStringLiteral("true") : QStringLiteral("false"));
        else if (value != given.end())
            settings.insert(QString::fromStdString(parameter.name), QString::fromStdString(value->second));
    }
    return settings;
}

void StagePage::applySettings(const QMap<QString, QString>& settings) {
    const QSignalBlocker quiet(this);
    setChecked(settings.value(QStringLiteral("on")) == QLatin1String("true"));
    if (strategy_ && settings.contains(QStringLiteral("strategy")))
        strategy_->setCurrentText(settings.value(QStringLiteral("strategy")));
    for (auto it = settings.cbegin(); it != settings.cend(); ++it) {
        QWidget* editor = editors_.value(it.key());
        if (auto* number = qobject_cast<QDoubleSpinBox*>(editor)) {
            bool ok = false;
            const double value = it.value().toDouble(&ok);
            if (ok) number->setValue(value);
        } else if (auto* flag = qobject_cast<QCheckBox*>(editor)) {
            flag->setChecked(it.value() == QLatin1String("true"));
        } else if (auto* choice = qobject_cast<QComboBox*>(editor)) {
            choice->setCurrentText(it.value());
        } else if (auto* line = qobject_cast<QLineEdit*>(editor)) {
            line->setText(it.value());
        }
    }
}

}  // namespace hs::ui
