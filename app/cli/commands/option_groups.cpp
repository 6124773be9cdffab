#include "cli/commands/option_groups.hpp"

#include <algorithm>

#include "io/export.hpp"
#include "io/files/files.hpp"
#include "io/image_io.hpp"
#include "io/native_path.hpp"

namespace hs::cli {

std::string readStageFile(const std::string& path, std::uint64_t maxBytes, std::string_view what) {
    return io::readWholeFile(path, static_cast<std::size_t>(maxBytes), what);
}

namespace {

// The flag that adds a kind whose parameters do not: --equalize.
bool hasOwnFlag(const stages::StageKind& kind) {
    return kind.trigger().empty();
}

}  // namespace

void addDeviceOption(ArgumentParser& parser) {
    parser.addOption(options::kDevice);
}

std::string deviceFrom(const ArgumentParser& parser) {
    return parser.value(options::kDevice).toStdString();
}

void addImageInput(ArgumentParser& parser) {
    parser.addPositional("IMAGE", "PNG, JPEG, BMP, GIF, TIFF or WebP file.");
}

QString imageFrom(const ArgumentParser& parser) {
    return parser.positional(0);
}

void addImageOutput(ArgumentParser& parser) {
    parser.addOption("out", "OUT", "Where to write the processed image (png, jpg, bmp, tif, webp).");
    parser.require("out");
}

QString imageOutputFrom(const ArgumentParser& parser) {
    const QString out = parser.value("out");
    io::checkImageOutput(out);
    return out;
}

void addReportOptions(ArgumentParser& parser, const QString& what, bool withCsv) {
    // The names and the rule every front end shares; the help says what this command's object holds.
    parser.addFlag(text(options::kJson.name), "Print one JSON object (" + what + ") on stdout.");
    parser.addOption(options::kJsonOut);
    parser.addValueForm(text(options::kJson.name), text(options::kJsonOut.name));
    if (!withCsv) return;
    parser.addFlag("csv", "Print the histogram as CSV, after '# key: value' lines saying what it counts.");
    parser.addExclusive({"json", "csv"});
}

Report reportFrom(const ArgumentParser& parser) {
    Report report{parser.isSet(options::kJson), parser.value(options::kJsonOut),
                  parser.declares("csv") && parser.isSet("csv")};
    if (report.jsonPath == "-") {  // stdout, as in histoscope-bench
        report.jsonOnStdout = true;
        report.jsonPath.clear();
    }
    if (report.jsonOnStdout && report.csv)
        throw parser.usageError("--json-out - and --csv exclude each other");
    if (!report.jsonPath.isEmpty()) io::checkReplaceable(report.jsonPath);
    return report;
}

void Report::publish(const std::function<void(JsonWriter&)>& json, const std::function<QString()>& text,
                     const std::function<QString()>& csvText) const {
    if (jsonOnStdout)
        printJson(json);
    else if (csv)
        printText(csvText());
    else
        printText(text());
    if (!jsonPath.isEmpty()) io::writeFileAtomically(jsonPath, QByteArray::fromStdString(jsonDocument(json)));
}

void addStageOptions(ArgumentParser& parser, const stages::StageKind& kind, const QString& strategyOption) {
    if (hasOwnFlag(kind) && kind.producesImage()) parser.addFlag(text(kind.name()), text(kind.help()));
    for (const auto& parameter : kind.parameters()) {
        if (parameter.type == stages::Parameter::Type::Flag)
            parser.addFlag(text(parameter.name), text(parameter.help));
        else
            parser.addOption(text(parameter.name), text(parameter.placeholder), text(parameter.help),
                             text(parameter.defaultText));
    }
    if (kind.strategies().empty() || strategyOption.isEmpty()) return;
    QStringList names;
    for (const auto* strategy : kind.strategies()) names += text(strategy->name());
    parser.addOption(strategyOption, "NAME",
                     text(kind.label()) + " strategy, in any case: " + names.join(", ") + ".",
                     text(kind.defaultStrategy()));
}

bool asksFor(const ArgumentParser& parser, const stages::StageKind& kind) {
    if (hasOwnFlag(kind)) return parser.isSet(text(kind.name()));
    // Any of its options, not only the trigger: --sampling without --angle is then the kind's own error
    // instead of an option silently ignored.
    return std::any_of(
        kind.parameters().begin(), kind.parameters().end(),
        [&](const stages::Parameter& parameter) { return parser.isSet(text(parameter.name)); });
}

std::shared_ptr<const stages::Stage> stageFrom(const ArgumentParser& parser, const stages::StageKind& kind,
                                               const QString& strategyOption) {
    stages::Values values;
    for (const auto& parameter : kind.parameters()) {
        const QString name = text(parameter.name);
        if (!parser.isSet(name)) continue;
        // Text may name a file: its bytes as given, whatever the locale (io::nativePath).
        std::string value;
        if (parameter.repeated)
            value = parser.values(name).join('\n').toStdString();
        else if (parameter.type == stages::Parameter::Type::Text)
            value = io::nativePath(parser.value(name)).native();
        else if (parameter.type != stages::Parameter::Type::Flag)
            value = parser.value(name).toStdString();
        values.emplace(parameter.name, std::move(value));
    }
    const std::string strategy = kind.strategies().empty() || strategyOption.isEmpty()
                                     ? std::string()
                                     : parser.value(strategyOption).toStdString();
    return parser.withCommand([&] { return kind.configure(values, strategy, readStageFile); });
}

}  // namespace hs::cli
