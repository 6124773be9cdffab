#include "cli/commands/command.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "io/command_line.hpp"

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

ArgumentParser::ArgumentParser(QString command, QString description)
    : command_(std::move(command)), description_(std::move(description)) {}

void ArgumentParser::addFlag(const QString& name, const QString& description) {
    options_.push_back({QCommandLineOption(name, description)});
}

void ArgumentParser::addOption(const QString& name, const QString& valueName, const QString& description,
                               const QString& defaultValue) {
    options_.push_back({io::option(name, valueName, description, defaultValue)});
}

void ArgumentParser::addOption(const options::Spec& spec) {
    options_.push_back({io::sharedOption(spec)});
}

void ArgumentParser::addOption(const options::Spec& spec, const QString& defaultValue) {
    options_.push_back({io::sharedOption(spec, defaultValue)});
}

void ArgumentParser::addPositional(const QString& name, const QString& description) {
    positionals_.emplace_back(name, description);
}

void ArgumentParser::addRepeatedPositional(const QString& name, const QString& description) {
    addPositional(name, description);
    lastRepeats_ = true;
}

std::vector<ArgumentParser::Declared>::const_iterator ArgumentParser::find(const QString& name) const {
    return std::find_if(options_.begin(), options_.end(),
                        [&](const Declared& declared) { return declared.option.names().contains(name); });
}

bool ArgumentParser::declares(const QString& name) const {
    return find(name) != options_.end();
}

std::size_t ArgumentParser::indexOf(const QString& name) const {
    const auto found = find(name);
    if (found == options_.end())
        throw std::logic_error(("no option --" + name + " to refer to").toStdString());
    return static_cast<std::size_t>(found - options_.begin());
}

void ArgumentParser::require(const QString& name) {
    Declared& option = options_[indexOf(name)];
    option.required = true;
    option.option.setDescription(option.option.description() + " Required.");
}

void ArgumentParser::addExclusive(const QStringList& names) {
    for (const auto& name : names) indexOf(name);  // each one must exist
    exclusive_.push_back(names);
}

void ArgumentParser::addValueForm(const QString& flag, const QString& option) {
    indexOf(flag);
    indexOf(option);
    valueForms_.emplace_back(flag, option);
}

void ArgumentParser::declareOn(QCommandLineParser& parser) const {
    parser.setApplicationDescription(description_);
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser.addOption(io::helpOption());
    for (const auto& declared : options_) parser.addOption(declared.option);
    for (const auto& [name, description] : positionals_) parser.addPositionalArgument(name, description);
}

bool ArgumentParser::parse(const QStringList& arguments) {
    arguments_ = arguments;
    declareOn(parser_);
    // QCommandLineParser expects the program name first.
    QStringList line{"histoscope-cli " + command_};
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const QString& argument = arguments[i];
        if (argument == "--") {  // what follows is positional
            line += arguments.mid(i);
            break;
        }
        const auto form = std::find_if(valueForms_.begin(), valueForms_.end(), [&](const auto& names) {
            return argument.startsWith("--" + names.first + "=");
        });
        if (form == valueForms_.end())
            line += argument;
        else
            line += {"--" + form->second, argument.mid(form->first.size() + 3)};
    }
    const bool parsed = parser_.parse(line);
    if (parser_.isSet("help")) {
        printText(helpText());
        return false;
    }
    if (!parsed) throw usageError(parser_.errorText() + " (see 'histoscope-cli " + command_ + " --help')");
    const auto given = parser_.positionalArguments().size();
    const auto expected = static_cast<qsizetype>(positionals_.size());
    if (given < expected || (given > expected && !lastRepeats_))
        throw usageError(QString("expected %1%2 argument(s), got %3 (see 'histoscope-cli %4 --help')")
                             .arg(expected)
                             .arg(lastRepeats_ ? " or more" : "")
                             .arg(given)
                             .arg(command_));
    for (const auto& declared : options_) {
        const QString name = declared.option.names().back();
        if (declared.required && (!parser_.isSet(name) || parser_.value(name).isEmpty()))
            throw usageError(named(declared.option) + " is required (see 'histoscope-cli " + command_ +
                             " --help')");
    }
    for (const auto& names : exclusive_) {
        QStringList set;
        for (const auto& name : names) {
            if (parser_.isSet(name)) set += "--" + name;
        }
        if (set.size() > 1) throw usageError(set.join(" and ") + " exclude each other");
    }
    return true;
}

QString ArgumentParser::named(const QCommandLineOption& option) {
    const QString name = "--" + option.names().back();
    return option.valueName().isEmpty() ? name : name + ' ' + option.valueName();
}

QString ArgumentParser::synopsis() const {
    QStringList parts;
    for (const auto& [name, description] : positionals_) parts += name;
    for (const auto& declared : options_) {
        if (declared.required) parts += named(declared.option);
    }
    QStringList shownInChoice;
    for (const auto& declared : options_) {
        const QString name = declared.option.names().back();
        if (declared.required || shownInChoice.contains(name)) continue;
        const auto choice = std::find_if(exclusive_.begin(), exclusive_.end(),
                                         [&](const QStringList& names) { return names.contains(name); });
        if (choice == exclusive_.end()) {
            parts += '[' + named(declared.option) + ']';
            continue;
        }
        QStringList alternatives;
        for (const auto& alternative : *choice) alternatives += named(options_[indexOf(alternative)].option);
        parts += '[' + alternatives.join('|') + ']';
        shownInChoice += *choice;
    }
    return parts.join(' ');
}

QString ArgumentParser::helpText() const {
    QCommandLineParser parser;
    declareOn(parser);
    QString usage = "histoscope-cli " + command_ + " [options]";
    for (const auto& [name, description] : positionals_) usage += ' ' + name;
    // The second line is the synopsis the overview shows, made from the same declarations.
    return io::helpText(parser, usage + "\n       histoscope-cli " + command_ + ' ' + synopsis());
}

int ArgumentParser::integer(const QString& name, int min, int max) const {
    bool ok = false;
    const int number = parser_.value(name).toInt(&ok);
    if (!ok || number < min || number > max)
        throw usageError(QString("--%1 must be an integer within %2..%3, got '%4'")
                             .arg(name)
                             .arg(min)
                             .arg(max)
                             .arg(parser_.value(name)));
    return number;
}

UsageError ArgumentParser::usageError(const QString& what) const {
    return UsageError((command_ + ": " + what).toStdString());
}

void printJson(const std::function<void(JsonWriter&)>& write) {
    const std::string text = jsonDocument(write);
    std::fwrite(text.data(), 1, text.size(), stdout);
}

void printText(const QString& text) {
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, static_cast<std::size_t>(bytes.size()), stdout);
}

QString text(std::string_view value) {
    return QString::fromUtf8(value.data(), static_cast<qsizetype>(value.size()));
}

QString milliseconds(double ns) {
    return QString::number(ns / 1e6, 'f', 3) + " ms";
}

QString imageAndDeviceLines(const QString& path, const ImageRGBA8& image, const DeviceInfo& device) {
    return QString("image     %1 (%2x%3)\n").arg(path).arg(image.width).arg(image.height) + "device    " +
           text(device.selector()) + "  " + text(device.name) + " (" + text(device.platformName) + ")\n";
}

QString timingLines(const std::vector<Timing>& timings, int nameWidth) {
    QString lines;
    for (const auto& timing : timings)
        lines += QString("  %1 %2 %3\n")
                     .arg(text(stageName(timing.stage)), -9)
                     .arg(text(timing.name), -nameWidth)
                     .arg(milliseconds(timing.durationNs()), 12);
    return lines;
}

void writeImageJson(JsonWriter& json, const QString& path, int width, int height) {
    json.beginObject().field("path", path.toStdString()).field("width", width).field("height", height);
    json.endObject();
}

}  // namespace hs::cli
