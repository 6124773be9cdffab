// histoscope-cli pipeline IMAGE [stage options, in the order the stages run] --out OUT [--json], and the
// parts rotate and convolve share with it.
#include "commands/pipeline_command.hpp"

#include <algorithm>

#include "image/pixel_source.hpp"
#include "io/export.hpp"
#include "io/files/files.hpp"
#include "io/image_io.hpp"
#include "io/native_path.hpp"
#include "ops/pipeline/pipeline.hpp"
#include "runtime/device_properties.hpp"
#include "runtime/error.hpp"
#include "runtime/runtime.hpp"
#include "session/session.hpp"

namespace hs::cli::transform {

namespace {

// What the stages read from files (a filter file), through io's bounded reader.
std::string readStageFile(const std::string& path, std::uint64_t maxBytes, std::string_view what) {
    return io::readWholeFile(path, static_cast<std::size_t>(maxBytes), what);
}

void writeStageJson(JsonWriter& json, const pipeline::StageReport& report) {
    json.beginObject().field("stage", report.stage);
    if (report.strategy) json.field("strategy", report.strategy->name());
    if (!report.note.empty()) json.field("note", report.note);
    if (report.configured) {
        if (const auto* requested = report.configured->requestedStrategy())
            json.field("requested_strategy", requested->name());
        report.configured->writeJson(json);
    }
    json.key("builds").beginArray();
    for (const auto& build : report.builds)
        json.beginObject().field("source", build.source).field("options", build.options).endObject();
    json.endArray();
    json.endObject();
}

QString summary(const QString& path, const ImageRGBA8& image, const QString& out, const DeviceInfo& device,
                pipeline::Result& result) {
    QString lines = imageAndDeviceLines(path, image, device);
    for (const auto& report : result.stages) {
        if (!report.configured) continue;  // transfers
        QString what = text(report.configured->summary());
        if (!report.configured->kind().producesImage()) what += " (the counts: --json)";
        lines += QString("%1 %2 %3\n")
                     .arg(text(report.stage), -9)
                     .arg(report.strategy ? text(report.strategy->name()) : QString("-"), -15)
                     .arg(what);
        if (!report.note.empty()) lines += "note      " + text(report.note) + "\n";
    }
    lines += "timings\n" + timingLines(result.timings(), 36);
    lines += QString("wrote     %1 (%2x%3)\n").arg(out).arg(result.image.width()).arg(result.image.height());
    return lines;
}

// The flag that adds a kind whose parameters do not: --equalize.
bool hasOwnFlag(const stages::StageKind& kind) {
    return kind.trigger().empty();
}

}  // namespace

void addImageInOut(ArgumentParser& parser) {
    parser.addPositional("IMAGE", "PNG, JPEG, BMP, GIF, TIFF or WebP file.");
    parser.addOption("out", "OUT",
                     "Where to write the processed image (png, jpg, bmp, tif, webp; required).");
    parser.addDeviceOption();
    parser.addFlag("json", "Print one JSON object (stages, device, timings).");
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
    if (kind.strategies().empty()) return;
    QStringList names;
    for (const auto* strategy : kind.strategies()) names += text(strategy->name());
    parser.addOption(strategyOption, "S", text(kind.label()) + " strategy: " + names.join(", ") + ".",
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
        if (parameter.type == stages::Parameter::Type::Text)
            value = io::nativePath(parser.value(name)).native();
        else if (parameter.type != stages::Parameter::Type::Flag)
            value = parser.value(name).toStdString();
        values.emplace(parameter.name, std::move(value));
    }
    const std::string strategy =
        kind.strategies().empty() ? std::string() : parser.value(strategyOption).toStdString();
    try {
        return kind.configure(values, strategy, readStageFile);
    } catch (const UsageError& error) {
        throw parser.usageError(QString::fromUtf8(error.what()));
    }
}

int runStages(const ArgumentParser& parser, const stages::StageList& stages) {
    const QString out = parser.required("out", "OUT");
    io::checkImageOutput(out);  // before any work, so none is wasted on an output that cannot be written
    const QString path = parser.positional(0);
    ImageRGBA8 image = io::loadImage(path);
    session::Session session;
    DeviceContext& device = session.device(parser.value(options::kDevice).toStdString());
    // Big images: the host holds as few copies as it can. The decoded pixels move into the input, which gives
    // them up once uploaded, and the run consumes it: it goes once the first stage has read it (`image` keeps
    // the size for the report). The output is encoded from its device buffer, mapped (a CPU device's memory
    // itself), not from a copy read back.
    session::RunReport ran =
        session.run(device, PixelSource(std::move(image.pixels), image.width, image.height), stages);
    pipeline::Result& result = ran.result;
    result.withPixels([&](const std::uint8_t* pixels) {
        io::saveImage(out, pixels, result.image.width(), result.image.height());
    });

    if (!parser.isSet("json")) {
        printText(summary(path, image, out, device.info(), result));
        return 0;
    }
    printJson([&](JsonWriter& json) {
        json.beginObject().key("image");
        writeImageJson(json, path, image.width, image.height);
        json.key("output");
        writeImageJson(json, out, result.image.width(), result.image.height());
        json.key("device");
        writeDeviceJson(json, device.info());
        json.key("stages").beginArray();
        for (const auto& report : result.stages) writeStageJson(json, report);
        json.endArray().key("timings");
        io::writeTimingsJson(json, result.timings());
        const auto counted = std::find_if(result.stages.begin(), result.stages.end(), [](const auto& report) {
            return report.configured && !report.configured->kind().producesImage();
        });
        if (result.histogram && counted != result.stages.end()) {
            const bool ignoreTransparent =
                counted->configured->values().contains(options::kIgnoreTransparent.name);
            json.field("bins", result.histogram->bins);
            json.field("ignore_transparent", ignoreTransparent);
            json.key("histograms");
            io::writeHistogramJson(json, *result.histogram);
            json.key("context");
            io::writeHistogramContextJson(
                json,
                io::histogramContext(
                    path, image.width, image.height, &device.info(), counted->strategy->name(),
                    counted->configured->requestedStrategy()->name(), stages, ignoreTransparent),
                result.histogram->bins);
        }
        json.endObject();
    });
    return 0;
}

namespace {

// The position of `kind`'s trigger in `arguments` ("--angle 30", "--angle=30", "--equalize"): stages run in
// the order the command line names them.
qsizetype positionOf(const QStringList& arguments, const stages::StageKind& kind) {
    const QString option = "--" + text(kind.trigger().empty() ? kind.name() : kind.trigger());
    for (qsizetype i = 0; i < arguments.size(); ++i)
        if (arguments[i] == option || arguments[i].startsWith(option + "=")) return i;
    return arguments.size();
}

QString strategyOptionOf(const stages::StageKind& kind) {
    return text(kind.name()) + "-strategy";
}

int runPipelineCommand(const QStringList& arguments) {
    ArgumentParser parser(
        "pipeline",
        "Runs image stages on an OpenCL device in the order their options are written, then "
        "counts the histogram of the result, the pixels staying on the device between "
        "stages. A stage runs when its option is given: --angle (rotate), --filter "
        "(convolve), --equalize.");
    addImageInOut(parser);
    std::vector<const stages::StageKind*> imageKinds;
    const stages::StageKind* measurement = &stages::findKind("histogram");
    for (const auto* kind : stages::kinds())
        if (kind->producesImage()) imageKinds.push_back(kind);
    for (const auto* kind : imageKinds) addStageOptions(parser, *kind, strategyOptionOf(*kind));
    addStageOptions(parser, *measurement, strategyOptionOf(*measurement));
    if (!parser.parse(arguments)) return 0;

    std::erase_if(imageKinds, [&](const stages::StageKind* kind) { return !asksFor(parser, *kind); });
    std::stable_sort(imageKinds.begin(), imageKinds.end(), [&](const auto* a, const auto* b) {
        return positionOf(arguments, *a) < positionOf(arguments, *b);
    });
    stages::StageList list;
    for (const auto* kind : imageKinds) list.push_back(stageFrom(parser, *kind, strategyOptionOf(*kind)));
    list.push_back(stageFrom(parser, *measurement, strategyOptionOf(*measurement)));
    return runStages(parser, list);
}

[[maybe_unused]] const bool registered = registerCommand(
    {"pipeline",
     "IMAGE [--angle DEG [--sampling MODE] [--fit-canvas]] [--filter SPEC] [--equalize] "
     "[--histogram-strategy S] "
     "[--bins N] [--ignore-transparent] --out OUT [--json]",
     "rotate, convolve, equalize and count an image on the device (stages in the order given)",
     runPipelineCommand});

}  // namespace

}  // namespace hs::cli::transform
