// histoscope-cli produce-consume IMAGE --filter SPEC --devices SEL,SEL [--mode auto|pipe|buffer] [--chunks N]
// [--convolve-strategy S] [--histogram-strategy S] [--bins N] [--ignore-transparent] [--json]
#include <QJsonArray>

#include "commands/pipeline_command.hpp"
#include "io/export.hpp"
#include "io/image_io.hpp"
#include "ops/produce_consume/produce_consume.hpp"
#include "runtime/runtime.hpp"

namespace hs::cli {

namespace {

constexpr int kDefaultChunks = 4;

// The two selectors of --devices, producer first.
std::pair<std::string, std::string> devicePair(const ArgumentParser& parser) {
    const QStringList selectors = parser.required("devices", "SEL,SEL").split(',');
    if (selectors.size() != 2 || selectors[0].trimmed().isEmpty() || selectors[1].trimmed().isEmpty())
        throw parser.usageError(
            "--devices takes two device selectors, producer then consumer (SEL,SEL), got '" +
            parser.value("devices") + "'");
    return {selectors[0].trimmed().toStdString(), selectors[1].trimmed().toStdString()};
}

// Every record of every device, each with the device that ran it and its role.
QJsonArray timingsJson(const std::vector<produce_consume::DeviceTimings>& devices) {
    QJsonArray all;
    for (const auto& device : devices) {
        for (const auto& value : io::timingsJson(device.timings)) {
            QJsonObject record = value.toObject();
            record["device"] = text(device.selector);
            record["role"] = text(device.role);
            all.append(record);
        }
    }
    return all;
}

QJsonObject json(const QString& path, const ImageRGBA8& image, DeviceContext& producer,
                 DeviceContext& consumer, const produce_consume::Params& params,
                 const produce_consume::Result& result) {
    QJsonObject producerJson = io::deviceJson(producer.info());
    producerJson["role"] = "producer";
    QJsonObject consumerJson = io::deviceJson(consumer.info());
    consumerJson["role"] = "consumer";
    QJsonArray chunks;
    for (const auto& rows : result.chunks)
        chunks.append(QJsonObject{{"first_row", rows.first},
                                  {"rows", rows.count},
                                  {"input_first_row", rows.inputFirst},
                                  {"input_rows", rows.inputCount}});
    QJsonArray notes;
    for (const auto& note : result.notes) notes.append(text(note));
    return {
        {"image", imageJson(path, image.width, image.height)},
        {"devices", QJsonArray{producerJson, consumerJson}},
        {"mode", text(produce_consume::modeName(result.mode))},
        {"requested_mode", text(produce_consume::modeName(params.mode))},
        {"filter", QJsonObject{{"label", text(params.filter.label)},
                               {"width", params.filter.width},
                               {"height", params.filter.height},
                               {"integer", params.filter.isInteger()}}},
        {"convolution_strategy", text(result.convolutionStrategy)},
        {"requested_convolution_strategy", text(params.convolution->name())},
        {"histogram_strategy", text(result.histogramStrategy)},
        {"requested_histogram_strategy", text(params.histogramStrategy->name())},
        {"bins", result.histogram.bins},
        {"ignore_transparent", params.histogram.ignoreTransparent},
        {"chunks", chunks},
        {"histograms", io::histogramJson(result.histogram)},
        {"timings", timingsJson(result.devices)},
        {"span_ns", static_cast<qint64>(result.spanNs)},
        {"overlap_ns", static_cast<qint64>(result.overlapNs)},
        {"sequential", QJsonObject{{"span_ns", static_cast<qint64>(result.baseline.spanNs)},
                                   {"timings", timingsJson(result.baseline.devices)}}},
        {"speed_up", result.speedUp()},
        {"notes", notes},
    };
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

int run(const QStringList& arguments) {
    ArgumentParser parser(
        "produce-consume",
        "Convolves an image on one device and counts its histogram on another, chunk by chunk, "
        "so that producing the next chunk overlaps counting the last; reports the overlap and "
        "the speed-up over the two stages one after the other.");
    parser.addPositional("IMAGE", "PNG, JPEG, BMP, GIF, TIFF or WebP file.");
    parser.addOption("devices", "SEL,SEL",
                     "Producer and consumer devices (P:D or part of a name each), of one platform; the same "
                     "device twice runs both stages on one queue (required).");
    parser.addOption("mode", "MODE",
                     "auto, pipe (OpenCL 2.0 pipes; exits 4 where a device has none) or buffer (row chunks "
                     "handed over in two buffers); auto takes pipes where both devices have them.",
                     "auto");
    parser.addOption("chunks", "N", "Chunks of rows, 1 to the image's height.",
                     QString::number(kDefaultChunks));
    transform::addConvolutionOptions(parser, "convolve-strategy");
    parser.addOption("histogram-strategy", "S", text(options::kStrategy.help),
                     text(options::kStrategy.defaultValue));
    parser.addOption(options::kBins);
    parser.addFlag(text(options::kIgnoreTransparent.name), text(options::kIgnoreTransparent.help));
    parser.addFlag("json",
                   "Print one JSON object (histograms, timings with their devices, mode, overlap_ns, "
                   "speed_up).");
    if (!parser.parse(arguments)) return 0;

    const auto convolution = transform::convolutionFrom(parser, "convolve-strategy");
    produce_consume::Params params;
    params.filter = convolution.filter;
    params.convolution = convolution.strategy;
    params.histogramStrategy = &histogram::findStrategy(parser.value("histogram-strategy").toStdString());
    params.histogram = {parser.bins(), parser.isSet(text(options::kIgnoreTransparent.name))};
    params.mode = produce_consume::parseMode(parser.value("mode").toStdString());
    const auto [producerSelector, consumerSelector] = devicePair(parser);
    // The image's height bounds the chunks; anything beyond int is refused here, the rest by the engine.
    params.chunks = parser.integer("chunks", 1, std::numeric_limits<int>::max());

    const QString path = parser.positional(0);
    const ImageRGBA8 image = io::loadImage(path);
    Runtime runtime;
    DeviceContext& producer = runtime.open(producerSelector);
    DeviceContext& consumer = runtime.open(consumerSelector);
    const auto result = produce_consume::run(producer, consumer, image, params);
    if (parser.isSet("json"))
        printJson(json(path, image, producer, consumer, params, result));
    else
        printText(summary(path, image, producer, consumer, params, result));
    return 0;
}

[[maybe_unused]] const bool registered = registerCommand(
    {"produce-consume",
     "IMAGE --filter SPEC --devices SEL,SEL [--mode auto|pipe|buffer] [--chunks N] [--histogram-strategy S] "
     "[--json]",
     "convolve on one device, count on another, overlapped chunk by chunk", run});

}  // namespace

}  // namespace hs::cli
