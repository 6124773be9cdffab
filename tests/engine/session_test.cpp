// The session's execution modes and repetitions: the host alone, one device with its cached input, two
// devices as producer and consumer, and measure's runs handed over one by one. Histograms are checked against
// the CPU references of the stages (histogram::referenceHistogram over referenceConvolve).
#include "session/session.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "engine/ops/convolve/convolve.hpp"
#include "engine/runtime/error.hpp"
#include "engine/stages/builtin.hpp"
#include "expect_error.hpp"
#include "pipeline_test_support.hpp"

namespace hs::session {
namespace {

using hs::test::mentions;
using hs::test::messageOf;
using hs::testing::noiseImage;

std::shared_ptr<const stages::Stage> counting(int bins, std::string_view strategy) {
    return stages::histogramStage({bins, false}, histogram::findStrategy(strategy));
}

RunSpec specOf(const std::shared_ptr<const ImageRGBA8>& image, stages::StageList list) {
    RunSpec spec;
    spec.image = image;
    spec.device = "0:0";
    spec.stages = std::move(list);
    return spec;
}

histogram::Histogram referenceOf(const ImageRGBA8& image, int bins) {
    return histogram::referenceHistogram(image.pixels.data(), image.pixelCount(), bins);
}

TEST(Session, TheHostAloneCountsWithAHostStrategyAndOpensNoDevice) {
    Session session;
    const auto image = std::make_shared<const ImageRGBA8>(noiseImage(37, 23, 5));
    RunSpec spec = specOf(image, {counting(64, "serial")});
    spec.onHost = true;
    const RunReport report = session.run(spec);
    EXPECT_FALSE(report.onDevice());
    ASSERT_TRUE(report.result.histogram);
    EXPECT_EQ(report.result.histogram->counts, referenceOf(*image, 64).counts);
    ASSERT_EQ(report.result.stages.size(), 1u) << "no transfer: nothing went to a device";
    EXPECT_EQ(report.result.stages[0].stage, "histogram");
    EXPECT_EQ(report.result.stages[0].strategy->name(), "serial");
    for (const auto& timing : report.result.timings()) EXPECT_EQ(timing.device, "") << timing.name;
}

TEST(Session, TheHostAloneRefusesAnImageStageNamingIt) {
    Session session;
    RunSpec spec =
        specOf(std::make_shared<const ImageRGBA8>(noiseImage(8, 8, 1)),
               {stages::rotateStage({30.0}, *rotate::strategies().front()), counting(256, "serial")});
    spec.onHost = true;
    const std::string message = messageOf<UsageError>([&] { session.run(spec); });
    EXPECT_TRUE(mentions(message, "rotate")) << message;
    EXPECT_TRUE(mentions(message, "none is selected")) << message;
}

TEST(Session, AnImageRunAgainOnItsDeviceIsUploadedOnce) {
    Session session;
    const auto image = std::make_shared<const ImageRGBA8>(noiseImage(40, 30, 2));
    const RunSpec spec = specOf(image, {counting(256, "local-atomic")});
    const RunReport first = session.run(spec);
    const RunReport second = session.run(spec);
    EXPECT_TRUE(first.result.stage(pipeline::kUpload)) << "the first run uploads the image";
    EXPECT_FALSE(second.result.stage(pipeline::kUpload)) << "the second finds it on the device";
    EXPECT_EQ(second.result.histogram->counts, referenceOf(*image, 256).counts);

    // Another image of the same pixels is another image: uploaded anew.
    const RunReport other = session.run(specOf(std::make_shared<const ImageRGBA8>(*image), spec.stages));
    EXPECT_TRUE(other.result.stage(pipeline::kUpload));
    EXPECT_EQ(other.result.histogram->counts, referenceOf(*image, 256).counts);
}

TEST(Session, RepetitionsHandOverEveryTimedRunAndNoWarmUp) {
    Session session;
    const auto image = std::make_shared<const ImageRGBA8>(noiseImage(16, 16, 3));
    const RunSpec spec = specOf(image, {counting(16, "global-atomic")});
    int handedOver = 0;
    const auto measured =
        session.measure(spec, {measure::Clock::Kernel, 2, 3, 0}, nullptr, [&](RunReport& report) {
            ++handedOver;
            EXPECT_EQ(report.result.histogram->counts, referenceOf(*image, 16).counts);
        });
    ASSERT_TRUE(measured);
    EXPECT_EQ(handedOver, 3) << "the two warm-ups are not handed over";
    EXPECT_EQ(measured->runs.size(), 3u);
    EXPECT_EQ(measured->samplesNs.size(), 3u);

    // Stopped before the third timed run (superseded, cancelled): nothing measured, two runs seen.
    handedOver = 0;
    int asked = 0;
    const auto stopped = session.measure(
        spec, {measure::Clock::Kernel, 0, 5, 0}, [&] { return ++asked <= 2; },
        [&](RunReport&) { ++handedOver; });
    EXPECT_FALSE(stopped);
    EXPECT_EQ(handedOver, 2);
}

TEST(Session, TwoDevicesCountWhatTheReferencesCount) {
    Session session;
    if (!hs::testing::twoDevicesOfPlatformZero(session.runtime().devices()))
        GTEST_SKIP() << "needs two OpenCL devices of platform 0";
    const auto image = std::make_shared<const ImageRGBA8>(noiseImage(61, 47, 4));
    const convolve::Filter filter = convolve::boxFilter(3);
    RunSpec spec = specOf(image, {stages::convolveStage(filter, convolve::findStrategy("buffer-naive")),
                                  counting(32, "local-atomic")});
    spec.twoDevices = TwoDevices{"0:1", produce_consume::Mode::Buffer, 3};
    const RunReport report = session.run(spec);

    ASSERT_TRUE(report.result.histogram);
    EXPECT_EQ(report.result.histogram->counts,
              referenceOf(convolve::referenceConvolve(*image, filter), 32).counts);
    ASSERT_TRUE(report.consumer);
    ASSERT_TRUE(report.twoDevices);
    EXPECT_EQ(report.twoDevices->chunks.size(), 3u);
    ASSERT_EQ(report.result.stages.size(), 2u);
    EXPECT_EQ(report.result.stages[0].stage, "convolve");
    EXPECT_EQ(report.result.stages[0].strategy->name(), "buffer-naive");
    EXPECT_EQ(report.result.stages[1].stage, "histogram");
    EXPECT_EQ(report.result.stages[1].strategy->name(), "local-atomic");
    // Each stage's device records carry the device that ran them, and a stage.
    for (const auto& timing : report.result.timings()) {
        EXPECT_FALSE(timing.step.empty()) << timing.name;
        if (!timing.host) {
            EXPECT_FALSE(timing.device.empty()) << timing.name;
        }
    }
    EXPECT_EQ(report.result.stages[0].timings.size(), report.twoDevices->devices[0].timings.size());
    EXPECT_EQ(report.result.stages[1].timings.size(), report.twoDevices->devices[1].timings.size());
}

TEST(Session, TwoDevicesRunAConvolutionAndAHistogramOnly) {
    Session session;
    RunSpec spec =
        specOf(std::make_shared<const ImageRGBA8>(noiseImage(8, 8, 1)),
               {stages::rotateStage({30.0}, *rotate::strategies().front()),
                stages::convolveStage(convolve::boxFilter(3), convolve::findStrategy("buffer-naive")),
                counting(256, "serial")});
    spec.twoDevices = TwoDevices{"0:1", produce_consume::Mode::Auto, 2};
    const std::string message = messageOf<UsageError>([&] { session.run(spec); });
    EXPECT_TRUE(mentions(message, "no other stage")) << message;
}

}  // namespace
}  // namespace hs::session
