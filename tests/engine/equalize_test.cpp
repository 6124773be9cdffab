// The equalize stage: its CPU reference against hand-computed tables (OpenCV's equalizeHist rule), and the
// device against the reference on images of every shape of histogram.
#include <gtest/gtest.h>

#include <random>

#include "engine/ops/pipeline/pipeline.hpp"
#include "engine/stages/stage.hpp"
#include "pipeline_test_support.hpp"

namespace hs::stages {
namespace {

using hs::testing::noiseImage;
using hs::testing::testDevice;

std::shared_ptr<const Stage> equalize() {
    return findKind("equalize").configure({}, "", nullptr);
}

// A one-row image whose r channel is `red`; g and b hold other values, alpha a pattern that must survive.
ImageRGBA8 rowOf(const std::vector<std::uint8_t>& red) {
    ImageRGBA8 image(static_cast<int>(red.size()), 1);
    for (std::size_t p = 0; p < red.size(); ++p) {
        image.pixels[4 * p] = red[p];
        image.pixels[4 * p + 1] = static_cast<std::uint8_t>(p * 7);
        image.pixels[4 * p + 2] = 200;  // one value: stays as it is
        image.pixels[4 * p + 3] = static_cast<std::uint8_t>(255 - p);
    }
    return image;
}

std::vector<std::uint8_t> channel(const ImageRGBA8& image, int c) {
    std::vector<std::uint8_t> values;
    for (std::size_t p = 0; p < image.pixelCount(); ++p)
        values.push_back(image.pixels[4 * p + static_cast<std::size_t>(c)]);
    return values;
}

ImageRGBA8 onDevice(const ImageRGBA8& image) {
    PixelSource input(image);
    pipeline::Result result = pipeline::runPipeline(testDevice(), input, StageList{equalize()});
    return result.readBack();
}

TEST(Equalize, ReferenceFollowsTheRuleByHand) {
    // r: 0, 0, 1, 2 -> counts 2, 1, 1; cdf 2, 3, 4; cdf_min 2, N 4, s = 255 / 2 = 127.5.
    // lut[0] = 0, lut[1] = rte(1 * 127.5) = 128 (a tie, to even), lut[2] = rte(2 * 127.5) = 255.
    const auto image = rowOf({0, 0, 1, 2});
    const auto out = equalize()->reference(image);
    EXPECT_EQ(channel(out, 0), (std::vector<std::uint8_t>{0, 0, 128, 255}));
    EXPECT_EQ(channel(out, 2), channel(image, 2)) << "a channel of one value stays as it is";
    EXPECT_EQ(channel(out, 3), channel(image, 3)) << "alpha unchanged";
}

TEST(Equalize, TiesGoToTheEvenNeighbourBelowToo) {
    // r: one 0, one 1, 101 twos: cdf_min 1, N 103, s = 255 / 102 = 2.5 exactly; lut[1] = rte(2.5) = 2 (even,
    // not 3), lut[2] = rte(102 * 2.5) = 255.
    std::vector<std::uint8_t> red(103, 2);
    red[0] = 0;
    red[1] = 1;
    const auto out = equalize()->reference(rowOf(red));
    const auto r = channel(out, 0);
    EXPECT_EQ(r[0], 0);
    EXPECT_EQ(r[1], 2);
    EXPECT_EQ(r[2], 255);
}

TEST(Equalize, SinglePrecisionAsOpenCvComputesIt) {
    // N - cdf_min = 3: s = float(255 / 3) = 85 exactly, but with N - cdf_min = 7, s = 36.428571... rounds in
    // float; each table entry is float(cdf - cdf_min) * s rounded once. Computed here with floats, as numpy
    // would with np.float32.
    const auto out = equalize()->reference(rowOf({5, 6, 6, 7, 9, 9, 9, 200}));
    const float s = 255.0f / 7.0f;
    const auto expect = [&](int cdfMinusMin) {
        return static_cast<std::uint8_t>(std::nearbyint(static_cast<float>(cdfMinusMin) * s));
    };
    EXPECT_EQ(channel(out, 0), (std::vector<std::uint8_t>{0, expect(2), expect(2), expect(3), expect(6),
                                                          expect(6), expect(6), 255}));
}

TEST(Equalize, DeviceEqualsTheReference) {
    std::mt19937 random(7);
    std::vector<ImageRGBA8> images = {noiseImage(257, 129, 3), noiseImage(1, 1, 4), rowOf({0, 0, 1, 2})};
    // Skewed histograms: few values, most pixels on one value, a gradient; sizes that are no multiple of a
    // work-group.
    ImageRGBA8 skewed(333, 77);
    for (std::size_t i = 0; i < skewed.pixels.size(); ++i)
        skewed.pixels[i] = static_cast<std::uint8_t>(random() % 100 < 90 ? 40 : 40 + random() % 3);
    images.push_back(skewed);
    ImageRGBA8 gradient(256, 3);
    for (std::size_t p = 0; p < gradient.pixelCount(); ++p)
        for (std::size_t c = 0; c < 4; ++c)
            gradient.pixels[4 * p + c] = static_cast<std::uint8_t>((p * (c + 1)) % 256);
    images.push_back(gradient);
    for (const auto& image : images) {
        const auto expected = equalize()->reference(image);
        const auto difference = hs::testing::compare(onDevice(image), expected);
        EXPECT_EQ(difference.differing, 0u) << image.width << "x" << image.height << ": " << difference.first;
    }
}

TEST(Equalize, RunsInTheOrderOfTheList) {
    // Equalize then rotate differs from rotate then equalize (the rotation's transparent corners count);
    // each equals its own composition of references.
    const auto image = noiseImage(64, 48, 11);
    const auto& rotate = findKind("rotate");
    const auto turn = rotate.configure({{"angle", "30"}, {"sampling", "nearest"}}, "buffer", nullptr);
    for (const StageList& list : {StageList{equalize(), turn}, StageList{turn, equalize()}}) {
        PixelSource input(image);
        pipeline::Result result = pipeline::runPipeline(testDevice(), input, list);
        ASSERT_EQ(result.stages.size(), 2u);
        EXPECT_EQ(result.stages[0].stage, list[0]->kind().name());
        EXPECT_EQ(result.stages[1].stage, list[1]->kind().name());
        const auto difference =
            hs::testing::compare(result.readBack(), pipeline::referencePipeline(image, list));
        EXPECT_EQ(difference.differing, 0u) << difference.first;
    }
    EXPECT_NE(pipeline::referencePipeline(image, {equalize(), turn}),
              pipeline::referencePipeline(image, {turn, equalize()}));
}

TEST(Equalize, TakesNoParametersOrStrategies) {
    EXPECT_THROW(findKind("equalize").configure({{"bins", "4"}}, "", nullptr), UsageError);
    EXPECT_THROW(findKind("equalize").configure({}, "local-atomic", nullptr), UsageError);
}

TEST(StageOrder, AnImageStageAfterAMeasurementIsRefused) {
    const auto histogram = findKind("histogram").configure({}, "", nullptr);
    EXPECT_THROW(validateOrder({histogram, equalize()}), UsageError);
    EXPECT_NO_THROW(validateOrder({equalize(), histogram}));
}

}  // namespace
}  // namespace hs::stages
