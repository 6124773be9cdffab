#include "io/export.hpp"

#include <QFile>
#include <QFileInfo>
#include <algorithm>
#include <charconv>
#include <filesystem>
#include <limits>

#include "engine/measure/measure.hpp"
#include "engine/ops/convolve/filter.hpp"
#include "engine/ops/histogram/statistics.hpp"
#include "engine/runtime/error.hpp"
#include "engine/stages/builtin.hpp"
#include "engine/stages/shared_options.hpp"
#include "io/files/files.hpp"
#include "io/native_path.hpp"

namespace hs::io {

namespace {

QString text(std::string_view value) {
    return QString::fromUtf8(value.data(), static_cast<qsizetype>(value.size()));
}

constexpr int kTraceProcess = 1;

void writeHistogramMembers(JsonWriter& json, const histogram::Histogram& histogram) {
    for (const auto channel : histogram::kChannels) {
        json.key(histogram::channelName(channel)).beginArray();
        for (const auto count : histogram[channel]) json.value(count);
        json.endArray();
    }
}

// A host-clock time from a run's origin; a record before it (none, as origins are taken) counts as 0.
std::uint64_t fromOrigin(std::uint64_t hostNs, std::uint64_t originNs) {
    return hostNs - std::min(hostNs, originNs);
}

QByteArray bytes(const std::string& text) {
    return QByteArray(text.data(), static_cast<qsizetype>(text.size()));
}

}  // namespace

void writeTimingMembers(JsonWriter& json, const Timing& timing, std::uint64_t originNs) {
    json.field("stage", stageName(timing.stage)).field("name", timing.name);
    json.field("queued_ns", timing.queuedNs).field("submit_ns", timing.submitNs);
    json.field("start_ns", timing.startNs).field("end_ns", timing.endNs);
    json.field("clock_offset_ns", timing.hostOffsetNs);
    json.field("run_queued_ns", fromOrigin(timing.hostQueuedNs(), originNs))
        .field("run_submit_ns", fromOrigin(timing.hostSubmitNs(), originNs));
    json.field("run_start_ns", fromOrigin(timing.hostStartNs(), originNs))
        .field("run_end_ns", fromOrigin(timing.hostEndNs(), originNs));
}

void checkReplaceable(const QString& path) {
    io::checkReplaceable(nativePath(path));
}

void writeFileAtomically(const QString& path, const QByteArray& data) {
    io::writeFileAtomically(nativePath(path),
                            std::string_view(data.constData(), static_cast<std::size_t>(data.size())));
}

void writeHistogramJson(JsonWriter& json, const histogram::Histogram& histogram) {
    json.beginObject();
    writeHistogramMembers(json, histogram);
    json.endObject();
}

namespace {

// "1 2 1; 2 4 2; 1 2 1 / 16": the taps row by row, as filter files write them.
QString filterMatrixText(const convolve::Filter& filter) {
    const auto rows = [&filter](const std::vector<double>& taps) {
        QStringList rowTexts;
        for (int y = 0; y < filter.height; ++y) {
            QStringList row;
            for (int x = 0; x < filter.width; ++x)
                row << text(convolve::filterNumberText(taps[static_cast<std::size_t>(y * filter.width + x)]));
            rowTexts << row.join(QLatin1Char(' '));
        }
        return rowTexts.join(QStringLiteral("; "));
    };
    QString matrix = rows(filter.taps);
    if (filter.isMagnitude()) matrix += QStringLiteral(" | ") + rows(filter.tapsB);
    if (filter.divisor != 1.0)
        matrix += QStringLiteral(" / ") + text(convolve::filterNumberText(filter.divisor));
    return matrix;
}

}  // namespace

HistogramContext histogramContext(const QString& path, int width, int height, const DeviceInfo* device,
                                  std::string_view strategy, std::string_view requested,
                                  const stages::StageList& stages, bool ignoreTransparent) {
    HistogramContext context;
    context.imagePath = path;
    context.imageWidth = width;
    context.imageHeight = height;
    if (device) context.device = *device;
    context.strategy = text(strategy);
    context.requestedStrategy = text(requested);
    for (const auto& stage : stages) {
        if (!stage->kind().producesImage()) continue;
        const std::string_view kind = stage->kind().name();
        context.stages << text(kind);
        // The rotation and the filter keep the members they always had (the stage's normalized values).
        const auto& values = stage->values();
        if (kind == "rotate") {
            const std::string& angle = values.at(std::string(options::kAngle.name));
            double degrees = 0;
            std::from_chars(angle.data(), angle.data() + angle.size(), degrees);  // numberText's, any locale
            context.angle = degrees;
            context.sampling = text(values.at(std::string(options::kSampling.name)));
            context.fitCanvas = values.contains(options::kFitCanvas.name);
        } else if (kind == "convolve") {
            context.filter = text(stage->summary());
            if (const convolve::Filter* filter = stages::filterOf(*stage))
                context.filterMatrix = filterMatrixText(*filter);
        }
    }
    context.ignoreTransparent = ignoreTransparent;
    return context;
}

QString histogramTitle(const HistogramContext& context, int bins) {
    QStringList parts{QFileInfo(context.imagePath).fileName()};
    parts << (context.device ? text(context.device->name) : QStringLiteral("no OpenCL device"));
    parts << context.strategy << QStringLiteral("%1 bins").arg(bins);
    parts.removeAll(QString());
    return parts.join(QStringLiteral(" — "));
}

namespace {

// The context object; `bins` null: a scope's, which has no bins.
void writeContextJson(JsonWriter& json, const HistogramContext& context, const int* bins) {
    const auto textOrNull = [&](std::string_view key, const QString& value) {
        json.key(key);
        if (value.isEmpty())
            json.null();
        else
            json.value(value.toStdString());
    };
    json.beginObject();
    json.key("image").beginObject();
    json.field("path", context.imagePath.toStdString())
        .field("width", context.imageWidth)
        .field("height", context.imageHeight);
    json.endObject();
    json.key("device");
    if (context.device) {
        // Which device, not what it can do: the properties are in the "device" object beside the context.
        json.beginObject()
            .field("name", context.device->name)
            .field("selector", context.device->selector())
            .field("platform", context.device->platformName)
            .endObject();
    } else {
        json.null();
    }
    json.field("strategy", context.strategy.toStdString());
    json.field("requested_strategy", context.requestedStrategy.toStdString());
    if (bins) {
        json.field("bins", *bins);
        json.key("bin_ranges").beginArray();
        for (int bin = 0; bin < *bins; ++bin) {
            const auto [lower, upper] = histogram::binValues(bin, *bins);
            json.beginArray().value(lower).value(upper).endArray();
        }
        json.endArray();
    }
    json.key("transform").beginObject();
    json.key("angle");
    if (context.angle)
        json.value(*context.angle);
    else
        json.null();
    textOrNull("sampling", context.sampling);
    textOrNull("filter", context.filter);
    if (!context.filterMatrix.isEmpty()) json.field("filter_matrix", context.filterMatrix.toStdString());
    json.field("fit_canvas", context.fitCanvas);
    json.key("stages").beginArray();
    for (const QString& stage : context.stages) json.value(stage.toStdString());
    json.endArray();
    json.endObject();
    json.field("ignore_transparent", context.ignoreTransparent);
    if (context.roi) json.field("roi", context.roi->text());
    json.endObject();
}

}  // namespace

void writeHistogramContextJson(JsonWriter& json, const HistogramContext& context, int bins) {
    writeContextJson(json, context, &bins);
}

void writeScopeCountsJson(JsonWriter& json, const scope::Counts& counts) {
    const auto plane = [&](int p) {
        json.beginArray();
        for (int row = 0; row < counts.rows; ++row) {
            json.beginArray();
            for (int column = 0; column < counts.columns; ++column) json.value(counts.at(p, row, column));
            json.endArray();
        }
        json.endArray();
    };
    if (counts.planes == 1) return plane(0);
    json.beginArray();
    for (int p = 0; p < counts.planes; ++p) plane(p);
    json.endArray();
}

void writeScopeContextJson(JsonWriter& json, const HistogramContext& context) {
    writeContextJson(json, context, nullptr);
}

QByteArray histogramJson(const histogram::Histogram& histogram, const HistogramContext& context) {
    return bytes(jsonDocument([&](JsonWriter& json) {
        json.beginObject();
        // Nested as histoscope-cli's reports have them, so one script reads both; the channels at the top
        // level are the export's first form, kept as an alias.
        json.key("histograms");
        writeHistogramJson(json, histogram);
        writeHistogramMembers(json, histogram);
        json.key("context");
        writeHistogramContextJson(json, context, histogram.bins);
        json.endObject();
    }));
}

QByteArray csvField(std::string_view value) {
    QByteArray field(value.data(), static_cast<qsizetype>(value.size()));
    if (!field.contains(',') && !field.contains('"') && !field.contains('\n') && !field.contains('\r'))
        return field;
    field.replace("\"", "\"\"");
    return '"' + field + '"';
}

QByteArray histogramCsv(const histogram::Histogram& histogram, const HistogramContext& context) {
    const auto noneIfEmpty = [](const QString& value) {
        return value.isEmpty() ? QStringLiteral("none") : value;
    };
    const auto yesNo = [](bool value) { return value ? QStringLiteral("true") : QStringLiteral("false"); };
    const std::pair<const char*, QString> lines[] = {
        {"image", context.imagePath},
        {"image_width", QString::number(context.imageWidth)},
        {"image_height", QString::number(context.imageHeight)},
        {"device", context.device ? text(context.device->name) : QString()},
        {"device_selector", context.device ? text(context.device->selector()) : QString()},
        {"platform", context.device ? text(context.device->platformName) : QString()},
        {"strategy", context.strategy},
        {"requested_strategy", context.requestedStrategy},
        {"bins", QString::number(histogram.bins)},
        {"angle", context.angle ? QString::number(*context.angle) : QString()},
        {"sampling", context.sampling},
        {"filter", context.filter},
        {"filter_matrix", context.filterMatrix},
        {"fit_canvas", yesNo(context.fitCanvas)},
        {"ignore_transparent", yesNo(context.ignoreTransparent)},
    };
    QByteArray csv = "# HistoScope histogram export; lower and upper are the 8-bit values each bin counts\n";
    for (const auto& [key, value] : lines) {
        if (key == std::string_view("filter_matrix") && value.isEmpty()) continue;  // with a filter only
        // One line per key whatever the value holds.
        QString single = noneIfEmpty(value);
        single.replace(QLatin1Char('\n'), QLatin1Char(' ')).replace(QLatin1Char('\r'), QLatin1Char(' '));
        csv += "# " + QByteArray(key) + ": " + single.toUtf8() + '\n';
    }
    if (context.roi) csv += "# roi: " + QByteArray::fromStdString(context.roi->text()) + '\n';
    return csv + histogramCsv(histogram);
}

QByteArray histogramCsv(const histogram::Histogram& histogram, char separator) {
    QByteArray csv = QByteArray("bin") + separator + "lower" + separator + "upper";
    for (const auto channel : histogram::kChannels)
        csv += separator + QByteArray(histogram::channelName(channel).data());
    csv += '\n';
    for (int bin = 0; bin < histogram.bins; ++bin) {
        const auto [lower, upper] = histogram::binValues(bin, histogram.bins);
        csv += QByteArray::number(bin) + separator + QByteArray::number(lower) + separator +
               QByteArray::number(upper);
        for (const auto channel : histogram::kChannels)
            csv += separator + QByteArray::number(static_cast<qulonglong>(
                                   histogram[channel][static_cast<std::size_t>(bin)]));
        csv += '\n';
    }
    return csv;
}

void writeTimingsJson(JsonWriter& json, const std::vector<Timing>& timings) {
    const std::uint64_t origin = runOriginNs(timings);
    json.beginArray();
    for (const auto& timing : timings) {
        json.beginObject();
        writeTimingMembers(json, timing, origin);
        json.endObject();
    }
    json.endArray();
}

void writeTimingsJson(JsonWriter& json, const std::vector<std::vector<Timing>>& runs, int firstRun) {
    json.beginArray();
    for (std::size_t run = 0; run < runs.size(); ++run)
        writeRunTimings(json, runs[run], firstRun + static_cast<int>(run));
    json.endArray();
}

void writeRunTimings(JsonWriter& json, const std::vector<Timing>& run, int number) {
    const std::uint64_t origin = runOriginNs(run);
    for (const auto& timing : run) {
        json.beginObject();
        writeTimingMembers(json, timing, origin);
        json.field("run", number);
        json.endObject();
    }
}

void writeKernelSummaryJson(JsonWriter& json, const std::vector<std::vector<Timing>>& runs) {
    std::vector<double> kernelNs;
    for (const auto& run : runs) kernelNs.push_back(measure::kernelNs(run));
    writeKernelSummaryJson(json, kernelNs);
}

void writeKernelSummaryJson(JsonWriter& json, const std::vector<double>& kernelNs) {
    const measure::Summary summary = measure::Summary::of(kernelNs);
    // Sums of integer durations: only the mean of two middle values can have a fraction, and the writer
    // prints whole doubles as integers.
    json.beginObject().field("runs", static_cast<std::uint64_t>(kernelNs.size()));
    json.key("kernel_ns").beginObject().field("min", summary.min).field("median", summary.median);
    json.field("max", summary.max).endObject().endObject();
}

void writeRunContextMembers(JsonWriter& json, const RunTimings& run) {
    json.field("image", run.image.toStdString()).field("width", run.width).field("height", run.height);
    json.field("spec", run.spec.toStdString());
}

QByteArray timingsCsv(const std::vector<RunTimings>& runs) {
    QByteArray csv =
        "run,stage,name,queued_ns,submit_ns,start_ns,end_ns,duration_ns,run_queued_ns,run_submit_ns,"
        "run_start_ns,run_end_ns,device,mode,overlap_ns,clock_offset_ns,image,width,height,spec\n";
    const auto number = [](std::uint64_t ns) {
        return ',' + QByteArray::number(static_cast<qulonglong>(ns));
    };
    for (const auto& run : runs) {
        const std::uint64_t origin = runOriginNs(run);
        const QByteArray overlap =
            run.overlapNs ? QByteArray::number(static_cast<qulonglong>(*run.overlapNs)) : QByteArray();
        const QByteArray context = ',' + csvField(run.image.toStdString()) + ',' +
                                   QByteArray::number(run.width) + ',' + QByteArray::number(run.height) +
                                   ',' + csvField(run.spec.toStdString());
        for (const auto& device : run.devices) {
            for (const auto& timing : device.timings) {
                csv += QByteArray::number(run.number) + ',' + csvField(stageName(timing.stage)) + ',' +
                       csvField(timing.name);
                for (const auto ns :
                     {timing.queuedNs, timing.submitNs, timing.startNs, timing.endNs, timing.durationNs()})
                    csv += number(ns);
                for (const auto ns :
                     {timing.hostQueuedNs(), timing.hostSubmitNs(), timing.hostStartNs(), timing.hostEndNs()})
                    csv += number(fromOrigin(ns, origin));
                csv += ',' + csvField(device.device.toStdString()) + ',' + csvField(run.mode.toStdString()) +
                       ',' + overlap + ',' + QByteArray::number(static_cast<qlonglong>(timing.hostOffsetNs)) +
                       context + '\n';
            }
        }
    }
    return csv;
}

QByteArray chromeTrace(const std::vector<RunTimings>& runs) {
    std::vector<Timeline> timelines;
    std::uint64_t origin = std::numeric_limits<std::uint64_t>::max();
    for (const auto& run : runs) {
        timelines.push_back(timelineOf(run));
        if (!timelines.back().bars.empty()) origin = std::min(origin, timelines.back().originNs);
    }
    return bytes(jsonDocument([&](JsonWriter& json) {
        // Every event carries ts and dur, the metadata too, so simple consumers can treat all events alike.
        const auto metadata = [&](const char* what, int thread, const char* argument, const auto& value) {
            json.beginObject().field("name", what).field("ph", "M").field("ts", 0).field("dur", 0);
            json.field("pid", kTraceProcess).field("tid", thread);
            json.key("args").beginObject().field(argument, value).endObject();
            json.endObject();
        };
        json.beginObject();
        json.key("traceEvents").beginArray();
        metadata("process_name", 0, "name", "HistoScope");
        // One thread per lane name over all runs, in order of first appearance, so a device keeps its track.
        std::vector<QString> lanes;
        for (std::size_t run = 0; run < runs.size(); ++run) {
            const Timeline& timeline = timelines[run];
            // The bars are relative to their run's origin; the trace counts from the first run's.
            const double runOffsetUs =
                static_cast<double>(timeline.originNs - std::min(timeline.originNs, origin)) / 1000.0;
            for (const TimelineBar& bar : timeline.bars) {
                const QString& lane = timeline.lanes[static_cast<std::size_t>(bar.lane)];
                auto it = std::find(lanes.begin(), lanes.end(), lane);
                if (it == lanes.end()) {
                    it = lanes.insert(lanes.end(), lane);
                    const int thread = static_cast<int>(lanes.size());
                    metadata("thread_name", thread, "name", lane.toStdString());
                    metadata("thread_sort_index", thread, "sort_index", thread);
                }
                json.beginObject();
                json.field("name", bar.name.toStdString())
                    .field("cat", stageName(bar.stage))
                    .field("ph", "X");
                json.field("ts", bar.startUs + runOffsetUs).field("dur", bar.durationUs());
                json.field("pid", kTraceProcess).field("tid", static_cast<int>(it - lanes.begin()) + 1);
                json.key("args").beginObject();
                json.field("run", runs[run].number).field("stage", stageName(bar.stage));
                json.field("queued_us", bar.queuedUs + runOffsetUs)
                    .field("submit_us", bar.submitUs + runOffsetUs);
                if (!bar.buildOptions.isEmpty()) json.field("build_options", bar.buildOptions.toStdString());
                writeRunContextMembers(json, runs[run]);
                json.endObject();
                json.endObject();
            }
        }
        json.endArray();
        json.field("displayTimeUnit", "ns");
        json.endObject();
    }));
}

}  // namespace hs::io
