#pragma once
// The subcommands of histoscope-cli. Each lives in its own file under commands/ and registers itself, so
// adding one touches nothing else:
//
//     const bool registered = hs::cli::registerCommand(
//         {"devices", "list the devices", "Lists every OpenCL device.", declare, run});
//
// Its synopsis (in the overview and in its --help) comes from what `declare` adds to its parser.

#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/image/image.hpp"
#include "engine/runtime/device_info.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/timing.hpp"
#include "engine/stages/shared_options.hpp"
#include "engine/util/json_writer.hpp"

namespace hs::cli {

class ArgumentParser;

struct Command {
    QString name;
    QString summary;      // one line, for the overview
    QString description;  // the paragraph of its --help
    // Declares the command's options and positionals, mostly as option groups (commands/option_groups.hpp);
    // its synopsis, its help and its parsing all come from what is declared. A command called in two ways
    // (bow IMAGE ... | bow --descriptors ...) declares the form `arguments` ask for.
    std::function<void(ArgumentParser& parser, const QStringList& arguments)> declare;
    // Runs with the parsed command line; returns the exit code, throws hs::Error on failure.
    std::function<int(const ArgumentParser& parser)> run;
    // Arguments that select each form of the command, for the overview: one synopsis each.
    std::vector<QStringList> forms{QStringList()};
};

bool registerCommand(Command command);
// Sorted by name.
std::vector<Command> commands();

// QCommandLineParser for one subcommand, reporting mistakes as hs::UsageError "<command>: <what>". Its help
// names the subcommand ("Usage: histoscope-cli histogram [options] IMAGE"), gives the synopsis and states
// every default.
class ArgumentParser {
  public:
    ArgumentParser(QString command, QString description);

    void addFlag(const QString& name, const QString& description);
    // A non-empty `defaultValue` applies when the option is not given and is stated in the help.
    void addOption(const QString& name, const QString& valueName, const QString& description,
                   const QString& defaultValue = {});
    // An option every front end shares (stages/shared_options.hpp), with the spec's default or
    // `defaultValue`.
    void addOption(const options::Spec& spec);
    void addOption(const options::Spec& spec, const QString& defaultValue);
    void addPositional(const QString& name, const QString& description);
    // The last positional argument, given one or more times (positionals() has them all).
    void addRepeatedPositional(const QString& name, const QString& description);
    // The option `name`, already added, is one the command cannot run without: parse() refuses a command
    // line without it (naming it), the help says so, and the synopsis names it outside brackets.
    void require(const QString& name);
    // At most one of `names`, already added, may be given: parse() refuses more ("--json and --csv exclude
    // each other"), and the synopsis shows them as one choice ([--json|--csv]).
    void addExclusive(const QStringList& names);
    // `--flag=VALUE` is read as `--option VALUE` (--json=PATH as --json-out PATH), the form other tools give
    // a flag that can also take a value.
    void addValueForm(const QString& flag, const QString& option);

    // False when --help was asked for (the help text is printed then). Throws UsageError on unknown options,
    // missing values, a missing required option or the wrong number of positional arguments.
    bool parse(const QStringList& arguments);
    QString helpText() const;
    // The positionals, then the required options, then the others in brackets, as declared:
    // "IMAGE --out OUT --angle DEG [--device SEL] ... [--fit-canvas] [--strategy NAME] [--json]".
    QString synopsis() const;
    // The command line parse() was given.
    const QStringList& arguments() const { return arguments_; }
    // The subcommand's name ("pipeline").
    const QString& command() const { return command_; }

    // Whether the command has the option `name` (an option group read by commands with and without it).
    bool declares(const QString& name) const;
    bool isSet(const QString& name) const { return parser_.isSet(name); }
    QString value(const QString& name) const { return parser_.value(name); }
    // A shared option by its spec, so the name is spelled once (stages/shared_options.hpp).
    bool isSet(const options::Spec& spec) const { return parser_.isSet(specName(spec)); }
    QString value(const options::Spec& spec) const { return parser_.value(specName(spec)); }
    // The option's value as an integer within [min, max]; throws UsageError otherwise.
    int integer(const QString& name, int min, int max) const;
    QString positional(int index) const { return parser_.positionalArguments().at(index); }
    QStringList positionals() const { return parser_.positionalArguments(); }
    // "<command>: <what>", for a value only the command can judge.
    UsageError usageError(const QString& what) const;
    // Runs `read`, its UsageError prefixed with the command (the engine's rules name the option, not it).
    template <typename Read>
    auto withCommand(Read&& read) const {
        try {
            return read();
        } catch (const UsageError& error) {
            throw usageError(QString::fromUtf8(error.what()));
        }
    }

  private:
    static QString specName(const options::Spec& spec) {
        return QString::fromUtf8(spec.name.data(), static_cast<qsizetype>(spec.name.size()));
    }
    struct Declared {
        QCommandLineOption option;
        bool required = false;
    };
    // The declared options and positionals on `parser`, with --help.
    void declareOn(QCommandLineParser& parser) const;
    std::vector<Declared>::const_iterator find(const QString& name) const;
    // Where the option `name` is in options_; throws std::logic_error (a bug) when none is.
    std::size_t indexOf(const QString& name) const;
    // "--out OUT", "--json": an option as a synopsis names it.
    static QString named(const QCommandLineOption& option);

    QString command_;
    QString description_;
    std::vector<Declared> options_;
    std::vector<std::pair<QString, QString>> positionals_;  // name, description
    std::vector<QStringList> exclusive_;
    std::vector<std::pair<QString, QString>> valueForms_;  // flag, option
    bool lastRepeats_ = false;
    QStringList arguments_;
    QCommandLineParser parser_;
};

// One JSON document on stdout: what `write` writes, indented.
void printJson(const std::function<void(JsonWriter&)>& write);
void printText(const QString& text);

// The engine's UTF-8 text for Qt.
QString text(std::string_view value);
// "1.234 ms" from nanoseconds.
QString milliseconds(double ns);

// The head of a command's report: the image it read and the device it ran on.
QString imageAndDeviceLines(const QString& path, const ImageRGBA8& image, const DeviceInfo& device);
// One line per record: stage, name (padded to `nameWidth`) and duration.
QString timingLines(const std::vector<Timing>& timings, int nameWidth);
// {"path", "width", "height"}.
void writeImageJson(JsonWriter& json, const QString& path, int width, int height);

}  // namespace hs::cli
