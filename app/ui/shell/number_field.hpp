#pragma once
// Number fields that mean what was typed (issue 23). A field judges its text only once it is complete —
// Enter, the focus leaving, or a pause in the typing — so "12.5" typed asks for one run, not four. It judges
// it by a rule that returns the value or throws a UsageError with the reason: for the options the command
// line shares
// (--angle, --bins) that rule is the engine's own (engine/stages/shared_options.hpp), so "270" is -90 in both
// and "300" bins is refused in both with the same words. A refused text is said in the field's note, beside
// it, and the field goes back to its last value; a value the rule reduced is said there too.

#include <QDoubleSpinBox>
#include <QSpinBox>
#include <functional>
#include <string_view>
#include <type_traits>
#include <utility>

#include "engine/ops/parameter.hpp"

class QLabel;
class QTimer;

namespace hs::ui {

// How long typing may pause before a field takes its text as complete: kTypingPauseMs until the user sets
// another in Preferences (AppSettings's, applied by the window). One value for every field of the process,
// read each time a keystroke starts the pause, so fields made later (a stage page, a dialog) follow it too.
inline constexpr int kTypingPauseMs = 500;
int typingPauseMs();
void setTypingPauseMs(int milliseconds);

// The value of a complete text, else a UsageError whose message says why.
using NumberRule = std::function<double(std::string_view text)>;

// The rule of a stage's or filter's parameter, from its schema: a number within [min, max], whole for the
// integer types.
NumberRule parameterRule(const stages::Parameter& parameter);

// `Box` is QSpinBox or QDoubleSpinBox; their value signals, ranges and steps stay as they are.
template <class Box>
class NumberField final : public Box {
  public:
    using Value = decltype(std::declval<const Box&>().value());

    explicit NumberField(NumberRule rule, QWidget* parent = nullptr);
    ~NumberField() override;

    // What the field has to say about the last text it judged (refused, or reduced to another value); hidden
    // when nothing. The caller places it beside the field.
    QLabel* note() const { return note_; }

    QValidator::State validate(QString& input, int& position) const override;
    void fixup(QString& input) const override;

  protected:
    Value valueFromText(const QString& text) const override;

  private:
    // The text without prefix and suffix, in the C locale's digits ('.' as the decimal point).
    QString plainNumber(const QString& text) const;
    bool isSpecial(const QString& text) const;
    void say(const QString& message) const;

    NumberRule rule_;
    QLabel* note_;
    QTimer* pause_;
};

using IntField = NumberField<QSpinBox>;
using RealField = NumberField<QDoubleSpinBox>;

}  // namespace hs::ui
