// histoscope-cli histogram IMAGE [--device SEL] [--strategy NAME] [--bins N] [--ignore-transparent] [--repeat
// K]
//                           [--json|--csv]
#include <QJsonArray>
#include <algorithm>

#include "commands/command.hpp"
#include "image/pixel_source.hpp"
#include "io/export.hpp"
#include "io/image_io.hpp"
#include "ops/histogram/histogram.hpp"
#include "ops/histogram/statistics.hpp"
#include "runtime/runtime.hpp"

namespace hs::cli {

namespace {

using Runs = std::vector<std::vector<Timing>>;

struct KernelSummary {
    std::uint64_t minNs = 0;
    std::uint64_t medianNs = 0;  // nearest rank: the lower middle for an even count
    std::uint64_t maxNs = 0;
};

KernelSummary summarize(const Runs& runs) {
    std::vector<std::uint64_t> kernelNs;
    for (const auto& run : runs) kernelNs.push_back(totalNs(run, Stage::Kernel));
    std::sort(kernelNs.begin(), kernelNs.end());
    return {kernelNs.front(), kernelNs[(kernelNs.size() - 1) / 2], kernelNs.back()};
}

QString table(const QString& path, const ImageRGBA8& image, const DeviceInfo& device,
              const histogram::Params& params, const histogram::Result& result, const Runs& runs,
              const ProgramCache::Stats& cache) {
    QString out = imageAndDeviceLines(path, image, device);
    out += "strategy  " + text(result.strategy->name()) + "\n";
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
    const auto summary = summarize(runs);
    out += QString("kernel time over %1 run(s): min %2, median %3, max %4\n")
               .arg(runs.size())
               .arg(milliseconds(summary.minNs), milliseconds(summary.medianNs), milliseconds(summary.maxNs));
    out += QString("program cache: %1 hit(s), %2 miss(es)\n").arg(cache.hits).arg(cache.misses);
    return out;
}

QJsonObject json(const QString& path, const ImageRGBA8& image, const DeviceInfo& device,
                 const histogram::Strategy& requested, const histogram::Params& params,
                 const histogram::Result& result, const io::HistogramContext& context, const Runs& runs,
                 const ProgramCache::Stats& cache) {
    const auto summary = summarize(runs);
    const auto ns = [](std::uint64_t value) { return QJsonValue(static_cast<qint64>(value)); };
    return QJsonObject{
        {"image", imageJson(path, image.width, image.height)},
        {"device", io::deviceJson(device)},
        {"strategy", text(result.strategy->name())},
        {"requested_strategy", text(requested.name())},
        {"bins", result.histogram.bins},
        {"ignore_transparent", params.ignoreTransparent},
        {"histograms", io::histogramJson(result.histogram)},
        {"timings", io::timingsJson(runs)},
        {"summary", QJsonObject{{"runs", static_cast<qint64>(runs.size())},
                                {"kernel_ns", QJsonObject{{"min", ns(summary.minNs)},
                                                          {"median", ns(summary.medianNs)},
                                                          {"max", ns(summary.maxNs)}}}}},
        {"program_cache", QJsonObject{{"hits", ns(cache.hits)}, {"misses", ns(cache.misses)}}},
        {"context", io::histogramContextJson(context, result.histogram.bins)},
    };
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
    const histogram::Params params{parser.bins(), parser.isSet(text(options::kIgnoreTransparent.name))};
    const int repeat = parser.integer("repeat", 1, 1'000'000);
    const histogram::Strategy& strategy = histogram::findStrategy(parser.value("strategy").toStdString());
    const QString path = parser.positional(0);

    const ImageRGBA8 image = io::loadImage(path);
    Runtime runtime;
    DeviceContext& device = runtime.open(parser.value("device").toStdString());
    PixelSource pixels(image);
    histogram::Result result;
    Runs runs;
    for (int k = 0; k < repeat; ++k) {
        result = histogram::computeHistogram(&device, pixels, params, strategy);
        runs.push_back(std::move(result.timings));
    }
    const auto cache = runtime.programCache().stats();
    const auto context = io::histogramContext(path, image.width, image.height, &device.info(),
                                              std::string(result.strategy->name()), strategy.name(),
                                              std::nullopt, std::nullopt, params.ignoreTransparent);

    if (parser.isSet("json"))
        printJson(json(path, image, device.info(), strategy, params, result, context, runs, cache));
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
