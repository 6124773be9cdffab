// histoscope-cli scope IMAGE [--kind waveform|parade|vectorscope] [--channel luma|r|g|b] [--columns N]
//                       [--roi X,Y,W,H] [--ignore-transparent] [--device SEL] [--strategy NAME]
//                       [--json|--json-out PATH] [--npy OUT.npy]

#include "cli/commands/option_groups.hpp"
#include "engine/image/pixel_source.hpp"
#include "engine/runtime/device_properties.hpp"
#include "engine/runtime/runtime.hpp"
#include "engine/stages/builtin.hpp"
#include "io/export.hpp"
#include "io/image_io.hpp"
#include "io/npy.hpp"
#include "session/session.hpp"

namespace hs::cli {

namespace {

const stages::StageKind& kind() {
    return stages::findKind("scope");
}

QString shapeText(const scope::Counts& counts) {
    QStringList dimensions;
    for (const auto dimension : counts.shape()) dimensions << QString::number(dimension);
    return "(" + dimensions.join(", ") + ")";
}

void declare(ArgumentParser& parser, const QStringList&) {
    addImageInput(parser);
    addDeviceOption(parser);
    addStageOptions(parser, kind(), text(options::kStrategy.name));
    addReportOptions(parser, "the counts as nested arrays, shape, device, timings, context");
    parser.addOption(
        "npy", "OUT.npy",
        "Write the counts as a NumPy uint32 array: shape (256, W') for a waveform, (3, 256, W') for a "
        "parade, (256, 256) for a vectorscope (rows Cr, columns Cb).");
}

int run(const ArgumentParser& parser) {
    const auto stage = stageFrom(parser, kind(), text(options::kStrategy.name));
    const Report wanted = reportFrom(parser);
    const QString npy = parser.value("npy");
    if (!npy.isEmpty()) io::checkReplaceable(npy);  // before any work
    const QString path = imageFrom(parser);

    ImageRGBA8 image = io::loadImage(path);
    session::Session session;
    DeviceContext& device = session.device(deviceFrom(parser));
    // The decoded pixels move into the input, which the run consumes: a big image is held once (`image`
    // keeps the size for the report).
    session::RunReport ran = parser.withCommand([&] {
        return session.run(device, PixelSource(std::move(image.pixels), image.width, image.height), {stage});
    });
    const pipeline::Result& result = ran.result;
    const scope::Counts& counts = *result.scope;
    const pipeline::StageReport& counted = *result.stage(kind().name());
    const auto& params = *stages::scopeParamsOf(*stage);
    const Region region = scope::countedRegion(params, image.width, image.height);
    if (!npy.isEmpty()) io::writeUint32Array(npy, counts.shape(), counts.counts);

    io::HistogramContext context =
        io::histogramContext(path, image.width, image.height, &device.info(), counted.strategyName(),
                             stage->requestedStrategy()->name(), {}, params.ignoreTransparent);
    context.roi = params.roi;
    const auto writeJson = [&](JsonWriter& json) {
        json.beginObject().key("image");
        writeImageJson(json, path, image.width, image.height);
        json.key("device");
        writeDeviceJson(json, device.info());
        json.field("strategy", counted.strategyName())
            .field("requested_strategy", stage->requestedStrategy()->name());
        if (!counted.note.empty()) json.field("note", counted.note);
        json.field("kind", scope::kindName(counts.kind));
        if (counts.kind == scope::Kind::Waveform) json.field("channel", scope::channelName(counts.channel));
        json.field("columns", counts.columns).field("ignore_transparent", params.ignoreTransparent);
        json.key("region")
            .beginObject()
            .field("x", region.x)
            .field("y", region.y)
            .field("width", region.width)
            .field("height", region.height)
            .endObject();
        json.key("shape").beginArray();
        for (const auto dimension : counts.shape()) json.value(static_cast<std::uint64_t>(dimension));
        json.endArray();
        json.key("counts");
        io::writeScopeCountsJson(json, counts);
        json.key("timings");
        io::writeTimingsJson(json, result.timings());
        json.key("context");
        io::writeScopeContextJson(json, context);
        json.endObject();
    };
    const auto summary = [&] {
        QString lines = imageAndDeviceLines(path, image, device.info());
        lines += "scope     " + text(stage->summary()) + "\n";
        lines += "strategy  " + text(counted.strategyName()) + "\n";
        if (!counted.note.empty()) lines += "note      " + text(counted.note) + "\n";
        lines += QString("region    %1 (%2x%3 pixels)\n")
                     .arg(text(region.text()))
                     .arg(region.width)
                     .arg(region.height);
        lines += "counts    uint32, shape " + shapeText(counts) +
                 (npy.isEmpty() ? "" : ", written to " + npy) +
                 (npy.isEmpty() ? " (the counts: --json or --npy)" : "") + "\n";
        return lines + "timings\n" + timingLines(result.timings(), 36);
    };
    wanted.publish(writeJson, summary);
    return 0;
}

[[maybe_unused]] const bool registered = registerCommand(
    {"scope", "count an image's waveform, RGB parade or vectorscope on the device",
     "Counts a waveform (for each column bin, the histogram of a channel), the RGB parade (the r, g and b "
     "waveforms) or the vectorscope (Cr by Cb) of an image, or of a region of it, on an OpenCL device.",
     declare, run});

}  // namespace

}  // namespace hs::cli
