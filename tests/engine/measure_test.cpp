// The measuring module: the one min / median / max, warm-ups left out, GB/s and baseline ratios, and the
// strategy comparison that uploads its input once.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/measure/compare.hpp"
#include "engine/measure/measure.hpp"
#include "engine/runtime/runtime.hpp"
#include "expect_error.hpp"
#include "handmade_timings.hpp"
#include "histogram_test_images.hpp"

namespace hs::measure {
namespace {

void expectSummary(const Summary& summary, double min, double median, double max) {
    EXPECT_DOUBLE_EQ(summary.min, min);
    EXPECT_DOUBLE_EQ(summary.median, median);
    EXPECT_DOUBLE_EQ(summary.max, max);
}

TEST(Summary, OfOneTwoThreeAndFourRuns) {
    expectSummary(Summary::of({5}), 5, 5, 5);
    expectSummary(Summary::of({9, 3}), 3, 6, 9);
    expectSummary(Summary::of({4, 9, 1}), 1, 4, 9);
    expectSummary(Summary::of({7, 1, 100, 2}), 1, 4.5, 100);
}

TEST(Summary, OfNoRunIsRefused) {
    EXPECT_TRUE(test::mentions(test::messageOf<UsageError>([] { Summary::of({}); }), "at least one"));
}

// Issue 8: the hand-made log of 4 runs (kernel times 7, 1, 100, 2 µs) has the median 4.5 µs.
TEST(Summary, KernelTimesOfTheHandmadeLog) {
    const auto runs = test::handmadeFourRuns();
    EXPECT_DOUBLE_EQ(kernelNs(runs[3]), 2'000);  // two kernels summed; upload and readback left out
    expectSummary(kernelSummary(runs), 1'000, test::kHandmadeMedianNs, 100'000);
}

TEST(Measure, WarmUpsAreRunButNotCounted) {
    const auto runs = test::handmadeFourRuns();
    int calls = 0;
    // The warm-up returns the 100 µs run: counted, it would be the maximum.
    const std::vector<std::size_t> order{2, 0, 1, 3};
    const Measurement measured =
        measure({Clock::Kernel, 1, 3, 9'000}, [&] { return runs[order[static_cast<std::size_t>(calls++)]]; });
    EXPECT_EQ(calls, 4);
    ASSERT_EQ(measured.runs.size(), 3u);
    EXPECT_EQ(measured.runs[0].size(), runs[0].size());
    EXPECT_EQ(measured.samplesNs, (std::vector<double>{7'000, 1'000, 2'000}));
    expectSummary(measured.summary, 1'000, 2'000, 7'000);
    EXPECT_DOUBLE_EQ(measured.gbps(), 4.5);  // 9000 bytes in 2000 ns
}

TEST(Measure, WithoutWarmUpEveryRunCounts) {
    const auto runs = test::handmadeFourRuns();
    std::size_t next = 0;
    const Measurement measured = measure({Clock::Kernel, 0, 4, 0}, [&] { return runs[next++]; });
    expectSummary(measured.summary, 1'000, test::kHandmadeMedianNs, 100'000);
}

TEST(Measure, StopsWhenToldAndOnlyAsksBeforeTimedRepetitions) {
    int runs = 0;
    int asked = 0;
    const auto stopped = measureWhile(
        {Clock::Kernel, 2, 10, 0}, [&] { return (++runs, std::vector<Timing>{}); },
        [&] { return ++asked < 3; });
    EXPECT_FALSE(stopped.has_value());
    EXPECT_EQ(asked, 3);
    EXPECT_EQ(runs, 2 + 2);  // the warm-ups, then two repetitions before the third question said stop
}

TEST(Measure, ZeroRepetitionsAreRefused) {
    EXPECT_TRUE(test::mentions(test::messageOf<UsageError>([] {
                                   measure({Clock::Wall, 1, 0, 0}, [] { return std::vector<Timing>{}; });
                               }),
                               "at least one repetition"));
}

TEST(Measure, GigabytesPerSecondAndRatios) {
    EXPECT_DOUBLE_EQ(gigabytesPerSecond(4'000'000'000, 2e9), 2.0);
    EXPECT_DOUBLE_EQ(gigabytesPerSecond(4'000, 0), 0.0);
    EXPECT_DOUBLE_EQ(ratioToBaseline({1, 4, 9}, {2, 10, 20}).value(), 2.5);
    EXPECT_FALSE(ratioToBaseline({0, 0, 0}, {2, 10, 20}).has_value());
    EXPECT_FALSE(ratioToBaseline({1, 4, 9}, {0, 0, 0}).has_value());
    EXPECT_EQ(clockName(Clock::Kernel), "device");
    EXPECT_EQ(clockName(Clock::Wall), "host");
}

std::size_t uploads(const std::vector<Timing>& timings) {
    return static_cast<std::size_t>(std::count_if(timings.begin(), timings.end(),
                                                  [](const Timing& t) { return t.stage == Stage::Upload; }));
}

Runtime& runtime() {
    static Runtime instance;
    return instance;
}

TEST(Compare, UploadsOnceForEveryStrategyAndRepetition) {
    const ImageRGBA8 image =
        histogram::test_images::makeImage(96, 64, histogram::test_images::Pattern::Uniform);
    DeviceContext& device = runtime().open("0:0");
    const histogram::Params params{64};
    constexpr int kRepetitions = 3;
    std::vector<int> progress;
    int total = 0;
    const auto comparison = compareHistogramStrategies(
        &device, image, params, kRepetitions,
        {nullptr, [&](int done, int of) { progress.push_back(done), total = of; }});
    EXPECT_EQ(comparison.bytes, image.byteCount());
    ASSERT_EQ(comparison.strategies.size(), histogram::strategies().size());
    EXPECT_FALSE(comparison.stopped);

    int measured = 0;
    std::size_t deviceRuns = 0;
    for (std::size_t i = 0; i < comparison.strategies.size(); ++i) {
        const auto& entry = comparison.strategies[i];
        const auto& strategy = *histogram::strategies()[i];
        SCOPED_TRACE(entry.strategy);
        EXPECT_EQ(entry.strategy, strategy.name());
        EXPECT_EQ(entry.measured(), strategy.supported(&device.info(), {}, params).ok) << entry.unsupported;
        if (!entry.measured()) continue;
        ++measured;
        if (strategy.runsOnDevice()) deviceRuns += kRepetitions + 1;
        EXPECT_LE(entry.kernel->min, entry.kernel->median);
        EXPECT_LE(entry.kernel->median, entry.kernel->max);
        EXPECT_DOUBLE_EQ(entry.gbps, gigabytesPerSecond(image.byteCount(), entry.kernel->median));
        if (entry.strategy == kCompareBaseline) {
            EXPECT_DOUBLE_EQ(entry.ratioToBaseline.value(), 1.0);
        }
    }
    ASSERT_GT(deviceRuns, 0u) << "no device strategy ran";
    // One upload for the whole comparison, however many device runs read the pixels.
    EXPECT_EQ(uploads(comparison.timings), 1u);
    EXPECT_EQ(comparison.timings.front().stage, Stage::Upload);
    EXPECT_EQ(total, measured * kRepetitions);
    ASSERT_EQ(progress.size(), static_cast<std::size_t>(total));
    for (std::size_t i = 0; i < progress.size(); ++i) EXPECT_EQ(progress[i], static_cast<int>(i) + 1);
}

TEST(Compare, WithoutADeviceHostStrategiesRunAndNothingIsUploaded) {
    const ImageRGBA8 image =
        histogram::test_images::makeImage(40, 30, histogram::test_images::Pattern::Uniform);
    const auto comparison = compareHistogramStrategies(nullptr, image, {}, 2);
    for (const auto& entry : comparison.strategies) {
        SCOPED_TRACE(entry.strategy);
        const bool onDevice = histogram::findStrategy(entry.strategy).runsOnDevice();
        EXPECT_EQ(entry.measured(), !onDevice);
        if (onDevice) {
            EXPECT_EQ(entry.unsupported, "needs an OpenCL device");
        }
    }
    EXPECT_EQ(uploads(comparison.timings), 0u);
}

TEST(Compare, StopsWhenNoLongerWantedKeepingWhatItMeasured) {
    const ImageRGBA8 image =
        histogram::test_images::makeImage(40, 30, histogram::test_images::Pattern::Uniform);
    // Asked before each measured repetition (not the warm-up): the first strategy that runs completes (2
    // asks), the second is stopped at its first.
    constexpr int kRepetitions = 2;
    int asked = 0;
    const auto comparison = compareHistogramStrategies(&runtime().open("0:0"), image, {}, kRepetitions,
                                                       {[&] { return ++asked <= kRepetitions; }, nullptr});
    EXPECT_TRUE(comparison.stopped);
    EXPECT_EQ(asked, kRepetitions + 1);
    int measured = 0;
    bool stoppedSeen = false;
    for (const auto& entry : comparison.strategies) {
        SCOPED_TRACE(entry.strategy);
        if (entry.measured()) {
            ++measured;
            EXPECT_FALSE(stoppedSeen) << "a strategy measured after the stop";
        } else if (entry.unsupported == kNotMeasured) {
            stoppedSeen = true;
        }
    }
    EXPECT_EQ(measured, 1);
    EXPECT_TRUE(stoppedSeen);
}

}  // namespace
}  // namespace hs::measure
