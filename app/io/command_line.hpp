#pragma once
// What the Qt command lines (histoscope, histoscope-cli) share beyond the engine's option rules
// (stages/shared_options.hpp): options whose help states their default, the shared options as
// QCommandLineOption, and a help text whose usage line names the command as the user types it, without Qt's
// --help-all.

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QString>
#include <optional>
#include <string>

#include "stages/shared_options.hpp"

namespace hs::io {

// "-h, --help: Show this help." (QCommandLineParser::addHelpOption would add --help-all, Qt's own options).
QCommandLineOption helpOption();

// --name VALUE with `description`; a non-empty `defaultValue` is the value when the option is not given and
// is stated in the help as "Default: X.".
QCommandLineOption option(const QString& name, const QString& valueName, const QString& description,
                          const QString& defaultValue = {});
// A shared option with the spec's default, or with `defaultValue` where this front end has another.
QCommandLineOption sharedOption(const options::Spec& spec);
QCommandLineOption sharedOption(const options::Spec& spec, const QString& defaultValue);
// A shared option whose default is the app's remembered choice: the help adds `note` (if any) and says
// "Default: as last used."; the parser has no default value, so isSet() tells whether it was given.
QCommandLineOption rememberedOption(const options::Spec& spec, const QString& note = {});

// The parser's help with `usage` as its first line: "Usage: histoscope-cli histogram [options] IMAGE".
QString helpText(const QCommandLineParser& parser, const QString& usage);

// The option's value when given on the command line, for the shared rules.
std::optional<std::string> givenValue(const QCommandLineParser& parser, const QString& name);

}  // namespace hs::io
