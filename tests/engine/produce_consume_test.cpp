// The two-device pipeline on POCL_DEVICES="pthread pthread": its histogram against histogram(convolve(image))
// on one device and against the CPU references, for every chunk count; the pair and mode rules; the overlap
// and span arithmetic on hand-made records.
#include <gtest/gtest.h>
#include <algorithm>

#include <string>
#include <tuple>
#include <vector>

#include "engine/ops/convolve/convolve.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/produce_consume/produce_consume.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"
#include "expect_error.hpp"
#include "pipeline_test_support.hpp"

namespace hs::produce_consume {
namespace {

using hs::test::mentions;
using hs::test::messageOf;
using hs::testing::noiseImage;

// Both devices of the PoCL platform, in one runtime so they share its context.
Runtime& twoDeviceRuntime() {
    static Runtime runtime;
    return runtime;
}
DeviceContext& first() {
    return twoDeviceRuntime().open("0:0");
}
DeviceContext& second() {
    return twoDeviceRuntime().open("0:1");
}

// histogram(convolve(image)) with the same strategies on one device: what the pipeline must equal.
histogram::Result singleDevice(const ImageRGBA8& image, const Params& params) {
    DeviceContext& device = first();
    PixelSource pixels(image);
    convolve::Result convolved = convolve::convolve(device, pixels, params.filter, *params.convolution);
    return histogram::computeHistogram(&device, convolved.image, params.histogram, *params.histogramStrategy);
}

Params paramsFor(const convolve::Filter& filter, int chunks) {
    Params params;
    params.filter = filter;
    params.chunks = chunks;
    params.histogramStrategy = &histogram::findStrategy("local-atomic");
    params.histogram.bins = 64;
    return params;
}

// The records of `device` whose name contains `part`.
std::size_t recordsNamed(const DeviceTimings& device, const std::string& part) {
    std::size_t count = 0;
    for (const auto& timing : device.timings) count += mentions(timing.name, part) ? 1 : 0;
    return count;
}

// Filter (3x3 integer box, 15x15 float Gaussian), image width, image height, chunk count (0: one per row).
using Case = std::tuple<int, int, int, int>;

// Needs two devices of one platform (here POCL_DEVICES="pthread pthread"); a one-device machine, such as the
// lent H100, skips with that reason instead of failing to open 0:1.
void skipWithoutTwoDevices() {
    if (!hs::testing::twoDevicesOfPlatformZero(twoDeviceRuntime().devices()))
        GTEST_SKIP() << "needs two OpenCL devices of platform 0 (PoCL: POCL_DEVICES=\"pthread pthread\")";
}

class ProduceConsume : public ::testing::Test {
  protected:
    void SetUp() override { skipWithoutTwoDevices(); }
};

class ProduceConsumeEquality : public ::testing::TestWithParam<Case> {
  protected:
    void SetUp() override { skipWithoutTwoDevices(); }
};

TEST_P(ProduceConsumeEquality, EqualsOneDeviceBitForBit) {
    const auto [filterSize, width, height, chunkParam] = GetParam();
    const auto filter = filterSize == 3 ? convolve::boxFilter(3) : convolve::gaussianFilter(2.5, 15);
    ASSERT_EQ(filter.height, filterSize);
    const int chunks = chunkParam == 0 ? height : chunkParam;
    const ImageRGBA8 image = noiseImage(width, height, static_cast<unsigned>(width * 31 + height));
    const Params params = paramsFor(filter, chunks);

    const Result result = run(first(), second(), image, params);
    const histogram::Result expected = singleDevice(image, params);

    EXPECT_EQ(result.mode, Mode::Buffer);
    EXPECT_EQ(result.values, expected.values);
    EXPECT_EQ(result.histogram, expected.histogram);
    EXPECT_EQ(result.histogram.bins, 64);
    ASSERT_EQ(result.chunks.size(), static_cast<std::size_t>(chunks));
    if (filter.isInteger()) {
        // Integer filters are exact: the CPU references settle it independently of any device.
        const ImageRGBA8 convolved = convolve::referenceConvolve(image, filter);
        EXPECT_EQ(result.histogram,
                  histogram::referenceHistogram(convolved.pixels.data(), convolved.pixelCount(), 64));
    }

    // Each device's records say which device ran them, and every chunk ran on both.
    ASSERT_EQ(result.devices.size(), 2u);
    EXPECT_EQ(result.devices[0].selector, "0:0");
    EXPECT_EQ(result.devices[1].selector, "0:1");
    EXPECT_EQ(recordsNamed(result.devices[0], "convolve_buffer"), static_cast<std::size_t>(chunks));
    EXPECT_EQ(recordsNamed(result.devices[0], "hand over rows"), static_cast<std::size_t>(chunks));
    EXPECT_EQ(recordsNamed(result.devices[0], "upload rows"), static_cast<std::size_t>(chunks));
    EXPECT_GE(recordsNamed(result.devices[1], "chunk " + std::to_string(chunks) + "/"), 1u);
    EXPECT_EQ(recordsNamed(result.devices[1], "convolve"), 0u) << "the consumer only counts";
    EXPECT_EQ(result.convolutionStrategy, "buffer-naive");
    EXPECT_EQ(result.histogramStrategy, "local-atomic");
    EXPECT_GT(result.baseline.spanNs, 0u);
    EXPECT_GT(result.spanNs, 0u);
    EXPECT_LE(result.overlapNs, result.spanNs);

    // The programs each device used, as the operations report them on one device: the convolution's on the
    // producer, the histogram strategy's on the consumer, each once however many chunks ran.
    const ImageShape shape{image.width, image.height};
    const auto convolution = params.convolution->kernelBuild(first().info(), params.filter, shape);
    ASSERT_TRUE(convolution);
    EXPECT_EQ(result.devices[0].builds, std::vector<KernelBuild>{*convolution});
    const auto counting = params.histogramStrategy->kernelBuild(second().info(), params.histogram, shape);
    ASSERT_TRUE(counting);
    EXPECT_EQ(result.devices[1].builds, std::vector<KernelBuild>{*counting});
}

std::string caseName(const ::testing::TestParamInfo<Case>& param) {
    const auto [filter, width, height, chunks] = param.param;
    return "filter" + std::to_string(filter) + "_" + std::to_string(width) + "x" + std::to_string(height) +
           "_" + (chunks == 0 ? std::string("perRow") : std::to_string(chunks) + "chunks");
}

INSTANTIATE_TEST_SUITE_P(ChunkCounts, ProduceConsumeEquality,
                         ::testing::Combine(::testing::Values(3, 15), ::testing::Values(37),
                                            ::testing::Values(23, 9), ::testing::Values(1, 2, 7, 0)),
                         caseName);

TEST_F(ProduceConsume, ChunkBoundaryExactlyOnTheHalo) {
    // 14 rows in two chunks of 7 under a 15x15 filter (7 rows above and below): each chunk's halo reaches
    // exactly to the image edge on its far side.
    const auto filter = convolve::boxFilter(15);
    const auto rows = splitRows(14, 2, filter);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].first, 0);
    EXPECT_EQ(rows[0].count, 7);
    EXPECT_EQ(rows[0].inputFirst, 0);
    EXPECT_EQ(rows[0].inputCount, 14);
    EXPECT_EQ(rows[1].first, 7);
    EXPECT_EQ(rows[1].count, 7);
    EXPECT_EQ(rows[1].inputFirst, 0);
    EXPECT_EQ(rows[1].inputCount, 14);

    const ImageRGBA8 image = noiseImage(19, 14, 7);
    const Params params = paramsFor(filter, 2);
    PixelSource shown{ImageRGBA8()};
    const Result result = run(first(), second(), image, params, &shown);
    const ImageRGBA8 convolved = convolve::referenceConvolve(image, filter);
    EXPECT_EQ(result.histogram,
              histogram::referenceHistogram(convolved.pixels.data(), convolved.pixelCount(), 64));
    EXPECT_EQ(result.values, singleDevice(image, params).values);
    // The convolved image handed out for display: the image the histogram counts, on the producer.
    ASSERT_EQ(shown.width(), image.width);
    ASSERT_EQ(shown.height(), image.height);
    EXPECT_TRUE(shown.onDevice(first()));
    ImageRGBA8 readBack(image.width, image.height);
    TimingLog log;
    shown.copyTo(readBack.pixels.data(), log);
    EXPECT_EQ(readBack, convolved);
}

TEST_F(ProduceConsume, HaloOfAnEvenFilterIsOneSided) {
    // A 2x2 filter's anchor is its second row: one row above, none below.
    const auto filter = convolve::parseFilterText("1 1\n1 1\n/ 4");
    const auto rows = splitRows(10, 3, filter);
    ASSERT_EQ(rows.size(), 3u);
    EXPECT_EQ(rows[0].first, 0);
    EXPECT_EQ(rows[0].count, 4);
    EXPECT_EQ(rows[0].inputFirst, 0);
    EXPECT_EQ(rows[0].inputCount, 4);
    EXPECT_EQ(rows[1].first, 4);
    EXPECT_EQ(rows[1].count, 3);
    EXPECT_EQ(rows[1].inputFirst, 3);
    EXPECT_EQ(rows[1].inputCount, 4);
    EXPECT_EQ(rows[2].first, 7);
    EXPECT_EQ(rows[2].inputFirst, 6);
    EXPECT_EQ(rows[2].inputCount, 4);

    const ImageRGBA8 image = noiseImage(13, 10, 3);
    const Result result = run(first(), second(), image, paramsFor(filter, 3));
    const ImageRGBA8 convolved = convolve::referenceConvolve(image, filter);
    EXPECT_EQ(result.histogram,
              histogram::referenceHistogram(convolved.pixels.data(), convolved.pixelCount(), 64));
}

TEST_F(ProduceConsume, OtherStrategiesAndTransparencyAddUpAlike) {
    // A tiled convolution and a host histogram strategy (reading the hand-over buffer back on the consumer),
    // with transparent pixels left out of the colour channels.
    ImageRGBA8 image = noiseImage(41, 17, 11);
    for (int x = 0; x < image.width; ++x) image.pixel(x, 5)[3] = 0;
    Params params = paramsFor(convolve::sharpenFilter(), 4);
    params.convolution = &convolve::findStrategy("local-tiled");
    params.histogramStrategy = &histogram::findStrategy("serial");
    params.histogram.ignoreTransparent = true;
    const Result result = run(first(), second(), image, params);
    const ImageRGBA8 convolved = convolve::referenceConvolve(image, params.filter);
    EXPECT_EQ(result.histogram,
              histogram::referenceHistogram(convolved.pixels.data(), convolved.pixelCount(), 64, true));
    EXPECT_EQ(result.convolutionStrategy, "local-tiled");
    EXPECT_EQ(result.histogramStrategy, "serial");
}

TEST_F(ProduceConsume, ChunkCountOutsideTheRowsIsRefused) {
    const auto filter = convolve::boxFilter(3);
    EXPECT_TRUE(mentions(messageOf<UsageError>([&] { splitRows(9, 0, filter); }), "1..9"));
    EXPECT_TRUE(mentions(messageOf<UsageError>([&] { splitRows(9, 10, filter); }), "got 10"));
    const ImageRGBA8 image = noiseImage(5, 9, 1);
    EXPECT_TRUE(mentions(messageOf<UsageError>([&] { run(first(), second(), image, paramsFor(filter, 10)); }),
                         "chunks"));
}

TEST_F(ProduceConsume, PipeModeIsUnavailableOnPocl) {
    ASSERT_FALSE(first().info().pipeSupport) << "PoCL gained pipes: this test expects none";
    const std::string message =
        messageOf<OpenClError>([] { resolveMode(Mode::Pipe, first().info(), second().info()); });
    EXPECT_TRUE(mentions(message, "0:0")) << message;
    EXPECT_TRUE(mentions(message, "pipe support")) << message;

    const ImageRGBA8 image = noiseImage(8, 8, 2);
    Params params = paramsFor(convolve::boxFilter(3), 2);
    params.mode = Mode::Pipe;
    EXPECT_TRUE(mentions(messageOf<OpenClError>([&] { run(first(), second(), image, params); }), "pipe"));

    params.mode = Mode::Auto;
    const Result result = run(first(), second(), image, params);
    EXPECT_EQ(result.mode, Mode::Buffer);
    ASSERT_FALSE(result.notes.empty());
    EXPECT_TRUE(mentions(result.notes.back(), "auto chose buffer mode")) << result.notes.back();
}

DeviceInfo fakeDevice(int platform, int device, bool pipes) {
    DeviceInfo info;
    info.platformIndex = platform;
    info.deviceIndex = device;
    info.platformName = "Platform " + std::to_string(platform);
    info.name = "fake " + std::to_string(platform) + ":" + std::to_string(device);
    info.pipeSupport = pipes;
    info.openclVersion = pipes ? "OpenCL 2.0" : "OpenCL 1.2";
    return info;
}

TEST(ProduceConsumeRules, ModeRuleOnFakeDevices) {
    EXPECT_EQ(resolveMode(Mode::Auto, fakeDevice(0, 0, true), fakeDevice(0, 1, true)), Mode::Pipe);
    EXPECT_EQ(resolveMode(Mode::Auto, fakeDevice(0, 0, true), fakeDevice(0, 1, false)), Mode::Buffer);
    EXPECT_EQ(resolveMode(Mode::Buffer, fakeDevice(0, 0, true), fakeDevice(0, 1, true)), Mode::Buffer);
    // The device without pipes is the one named, the consumer here.
    const std::string problem = pipeProblem(fakeDevice(0, 0, true), fakeDevice(0, 1, false));
    EXPECT_TRUE(mentions(problem, "0:1")) << problem;
    EXPECT_FALSE(mentions(problem, "0:0")) << problem;
    EXPECT_EQ(parseMode("PIPE"), Mode::Pipe);
    EXPECT_EQ(modeName(parseMode("buffer")), "buffer");
    EXPECT_TRUE(mentions(messageOf<UsageError>([] { parseMode("pipes"); }), "auto, buffer, pipe"));
}

TEST_F(ProduceConsume, DevicesOfTwoPlatformsAreRefused) {
    const std::string message =
        messageOf<OpenClError>([] { checkPair(fakeDevice(0, 0, false), fakeDevice(1, 0, false)); });
    EXPECT_TRUE(mentions(message, "two platforms")) << message;
    EXPECT_TRUE(mentions(message, "0:0")) << message;
    EXPECT_TRUE(mentions(message, "1:0")) << message;
    EXPECT_TRUE(checkPair(fakeDevice(0, 0, false), fakeDevice(0, 1, false)).empty());
    EXPECT_TRUE(mentions(checkPair(fakeDevice(1, 2, false), fakeDevice(1, 2, false)), "same device"));
}

TEST_F(ProduceConsume, SameDeviceTwiceRunsAndSaysSo) {
    const ImageRGBA8 image = noiseImage(21, 15, 5);
    const Params params = paramsFor(convolve::boxFilter(5), 3);
    const Result result = run(first(), first(), image, params);
    EXPECT_EQ(result.values, singleDevice(image, params).values);
    ASSERT_FALSE(result.notes.empty());
    EXPECT_TRUE(mentions(result.notes.front(), "same device")) << result.notes.front();
    // One in-order queue runs one command at a time.
    EXPECT_EQ(result.overlapNs, 0u);
}

Timing record(std::uint64_t start, std::uint64_t end, bool host = false) {
    Timing timing;
    timing.stage = Stage::Kernel;
    timing.queuedNs = timing.submitNs = timing.startNs = start;
    timing.endNs = end;
    timing.host = host;
    return timing;
}

TEST(ProduceConsumeMeasure, OverlapIsTheIntersectionOfTheBusyUnions) {
    // a busy over [0, 15) (two records overlapping) and [20, 30); b over [5, 25); host work left out.
    const std::vector<Timing> a{record(0, 10), record(5, 15), record(20, 30), record(0, 100, true)};
    const std::vector<Timing> b{record(5, 25)};
    // [5, 15) and [20, 25): 10 + 5.
    EXPECT_EQ(overlapNs(a, b), 15u);
    EXPECT_EQ(overlapNs(b, a), 15u);
    EXPECT_EQ(overlapNs(a, {}), 0u);
    EXPECT_EQ(overlapNs({record(0, 5)}, {record(5, 9)}), 0u) << "touching is not overlapping";

    const std::vector<DeviceTimings> devices{{"producer", "0:0", "a", a}, {"consumer", "0:1", "b", b}};
    EXPECT_EQ(spanNs(devices), 30u) << "from the first start to the last end, host work left out";
    EXPECT_EQ(spanNs({}), 0u);
}

}  // namespace
}  // namespace hs::produce_consume
