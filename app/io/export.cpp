#include "io/export.hpp"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <algorithm>
#include <filesystem>
#include <limits>

#include "io/files/files.hpp"
#include "ops/histogram/statistics.hpp"
#include "runtime/error.hpp"

namespace hs::io {

namespace {

QJsonValue integer(std::uint64_t value) {
    return QJsonValue(static_cast<qint64>(value));
}

QString text(std::string_view value) {
    return QString::fromUtf8(value.data(), static_cast<qsizetype>(value.size()));
}

// RFC 4180: quote a field that holds a separator, a quote or a line break.
QByteArray csvField(std::string_view value) {
    QByteArray field(value.data(), static_cast<qsizetype>(value.size()));
    if (!field.contains(',') && !field.contains('"') && !field.contains('\n') && !field.contains('\r'))
        return field;
    field.replace("\"", "\"\"");
    return '"' + field + '"';
}

QJsonArray countsJson(const std::vector<std::uint64_t>& counts) {
    QJsonArray array;
    for (const auto count : counts) array.append(integer(count));
    return array;
}

constexpr int kTraceProcess = 1;

QJsonObject timingJson(const Timing& timing) {
    return QJsonObject{{"stage", text(stageName(timing.stage))}, {"name", text(timing.name)},
                       {"queued_ns", integer(timing.queuedNs)},  {"submit_ns", integer(timing.submitNs)},
                       {"start_ns", integer(timing.startNs)},    {"end_ns", integer(timing.endNs)}};
}

}  // namespace

void checkReplaceable(const QString& path) {
    io::checkReplaceable(std::filesystem::path(QFile::encodeName(path).toStdString()));
}

void writeFileAtomically(const QString& path, const QByteArray& data) {
    io::writeFileAtomically(std::filesystem::path(QFile::encodeName(path).toStdString()),
                            std::string_view(data.constData(), static_cast<std::size_t>(data.size())));
}

QJsonObject histogramJson(const histogram::Histogram& histogram) {
    QJsonObject object;
    for (const auto channel : histogram::kChannels)
        object.insert(text(histogram::channelName(channel)), countsJson(histogram[channel]));
    return object;
}

HistogramContext histogramContext(const QString& path, int width, int height, const DeviceInfo* device,
                                  std::string_view strategy, std::string_view requested,
                                  const std::optional<pipeline::RotateStage>& rotation,
                                  const std::optional<pipeline::ConvolveStage>& convolution,
                                  bool ignoreTransparent) {
    HistogramContext context;
    context.imagePath = path;
    context.imageWidth = width;
    context.imageHeight = height;
    if (device) context.device = *device;
    context.strategy = text(strategy);
    context.requestedStrategy = text(requested);
    if (rotation) {
        context.angle = rotation->params.angleDegrees;
        context.sampling = text(rotate::filterModeName(rotation->params.filterMode));
        context.fitCanvas = rotation->params.fitCanvas;
    }
    if (convolution) context.filter = text(convolution->filter.label);
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

QJsonObject histogramContextJson(const HistogramContext& context, int bins) {
    QJsonArray ranges;
    for (int bin = 0; bin < bins; ++bin) {
        const auto [lower, upper] = histogram::binValues(bin, bins);
        ranges.append(QJsonArray{lower, upper});
    }
    const auto orNull = [](const QString& value) {
        return value.isEmpty() ? QJsonValue() : QJsonValue(value);
    };
    QJsonValue device;
    if (context.device)
        device = QJsonObject{{"name", text(context.device->name)},
                             {"selector", text(context.device->selector())},
                             {"platform", text(context.device->platformName)}};
    return QJsonObject{
        {"image",
         QJsonObject{
             {"path", context.imagePath}, {"width", context.imageWidth}, {"height", context.imageHeight}}},
        {"device", device},
        {"strategy", context.strategy},
        {"requested_strategy", context.requestedStrategy},
        {"bins", bins},
        {"bin_ranges", ranges},
        {"transform", QJsonObject{{"angle", context.angle ? QJsonValue(*context.angle) : QJsonValue()},
                                  {"sampling", orNull(context.sampling)},
                                  {"filter", orNull(context.filter)},
                                  {"fit_canvas", context.fitCanvas}}},
        {"ignore_transparent", context.ignoreTransparent},
    };
}

QJsonObject histogramJson(const histogram::Histogram& histogram, const HistogramContext& context) {
    QJsonObject object = histogramJson(histogram);
    object.insert("context", histogramContextJson(context, histogram.bins));
    return object;
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
        {"fit_canvas", yesNo(context.fitCanvas)},
        {"ignore_transparent", yesNo(context.ignoreTransparent)},
    };
    QByteArray csv = "# HistoScope histogram export; lower and upper are the 8-bit values each bin counts\n";
    for (const auto& [key, value] : lines) {
        // One line per key whatever the value holds.
        QString single = noneIfEmpty(value);
        single.replace(QLatin1Char('\n'), QLatin1Char(' ')).replace(QLatin1Char('\r'), QLatin1Char(' '));
        csv += "# " + QByteArray(key) + ": " + single.toUtf8() + '\n';
    }
    return csv + histogramCsv(histogram);
}

QByteArray histogramCsv(const histogram::Histogram& histogram) {
    QByteArray csv = "bin,lower,upper";
    for (const auto channel : histogram::kChannels)
        csv += ',' + QByteArray(histogram::channelName(channel).data());
    csv += '\n';
    for (int bin = 0; bin < histogram.bins; ++bin) {
        const auto [lower, upper] = histogram::binValues(bin, histogram.bins);
        csv += QByteArray::number(bin) + ',' + QByteArray::number(lower) + ',' + QByteArray::number(upper);
        for (const auto channel : histogram::kChannels)
            csv += ',' + QByteArray::number(
                             static_cast<qulonglong>(histogram[channel][static_cast<std::size_t>(bin)]));
        csv += '\n';
    }
    return csv;
}

QJsonObject deviceJson(const DeviceInfo& device) {
    QJsonArray extensions;
    for (const auto& extension : device.extensions) extensions.append(text(extension));
    return QJsonObject{
        {"platform", text(device.platformName)},
        {"platform_vendor", text(device.platformVendor)},
        {"platform_version", text(device.platformVersion)},
        {"platform_index", device.platformIndex},
        {"device_index", device.deviceIndex},
        {"selector", text(device.selector())},
        {"name", text(device.name)},
        {"vendor", text(device.vendor)},
        {"driver", text(device.driverVersion)},
        {"opencl", text(device.openclVersion)},
        {"opencl_c", text(device.openclCVersion)},
        {"type", text(deviceTypeName(device.type))},
        {"compute_units", integer(device.computeUnits)},
        {"max_clock_mhz", integer(device.maxClockMHz)},
        {"global_mem_bytes", integer(device.globalMemBytes)},
        {"max_alloc_bytes", integer(device.maxAllocBytes)},
        {"local_mem_bytes", integer(device.localMemBytes)},
        {"constant_mem_bytes", integer(device.constantMemBytes)},
        {"max_work_group_size", integer(device.maxWorkGroupSize)},
        {"image_support", device.imageSupport},
        {"image2d_max_width", integer(device.image2dMaxWidth)},
        {"image2d_max_height", integer(device.image2dMaxHeight)},
        {"pipe_support", device.pipeSupport},
        {"fp64", device.fp64},
        {"profiling_resolution_ns", integer(device.profilingResolutionNs)},
        {"gl_sharing", device.hasExtension("cl_khr_gl_sharing")},
        {"extensions", extensions},
    };
}

QJsonArray timingsJson(const std::vector<Timing>& timings) {
    QJsonArray array;
    for (const auto& timing : timings) array.append(timingJson(timing));
    return array;
}

QJsonArray timingsJson(const std::vector<std::vector<Timing>>& runs, int firstRun) {
    QJsonArray array;
    for (std::size_t run = 0; run < runs.size(); ++run) {
        for (const auto& timing : runs[run]) {
            QJsonObject object = timingJson(timing);
            object.insert("run", firstRun + static_cast<qint64>(run));
            array.append(object);
        }
    }
    return array;
}

QByteArray timingsCsv(const std::vector<std::vector<Timing>>& runs, int firstRun) {
    QByteArray csv = "run,stage,name,queued_ns,submit_ns,start_ns,end_ns,duration_ns\n";
    for (std::size_t run = 0; run < runs.size(); ++run) {
        for (const auto& timing : runs[run]) {
            csv += QByteArray::number(firstRun + static_cast<qint64>(run)) + ',' +
                   csvField(stageName(timing.stage)) + ',' + csvField(timing.name);
            for (const auto ns :
                 {timing.queuedNs, timing.submitNs, timing.startNs, timing.endNs, timing.durationNs()})
                csv += ',' + QByteArray::number(static_cast<qulonglong>(ns));
            csv += '\n';
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
    // Every event carries ts and dur, the metadata too, so simple consumers can treat all events alike.
    const auto metadata = [](const char* what, int thread, const QJsonObject& args) {
        return QJsonObject{{"name", what},         {"ph", "M"},     {"ts", 0},     {"dur", 0},
                           {"pid", kTraceProcess}, {"tid", thread}, {"args", args}};
    };

    QJsonArray events;
    events.append(metadata("process_name", 0, {{"name", "HistoScope"}}));
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
                events.append(metadata("thread_name", thread, {{"name", lane}}));
                events.append(metadata("thread_sort_index", thread, {{"sort_index", thread}}));
            }
            QJsonObject args{{"run", runs[run].number},
                             {"stage", text(stageName(bar.stage))},
                             {"queued_us", bar.queuedUs + runOffsetUs},
                             {"submit_us", bar.submitUs + runOffsetUs}};
            if (!bar.buildOptions.isEmpty()) args.insert("build_options", bar.buildOptions);
            events.append(QJsonObject{
                {"name", bar.name},
                {"cat", text(stageName(bar.stage))},
                {"ph", "X"},
                {"ts", bar.startUs + runOffsetUs},
                {"dur", bar.durationUs()},
                {"pid", kTraceProcess},
                {"tid", static_cast<int>(it - lanes.begin()) + 1},
                {"args", args},
            });
        }
    }
    const QJsonObject trace{{"traceEvents", events}, {"displayTimeUnit", "ns"}};
    return QJsonDocument(trace).toJson(QJsonDocument::Indented);
}

}  // namespace hs::io
