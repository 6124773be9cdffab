// Every strategy against the golden reference over sizes, patterns and bin counts, and with transparent
// pixels ignored.
#include <gtest/gtest.h>

#include <memory>

#include "engine/ops/histogram/histogram.hpp"
#include "engine/runtime/runtime.hpp"
#include "histogram_test_images.hpp"

namespace hs::histogram {
namespace {

using test_images::countedByHand;
using test_images::groupedByHand;
using test_images::makeImage;
using test_images::Pattern;

struct Size {
    int width;
    int height;
};

constexpr Size kSizes[] = {{1, 1}, {3, 1}, {1, 517}, {17, 13}, {1023, 767}, {4099, 3001}};
constexpr int kBins[] = {1, 7, 64, 256};

// One runtime per test process: opening PoCL and loading programs is the slow part of a small case.
Runtime& runtime() {
    static Runtime instance;
    return instance;
}

class EveryStrategy : public ::testing::TestWithParam<std::tuple<std::string, Pattern>> {};

TEST_P(EveryStrategy, EqualsTheReferenceForEverySizeAndBinCount) {
    const auto& [strategyName, pattern] = GetParam();
    const Strategy& strategy = findStrategy(strategyName);
    DeviceContext* device = strategy.runsOnDevice() ? &runtime().open("0:0") : nullptr;
    for (const auto size : kSizes) {
        const ImageRGBA8 image = makeImage(size.width, size.height, pattern);
        // Uploaded once, reused for every bin count.
        PixelSource pixels(image);
        const Histogram valuesByHand = countedByHand(image, kMaxBins);
        for (const int bins : kBins) {
            SCOPED_TRACE(std::to_string(size.width) + "x" + std::to_string(size.height) + ", " +
                         std::to_string(bins) + " bins");
            const Params params{bins};
            const Histogram expected = referenceHistogram(image.pixels.data(), image.pixelCount(), bins);
            const Result result = computeHistogram(device, pixels, params, strategy);
            ASSERT_EQ(result.histogram.bins, bins);
            for (const auto channel : kChannels) {
                ASSERT_EQ(result.histogram[channel], expected[channel]) << "channel " << channelName(channel);
            }
            // The 256 values the statistics come from, whatever the bin count.
            ASSERT_EQ(result.values, referenceHistogram(image.pixels.data(), image.pixelCount(), kMaxBins));
            // And an independent count (serial is the reference's own loop).
            ASSERT_EQ(result.values, valuesByHand);
            ASSERT_EQ(result.histogram, groupedByHand(valuesByHand, bins));
            if (strategyName != "auto") {
                EXPECT_EQ(result.strategyName(), strategyName);
            }
        }
    }
}

class EveryStrategyIgnoringTransparent : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryStrategyIgnoringTransparent, LeavesAlphaZeroOutOfColourAndLumaLikeTheReference) {
    const Strategy& strategy = findStrategy(GetParam());
    DeviceContext* device = strategy.runsOnDevice() ? &runtime().open("0:0") : nullptr;
    for (const auto size : {Size{1, 1}, Size{3, 1}, Size{17, 13}, Size{1023, 767}}) {
        const ImageRGBA8 image = makeImage(size.width, size.height, Pattern::HalfTransparent);
        PixelSource pixels(image);
        const Histogram everyPixel = referenceHistogram(image.pixels.data(), image.pixelCount(), kMaxBins);
        for (const int bins : {7, 100, 256}) {
            SCOPED_TRACE(std::to_string(size.width) + "x" + std::to_string(size.height) + ", " +
                         std::to_string(bins) + " bins");
            const Result result = computeHistogram(device, pixels, Params{bins, true}, strategy);
            EXPECT_EQ(result.histogram,
                      referenceHistogram(image.pixels.data(), image.pixelCount(), bins, true));
            const Histogram expectedValues =
                referenceHistogram(image.pixels.data(), image.pixelCount(), kMaxBins, true);
            EXPECT_EQ(result.values, expectedValues);
            EXPECT_EQ(result.values, countedByHand(image, kMaxBins, true));
            EXPECT_EQ(result.histogram, countedByHand(image, bins, true));
            // A still counts every pixel; the colour channels lose exactly the alpha-0 ones.
            EXPECT_EQ(result.values[Channel::A], everyPixel[Channel::A]);
            for (const auto channel : {Channel::R, Channel::G, Channel::B, Channel::Luma})
                EXPECT_EQ(result.values.total(channel),
                          everyPixel.total(Channel::A) - everyPixel[Channel::A][0])
                    << channelName(channel);
        }
    }
}

std::vector<std::string> strategyNames() {
    std::vector<std::string> names;
    for (const auto* strategy : strategies()) names.emplace_back(strategy->name());
    return names;
}

INSTANTIATE_TEST_SUITE_P(Histogram, EveryStrategy,
                         ::testing::Combine(::testing::ValuesIn(strategyNames()),
                                            ::testing::Values(Pattern::Uniform, Pattern::AllEqual,
                                                              Pattern::ZeroOr255, Pattern::Gradient)),
                         [](const auto& test) {
                             std::string name = std::get<0>(test.param) + "_" +
                                                test_images::patternName(std::get<1>(test.param));
                             for (auto& c : name) {
                                 if (c == '-') c = '_';
                             }
                             return name;
                         });

INSTANTIATE_TEST_SUITE_P(Histogram, EveryStrategyIgnoringTransparent, ::testing::ValuesIn(strategyNames()),
                         [](const auto& test) {
                             std::string name = test.param;
                             for (auto& c : name) {
                                 if (c == '-') c = '_';
                             }
                             return name;
                         });

}  // namespace
}  // namespace hs::histogram
