// Every strategy against the golden reference over sizes, patterns and bin counts.
#include <gtest/gtest.h>

#include <memory>

#include "histogram_test_images.hpp"
#include "ops/histogram/histogram.hpp"
#include "runtime/runtime.hpp"

namespace hs::histogram {
namespace {

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
            if (strategyName != "auto") {
                EXPECT_EQ(result.strategy, strategyName);
            }
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

}  // namespace
}  // namespace hs::histogram
