#include "io/command_line.hpp"

namespace hs::io {

namespace {

QString qtText(std::string_view text) {
    return QString::fromUtf8(text.data(), static_cast<qsizetype>(text.size()));
}

}  // namespace

QCommandLineOption helpOption() {
    return QCommandLineOption({QStringLiteral("h"), QStringLiteral("help")},
                              QStringLiteral("Show this help."));
}

QCommandLineOption option(const QString& name, const QString& valueName, const QString& description,
                          const QString& defaultValue) {
    if (defaultValue.isEmpty()) return QCommandLineOption(name, description, valueName);
    return QCommandLineOption(name, description + QStringLiteral(" Default: %1.").arg(defaultValue),
                              valueName, defaultValue);
}

QCommandLineOption sharedOption(const options::Spec& spec) {
    return sharedOption(spec, qtText(spec.defaultValue));
}

QCommandLineOption sharedOption(const options::Spec& spec, const QString& defaultValue) {
    return option(qtText(spec.name), qtText(spec.valueName), qtText(spec.help), defaultValue);
}

QCommandLineOption rememberedOption(const options::Spec& spec, const QString& note) {
    QString help = qtText(spec.help);
    if (!note.isEmpty()) help += QLatin1Char(' ') + note;
    return option(qtText(spec.name), qtText(spec.valueName),
                  help + QStringLiteral(" Default: as last used."));
}

QString helpText(const QCommandLineParser& parser, const QString& usage) {
    // Qt's first line names argv[0] (the full path, without a subcommand); the rest is kept as Qt lays it
    // out.
    const QString text = parser.helpText();
    return QStringLiteral("Usage: ") + usage + text.mid(text.indexOf(QLatin1Char('\n')));
}

std::optional<std::string> givenValue(const QCommandLineParser& parser, const QString& name) {
    if (!parser.isSet(name)) return std::nullopt;
    return parser.value(name).toStdString();
}

}  // namespace hs::io
