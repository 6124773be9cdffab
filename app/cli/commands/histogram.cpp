// histoscope-cli histogram IMAGE [--device SEL] [--strategy NAME] [--bins N] [--ignore-transparent] [--repeat
// K]
//                           [--json|--csv]

#include "ops/histogram/histogram.hpp"
#include "commands/command.hpp"
#include "image/pixel_source.hpp"
#include "io/export.hpp"
#include "io/image_io.hpp"
#include "measure/measure.hpp"
#include "ops/histogram/statistics.hpp"
#include "runtime/device_properties.hpp"
#include "runtime/runtime.hpp"

namespace hs::cli {

namespace {

using Runs = std::vector<std::vector<Timing>>;

QString table(const QString& path, const ImageRGBA8& image, const DeviceInfo& device,
              const histogram::Params& params, const histogram::Result& result, const Runs& runs,
              const ProgramCache::Stats& cache) {
    QString out = imageAndDeviceLines(path, image, device);
    out += "strategy  " + text(result.strategy->name()) + "\n";
    if (!result.note.empty()) out += "note      " + text(result.note) + "\n";
    out += QString("bins      %1\n").arg(result.histogram.bins);
    if (params.ignoreTransparent) out += "pixels of alpha 0 left out of r, g, b and luma\n";
    out += '\n';
    out += QString("%1 %2").arg("bin", 5).arg("values", -9);
    for (const auto channel : histogram::kChannels)
        out += QString("%1").arg(text(histogram::channelName(channel)), 12);
    out += '\n';
    const int bins = result.histogram.bins;
    for (int bin = 0; bin < bins; ++bin) {
        const auto [lower, upper] = histogram::binValues(bin, bins);
        out += QString("%1 %2").arg(bin, 5).arg(QString("%1-%2").arg(lower).arg(upper), -9);
        for (const auto channel : histogram::kChannels)
            out += QString("%1").arg(result.histogram[channel][static_cast<std::size_t>(bin)], 12);
        out += '\n';
    }
    out += QString("\ntimings of run 1 of %1\n").arg(runs.size()) + timingLines(runs.front(), 28);
    const measure::Summary summary = measure::kernelSummary(runs);
    out += QString("kernel time over %1 run(s): min %2, median %3, max %4\n")
               .arg(runs.size())
               .arg(milliseconds(summary.min), milliseconds(summary.median), milliseconds(summary.max));
    out += QString("program cache: %1 hit(s), %2 miss(es)\n").arg(cache.hits).arg(cache.misses);
    return out;
}

void writeJson(JsonWriter& json, const QString& path, const ImageRGBA8& image, const DeviceInfo& device,
               const histogram::Strategy& requested, const histogram::Params& params,
               const histogram::Result& result, const io::HistogramContext& context, const Runs& runs,
               const ProgramCache::Stats& cache) {
    json.beginObject();
    json.key("image");
    writeImageJson(json, path, image.width, image.height);
    json.key("device");
    writeDeviceJson(json, device);
    json.field("strategy", result.strategy->name()).field("requested_strategy", requested.name());
    if (!result.note.empty()) json.field("note", result.note);
    json.field("bins", result.histogram.bins).field("ignore_transparent", params.ignoreTransparent);
    json.key("histograms");
    io::writeHistogramJson(json, result.histogram);
    json.key("timings");
    io::writeTimingsJson(json, runs);
    json.key("summary");
    io::writeKernelSummaryJson(json, runs);
    json.key("program_cache")
        .beginObject()
        .field("hits", cache.hits)
        .field("misses", cache.misses)
        .endObject();
    json.key("context");
    io::writeHistogramContextJson(json, context, result.histogram.bins);
    json.endObject();
}

int run(const QStringList& arguments) {
    ArgumentParser parser("histogram",
                          "Computes the r, g, b, a and luma histograms of an image on an OpenCL device.");
    parser.addPositional("IMAGE", "PNG, JPEG, BMP, GIF, TIFF or WebP file.");
    parser.addDeviceOption();
    parser.addOption(options::kStrategy);
    parser.addOption(options::kBins);
    parser.addFlag(text(options::kIgnoreTransparent.name), text(options::kIgnoreTransparent.help));
    parser.addOption("repeat", "K", "Run K times and summarize the kernel times.", "1");
    parser.addFlag("json", "Print one JSON object.");
    parser.addFlag("csv", "Print the histogram as CSV, after '# key: value' lines saying what it counts.");
    if (!parser.parse(arguments)) return 0;
    parser.requireAtMostOne({"json", "csv"});
    const histogram::Params params{parser.bins(), parser.isSet(options::kIgnoreTransparent)};
    const int repeat = parser.integer("repeat", 1, 1'000'000);
    const histogram::Strategy& strategy =
        histogram::findStrategy(parser.value(options::kStrategy).toStdString());
    const QString path = parser.positional(0);

    ImageRGBA8 image = io::loadImage(path);
    Runtime runtime;
    DeviceContext& device = runtime.open(parser.value(options::kDevice).toStdString());
    // The decoded pixels move into the source, which gives them up once uploaded: a big image is held once
    // (`image` keeps the size for the report).
    PixelSource pixels(std::move(image.pixels), image.width, image.height);
    histogram::Result result;
    // No warm-up: every run is reported, the first one with its program build (or cache hit).
    const Runs runs = measure::measure({measure::Clock::Kernel, 0, repeat, image.byteCount()}, [&] {
                          result = histogram::computeHistogram(&device, pixels, params, strategy);
                          return result.timings;
                      }).runs;
    const auto cache = runtime.programCache().stats();
    const auto context = io::histogramContext(path, image.width, image.height, &device.info(),
                                              std::string(result.strategy->name()), strategy.name(), {},
                                              params.ignoreTransparent);

    if (parser.isSet("json"))
        printJson([&](JsonWriter& json) {
            writeJson(json, path, image, device.info(), strategy, params, result, context, runs, cache);
        });
    else if (parser.isSet("csv"))
        printText(QString::fromUtf8(io::histogramCsv(result.histogram, context)));
    else
        printText(table(path, image, device.info(), params, result, runs, cache));
    return 0;
}

[[maybe_unused]] const bool registered = registerCommand(
    {"histogram",
     "IMAGE [--device SEL] [--strategy NAME] [--bins N] [--ignore-transparent] [--repeat K] [--json|--csv]",
     "compute the histogram of an image", run});

}  // namespace

}  // namespace hs::cli
