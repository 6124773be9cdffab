#include <gtest/gtest.h>

#include <cmath>

#include "engine/ops/pipeline/pipeline.hpp"
#include "engine/runtime/error.hpp"
#include "pipeline_test_support.hpp"

namespace hs::pipeline {
namespace {

using hs::testing::compare;
using hs::testing::noiseImage;
using hs::testing::testDevice;

std::size_t countNamed(const std::vector<Timing>& timings, std::string_view name) {
    return static_cast<std::size_t>(
        std::count_if(timings.begin(), timings.end(), [&](const Timing& t) { return t.name == name; }));
}

TEST(Pipeline, EqualsTheCompositionOfTheReferencesAndKeepsPixelsOnTheDevice) {
    // Exact stages (a quarter turn of a square image with nearest sampling, an integer filter), so the
    // composition must match bit for bit.
    const auto image = noiseImage(257, 257, 21);
    Spec spec;
    spec.rotation = RotateStage{{90.0, rotate::FilterMode::Nearest}, &rotate::findStrategy("image-sampler")};
    spec.convolution = ConvolveStage{convolve::sharpenFilter(), &convolve::findStrategy("local-tiled")};
    spec.histogram = HistogramStage{{64}, &histogram::findStrategy("partial-reduce")};

    PixelSource source(image);
    Result result = runPipeline(testDevice(), source, spec);
    ASSERT_EQ(result.stages.size(), 3u);
    EXPECT_EQ(result.stages[0].stage, "rotate");
    EXPECT_EQ(result.stages[1].stage, "convolve");
    EXPECT_EQ(result.stages[2].stage, "histogram");
    EXPECT_EQ(result.stages[0].strategy, spec.rotation->strategy);
    EXPECT_EQ(result.stages[1].strategy, spec.convolution->strategy);
    EXPECT_EQ(result.stages[2].strategy, spec.histogram->strategy);
    EXPECT_EQ(result.stage("convolve"), &result.stages[1]);
    // Each stage carries the program it built, as kernelBuild() describes it for this device and input.
    EXPECT_EQ(result.stages[0].builds, std::vector{*spec.rotation->strategy->kernelBuild(
                                           testDevice().info(), spec.rotation->params, {257, 257})});
    EXPECT_EQ(result.stages[1].builds, std::vector{*spec.convolution->strategy->kernelBuild(
                                           testDevice().info(), spec.convolution->filter, {257, 257})});
    EXPECT_EQ(result.stages[2].builds, std::vector{*spec.histogram->strategy->kernelBuild(
                                           testDevice().info(), spec.histogram->params, {257, 257})});

    const auto timings = result.timings();
    std::size_t pixelUploads = 0;
    for (const auto& timing : timings) {
        if (timing.name.find("upload pixels") != std::string::npos) ++pixelUploads;
        EXPECT_EQ(timing.name.find("read pixels"), std::string::npos) << "no pixel readback between stages";
    }
    EXPECT_EQ(pixelUploads, 1u) << "one upload, at the first stage";
    EXPECT_EQ(countNamed(timings, "rotate: upload pixels to image"), 1u);
    EXPECT_GT(totalNs(result.stages[1].timings, Stage::Kernel), 0u);

    const auto expected = referencePipeline(image, spec);
    EXPECT_EQ(expected, convolve::referenceConvolve(rotate::referenceRotate(image, spec.rotation->params),
                                                    spec.convolution->filter));
    ASSERT_TRUE(result.histogram);
    EXPECT_EQ(*result.histogram,
              histogram::referenceHistogram(expected.pixels.data(), expected.pixelCount(), 64));

    const auto processed = result.readBack();
    EXPECT_EQ(compare(processed, expected).differing, 0u) << compare(processed, expected).first;
    EXPECT_EQ(result.stages.back().stage, kReadback);
    EXPECT_EQ(result.stages.back().strategy, nullptr);
    EXPECT_EQ(result.stages.back().stage, "readback");
    EXPECT_EQ(countNamed(result.stages.back().timings, "read pixels"), 1u);
}

TEST(Pipeline, IgnoresTheTransparentPaddingOfARotationWhenAsked) {
    // A quarter turn of a 96 x 40 image in its own 96 x 40 canvas leaves transparent black padding left and
    // right; nearest sampling is exact, so the histogram must equal the reference's bin for bin.
    const auto image = noiseImage(96, 40, 5);
    Spec spec;
    spec.rotation = RotateStage{{90.0, rotate::FilterMode::Nearest}, &rotate::findStrategy("buffer")};
    const auto rotated = referencePipeline(image, spec);
    const auto reference = [&rotated](bool ignoreTransparent) {
        return histogram::referenceHistogram(rotated.pixels.data(), rotated.pixelCount(), 100,
                                             ignoreTransparent);
    };
    for (const bool ignoreTransparent : {false, true}) {
        SCOPED_TRACE(ignoreTransparent ? "ignoring transparent pixels" : "counting every pixel");
        spec.histogram = HistogramStage{{100, ignoreTransparent}, &histogram::findStrategy("private-uchar")};
        PixelSource source(image);
        Result result = runPipeline(testDevice(), source, spec);
        ASSERT_TRUE(result.histogram);
        EXPECT_EQ(*result.histogram, reference(ignoreTransparent));
        ASSERT_TRUE(result.values);
        EXPECT_EQ(result.values->bins, histogram::kMaxBins);
    }
    // The padding (the 28 columns either side of the 40-wide rotated image) counts as black unless ignored.
    const auto everyPixel = reference(false);
    const auto ignoring = reference(true);
    EXPECT_GE(everyPixel[histogram::Channel::Luma][0] - ignoring[histogram::Channel::Luma][0], 2u * 28 * 40);
}

TEST(Pipeline, InexactStagesStayWithinTheirTolerances) {
    // A bilinear rotation is within 1 of its reference; a Gaussian (positive weights summing to 1) carries
    // that difference through and may add its own rounding step: within 2 of the composed references.
    const auto image = noiseImage(301, 211, 4);
    Spec spec;
    spec.rotation = RotateStage{{33.3, rotate::FilterMode::Linear}, &rotate::findStrategy("buffer")};
    spec.convolution = ConvolveStage{convolve::gaussianFilter(1.5), &convolve::findStrategy("separable")};
    PixelSource source(image);
    Result result = runPipeline(testDevice(), source, spec);
    EXPECT_FALSE(result.histogram);
    EXPECT_LE(compare(result.readBack(), referencePipeline(image, spec)).maxAbs, 2);
}

TEST(Pipeline, AFittedCanvasFlowsThroughTheLaterStages) {
    // 108 degrees onto a fitted canvas (the bilinear buffer kernel is within 1 of its reference), a box
    // filter that carries that difference and may add a rounding step (within 2, as above), and the histogram
    // of every pixel of the larger canvas.
    const auto image = noiseImage(97, 61, 5);
    Spec spec;
    spec.rotation = RotateStage{{108.0, rotate::FilterMode::Linear, true}, &rotate::findStrategy("buffer")};
    spec.convolution = ConvolveStage{convolve::boxFilter(3), &convolve::findStrategy("local-tiled")};
    spec.histogram = HistogramStage{{256}, &histogram::findStrategy("partial-reduce")};
    PixelSource source(image);
    Result result = runPipeline(testDevice(), source, spec);
    const auto expected = referencePipeline(image, spec);
    const auto size = rotate::outputSize(spec.rotation->params, 97, 61);
    ASSERT_EQ(expected.width, size.width);
    ASSERT_EQ(expected.height, size.height);
    ASSERT_TRUE(result.histogram);
    EXPECT_EQ(result.histogram->total(histogram::Channel::A), expected.pixelCount());
    const auto processed = result.readBack();
    ASSERT_EQ(processed.width, size.width);
    ASSERT_EQ(processed.height, size.height);
    EXPECT_LE(compare(processed, expected).maxAbs, 2) << compare(processed, expected).first;
}

TEST(Pipeline, EveryStageIsOptional) {
    const auto image = noiseImage(64, 48, 9);
    {
        Spec histogramOnly;
        histogramOnly.histogram = HistogramStage{{256}, &histogram::findStrategy("serial")};
        PixelSource source(image);
        Result result = runPipeline(testDevice(), source, histogramOnly);
        ASSERT_TRUE(result.histogram);
        EXPECT_EQ(*result.histogram,
                  histogram::referenceHistogram(image.pixels.data(), image.pixelCount(), 256));
        EXPECT_TRUE(result.image.onDevice(testDevice())) << "the output lives on the device for display";
        EXPECT_EQ(result.readBack(), image);
    }
    {
        Spec convolveOnly;
        convolveOnly.convolution =
            ConvolveStage{convolve::embossFilter(), &convolve::findStrategy("buffer-naive")};
        PixelSource source(image);
        Result result = runPipeline(testDevice(), source, convolveOnly);
        ASSERT_EQ(result.stages.size(), 1u);
        EXPECT_EQ(result.readBack(), convolve::referenceConvolve(image, convolve::embossFilter()));
    }
    {
        PixelSource source(image);
        Result result = runPipeline(testDevice(), source, Spec{});
        EXPECT_EQ(result.readBack(), image);
    }
}

TEST(Pipeline, AFallbackIsReportedOnItsStage) {
    const auto image = noiseImage(32, 32, 1);
    Spec spec;
    spec.convolution = ConvolveStage{convolve::sobelFilter(), &convolve::findStrategy("separable")};
    PixelSource source(image);
    Result result = runPipeline(testDevice(), source, spec);
    EXPECT_EQ(result.stages[0].strategy, &convolve::bufferStrategy());
    EXPECT_NE(result.stages[0].note.find("separable unsupported"), std::string::npos)
        << result.stages[0].note;
    EXPECT_EQ(result.readBack(), convolve::referenceConvolve(image, convolve::sobelFilter()));
}

TEST(Pipeline, BadStagesAreRejectedBeforeAnythingRuns) {
    const auto image = noiseImage(8, 8, 2);
    Spec spec;
    spec.rotation = RotateStage{{std::nan(""), rotate::FilterMode::Linear}};
    PixelSource source(image);
    EXPECT_THROW(runPipeline(testDevice(), source, spec), UsageError);
    spec.rotation.reset();
    spec.histogram = HistogramStage{{0}};
    EXPECT_THROW(runPipeline(testDevice(), source, spec), UsageError);
    spec.histogram.reset();
    spec.convolution = ConvolveStage{convolve::boxFilter(3)};
    spec.convolution->filter.divisor = 0;
    EXPECT_THROW(runPipeline(testDevice(), source, spec), UsageError);
}

}  // namespace
}  // namespace hs::pipeline
