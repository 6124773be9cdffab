#include "ui/shell/number_field.hpp"

#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QRegularExpression>
#include <QTimer>
#include <cmath>
#include <string>

#include "engine/runtime/error.hpp"

namespace hs::ui {

namespace {

// A text on its way to a number ("", "-", "1.", "2e"): typing may go on.
bool numberSoFar(const QString& text) {
    static const QRegularExpression partial(QStringLiteral("^[+-]?[0-9]*\\.?[0-9]*([eE][+-]?[0-9]*)?$"));
    return partial.match(text).hasMatch();
}

std::string shortest(double value) {
    return QString::number(value, 'g', 10).toStdString();
}

// GUI thread only, as the fields are.
int typingPause = kTypingPauseMs;

}  // namespace

int typingPauseMs() {
    return typingPause;
}

void setTypingPauseMs(int milliseconds) {
    typingPause = milliseconds;
}

NumberRule parameterRule(const stages::Parameter& parameter) {
    return [parameter](std::string_view text) {
        bool number = false;
        const double value =
            QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size())).trimmed().toDouble(&number);
        const bool whole = parameter.type == stages::Parameter::Type::Real || value == std::floor(value);
        if (!number || !std::isfinite(value) || value < parameter.min || value > parameter.max || !whole)
            throw UsageError(parameter.label + " must be " +
                             (parameter.type == stages::Parameter::Type::Real ? "a number" : "an integer") +
                             " within " + shortest(parameter.min) + ".." + shortest(parameter.max) +
                             ", got '" + std::string(text) + "'");
        return value;
    };
}

template <class Box>
NumberField<Box>::NumberField(NumberRule rule, QWidget* parent)
    : Box(parent), rule_(std::move(rule)), note_(new QLabel), pause_(new QTimer(this)) {
    note_->setObjectName(QStringLiteral("fieldNote"));
    note_->setStyleSheet(QStringLiteral("color: #c77c02;"));
    note_->setWordWrap(true);
    note_->hide();
    // The value changes when the text is complete, not at each keystroke.
    this->setKeyboardTracking(false);
    pause_->setSingleShot(true);
    QObject::connect(this->lineEdit(), &QLineEdit::textEdited, pause_,
                     [this] { pause_->start(typingPauseMs()); });
    QObject::connect(this, &QAbstractSpinBox::editingFinished, pause_, &QTimer::stop);
    QObject::connect(pause_, &QTimer::timeout, this, [this] {
        // A pause in the middle of a number ("-", "1e") waits for more, and so does a refused one: Enter or
        // the focus leaving says why and undoes it.
        QString text = this->text();
        int position = 0;
        if (validate(text, position) == QValidator::Acceptable) this->interpretText();
    });
}

template <class Box>
NumberField<Box>::~NumberField() {
    if (!note_->parent()) delete note_;
}

template <class Box>
QString NumberField<Box>::plainNumber(const QString& text) const {
    QString plain = text;
    if (!this->prefix().isEmpty() && plain.startsWith(this->prefix())) plain.remove(0, this->prefix().size());
    if (!this->suffix().isEmpty() && plain.endsWith(this->suffix())) plain.chop(this->suffix().size());
    const QLocale locale = this->locale();
    plain.remove(locale.groupSeparator());
    plain.replace(locale.decimalPoint(), QStringLiteral("."));
    return plain.trimmed();
}

template <class Box>
bool NumberField<Box>::isSpecial(const QString& text) const {
    return !this->specialValueText().isEmpty() && text == this->specialValueText();
}

template <class Box>
void NumberField<Box>::say(const QString& message) const {
    note_->setText(message);
    // Only where the caller placed it: a note without a parent would be a window of its own.
    note_->setVisible(!message.isEmpty() && note_->parent());
}

template <class Box>
QValidator::State NumberField<Box>::validate(QString& input, int& /*position*/) const {
    if (isSpecial(input)) return QValidator::Acceptable;
    const QString plain = plainNumber(input);
    try {
        rule_(plain.toStdString());
        return QValidator::Acceptable;
    } catch (const UsageError&) {
        // Refused but perhaps not finished ("30" on the way to "300" is accepted anyway): the text may stay
        // while it could still become a number; other characters are not typed in.
        if (numberSoFar(plain)) return QValidator::Intermediate;
        return this->specialValueText().startsWith(input) ? QValidator::Intermediate : QValidator::Invalid;
    }
}

template <class Box>
void NumberField<Box>::fixup(QString& input) const {
    // The text is complete (Enter, the focus leaving) and not acceptable: say why; the box then shows its
    // last value again.
    if (isSpecial(input)) return;
    try {
        rule_(plainNumber(input).toStdString());
    } catch (const UsageError& e) {
        say(QString::fromUtf8(e.what()));
    }
}

template <class Box>
typename NumberField<Box>::Value NumberField<Box>::valueFromText(const QString& text) const {
    if (isSpecial(text)) return this->minimum();
    const QString plain = plainNumber(text);
    double value = 0;
    try {
        value = rule_(plain.toStdString());
    } catch (const UsageError& e) {
        say(QString::fromUtf8(e.what()));
        return this->value();
    }
    // A value the rule reduced (an angle into (-180, 180]) is not what was typed: say what it became.
    const double typed = plain.toDouble();
    say(typed == value ? QString()
                       : Box::tr("%1 is %2")
                             .arg(plain, this->textFromValue(static_cast<Value>(value)) + this->suffix()));
    if constexpr (std::is_integral_v<Value>)
        return static_cast<Value>(std::lround(value));
    else
        return value;
}

template class NumberField<QSpinBox>;
template class NumberField<QDoubleSpinBox>;

}  // namespace hs::ui
