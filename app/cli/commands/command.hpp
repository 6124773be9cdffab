#pragma once
// The subcommands of histoscope-cli. Each lives in its own file under commands/ and registers itself, so
// adding one touches nothing else:
//
//     const bool registered =
//         hs::cli::registerCommand({"rotate", "IMAGE --angle DEG --out OUT", "rotate an image", run});

#include <QCommandLineParser>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "image/image.hpp"
#include "ops/rotate/rotate.hpp"
#include "ops/shared_options.hpp"
#include "runtime/device_info.hpp"
#include "runtime/error.hpp"
#include "runtime/timing.hpp"
#include "util/json_writer.hpp"

namespace hs::cli {

struct Command {
    QString name;
    QString synopsis;  // the arguments after the name, for the overview
    QString summary;   // one line
    // Receives the arguments after the command name; returns the exit code, throws hs::Error on failure.
    std::function<int(const QStringList& arguments)> run;
};

bool registerCommand(Command command);
// Sorted by name.
std::vector<Command> commands();

// QCommandLineParser for one subcommand, reporting mistakes as hs::UsageError "<command>: <what>". Its help
// names the subcommand ("Usage: histoscope-cli histogram [options] IMAGE") and states every default.
class ArgumentParser {
  public:
    ArgumentParser(QString command, QString description);

    void addFlag(const QString& name, const QString& description);
    // A non-empty `defaultValue` applies when the option is not given and is stated in the help.
    void addOption(const QString& name, const QString& valueName, const QString& description,
                   const QString& defaultValue = {});
    // An option every front end shares (ops/shared_options.hpp), with the spec's default or `defaultValue`.
    void addOption(const options::Spec& spec);
    void addOption(const options::Spec& spec, const QString& defaultValue);
    void addPositional(const QString& name, const QString& description);
    // The last positional argument, given one or more times (positionals() has them all).
    void addRepeatedPositional(const QString& name, const QString& description);
    // --device SEL, with the selection rules every command shares.
    void addDeviceOption();

    // False when --help was asked for (the help text is printed then). Throws UsageError on unknown options,
    // missing values or the wrong number of positional arguments.
    bool parse(const QStringList& arguments);
    QString helpText() const;

    bool isSet(const QString& name) const { return parser_.isSet(name); }
    QString value(const QString& name) const { return parser_.value(name); }
    // A shared option by its spec, so the name is spelled once (ops/shared_options.hpp).
    bool isSet(const options::Spec& spec) const { return parser_.isSet(specName(spec)); }
    QString value(const options::Spec& spec) const { return parser_.value(specName(spec)); }
    // The option's value as an integer within [min, max]; throws UsageError otherwise.
    int integer(const QString& name, int min, int max) const;
    // The shared rules (ops/shared_options.hpp), their UsageError prefixed with the command: --bins, and
    // --angle with --sampling (nullopt without --angle).
    int bins() const;
    std::optional<rotate::Params> rotation() const;
    // The value of an option the command cannot run without; throws UsageError naming it and `valueName`.
    QString required(const QString& name, const QString& valueName) const;
    QString positional(int index) const { return parser_.positionalArguments().at(index); }
    QStringList positionals() const { return parser_.positionalArguments(); }
    // Throws UsageError when more than one of `names` is set.
    void requireAtMostOne(const QStringList& names) const;
    // "<command>: <what>", for a value only the command can judge.
    UsageError usageError(const QString& what) const;

  private:
    static QString specName(const options::Spec& spec) {
        return QString::fromUtf8(spec.name.data(), static_cast<qsizetype>(spec.name.size()));
    }

    QString command_;
    QCommandLineParser parser_;
    QStringList positionalNames_;
    bool lastRepeats_ = false;
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
