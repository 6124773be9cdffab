#pragma once
// The subcommands of histoscope-cli. Each lives in its own file under commands/ and registers itself, so
// adding one touches nothing else:
//
//     const bool registered = hs::cli::registerCommand({"rotate", "IMAGE --angle DEG --out OUT", "Rotates
//     ...", run});

#include <QCommandLineParser>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <functional>
#include <string>
#include <vector>

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

// QCommandLineParser for one subcommand, reporting mistakes as hs::UsageError "<command>: <what>".
class ArgumentParser {
  public:
    ArgumentParser(QString command, QString description);

    void addFlag(const QString& name, const QString& description);
    void addOption(const QString& name, const QString& valueName, const QString& description,
                   const QString& defaultValue = {});
    void addPositional(const QString& name, const QString& description);

    // False when --help was asked for (the help text is printed then). Throws UsageError on unknown options,
    // missing values or the wrong number of positional arguments.
    bool parse(const QStringList& arguments);

    bool isSet(const QString& name) const { return parser_.isSet(name); }
    QString value(const QString& name) const { return parser_.value(name); }
    // The option's value as an integer within [min, max]; throws UsageError otherwise.
    int integer(const QString& name, int min, int max) const;
    QString positional(int index) const { return parser_.positionalArguments().at(index); }
    // Throws UsageError when more than one of `names` is set.
    void requireAtMostOne(const QStringList& names) const;

  private:
    QString command_;
    QCommandLineParser parser_;
    int positionalCount_ = 0;
};

void printJson(const QJsonObject& object);
void printText(const QString& text);

}  // namespace hs::cli
