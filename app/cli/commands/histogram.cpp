// histoscope-cli histogram IMAGE [--device SEL] [--bins N] [--ignore-transparent] [--roi X,Y,W,H]
//                           [--strategy NAME] [--repeat K] [--json|--csv] [--json-out PATH] [--record]

#include <iostream>
#include <sstream>

#include "cli/commands/option_groups.hpp"
#include "cli/commands/record_option.hpp"
#include "engine/image/pixel_source.hpp"
#include "engine/measure/measure.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/histogram/statistics.hpp"
#include "engine/runtime/device_properties.hpp"
#include "engine/runtime/runtime.hpp"
#include "engine/stages/builtin.hpp"
#include "io/export.hpp"
#include "io/image_io.hpp"

namespace hs::cli {

namespace {

const stages::StageKind& kind() {
    return stages::findKind("histogram");
}

// What every run of the stage shares with the first one (auto remembers its choice): the strategy that ran,
// its note, the histogram; the runs differ in their timings only.
struct Counted {
    QString path;
    int width = 0;
    int height = 0;
    const DeviceInfo& device;
    const stages::Stage& stage;
    const stages::StageRun& first;

    bool ignoreTransparent() const { return stage.values().contains(options::kIgnoreTransparent.name); }
    const histogram::Histogram& histogram() const { return *first.histogram; }
    const std::optional<Region>& roi() const { return stages::histogramParamsOf(stage)->roi; }
    io::HistogramContext context() const {
        io::HistogramContext context =
            io::histogramContext(path, width, height, &device, first.strategyName(),
                                 stage.requestedStrategy()->name(), {}, ignoreTransparent());
        context.roi = roi();
        return context;
    }
};

QString table(const Counted& counted, const ImageRGBA8& image, const std::vector<double>& kernelNs,
              const ProgramCache::Stats& cache) {
    QString out = imageAndDeviceLines(counted.path, image, counted.device);
    out += "strategy  " + text(counted.first.strategyName()) + "\n";
    if (!counted.first.note.empty()) out += "note      " + text(counted.first.note) + "\n";
    const int bins = counted.histogram().bins;
    out += QString("bins      %1\n").arg(bins);
    if (counted.ignoreTransparent()) out += "pixels of alpha 0 left out of r, g, b and luma\n";
    if (counted.roi()) out += "region    " + text(counted.roi()->text()) + "\n";
    out += '\n';
    out += QString("%1 %2").arg("bin", 5).arg("values", -9);
    for (const auto channel : histogram::kChannels)
        out += QString("%1").arg(text(histogram::channelName(channel)), 12);
    out += '\n';
    for (int bin = 0; bin < bins; ++bin) {
        const auto [lower, upper] = histogram::binValues(bin, bins);
        out += QString("%1 %2").arg(bin, 5).arg(QString("%1-%2").arg(lower).arg(upper), -9);
        for (const auto channel : histogram::kChannels)
            out += QString("%1").arg(counted.histogram()[channel][static_cast<std::size_t>(bin)], 12);
        out += '\n';
    }
    out +=
        QString("\ntimings of run 1 of %1\n").arg(kernelNs.size()) + timingLines(counted.first.timings, 28);
    const measure::Summary summary = measure::Summary::of(kernelNs);
    out += QString("kernel time over %1 run(s): min %2, median %3, max %4\n")
               .arg(kernelNs.size())
               .arg(milliseconds(summary.min), milliseconds(summary.median), milliseconds(summary.max));
    out += QString("program cache: %1 hit(s), %2 miss(es)\n").arg(cache.hits).arg(cache.misses);
    return out;
}

// The JSON object up to its "timings" array, which is left open for the runs.
void beginJson(JsonWriter& json, const Counted& counted) {
    json.beginObject();
    json.key("image");
    writeImageJson(json, counted.path, counted.width, counted.height);
    json.key("device");
    writeDeviceJson(json, counted.device);
    json.field("strategy", counted.first.strategyName())
        .field("requested_strategy", counted.stage.requestedStrategy()->name());
    if (!counted.first.note.empty()) json.field("note", counted.first.note);
    json.field("bins", counted.histogram().bins).field("ignore_transparent", counted.ignoreTransparent());
    if (counted.roi()) json.field("roi", counted.roi()->text());
    json.key("histograms");
    io::writeHistogramJson(json, counted.histogram());
    json.key("timings").beginArray();
}

// The rest, after the runs.
void endJson(JsonWriter& json, const Counted& counted, const std::vector<double>& kernelNs,
             const ProgramCache::Stats& cache) {
    json.endArray();
    json.key("summary");
    io::writeKernelSummaryJson(json, kernelNs);
    json.key("program_cache")
        .beginObject()
        .field("hits", cache.hits)
        .field("misses", cache.misses)
        .endObject();
    json.key("context");
    io::writeHistogramContextJson(json, counted.context(), counted.histogram().bins);
    json.endObject();
}

void declare(ArgumentParser& parser, const QStringList&) {
    addImageInput(parser);
    addDeviceOption(parser);
    addStageOptions(parser, kind(), text(options::kStrategy.name));
    parser.addOption("repeat", "K", "Run K times and summarize the kernel times.", "1");
    addReportOptions(parser, "histograms, every run's timings, context", /*withCsv=*/true);
    addRecordOption(parser);
}

int run(const ArgumentParser& parser) {
    const auto stage = stageFrom(parser, kind(), text(options::kStrategy.name));
    const int repeat = parser.integer("repeat", 1, 1'000'000);
    const Report report = reportFrom(parser);
    const QString path = imageFrom(parser);
    const auto recordIn = recordFrom(parser);

    ImageRGBA8 image = io::loadImage(path);
    const archive::ImageIdentity identity =
        recordIn ? archive::identify(path.toStdString(), image) : archive::ImageIdentity{};
    Runtime runtime;
    DeviceContext& device = runtime.open(deviceFrom(parser));
    // The decoded pixels move into the source, which gives them up once uploaded: a big image is held once
    // (`image` keeps the size for the report).
    PixelSource pixels(std::move(image.pixels), image.width, image.height);
    // No warm-up: every run is reported, the first one with its program build (or cache hit).
    const stages::StageRun first = parser.withCommand([&] { return stage->run(&device, pixels); });
    const Counted counted{path, image.width, image.height, device.info(), *stage, first};
    std::vector<double> kernelNs{measure::kernelNs(first.timings)};
    std::optional<archive::Record> recorded;
    if (recordIn)
        recorded = archive::recordOf("histoscope-cli histogram", identity, {stage},
                                     archive::reportOfStage(device.info(), stage, first));

    // Each run's timings go into the JSON as the run ends and are then dropped, so that many repetitions hold
    // one figure each (measure::kernelNs), not their logs; on stdout the JSON streams out as it is written.
    const bool json = report.jsonOnStdout || !report.jsonPath.isEmpty();
    std::ostringstream held;
    std::ostream& jsonStream = report.jsonOnStdout && report.jsonPath.isEmpty() ? std::cout : held;
    JsonWriter writer(jsonStream, JsonWriter::Layout::Indented);
    if (json) {
        beginJson(writer, counted);
        io::writeRunTimings(writer, first.timings, 1);
    }
    for (int number = 2; number <= repeat; ++number) {
        stages::StageRun again = stage->run(&device, pixels);
        kernelNs.push_back(measure::kernelNs(again.timings));
        if (json) io::writeRunTimings(writer, again.timings, number);
        if (recorded)
            archive::addRepetition(*recorded, archive::reportOfStage(device.info(), stage, std::move(again)));
    }
    const auto cache = runtime.programCache().stats();
    if (json) {
        endJson(writer, counted, kernelNs, cache);
        jsonStream << '\n';
        jsonStream.flush();
        const std::string document = held.str();
        if (!report.jsonPath.isEmpty())
            io::writeFileAtomically(report.jsonPath, QByteArray::fromStdString(document));
        if (report.jsonOnStdout && !report.jsonPath.isEmpty()) std::cout << document << std::flush;
    }
    if (report.csv)
        printText(QString::fromUtf8(io::histogramCsv(counted.histogram(), counted.context())));
    else if (!report.jsonOnStdout)
        printText(table(counted, image, kernelNs, cache));
    if (recorded) archive::recordOrWarn(*recordIn, *recorded);
    return 0;
}

[[maybe_unused]] const bool registered = registerCommand(
    {"histogram", "compute the histogram of an image",
     "Computes the r, g, b, a and luma histograms of an image on an OpenCL device.", declare, run});

}  // namespace

}  // namespace hs::cli
