// histoscope-cli pipeline IMAGE --out OUT [stage options, in the order the stages run] [--json], and the
// parts rotate and convolve share with it.
#include "cli/commands/pipeline_command.hpp"

#include <algorithm>

#include "cli/commands/record_option.hpp"

#include "engine/image/pixel_source.hpp"
#include "engine/lab/edited_strategy.hpp"
#include "engine/ops/pipeline/pipeline.hpp"
#include "engine/runtime/device_properties.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"
#include "engine/stages/builtin.hpp"
#include "io/export.hpp"
#include "io/image_io.hpp"
#include "session/session.hpp"

namespace hs::cli::transform {

namespace {

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
    if (const auto& check = report.referenceCheck) {
        json.key("reference_check").beginObject().field("matches", check->matches());
        json.field("max_difference", check->maxDifference).field("text", check->describe());
        if (check->firstPixel)
            json.key("first_pixel")
                .beginObject()
                .field("x", check->firstPixel->x)
                .field("y", check->firstPixel->y)
                .field("channel", std::string(1, "rgba"[check->firstPixel->channel]))
                .field("expected", check->firstPixel->expected)
                .field("got", check->firstPixel->got)
                .endObject();
        if (check->firstBin)
            json.key("first_bin")
                .beginObject()
                .field("channel", histogram::channelName(check->firstBin->channel))
                .field("bin", check->firstBin->bin)
                .field("expected", check->firstBin->expected)
                .field("got", check->firstBin->got)
                .endObject();
        json.endObject();
    }
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
        if (report.referenceCheck) lines += "check     " + text(report.referenceCheck->describe()) + "\n";
    }
    lines += "timings\n" + timingLines(result.timings(), 36);
    lines += QString("wrote     %1 (%2x%3)\n").arg(out).arg(result.image.width()).arg(result.image.height());
    return lines;
}

}  // namespace

void addImageInOut(ArgumentParser& parser) {
    addImageInput(parser);
    addImageOutput(parser);
    addDeviceOption(parser);
}

void addStagesReport(ArgumentParser& parser) {
    addReportOptions(parser, "stages, device, timings");
    addRecordOption(parser);
}

int runStages(const ArgumentParser& parser, const stages::StageList& stages) {
    const QString out = imageOutputFrom(parser);
    const Report wanted = reportFrom(parser);
    const QString path = imageFrom(parser);
    const auto recordIn = recordFrom(parser);
    ImageRGBA8 image = io::loadImage(path);
    const archive::ImageIdentity identity =
        recordIn ? archive::identify(path.toStdString(), image) : archive::ImageIdentity{};
    session::Session session;
    DeviceContext& device = session.device(deviceFrom(parser));
    // Big images: the host holds as few copies as it can. The decoded pixels move into the input, which gives
    // them up once uploaded, and the run consumes it: it goes once the first stage has read it (`image` keeps
    // the size for the report). The output is encoded from its device buffer, mapped (a CPU device's memory
    // itself), not from a copy read back.
    session::RunReport ran =
        session.run(device, PixelSource(std::move(image.pixels), image.width, image.height), stages);
    pipeline::Result& result = ran.result;
    archive::OutputImage output;
    result.withPixels([&](const std::uint8_t* pixels) {
        io::saveImage(out, pixels, result.image.width(), result.image.height());
        if (recordIn) output = archive::outputOf(result.image.width(), result.image.height(), pixels);
    });

    const auto writeJson = [&](JsonWriter& json) {
        json.beginObject();
        writeStagesRunMembers(json, {path, image.width, image.height, out, device.info(), result, stages});
        json.endObject();
    };
    wanted.publish(writeJson, [&] { return summary(path, image, out, device.info(), result); });
    if (recordIn)
        archive::recordOrWarn(*recordIn, archive::recordOf("histoscope-cli " + parser.command().toStdString(),
                                                           identity, stages, ran, std::move(output)));
    return 0;
}

void writeStagesRunMembers(JsonWriter& json, const StagesRun& run) {
    const pipeline::Result& result = run.result;
    json.key("image");
    writeImageJson(json, run.path, run.width, run.height);
    json.key("output");
    if (run.out.isEmpty())
        json.beginObject()
            .field("width", result.image.width())
            .field("height", result.image.height())
            .endObject();
    else
        writeImageJson(json, run.out, result.image.width(), result.image.height());
    json.key("device");
    writeDeviceJson(json, run.device);
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
        io::HistogramContext context = io::histogramContext(
            run.path, run.width, run.height, &run.device, counted->strategy->name(),
            counted->configured->requestedStrategy()->name(), run.stages, ignoreTransparent);
        if (const auto params = hs::stages::histogramParamsOf(*counted->configured))
            context.roi = params->roi;
        io::writeHistogramContextJson(json, context, result.histogram->bins);
    }
}

Command imageStageCommand(std::string_view kindName, QString summary, QString description) {
    // Commands register during static initialisation, maybe before the stage kinds: the kind is looked up
    // when the command is declared.
    const auto kind = [name = std::string(kindName)]() -> const stages::StageKind& {
        return stages::findKind(name);
    };
    return {.name = text(kindName),
            .summary = std::move(summary),
            .description = std::move(description),
            .declare =
                [kind](ArgumentParser& parser, const QStringList&) {
                    addImageInOut(parser);
                    addStageOptions(parser, kind(), "strategy");
                    parser.require(text(kind().trigger()));
                    addStagesReport(parser);
                },
            .run =
                [kind](const ArgumentParser& parser) {
                    return runStages(parser, {stageFrom(parser, kind(), "strategy")});
                }};
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

const QString kStrategySource = "strategy-source";

QString strategyOptionOf(const stages::StageKind& kind) {
    return text(kind.name()) + "-strategy";
}

}  // namespace

void addPipelineStageOptions(ArgumentParser& parser) {
    for (const auto* kind : stages::kinds())
        if (kind->producesImage()) addStageOptions(parser, *kind, strategyOptionOf(*kind));
    const stages::StageKind& measurement = stages::findKind("histogram");
    addStageOptions(parser, measurement, strategyOptionOf(measurement));
    parser.addOption(
        kStrategySource, "STRATEGY=FILE.cl",
        "Builds the named strategy's kernels from FILE.cl, an edit of its kernels/ source with the "
        "same kernel names and arguments (Edit a copy in the app's Kernel tab), and checks its "
        "result against the stage's CPU reference: the largest difference and the first differing "
        "pixel or histogram bin (docs/kernel-lab.md). Repeatable, one per stage.");
}

// The image kinds the command line asks for, in the order their options are written, then the measurement.
stages::StageList pipelineStagesFrom(const ArgumentParser& parser) {
    std::vector<const stages::StageKind*> imageKinds;
    for (const auto* kind : stages::kinds())
        if (kind->producesImage() && asksFor(parser, *kind)) imageKinds.push_back(kind);
    std::stable_sort(imageKinds.begin(), imageKinds.end(), [&](const auto* a, const auto* b) {
        return positionOf(parser.arguments(), *a) < positionOf(parser.arguments(), *b);
    });
    const stages::StageKind& measurement = stages::findKind("histogram");
    stages::StageList list;
    for (const auto* kind : imageKinds) list.push_back(stageFrom(parser, *kind, strategyOptionOf(*kind)));
    list.push_back(stageFrom(parser, measurement, strategyOptionOf(measurement)));
    for (const QString& given : parser.values(kStrategySource)) {
        const qsizetype equals = given.indexOf('=');
        if (equals <= 0 || equals == given.size() - 1)
            throw UsageError("--" + kStrategySource.toStdString() + ": '" + given.toStdString() +
                             "' is not STRATEGY=FILE.cl");
        const std::string strategy = given.left(equals).toStdString();
        const std::string file = io::nativePath(given.mid(equals + 1)).native();
        const auto edited = std::find_if(list.begin(), list.end(), [&](const auto& stage) {
            const StrategyInfo* requested = stage->requestedStrategy();
            return requested && sameNameIgnoringCase(requested->name(), strategy);
        });
        if (edited == list.end()) {
            std::string how = "no stage kind has a strategy so called";
            // The kinds this command offers: the image kinds and the histogram.
            for (const auto* kind : stages::kinds()) {
                if (!kind->producesImage() && kind->name() != "histogram") continue;
                for (const StrategyInfo* known : kind->strategies())
                    if (sameNameIgnoringCase(known->name(), strategy))
                        how = "choose it with --" + strategyOptionOf(*kind).toStdString() + " " + strategy;
            }
            throw UsageError("--" + kStrategySource.toStdString() + " " + strategy +
                             ": no stage of this run uses that strategy (" + how + ")");
        }
        // A kernel's source is text a person writes, far below a mebibyte.
        std::string source = readStageFile(file, std::uint64_t{1} << 20, "strategy source");
        *edited = parser.withCommand([&] { return lab::editedStrategy(*edited, file, std::move(source)); });
    }
    return list;
}

namespace {

void declare(ArgumentParser& parser, const QStringList&) {
    addImageInOut(parser);
    addPipelineStageOptions(parser);
    addStagesReport(parser);
}

int run(const ArgumentParser& parser) {
    return runStages(parser, pipelineStagesFrom(parser));
}

[[maybe_unused]] const bool registered = registerCommand(
    {"pipeline", "rotate, convolve, equalize and count an image on the device (stages in the order given)",
     "Runs image stages on an OpenCL device in the order their options are written, then "
     "counts the histogram of the result, the pixels staying on the device between stages. A "
     "stage runs when its option is given: --angle (rotate), --filter (convolve), --equalize.",
     declare, run});

}  // namespace

}  // namespace hs::cli::transform
