// histoscope-cli stages [--json]: every registered stage kind as `pipeline` and the app offer it — its
// options (one per parameter, its strategy option, or its own flag), each parameter's type, range and
// default, and its strategies with the default marked. Made from the kinds' declarations
// (engine/stages/stage.hpp).

#include "cli/commands/option_groups.hpp"
#include "engine/stages/stage.hpp"

namespace hs::cli {

namespace {

std::string_view typeName(stages::Parameter::Type type) {
    switch (type) {
        case stages::Parameter::Type::Real:
            return "real";
        case stages::Parameter::Type::Integer:
            return "integer";
        case stages::Parameter::Type::OddInteger:
            return "odd integer";
        case stages::Parameter::Type::Flag:
            return "flag";
        case stages::Parameter::Type::Choice:
            return "choice";
        case stages::Parameter::Type::Text:
            return "text";
    }
    return "text";
}

bool isNumber(stages::Parameter::Type type) {
    using Type = stages::Parameter::Type;
    return type == Type::Real || type == Type::Integer || type == Type::OddInteger;
}

// The value a parameter takes when none is given, as text; empty for a flag or a parameter without one.
QString defaultOf(const stages::Parameter& parameter) {
    if (!parameter.defaultText.empty()) return text(parameter.defaultText);
    if (isNumber(parameter.type)) return QString::number(parameter.defaultValue);
    return {};
}

// The option that adds an image stage of `kind` to a pipeline: its trigger parameter's, else its own flag.
QString addingOption(const stages::StageKind& kind) {
    return "--" + text(kind.trigger().empty() ? kind.name() : kind.trigger());
}

void writeKind(JsonWriter& json, const stages::StageKind& kind) {
    json.beginObject().field("name", kind.name()).field("label", kind.label()).field("help", kind.help());
    json.field("produces_image", kind.producesImage());
    if (kind.producesImage()) json.field("option", addingOption(kind).toStdString());
    json.key("parameters").beginArray();
    for (const auto& parameter : kind.parameters()) {
        json.beginObject().field("name", parameter.name).field("type", typeName(parameter.type));
        json.field("help", parameter.help);
        if (isNumber(parameter.type)) json.field("min", parameter.min).field("max", parameter.max);
        if (!parameter.choices.empty()) {
            json.key("choices").beginArray();
            for (const auto& choice : parameter.choices) json.value(choice);
            json.endArray();
        }
        if (const QString value = defaultOf(parameter); !value.isEmpty())
            json.field("default", value.toStdString());
        json.endObject();
    }
    json.endArray().key("strategies").beginArray();
    for (const auto* strategy : kind.strategies()) json.value(strategy->name());
    json.endArray();
    if (!kind.defaultStrategy().empty()) json.field("default_strategy", kind.defaultStrategy());
    json.endObject();
}

QString kindText(const stages::StageKind& kind) {
    QString out = QString("%1  %2 (%3)\n  %4\n")
                      .arg(text(kind.name()), text(kind.label()),
                           kind.producesImage() ? "outputs an image, " + addingOption(kind)
                                                : QString("measures the image; pipeline always ends with it"),
                           text(kind.help()));
    for (const auto& parameter : kind.parameters()) {
        QString line = QString("  --%1  %2").arg(text(parameter.name), text(typeName(parameter.type)));
        if (isNumber(parameter.type)) line += QString(" %1..%2").arg(parameter.min).arg(parameter.max);
        if (!parameter.choices.empty()) {
            QStringList choices;
            for (const auto& choice : parameter.choices) choices << text(choice);
            line += " (" + choices.join(", ") + ")";
        }
        if (const QString value = defaultOf(parameter); !value.isEmpty()) line += ", default " + value;
        out += line + "\n";
    }
    QStringList strategies;
    for (const auto* strategy : kind.strategies())
        strategies << text(strategy->name()) +
                          (strategy->name() == kind.defaultStrategy() ? " (default)" : "");
    if (!strategies.isEmpty())
        out += QString("  --%1-strategy  %2\n").arg(text(kind.name()), strategies.join(", "));
    return out;
}

void declare(ArgumentParser& parser, const QStringList&) {
    addReportOptions(parser, "every stage kind with its options, parameters and strategies");
}

int run(const ArgumentParser& parser) {
    const Report report = reportFrom(parser);
    const auto kinds = stages::kinds();
    report.publish(
        [&](JsonWriter& json) {
            json.beginObject().key("stages").beginArray();
            for (const auto* kind : kinds) writeKind(json, *kind);
            json.endArray().endObject();
        },
        [&] {
            QStringList blocks;
            for (const auto* kind : kinds) blocks << kindText(*kind);
            return blocks.join("\n");
        });
    return 0;
}

[[maybe_unused]] const bool registered = registerCommand(
    {"stages", "list the stage kinds pipeline runs, with their options and strategies",
     "Lists every stage kind in the order pipeline and the app offer them: its options, each parameter's "
     "type, range and default, and its strategies with the default marked.",
     declare, run});

}  // namespace

}  // namespace hs::cli
