#include "commands/command.hpp"

#include <QJsonDocument>
#include <algorithm>
#include <cstdio>

#include "runtime/error.hpp"

namespace hs::cli {

namespace {

std::vector<Command>& registry() {
    static std::vector<Command> list;
    return list;
}

}  // namespace

bool registerCommand(Command command) {
    registry().push_back(std::move(command));
    return true;
}

std::vector<Command> commands() {
    std::vector<Command> sorted = registry();
    std::sort(sorted.begin(), sorted.end(),
              [](const Command& a, const Command& b) { return a.name < b.name; });
    return sorted;
}

ArgumentParser::ArgumentParser(QString command, QString description) : command_(std::move(command)) {
    parser_.setApplicationDescription(description);
    parser_.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser_.addHelpOption();
}

void ArgumentParser::addFlag(const QString& name, const QString& description) {
    parser_.addOption(QCommandLineOption(name, description));
}

void ArgumentParser::addOption(const QString& name, const QString& valueName, const QString& description,
                               const QString& defaultValue) {
    parser_.addOption(QCommandLineOption(name, description, valueName, defaultValue));
}

void ArgumentParser::addPositional(const QString& name, const QString& description) {
    parser_.addPositionalArgument(name, description);
    ++positionalCount_;
}

bool ArgumentParser::parse(const QStringList& arguments) {
    // QCommandLineParser expects the program name first.
    if (!parser_.parse(QStringList{"histoscope-cli " + command_} + arguments))
        throw UsageError(
            (command_ + ": " + parser_.errorText() + " (see 'histoscope-cli " + command_ + " --help')")
                .toStdString());
    if (parser_.isSet("help")) {
        printText(parser_.helpText());
        return false;
    }
    const auto given = parser_.positionalArguments().size();
    if (given != positionalCount_)
        throw UsageError(QString("%1: expected %2 argument(s), got %3 (see 'histoscope-cli %1 --help')")
                             .arg(command_)
                             .arg(positionalCount_)
                             .arg(given)
                             .toStdString());
    return true;
}

int ArgumentParser::integer(const QString& name, int min, int max) const {
    bool ok = false;
    const int number = parser_.value(name).toInt(&ok);
    if (!ok || number < min || number > max)
        throw UsageError(QString("%1: --%2 must be an integer within %3..%4, got '%5'")
                             .arg(command_, name)
                             .arg(min)
                             .arg(max)
                             .arg(parser_.value(name))
                             .toStdString());
    return number;
}

void ArgumentParser::requireAtMostOne(const QStringList& names) const {
    QStringList set;
    for (const auto& name : names) {
        if (parser_.isSet(name)) set += "--" + name;
    }
    if (set.size() > 1)
        throw UsageError((command_ + ": " + set.join(" and ") + " exclude each other").toStdString());
}

void printJson(const QJsonObject& object) {
    const QByteArray text = QJsonDocument(object).toJson(QJsonDocument::Indented);
    std::fwrite(text.constData(), 1, static_cast<std::size_t>(text.size()), stdout);
}

void printText(const QString& text) {
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stdout);
}

}  // namespace hs::cli
