// histoscope-cli pipeline IMAGE [--angle DEG [--sampling MODE] [--fit-canvas]] [--filter SPEC]
// [--histogram-strategy S] --out OUT [--json], and the parts rotate and convolve share with it.
#include "commands/pipeline_command.hpp"

#include "image/pixel_source.hpp"
#include "io/export.hpp"
#include "io/files/filter_file.hpp"
#include "io/image_io.hpp"
#include "runtime/device_properties.hpp"
#include "runtime/error.hpp"
#include "runtime/runtime.hpp"

namespace hs::cli::transform {

namespace {

// "a, b, c" from a strategy registry.
template <typename Strategies>
QString namesOf(const Strategies& strategies) {
    QStringList names;
    for (const auto* strategy : strategies) names += text(strategy->name());
    return names.join(", ");
}

void writeStageJson(JsonWriter& json, const pipeline::StageReport& report, const pipeline::Spec& spec) {
    json.beginObject().field("stage", pipeline::stageKindName(report.stage));
    if (report.strategy) json.field("strategy", report.strategy->name());
    if (!report.note.empty()) json.field("note", report.note);
    switch (report.stage) {
        case pipeline::StageKind::Rotate:
            json.field("requested_strategy", spec.rotation->strategy->name());
            json.field("angle_degrees", spec.rotation->params.angleDegrees);
            json.field("sampling", rotate::filterModeName(spec.rotation->params.filterMode));
            json.field("fit_canvas", spec.rotation->params.fitCanvas);
            break;
        case pipeline::StageKind::Convolve: {
            const auto& filter = spec.convolution->filter;
            json.field("requested_strategy", spec.convolution->strategy->name());
            json.key("filter").beginObject().field("label", filter.label).field("width", filter.width);
            json.field("height", filter.height).field("integer", filter.isInteger()).endObject();
            break;
        }
        case pipeline::StageKind::Histogram:
            json.field("requested_strategy", spec.histogram->strategy->name());
            json.field("bins", spec.histogram->params.bins);
            json.field("ignore_transparent", spec.histogram->params.ignoreTransparent);
            break;
        case pipeline::StageKind::Upload:
        case pipeline::StageKind::Readback:
        case pipeline::StageKind::Display:
            break;
    }
    json.endObject();
}

QString summary(const QString& path, const ImageRGBA8& image, const QString& out, const DeviceInfo& device,
                pipeline::Result& result, const pipeline::Spec& spec) {
    QString lines = imageAndDeviceLines(path, image, device);
    for (const auto& report : result.stages) {
        if (!report.strategy) continue;  // transfers
        QString what;
        switch (report.strategy->operation()) {
            case OperationKind::Rotate:
                what = QString("%1 degrees, %2%3")
                           .arg(spec.rotation->params.angleDegrees)
                           .arg(text(rotate::filterModeName(spec.rotation->params.filterMode)))
                           .arg(spec.rotation->params.fitCanvas ? ", fit canvas" : "");
                break;
            case OperationKind::Convolve:
                what = text(spec.convolution->filter.label);
                break;
            case OperationKind::Histogram:
                what = QString("%1 bins%2 (the counts: --json)")
                           .arg(spec.histogram->params.bins)
                           .arg(spec.histogram->params.ignoreTransparent ? ", alpha 0 ignored" : "");
                break;
            case OperationKind::Bow:  // not a stage of the pipeline
                break;
        }
        lines += QString("%1 %2 %3\n")
                     .arg(text(pipeline::stageKindName(report.stage)), -9)
                     .arg(text(report.strategy->name()), -15)
                     .arg(what);
        if (!report.note.empty()) lines += "note      " + text(report.note) + "\n";
    }
    lines += "timings\n" + timingLines(result.timings(), 36);
    lines += QString("wrote     %1 (%2x%3)\n").arg(out).arg(result.image.width()).arg(result.image.height());
    return lines;
}

}  // namespace

void addImageInOut(ArgumentParser& parser) {
    parser.addPositional("IMAGE", "PNG, JPEG, BMP, GIF, TIFF or WebP file.");
    parser.addOption("out", "OUT",
                     "Where to write the processed image (png, jpg, bmp, tif, webp; required).");
    parser.addDeviceOption();
    parser.addFlag("json", "Print one JSON object (stages, device, timings).");
}

void addRotationOptions(ArgumentParser& parser, const QString& strategyOption) {
    parser.addOption(options::kAngle);
    parser.addOption(options::kSampling);
    parser.addFlag(text(options::kFitCanvas.name), text(options::kFitCanvas.help));
    parser.addOption(strategyOption, "S", "Rotation strategy: " + namesOf(rotate::strategies()) + ".",
                     "image-sampler");
}

void addConvolutionOptions(ArgumentParser& parser, const QString& strategyOption) {
    parser.addOption(options::filterOption());
    parser.addOption(strategyOption, "S", "Convolution strategy: " + namesOf(convolve::strategies()) + ".",
                     "local-tiled");
}

std::optional<pipeline::RotateStage> rotationFrom(const ArgumentParser& parser,
                                                  const QString& strategyOption) {
    const auto params = parser.rotation();
    if (!params) return std::nullopt;
    return pipeline::RotateStage{*params, &rotate::findStrategy(parser.value(strategyOption).toStdString())};
}

pipeline::ConvolveStage convolutionFrom(const ArgumentParser& parser, const QString& strategyOption) {
    const std::string spec = io::nativePath(parser.required("filter", "SPEC")).native();
    const auto& strategy = convolve::findStrategy(parser.value(strategyOption).toStdString());
    return {io::filterFromSpec(spec), &strategy};
}

int runSpec(const ArgumentParser& parser, const pipeline::Spec& spec) {
    const QString out = parser.required("out", "OUT");
    io::checkImageOutput(out);  // before any work, so none is wasted on an output that cannot be written
    const QString path = parser.positional(0);
    ImageRGBA8 image = io::loadImage(path);
    Runtime runtime;
    DeviceContext& device = runtime.open(parser.value(options::kDevice).toStdString());
    // Big images: the host holds as few copies as it can. The decoded pixels move into the input, which gives
    // them up once uploaded, and the run consumes it: it goes once the first stage has read it (`image` keeps
    // the size for the report). The output is encoded from its device buffer, mapped (a CPU device's memory
    // itself), not from a copy read back.
    pipeline::Result result =
        pipeline::runPipeline(device, PixelSource(std::move(image.pixels), image.width, image.height), spec);
    result.withPixels([&](const std::uint8_t* pixels) {
        io::saveImage(out, pixels, result.image.width(), result.image.height());
    });

    if (!parser.isSet("json")) {
        printText(summary(path, image, out, device.info(), result, spec));
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
        for (const auto& report : result.stages) writeStageJson(json, report, spec);
        json.endArray().key("timings");
        io::writeTimingsJson(json, result.timings());
        if (result.histogram) {
            json.field("bins", result.histogram->bins);
            json.field("ignore_transparent", spec.histogram->params.ignoreTransparent);
            json.key("histograms");
            io::writeHistogramJson(json, *result.histogram);
            const std::string ran(result.stage(pipeline::StageKind::Histogram)->strategy->name());
            json.key("context");
            io::writeHistogramContextJson(
                json,
                io::histogramContext(path, image.width, image.height, &device.info(), ran,
                                     spec.histogram->strategy->name(), spec.rotation, spec.convolution,
                                     spec.histogram->params.ignoreTransparent),
                result.histogram->bins);
        }
        json.endObject();
    });
    return 0;
}

namespace {

int runPipelineCommand(const QStringList& arguments) {
    ArgumentParser parser(
        "pipeline",
        "Runs image -> rotate -> convolve -> histogram on an OpenCL device, the pixels staying on "
        "the device between stages; rotate and convolve run when their options are given.");
    addImageInOut(parser);
    addRotationOptions(parser, "rotate-strategy");
    addConvolutionOptions(parser, "convolve-strategy");
    parser.addOption("histogram-strategy", "S", text(options::kStrategy.help),
                     text(options::kStrategy.defaultValue));
    parser.addOption(options::kBins);
    parser.addFlag(text(options::kIgnoreTransparent.name), text(options::kIgnoreTransparent.help));
    if (!parser.parse(arguments)) return 0;
    pipeline::Spec spec;
    spec.rotation = rotationFrom(parser, "rotate-strategy");
    if (parser.isSet(options::filterOption()))
        spec.convolution = convolutionFrom(parser, "convolve-strategy");
    spec.histogram =
        pipeline::HistogramStage{{parser.bins(), parser.isSet(options::kIgnoreTransparent)},
                                 &histogram::findStrategy(parser.value("histogram-strategy").toStdString())};
    return runSpec(parser, spec);
}

[[maybe_unused]] const bool registered = registerCommand(
    {"pipeline",
     "IMAGE [--angle DEG [--sampling MODE] [--fit-canvas]] [--filter SPEC] [--histogram-strategy S] [--bins "
     "N] "
     "[--ignore-transparent] --out OUT [--json]",
     "rotate, convolve and count an image on the device, writing the processed image", runPipelineCommand});

}  // namespace

}  // namespace hs::cli::transform
