// histoscope-cli produce-consume IMAGE --filter SPEC --devices SEL,SEL [--mode auto|pipe|buffer] [--chunks N]
// [--convolve-strategy S] [--histogram-strategy S] [--bins N] [--ignore-transparent] [--json]
#include "ops/produce_consume/produce_consume.hpp"
#include "cli/commands/option_groups.hpp"
#include "io/export.hpp"
#include "io/files/filter_file.hpp"
#include "io/image_io.hpp"
#include "io/native_path.hpp"
#include "runtime/device_properties.hpp"
#include "runtime/runtime.hpp"
#include "session/session.hpp"
#include "stages/builtin.hpp"

namespace hs::cli {

namespace {

constexpr int kDefaultChunks = 4;

// The two selectors of --devices, producer first.
std::pair<std::string, std::string> devicePair(const ArgumentParser& parser) {
    const QStringList selectors = parser.value("devices").split(',');
    if (selectors.size() != 2 || selectors[0].trimmed().isEmpty() || selectors[1].trimmed().isEmpty())
        throw parser.usageError(
            "--devices takes two device selectors, producer then consumer (SEL,SEL), got '" +
            parser.value("devices") + "'");
    return {selectors[0].trimmed().toStdString(), selectors[1].trimmed().toStdString()};
}

// Every record of every device, each with the device that ran it and its role; run_*_ns count from the
// first command of either device, on the host clock both devices' clocks are mapped onto.
void writeTimingsJson(JsonWriter& json, const std::vector<produce_consume::DeviceTimings>& devices) {
    std::vector<Timing> all;
    for (const auto& device : devices) all.insert(all.end(), device.timings.begin(), device.timings.end());
    const std::uint64_t origin = runOriginNs(all);
    json.beginArray();
    for (const auto& device : devices) {
        for (const auto& timing : device.timings) {
            json.beginObject();
            io::writeTimingMembers(json, timing, origin);
            json.field("device", device.selector).field("role", device.role);
            json.endObject();
        }
    }
    json.endArray();
}

void writeDeviceJson(JsonWriter& json, const DeviceInfo& device, std::string_view role) {
    json.beginObject();
    writeDeviceMembers(json, device);
    json.field("role", role);
    json.endObject();
}

void writeJson(JsonWriter& json, const QString& path, const ImageRGBA8& image, DeviceContext& producer,
               DeviceContext& consumer, const produce_consume::Params& params,
               const produce_consume::Result& result) {
    json.beginObject();
    json.key("image");
    writeImageJson(json, path, image.width, image.height);
    json.key("devices").beginArray();
    writeDeviceJson(json, producer.info(), "producer");
    writeDeviceJson(json, consumer.info(), "consumer");
    json.endArray();
    json.field("mode", produce_consume::modeName(result.mode));
    json.field("requested_mode", produce_consume::modeName(params.mode));
    json.key("filter").beginObject();
    json.field("label", params.filter.label).field("width", params.filter.width);
    json.field("height", params.filter.height).field("integer", params.filter.isInteger());
    json.endObject();
    json.field("convolution_strategy", result.convolutionStrategy);
    json.field("requested_convolution_strategy", params.convolution->name());
    json.field("histogram_strategy", result.histogramStrategy);
    json.field("requested_histogram_strategy", params.histogramStrategy->name());
    json.field("bins", result.histogram.bins);
    json.field("ignore_transparent", params.histogram.ignoreTransparent);
    json.key("chunks").beginArray();
    for (const auto& rows : result.chunks) {
        json.beginObject();
        json.field("first_row", rows.first).field("rows", rows.count);
        json.field("input_first_row", rows.inputFirst).field("input_rows", rows.inputCount);
        json.endObject();
    }
    json.endArray();
    json.key("histograms");
    io::writeHistogramJson(json, result.histogram);
    json.key("timings");
    writeTimingsJson(json, result.devices);
    json.field("span_ns", result.spanNs).field("overlap_ns", result.overlapNs);
    json.key("sequential").beginObject();
    json.field("span_ns", result.baseline.spanNs);
    json.key("timings");
    writeTimingsJson(json, result.baseline.devices);
    json.endObject();
    json.field("speed_up", result.speedUp());
    json.key("notes").beginArray();
    for (const auto& note : result.notes) json.value(note);
    json.endArray();
    json.endObject();
}

QString summary(const QString& path, const ImageRGBA8& image, DeviceContext& producer,
                DeviceContext& consumer, const produce_consume::Params& params,
                const produce_consume::Result& result) {
    QString lines = imageAndDeviceLines(path, image, producer.info());
    lines += QString("consumer  %1 (%2)\n").arg(text(consumer.info().name), text(consumer.info().selector()));
    lines += QString("mode      %1, %2 chunks of rows\n")
                 .arg(text(produce_consume::modeName(result.mode)))
                 .arg(result.chunks.size());
    lines += QString("convolve  %1 %2\n")
                 .arg(text(result.convolutionStrategy), -15)
                 .arg(text(params.filter.label));
    lines += QString("histogram %1 %2 bins (the counts: --json)\n")
                 .arg(text(result.histogramStrategy), -15)
                 .arg(result.histogram.bins);
    for (const auto& note : result.notes) lines += "note      " + text(note) + "\n";
    lines += QString("overlap   %1 of %2 (both devices busy at once)\n")
                 .arg(milliseconds(result.overlapNs), milliseconds(result.spanNs));
    lines += QString("speed-up  %1x over the stages one after the other (%2)\n")
                 .arg(result.speedUp(), 0, 'f', 2)
                 .arg(milliseconds(result.baseline.spanNs));
    for (const auto& device : result.devices)
        lines += QString("timings   %1 %2 (%3)\n")
                     .arg(text(device.role), text(device.device), text(device.selector)) +
                 timingLines(device.timings, 40);
    return lines;
}

const stages::StageKind& convolveKind() {
    return stages::findKind("convolve");
}

const stages::StageKind& histogramKind() {
    return stages::findKind("histogram");
}

void declare(ArgumentParser& parser, const QStringList&) {
    addImageInput(parser);
    parser.addOption("devices", "SEL,SEL",
                     "Producer and consumer devices (P:D or part of a name each), of one platform; the same "
                     "device twice runs both stages on one queue.");
    parser.require("devices");
    parser.addOption("mode", "MODE",
                     "auto, pipe (OpenCL 2.0 pipes; exits 4 where a device has none) or buffer (row chunks "
                     "handed over in two buffers); auto takes pipes where both devices have them.",
                     "auto");
    parser.addOption("chunks", "N", "Chunks of rows, 1 to the image's height.",
                     QString::number(kDefaultChunks));
    addStageOptions(parser, convolveKind(), "convolve-strategy");
    parser.require(text(convolveKind().trigger()));
    addStageOptions(parser, histogramKind(), "histogram-strategy");
    addReportOptions(parser, "histograms, timings with their devices, mode, overlap_ns, speed_up");
}

int run(const ArgumentParser& parser) {
    // Both stages read by their kinds, as in every command that convolves or counts; the session runs them in
    // its two-device mode.
    const auto convolution = stageFrom(parser, convolveKind(), "convolve-strategy");
    const auto counting = stageFrom(parser, histogramKind(), "histogram-strategy");
    const auto [producerSelector, consumerSelector] = devicePair(parser);
    session::TwoDevices twoDevices{consumerSelector,
                                   produce_consume::parseMode(parser.value("mode").toStdString()),
                                   // The image's height bounds the chunks; anything beyond int is refused
                                   // here, the rest by the engine.
                                   parser.integer("chunks", 1, std::numeric_limits<int>::max())};
    // What was asked for, as the report states it.
    produce_consume::Params params;
    params.filter = *stages::filterOf(*convolution);
    params.convolution = &convolve::findStrategy(convolution->requestedStrategy()->name());
    params.histogram = *stages::histogramParamsOf(*counting);
    params.histogramStrategy = &histogram::findStrategy(counting->requestedStrategy()->name());
    params.mode = twoDevices.mode;
    params.chunks = twoDevices.chunks;

    const Report report = reportFrom(parser);
    const QString path = imageFrom(parser);
    session::RunSpec spec;
    spec.image = std::make_shared<const ImageRGBA8>(io::loadImage(path));
    spec.device = producerSelector;
    spec.stages = {convolution, counting};
    spec.twoDevices = std::move(twoDevices);
    session::Session session;
    const session::RunReport ran = session.run(spec);
    DeviceContext& producer = session.device(producerSelector);
    DeviceContext& consumer = session.device(consumerSelector);
    const produce_consume::Result& result = *ran.twoDevices;
    const ImageRGBA8& image = *spec.image;
    report.publish(
        [&](JsonWriter& json) { writeJson(json, path, image, producer, consumer, params, result); },
        [&] { return summary(path, image, producer, consumer, params, result); });
    return 0;
}

[[maybe_unused]] const bool registered = registerCommand(
    {"produce-consume", "convolve on one device, count on another, overlapped chunk by chunk",
     "Convolves an image on one device and counts its histogram on another, chunk by chunk, so "
     "that producing the next chunk overlaps counting the last; reports the overlap and the "
     "speed-up over the two stages one after the other.",
     declare, run});

}  // namespace

}  // namespace hs::cli
