#include "commands/command.hpp"

#include <algorithm>
#include <cstdio>

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

ArgumentParser::ArgumentParser(QString command, QString description) : command_(std::move(command)) {
    parser_.setApplicationDescription(description);
    parser_.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    parser_.addOption(io::helpOption());
}

void ArgumentParser::addFlag(const QString& name, const QString& description) {
    parser_.addOption(QCommandLineOption(name, description));
}

void ArgumentParser::addOption(const QString& name, const QString& valueName, const QString& description,
                               const QString& defaultValue) {
    parser_.addOption(io::option(name, valueName, description, defaultValue));
}

void ArgumentParser::addOption(const options::Spec& spec) {
    parser_.addOption(io::sharedOption(spec));
}

void ArgumentParser::addOption(const options::Spec& spec, const QString& defaultValue) {
    parser_.addOption(io::sharedOption(spec, defaultValue));
}

void ArgumentParser::addPositional(const QString& name, const QString& description) {
    parser_.addPositionalArgument(name, description);
    positionalNames_ += name;
}

void ArgumentParser::addRepeatedPositional(const QString& name, const QString& description) {
    addPositional(name, description);
    lastRepeats_ = true;
}

void ArgumentParser::addDeviceOption() {
    addOption(options::kDevice);
}

bool ArgumentParser::parse(const QStringList& arguments) {
    // QCommandLineParser expects the program name first.
    if (!parser_.parse(QStringList{"histoscope-cli " + command_} + arguments))
        throw usageError(parser_.errorText() + " (see 'histoscope-cli " + command_ + " --help')");
    if (parser_.isSet("help")) {
        printText(helpText());
        return false;
    }
    const auto given = parser_.positionalArguments().size();
    if (given < positionalNames_.size() || (given > positionalNames_.size() && !lastRepeats_))
        throw usageError(QString("expected %1%2 argument(s), got %3 (see 'histoscope-cli %4 --help')")
                             .arg(positionalNames_.size())
                             .arg(lastRepeats_ ? " or more" : "")
                             .arg(given)
                             .arg(command_));
    return true;
}

QString ArgumentParser::helpText() const {
    QString usage = "histoscope-cli " + command_ + " [options]";
    for (const auto& name : positionalNames_) usage += ' ' + name;
    return io::helpText(parser_, usage);
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

int ArgumentParser::bins() const {
    try {
        return options::parseBins(parser_.value(text(options::kBins.name)).toStdString());
    } catch (const UsageError& error) {
        throw usageError(QString::fromUtf8(error.what()));
    }
}

std::optional<rotate::Params> ArgumentParser::rotation() const {
    try {
        return options::parseRotation(io::givenValue(parser_, text(options::kAngle.name)),
                                      io::givenValue(parser_, text(options::kSampling.name)),
                                      parser_.isSet(specName(options::kFitCanvas)));
    } catch (const UsageError& error) {
        throw usageError(QString::fromUtf8(error.what()));
    }
}

QString ArgumentParser::required(const QString& name, const QString& valueName) const {
    if (!parser_.isSet(name) || parser_.value(name).isEmpty())
        throw usageError("--" + name + " " + valueName + " is required (see 'histoscope-cli " + command_ +
                         " --help')");
    return parser_.value(name);
}

UsageError ArgumentParser::usageError(const QString& what) const {
    return UsageError((command_ + ": " + what).toStdString());
}

void ArgumentParser::requireAtMostOne(const QStringList& names) const {
    QStringList set;
    for (const auto& name : names) {
        if (parser_.isSet(name)) set += "--" + name;
    }
    if (set.size() > 1) throw usageError(set.join(" and ") + " exclude each other");
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
