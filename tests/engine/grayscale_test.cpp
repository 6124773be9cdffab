// The grayscale stage: its reference against hand-computed lumas, and the device against the reference and
// against the histogram's own luma (the output's r histogram is the input's luma histogram).
#include <gtest/gtest.h>

#include "ops/histogram/histogram.hpp"
#include "ops/pipeline/pipeline.hpp"
#include "pipeline_test_support.hpp"
#include "stages/stage.hpp"

namespace hs::stages {
namespace {

using hs::testing::noiseImage;
using hs::testing::testDevice;

std::shared_ptr<const Stage> grayscale() {
    return findKind("grayscale").configure({}, "", nullptr);
}

ImageRGBA8 onDevice(const ImageRGBA8& image) {
    PixelSource input(image);
    return pipeline::runPipeline(testDevice(), input, StageList{grayscale()}).readBack();
}

TEST(Grayscale, ReferenceTakesTheLumaByHand) {
    // (299 R + 587 G + 114 B + 500) / 1000: red 76.745 -> 76, green 150.185 -> 150, blue 29.57 -> 29,
    // (10, 20, 30): (2990 + 11740 + 3420 + 500) / 1000 = 18.65 -> 18; white stays white; alpha kept.
    ImageRGBA8 image(5, 1);
    image.pixels = {255, 0, 0, 7, 0, 255, 0, 0, 0, 0, 255, 255, 10, 20, 30, 128, 255, 255, 255, 1};
    const auto out = grayscale()->reference(image);
    EXPECT_EQ(out.pixels, (std::vector<std::uint8_t>{76, 76,  76, 7,  150, 150, 150, 0,   29,  29,
                                                     29, 255, 18, 18, 18,  128, 255, 255, 255, 1}));
}

TEST(Grayscale, DeviceEqualsTheReferenceAndItsRedCountsAreTheLumaCounts) {
    for (const auto& image : {noiseImage(257, 129, 5), noiseImage(1, 1, 6), noiseImage(3, 333, 7)}) {
        const ImageRGBA8 grey = onDevice(image);
        const auto difference = hs::testing::compare(grey, grayscale()->reference(image));
        EXPECT_EQ(difference.differing, 0u) << image.width << "x" << image.height << ": " << difference.first;
        const auto before = histogram::referenceHistogram(image.pixels.data(), image.pixelCount(), 256);
        const auto after = histogram::referenceHistogram(grey.pixels.data(), grey.pixelCount(), 256);
        EXPECT_EQ(after[histogram::Channel::R], before[histogram::Channel::Luma]);
        EXPECT_EQ(after[histogram::Channel::A], before[histogram::Channel::A]);
    }
}

TEST(Grayscale, TakesNoParametersOrStrategies) {
    EXPECT_THROW(findKind("grayscale").configure({{"angle", "4"}}, "", nullptr), UsageError);
    EXPECT_THROW(findKind("grayscale").configure({}, "buffer", nullptr), UsageError);
}

}  // namespace
}  // namespace hs::stages
