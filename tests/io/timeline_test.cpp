// A produce-consume run on the timeline: one lane per device even when both devices share a name (PoCL's two
// pthread devices), and the overlap of the two lanes against hand-computed stretches and against the engine's
// own overlap arithmetic (produce_consume::overlapNs, a separate implementation).
#include <gtest/gtest.h>

#include <utility>
#include <vector>

#include "engine/ops/produce_consume/produce_consume.hpp"
#include "io/timeline.hpp"

namespace hs::io {
namespace {

constexpr std::uint64_t kBase = 5'000'000'000;

// A command queued at kBase and running from `startUs` to `endUs` after it.
Timing command(Stage stage, const char* name, double startUs, double endUs, bool host = false) {
    const auto ns = [](double us) { return kBase + static_cast<std::uint64_t>(us * 1000); };
    return {stage, name, kBase, kBase, ns(startUs), ns(endUs), host};
}

// Two devices of one name: the producer convolves 0..100, 150..250 and 300..400 µs, the consumer counts
// 100..200 (it touches the first chunk, so no overlap there) and 240..320, with host work 0..400 µs
// beside it that must not count as a device being busy.
produce_consume::Result handMadeResult() {
    produce_consume::Result result;
    result.convolutionStrategy = "local-tiled";
    result.histogramStrategy = "private-uchar";
    result.devices.push_back({"producer",
                              "0:0",
                              "pthread-cpu",
                              {command(Stage::Kernel, "chunk 1/3: convolve", 0, 100),
                               command(Stage::Kernel, "chunk 2/3: convolve", 150, 250),
                               command(Stage::Kernel, "chunk 3/3: convolve", 300, 400)}});
    result.devices.push_back({"consumer",
                              "0:1",
                              "pthread-cpu",
                              {command(Stage::Kernel, "chunk 1/3: count", 100, 200),
                               command(Stage::Other, "chunk 1/3: merge on host", 0, 400, true),
                               command(Stage::Kernel, "chunk 2/3: count", 240, 320)}});
    return result;
}

TEST(ProduceConsumeTimeline, OneLanePerDeviceSelectorThoughTheNamesAreEqual) {
    const Timeline timeline = timelineOf(runTimingsOf(handMadeResult(), 3));
    ASSERT_EQ(timeline.lanes.size(), 3u);  // producer, consumer, host
    EXPECT_EQ(timeline.lanes[0], QStringLiteral("producer: pthread-cpu (0:0)"));
    EXPECT_EQ(timeline.lanes[1], QStringLiteral("consumer: pthread-cpu (0:1)"));
    EXPECT_EQ(timeline.lanes[2], hostLaneName());
    std::vector<int> barsPerLane(timeline.lanes.size(), 0);
    for (const auto& bar : timeline.bars) ++barsPerLane[static_cast<std::size_t>(bar.lane)];
    EXPECT_EQ(barsPerLane, (std::vector<int>{3, 2, 1}));
}

TEST(ProduceConsumeTimeline, OverlapIsWhereBothDeviceLanesAreBusy) {
    const Timeline timeline = timelineOf(runTimingsOf(handMadeResult(), 1));
    // 150..200 (chunk 2 beside count 1), 240..250 (chunk 2 beside count 2), 300..320 (chunk 3 beside count
    // 2); 100 is only a touch, and the host lane, busy throughout, is no device.
    const std::vector<std::pair<double, double>> expected{{150, 200}, {240, 250}, {300, 320}};
    EXPECT_EQ(overlapUs(timeline), expected);
}

TEST(ProduceConsumeTimeline, OverlapAddsUpToTheEnginesOverlap) {
    const produce_consume::Result result = handMadeResult();
    std::vector<Timing> consumerQueue;
    for (const auto& timing : result.devices[1].timings)
        if (!timing.host) consumerQueue.push_back(timing);
    const std::uint64_t engineNs = produce_consume::overlapNs(result.devices[0].timings, consumerQueue);
    double totalUs = 0;
    for (const auto& [from, to] : overlapUs(timelineOf(runTimingsOf(result, 1)))) totalUs += to - from;
    EXPECT_DOUBLE_EQ(totalUs * 1000, static_cast<double>(engineNs));
    EXPECT_EQ(engineNs, 80'000u);
}

TEST(ProduceConsumeTimeline, OneLaneAloneHasNoOverlap) {
    RunTimings run;
    run.devices.push_back({QStringLiteral("gpu (0:0)"),
                           {command(Stage::Kernel, "a", 0, 100), command(Stage::Kernel, "b", 50, 150)}});
    EXPECT_TRUE(overlapUs(timelineOf(run)).empty());
}

}  // namespace
}  // namespace hs::io
