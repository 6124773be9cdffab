#include <gtest/gtest.h>

#include <sys/resource.h>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <csignal>
#include <map>

#include "engine/ops/produce_consume/produce_consume.hpp"
#include "engine/runtime/device_properties.hpp"
#include "engine/runtime/error.hpp"
#include "engine/util/json_writer.hpp"
#include "handmade_timings.hpp"
#include "io/export.hpp"
#include "io/image_io.hpp"
#include "io/timeline.hpp"

namespace hs {
namespace {

using histogram::Channel;

// RFC 4180 records, parsed here independently of the writer.
std::vector<std::vector<std::string>> parseCsv(const QByteArray& text) {
    std::vector<std::vector<std::string>> rows;
    std::vector<std::string> row;
    std::string field;
    bool quoted = false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            row.push_back(std::move(field));
            field.clear();
        } else if (c == '\n') {
            row.push_back(std::move(field));
            field.clear();
            rows.push_back(std::move(row));
            row.clear();
        } else {
            field += c;
        }
    }
    EXPECT_TRUE(field.empty() && row.empty()) << "the CSV should end with a line break";
    return rows;
}

QJsonObject parseObject(const QByteArray& json) {
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    EXPECT_EQ(error.error, QJsonParseError::NoError) << error.errorString().toStdString();
    return document.object();
}

// What `write` writes, as one document read back by Qt's parser.
QJsonDocument written(const std::function<void(JsonWriter&)>& write) {
    QJsonParseError error;
    const QJsonDocument document =
        QJsonDocument::fromJson(QByteArray::fromStdString(jsonDocument(write)), &error);
    EXPECT_EQ(error.error, QJsonParseError::NoError) << error.errorString().toStdString();
    return document;
}

histogram::Histogram distinctCounts(int bins) {
    histogram::Histogram histogram(bins);
    for (const auto channel : histogram::kChannels) {
        for (int b = 0; b < bins; ++b)
            histogram[channel][static_cast<std::size_t>(b)] =
                static_cast<std::uint64_t>(static_cast<int>(channel) * 100000 + b * 37 + 1);
    }
    // Beyond 32 bits, to show counts are not squeezed through a narrower type.
    histogram[Channel::Luma][0] = 6'000'000'123ULL;
    return histogram;
}

TEST(HistogramExport, CsvHasOneRowPerBinWithTheValuesItHolds) {
    for (const int bins : {1, 7, 64, 256}) {
        SCOPED_TRACE(bins);
        const auto histogram = distinctCounts(bins);
        const auto rows = parseCsv(io::histogramCsv(histogram));
        ASSERT_EQ(rows.size(), static_cast<std::size_t>(bins) + 1);
        EXPECT_EQ(rows[0], (std::vector<std::string>{"bin", "lower", "upper", "r", "g", "b", "a", "luma"}));
        // Lowest and highest value per bin by brute force over the 256 values.
        std::vector<int> lowest(static_cast<std::size_t>(bins), 256);
        std::vector<int> highest(static_cast<std::size_t>(bins), -1);
        for (int v = 0; v < 256; ++v) {
            const auto b = static_cast<std::size_t>(v * bins / 256);
            lowest[b] = std::min(lowest[b], v);
            highest[b] = std::max(highest[b], v);
        }
        for (int b = 0; b < bins; ++b) {
            const auto& row = rows[static_cast<std::size_t>(b) + 1];
            ASSERT_EQ(row.size(), 8u);
            EXPECT_EQ(std::stoi(row[0]), b);
            EXPECT_EQ(std::stoi(row[1]), lowest[static_cast<std::size_t>(b)]);
            EXPECT_EQ(std::stoi(row[2]), highest[static_cast<std::size_t>(b)]);
            for (int c = 0; c < histogram::kChannelCount; ++c)
                EXPECT_EQ(std::stoull(row[static_cast<std::size_t>(c) + 3]),
                          histogram.counts[static_cast<std::size_t>(c)][static_cast<std::size_t>(b)]);
        }
    }
}

TEST(HistogramExport, JsonHasEveryChannel) {
    const auto histogram = distinctCounts(7);
    const QJsonObject object =
        written([&](JsonWriter& json) { io::writeHistogramJson(json, histogram); }).object();
    EXPECT_EQ(object.keys(), (QStringList{"a", "b", "g", "luma", "r"}));
    for (const auto channel : histogram::kChannels) {
        const QJsonArray counts =
            object.value(QString::fromUtf8(histogram::channelName(channel).data())).toArray();
        ASSERT_EQ(counts.size(), 7);
        for (int b = 0; b < 7; ++b)
            EXPECT_EQ(counts[b].toInteger(),
                      static_cast<qint64>(histogram[channel][static_cast<std::size_t>(b)]));
    }
}

DeviceInfo distinctiveDevice() {
    DeviceInfo device;
    device.platformIndex = 1;
    device.deviceIndex = 2;
    device.platformName = "Platform \"P\"";
    device.platformVendor = "Vendor V";
    device.platformVersion = "OpenCL 3.0 P";
    device.name = "Device D";
    device.vendor = "Device Vendor";
    device.driverVersion = "555.1";
    device.openclVersion = "OpenCL 3.0 D";
    device.openclCVersion = "OpenCL C 1.2";
    device.type = DeviceType::Gpu;
    device.computeUnits = 132;
    device.maxClockMHz = 1980;
    device.globalMemBytes = 85'000'000'000ULL;
    device.maxAllocBytes = 21'000'000'000ULL;
    device.localMemBytes = 49152;
    device.constantMemBytes = 65536;
    device.maxWorkGroupSize = 1024;
    device.imageSupport = true;
    device.image2dMaxWidth = 32768;
    device.image2dMaxHeight = 16384;
    device.pipeSupport = false;
    device.fp64 = true;
    device.profilingResolutionNs = 32;
    device.extensions = {"cl_khr_fp64", "cl_khr_gl_sharing"};
    return device;
}

TEST(DeviceExport, JsonCarriesEveryField) {
    const QJsonObject json =
        written([](JsonWriter& writer) { writeDeviceJson(writer, distinctiveDevice()); }).object();
    EXPECT_EQ(json["platform"].toString(), "Platform \"P\"");
    EXPECT_EQ(json["platform_vendor"].toString(), "Vendor V");
    EXPECT_EQ(json["platform_version"].toString(), "OpenCL 3.0 P");
    EXPECT_EQ(json["platform_index"].toInt(), 1);
    EXPECT_EQ(json["device_index"].toInt(), 2);
    EXPECT_EQ(json["selector"].toString(), "1:2");
    EXPECT_EQ(json["name"].toString(), "Device D");
    EXPECT_EQ(json["vendor"].toString(), "Device Vendor");
    EXPECT_EQ(json["driver"].toString(), "555.1");
    EXPECT_EQ(json["opencl"].toString(), "OpenCL 3.0 D");
    EXPECT_EQ(json["opencl_c"].toString(), "OpenCL C 1.2");
    EXPECT_EQ(json["type"].toString(), "GPU");
    EXPECT_EQ(json["compute_units"].toInteger(), 132);
    EXPECT_EQ(json["max_clock_mhz"].toInteger(), 1980);
    EXPECT_EQ(json["global_mem_bytes"].toInteger(), 85'000'000'000LL);
    EXPECT_EQ(json["max_alloc_bytes"].toInteger(), 21'000'000'000LL);
    EXPECT_EQ(json["local_mem_bytes"].toInteger(), 49152);
    EXPECT_EQ(json["constant_mem_bytes"].toInteger(), 65536);
    EXPECT_EQ(json["max_work_group_size"].toInteger(), 1024);
    EXPECT_TRUE(json["image_support"].toBool());
    EXPECT_EQ(json["image2d_max_width"].toInteger(), 32768);
    EXPECT_EQ(json["image2d_max_height"].toInteger(), 16384);
    EXPECT_FALSE(json["pipe_support"].toBool());
    EXPECT_TRUE(json["fp64"].toBool());
    EXPECT_EQ(json["profiling_resolution_ns"].toInteger(), 32);
    EXPECT_TRUE(json["gl_sharing"].toBool());
    EXPECT_EQ(json["extensions"].toArray(), (QJsonArray{"cl_khr_fp64", "cl_khr_gl_sharing"}));
    EXPECT_EQ(json.size(), 27) << "a property the list above does not know";
}

// The same properties for people, as the device panel and `histoscope-cli devices` show them.
TEST(DeviceExport, DisplayValuesHaveTheirUnits) {
    const DeviceInfo device = distinctiveDevice();
    std::map<std::string, std::string> shown;
    for (const auto& property : deviceProperties())
        shown[std::string(property.key)] = displayValue(property, device, ", ");
    EXPECT_EQ(shown.size(), 27u);
    EXPECT_EQ(shown["selector"], "1:2");
    EXPECT_EQ(shown["max_clock_mhz"], "1980 MHz");
    EXPECT_EQ(shown["global_mem_bytes"], "79.2 GiB");  // 85e9 / 2^30 = 79.16
    EXPECT_EQ(shown["local_mem_bytes"], "48 KiB");
    EXPECT_EQ(shown["constant_mem_bytes"], "64 KiB");
    EXPECT_EQ(shown["image2d_max_width"], "32768 px");
    EXPECT_EQ(shown["pipe_support"], "no");
    EXPECT_EQ(shown["gl_sharing"], "yes");
    EXPECT_EQ(shown["profiling_resolution_ns"], "32 ns");
    EXPECT_EQ(shown["extensions"], "cl_khr_fp64, cl_khr_gl_sharing");
    EXPECT_EQ(binarySize(1023), "1023 bytes");
    EXPECT_EQ(binarySize(1536), "1.5 KiB");
}

// Device clocks may count from the epoch (NVIDIA does): 1.7e18 ns is beyond a double's exact integers.
constexpr std::uint64_t kEpochNs = 1'700'000'000'123'456'789ULL;

std::vector<std::vector<Timing>> twoRuns() {
    return {{{Stage::Upload, "upload pixels", kEpochNs, kEpochNs + 10, kEpochNs + 1000, kEpochNs + 501000},
             {Stage::Kernel, "count, \"private\"", kEpochNs + 20, kEpochNs + 30, kEpochNs + 600000,
              kEpochNs + 850000},
             {Stage::Readback, "read histogram", kEpochNs + 40, kEpochNs + 50, kEpochNs + 900000,
              kEpochNs + 901500}},
            {{Stage::Kernel, "count, \"private\"", kEpochNs + 2000000, kEpochNs + 2000001, kEpochNs + 2000002,
              kEpochNs + 2250002}}};
}

TEST(TimingExport, JsonKeepsNanosecondsExactly) {
    const auto runs = twoRuns();
    const QJsonArray single = written([&](JsonWriter& json) { io::writeTimingsJson(json, runs[0]); }).array();
    ASSERT_EQ(single.size(), 3);
    EXPECT_EQ(single[1].toObject()["stage"].toString(), "kernel");
    EXPECT_EQ(single[1].toObject()["name"].toString(), "count, \"private\"");
    EXPECT_EQ(single[1].toObject()["queued_ns"].toInteger(), static_cast<qint64>(kEpochNs + 20));
    EXPECT_EQ(single[1].toObject()["submit_ns"].toInteger(), static_cast<qint64>(kEpochNs + 30));
    EXPECT_EQ(single[1].toObject()["start_ns"].toInteger(), static_cast<qint64>(kEpochNs + 600000));
    EXPECT_EQ(single[1].toObject()["end_ns"].toInteger(), static_cast<qint64>(kEpochNs + 850000));
    EXPECT_FALSE(single[1].toObject().contains("run"));

    const QJsonArray repeated = written([&](JsonWriter& json) { io::writeTimingsJson(json, runs); }).array();
    ASSERT_EQ(repeated.size(), 4);
    EXPECT_EQ(repeated[2].toObject()["run"].toInt(), 1);  // runs are numbered from 1
    EXPECT_EQ(repeated[3].toObject()["run"].toInt(), 2);
    // Kept runs 7 and 8 of a longer series keep their numbers.
    const QJsonArray kept = written([&](JsonWriter& json) { io::writeTimingsJson(json, runs, 7); }).array();
    EXPECT_EQ(kept[0].toObject()["run"].toInt(), 7);
    EXPECT_EQ(kept[3].toObject()["run"].toInt(), 8);
    EXPECT_EQ(repeated[3].toObject()["end_ns"].toInteger(), static_cast<qint64>(kEpochNs + 2250002));
}

// Issue 8: the `summary` of `histoscope-cli histogram --repeat` for the hand-made log of 4 runs (kernel times
// 7, 1, 100, 2 µs) has the engine's median, 4.5 µs, read back from the written JSON.
TEST(TimingExport, KernelSummaryOfTheHandmadeLog) {
    const QJsonObject summary = written([](JsonWriter& json) {
                                    io::writeKernelSummaryJson(json, test::handmadeFourRuns());
                                }).object();
    EXPECT_EQ(summary["runs"].toInt(), 4);
    const QJsonObject kernel = summary["kernel_ns"].toObject();
    EXPECT_EQ(kernel["min"].toInteger(), 1'000);
    EXPECT_EQ(kernel["median"].toDouble(), test::kHandmadeMedianNs);
    EXPECT_EQ(kernel["max"].toInteger(), 100'000);
}

TEST(TimingExport, KernelSummaryKeepsAHalfNanosecondMedian) {
    const auto kernel = [](std::uint64_t ns) {
        return std::vector<Timing>{{Stage::Kernel, "k", 0, 0, 10, 10 + ns}};
    };
    const std::string text = jsonDocument(
        [&](JsonWriter& json) {
            io::writeKernelSummaryJson(json, {kernel(3), kernel(4)});
        },
        JsonWriter::Layout::Compact);
    EXPECT_EQ(text, "{\"runs\":2,\"kernel_ns\":{\"min\":3,\"median\":3.5,\"max\":4}}\n");
}

TEST(TimingExport, CsvHasARowPerCommand) {
    const auto runs = twoRuns();
    std::vector<io::RunTimings> kept{{1, "s", {{"D (0:0)", runs[0]}}, {}},
                                     {2, "s", {{"D (0:0)", runs[1]}}, {}}};
    // What the second run measured; the first says nothing of it (pixels from no file).
    kept[1].image = "/images/a \"b\", c.png";
    kept[1].width = 640;
    kept[1].height = 480;
    kept[1].spec = "histogram (16 bins)";
    // Its device clock 7 ns behind the host's, every record alike (so the run_* times stay as they are).
    for (Timing& timing : kept[1].devices.front().timings) timing.hostOffsetNs = 7;
    const auto rows = parseCsv(io::timingsCsv(kept));
    ASSERT_EQ(rows.size(), 5u);
    EXPECT_EQ(rows[0],
              (std::vector<std::string>{"run",           "stage",         "name",         "queued_ns",
                                        "submit_ns",     "start_ns",      "end_ns",       "duration_ns",
                                        "run_queued_ns", "run_submit_ns", "run_start_ns", "run_end_ns",
                                        "device",        "mode",          "overlap_ns",   "clock_offset_ns",
                                        "image",         "width",         "height",       "spec"}));
    std::size_t row = 1;
    for (std::size_t run = 0; run < runs.size(); ++run) {
        // Each run's times from its own first queued command (one clock: no offsets here).
        const std::uint64_t origin = runs[run].front().queuedNs;
        for (const auto& timing : runs[run]) {
            const auto& fields = rows[row++];
            ASSERT_EQ(fields.size(), 20u);
            EXPECT_EQ(std::stoul(fields[0]), run + 1);  // runs are numbered from 1
            EXPECT_EQ(fields[1], std::string(stageName(timing.stage)));
            EXPECT_EQ(fields[2], timing.name);
            EXPECT_EQ(std::stoull(fields[3]), timing.queuedNs);
            EXPECT_EQ(std::stoull(fields[4]), timing.submitNs);
            EXPECT_EQ(std::stoull(fields[5]), timing.startNs);
            EXPECT_EQ(std::stoull(fields[6]), timing.endNs);
            EXPECT_EQ(std::stoull(fields[7]), timing.endNs - timing.startNs);
            EXPECT_EQ(std::stoull(fields[8]), timing.queuedNs - origin);
            EXPECT_EQ(std::stoull(fields[10]), timing.startNs - origin);
            EXPECT_EQ(std::stoull(fields[11]), timing.endNs - origin);
            EXPECT_EQ(fields[12], "D (0:0)");
            EXPECT_EQ(fields[13], "");  // one device: no mode, no overlap
            EXPECT_EQ(fields[14], "");
            EXPECT_EQ(std::stoll(fields[15]), run == 0 ? 0 : 7);
            EXPECT_EQ(fields[16], run == 0 ? "" : "/images/a \"b\", c.png");  // unquoted by the reader
            EXPECT_EQ(fields[17], run == 0 ? "0" : "640");
            EXPECT_EQ(fields[18], run == 0 ? "0" : "480");
            EXPECT_EQ(fields[19], run == 0 ? "" : "histogram (16 bins)");
        }
    }
}

// Issue 11: two devices whose clocks are 1e15 ns apart (one counts from boot, one from 1970), each record
// carrying its clock's offset to the host clock. Producer on the host clock at H + [0, 100) and
// H + [150, 250) µs; consumer H + [100, 200) µs, but its raw times are 1e15 ns later. Aligned, the overlap is
// 150..200 µs = 50 000 ns (hand-computed); every time counts from the producer's first queued command.
TEST(TimingExport, TwoDeviceClocksAreAlignedOntoTheHostClock) {
    constexpr std::uint64_t kHost = 5'000'000'000;
    constexpr std::int64_t kApart = 1'000'000'000'000'000;
    const auto us = [](std::uint64_t value) { return kHost + value * 1000; };
    Timing consumer{Stage::Kernel,    "count",          us(100) + kApart,
                    us(100) + kApart, us(100) + kApart, us(200) + kApart};
    consumer.hostOffsetNs = -kApart;
    const std::vector<Timing> producer{{Stage::Kernel, "convolve 1", us(0), us(0), us(0), us(100)},
                                       {Stage::Kernel, "convolve 2", us(0), us(0), us(150), us(250)}};
    EXPECT_EQ(produce_consume::overlapNs(producer, {consumer}), 50'000u);
    const std::vector<produce_consume::DeviceTimings> devices{{"producer", "0:0", "A", producer},
                                                              {"consumer", "0:1", "B", {consumer}}};
    EXPECT_EQ(produce_consume::spanNs(devices), 250'000u);

    const io::RunTimings run{3, "s", {{"A", producer}, {"B", {consumer}}}, {}, "buffer", 50'000};
    const io::Timeline timeline = io::timelineOf(run);
    ASSERT_EQ(timeline.bars.size(), 3u);
    EXPECT_DOUBLE_EQ(timeline.bars[2].startUs, 100.0);
    EXPECT_DOUBLE_EQ(timeline.bars[2].endUs, 200.0);
    EXPECT_EQ(io::overlapUs(timeline), (std::vector<std::pair<double, double>>{{150.0, 200.0}}));

    const auto rows = parseCsv(io::timingsCsv({run}));
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_EQ(std::stoull(rows[3][3]), us(100) + kApart) << "the raw time is kept";
    EXPECT_EQ(std::stoull(rows[3][10]), 100'000u) << "run_start_ns: from the run's first command";
    EXPECT_EQ(std::stoull(rows[3][11]), 200'000u);
    EXPECT_EQ(rows[3][12], "B");
    EXPECT_EQ(rows[3][13], "buffer");
    EXPECT_EQ(rows[3][14], "50000");

    const QJsonArray json =
        written([&](JsonWriter& writer) { io::writeTimingsJson(writer, {consumer}); }).array();
    EXPECT_EQ(json[0].toObject()["clock_offset_ns"].toInteger(), -kApart);
    EXPECT_EQ(json[0].toObject()["start_ns"].toInteger(), static_cast<qint64>(us(100) + kApart));
    EXPECT_EQ(json[0].toObject()["run_start_ns"].toInteger(), 0) << "queued and started at once";
    EXPECT_EQ(json[0].toObject()["run_end_ns"].toInteger(), 100'000);

    const QJsonObject trace = parseObject(io::chromeTrace({run}));
    double consumerTs = -1;
    for (const auto& value : trace["traceEvents"].toArray())
        if (value.toObject()["name"] == "count") consumerTs = value.toObject()["ts"].toDouble();
    EXPECT_DOUBLE_EQ(consumerTs, 100.0);
}

// Two runs on device "D (0:0)", the first with host work between its commands.
std::vector<io::RunTimings> twoTracedRuns() {
    auto runs = twoRuns();
    Timing host{Stage::Other,      "convert", kEpochNs + 520000, kEpochNs + 520000, kEpochNs + 520000,
                kEpochNs + 580000, true};
    runs[0].insert(runs[0].begin() + 1, host);
    return {{1, "private-uchar", {{"D (0:0)", runs[0]}}, {{"count", "-D BINS=256"}}},
            {2, "private-uchar", {{"D (0:0)", runs[1]}}, {}}};
}

TEST(TimingExport, ChromeTraceHasACompleteEventPerCommandInItsLane) {
    const QJsonObject trace = parseObject(io::chromeTrace(twoTracedRuns()));
    const QJsonArray events = trace["traceEvents"].toArray();
    ASSERT_FALSE(events.isEmpty());
    std::vector<QJsonObject> complete;
    std::map<int, QString> threadNames;
    for (const auto& value : events) {
        const QJsonObject event = value.toObject();
        for (const char* key : {"ph", "ts", "dur", "name"}) EXPECT_TRUE(event.contains(key)) << key;
        EXPECT_TRUE(event["ts"].isDouble());
        EXPECT_TRUE(event["dur"].isDouble());
        if (event["ph"] == "X") complete.push_back(event);
        if (event["name"] == "thread_name")
            threadNames[event["tid"].toInt()] = event["args"].toObject()["name"].toString();
    }
    ASSERT_EQ(complete.size(), 5u);
    // Microseconds from the first queued timestamp (kEpochNs): upload 1000 ns..501000 ns is ts 1, dur 500.
    EXPECT_EQ(complete[0]["name"].toString(), "upload pixels");
    EXPECT_DOUBLE_EQ(complete[0]["ts"].toDouble(), 1.0);
    EXPECT_DOUBLE_EQ(complete[0]["dur"].toDouble(), 500.0);
    EXPECT_DOUBLE_EQ(complete[0]["args"].toObject()["queued_us"].toDouble(), 0.0);
    EXPECT_DOUBLE_EQ(complete[0]["args"].toObject()["submit_us"].toDouble(), 0.01);
    // Host work sits in its own lane, in submission order among the device's commands.
    EXPECT_EQ(complete[1]["name"].toString(), "convert");
    EXPECT_DOUBLE_EQ(complete[1]["ts"].toDouble(), 520.0);
    EXPECT_DOUBLE_EQ(complete[1]["dur"].toDouble(), 60.0);
    EXPECT_EQ(complete[2]["name"].toString(), "count, \"private\"");
    EXPECT_DOUBLE_EQ(complete[2]["ts"].toDouble(), 600.0);
    EXPECT_DOUBLE_EQ(complete[2]["dur"].toDouble(), 250.0);
    EXPECT_DOUBLE_EQ(complete[3]["dur"].toDouble(), 1.5);
    // The second run keeps counting from the first run's origin.
    EXPECT_DOUBLE_EQ(complete[4]["ts"].toDouble(), 2000.002);
    EXPECT_EQ(complete[4]["args"].toObject()["run"].toInt(), 2);
    EXPECT_EQ(complete[0]["args"].toObject()["run"].toInt(), 1);
    // One lane per device queue and one for host work, as the timeline view shows them.
    EXPECT_EQ(threadNames, (std::map<int, QString>{{1, "D (0:0)"}, {2, "host"}}));
    for (const std::size_t device : {0, 2, 3, 4}) EXPECT_EQ(complete[device]["tid"].toInt(), 1);
    EXPECT_EQ(complete[1]["tid"].toInt(), 2);
    // Build options go with kernels of a pipeline stage (Timing::step); this kernel has none.
    EXPECT_FALSE(complete[2]["args"].toObject().contains("build_options"));
}

TEST(Timeline, LanesBarsAndBusyTimeFromAHandMadeLog) {
    std::vector<io::RunTimings> runs = twoTracedRuns();
    runs[0].devices[0].timings[2].name = "count: count";
    runs[0].devices[0].timings[2].step = "count";
    const io::Timeline timeline = io::timelineOf(runs[0]);
    EXPECT_EQ(timeline.originNs, kEpochNs);
    ASSERT_EQ(timeline.lanes, (std::vector<QString>{"D (0:0)", "host"}));
    ASSERT_EQ(timeline.bars.size(), 4u);
    const io::TimelineBar& kernel = timeline.bars[2];
    EXPECT_EQ(kernel.lane, 0);
    EXPECT_DOUBLE_EQ(kernel.queuedUs, 0.02);
    EXPECT_DOUBLE_EQ(kernel.submitUs, 0.03);
    EXPECT_DOUBLE_EQ(kernel.startUs, 600.0);
    EXPECT_DOUBLE_EQ(kernel.endUs, 850.0);
    EXPECT_DOUBLE_EQ(kernel.waitUs(), 599.98);
    EXPECT_EQ(kernel.buildOptions, "-D BINS=256");
    EXPECT_TRUE(timeline.bars[0].buildOptions.isEmpty());  // an upload has no build options
    EXPECT_EQ(timeline.bars[1].lane, 1);                   // the host work
    EXPECT_EQ(timeline.bars[3].lane, 0);
    EXPECT_DOUBLE_EQ(timeline.endUs(), 901.5);
    // Busy within 400..700 µs: the upload until 501 and the kernel from 600 on the device (201 µs), the host
    // work 520..580 (60 µs).
    const auto busy = io::laneBusyUs(timeline, 700, 400);
    ASSERT_EQ(busy.size(), 2u);
    EXPECT_DOUBLE_EQ(busy[0], 201.0);
    EXPECT_DOUBLE_EQ(busy[1], 60.0);
}

// Writes beyond `bytes` fail with EFBIG while in scope; unlike permissions, this stops root too.
class FileSizeLimit {
  public:
    explicit FileSizeLimit(rlim_t bytes) {
        std::signal(SIGXFSZ, SIG_IGN);
        getrlimit(RLIMIT_FSIZE, &saved_);
        rlimit limited = saved_;
        limited.rlim_cur = bytes;
        EXPECT_EQ(setrlimit(RLIMIT_FSIZE, &limited), 0);
    }
    ~FileSizeLimit() { setrlimit(RLIMIT_FSIZE, &saved_); }
    FileSizeLimit(const FileSizeLimit&) = delete;
    FileSizeLimit& operator=(const FileSizeLimit&) = delete;

  private:
    rlimit saved_{};
};

QByteArray contentsOf(const QString& path) {
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << path.toStdString();
    return file.readAll();
}

void expectInputErrorNaming(const QString& path, const std::function<void()>& write) {
    try {
        write();
        ADD_FAILURE() << "writing " << path.toStdString() << " succeeded";
    } catch (const InputError& error) {
        EXPECT_EQ(std::string(error.what()).rfind(path.toStdString() + ": ", 0), 0u) << error.what();
    }
}

TEST(AtomicWrite, ReplacesTheFileWhole) {
    QTemporaryDir directory;
    const QString path = directory.filePath("histogram.csv");
    io::writeFileAtomically(path, "first\n");
    io::writeFileAtomically(path, "second\n");
    EXPECT_EQ(contentsOf(path), "second\n");
}

TEST(AtomicWrite, FailedWriteLeavesThePreviousFile) {
    QTemporaryDir directory;
    const QString path = directory.filePath("trace.json");
    io::writeFileAtomically(path, "previous contents\n");
    const QByteArray large(1 << 20, 'x');
    {
        const FileSizeLimit limit(64 * 1024);
        expectInputErrorNaming(path, [&] { io::writeFileAtomically(path, large); });
    }
    EXPECT_EQ(contentsOf(path), "previous contents\n");
    EXPECT_EQ(QDir(directory.path()).entryList(QDir::Files), QStringList{"trace.json"})
        << "no temporary file left";
}

TEST(AtomicWrite, ParentThatIsAFileIsReported) {
    QTemporaryDir directory;
    const QString parent = directory.filePath("plain-file");
    io::writeFileAtomically(parent, "not a folder");
    const QString path = parent + "/timings.csv";
    expectInputErrorNaming(path, [&] { io::writeFileAtomically(path, "data"); });
    EXPECT_EQ(contentsOf(parent), "not a folder");
}

TEST(AtomicWrite, FailedImageSaveLeavesThePreviousImage) {
    QTemporaryDir directory;
    const QString path = directory.filePath("result.png");
    ImageRGBA8 previous(8, 8);
    std::fill(previous.pixels.begin(), previous.pixels.end(), std::uint8_t{77});
    io::saveImage(path, previous);

    // Noise does not compress, so the new PNG is far larger than the size limit.
    ImageRGBA8 noise(512, 512);
    std::uint32_t state = 12345;
    for (auto& byte : noise.pixels) {
        state = state * 1664525u + 1013904223u;
        byte = static_cast<std::uint8_t>(state >> 24);
    }
    {
        const FileSizeLimit limit(64 * 1024);
        expectInputErrorNaming(path, [&] { io::saveImage(path, noise); });
    }
    EXPECT_EQ(io::loadImage(path), previous);
}

}  // namespace
}  // namespace hs
