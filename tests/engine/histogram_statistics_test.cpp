#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "engine/ops/histogram/statistics.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::histogram {
namespace {

// Red holds the 8-bit values 10, 10, 20 and 40.
Histogram fourRedPixels() {
    Histogram histogram(256);
    histogram[Channel::R][10] = 2;
    histogram[Channel::R][20] = 1;
    histogram[Channel::R][40] = 1;
    return histogram;
}

TEST(HistogramStatistics, BinValuesCoverEveryValueExactlyOnce) {
    for (int bins = 1; bins <= kMaxBins; ++bins) {
        int expectedLower = 0;
        for (int bin = 0; bin < bins; ++bin) {
            const auto values = binValues(bin, bins);
            ASSERT_EQ(values.lower, expectedLower) << bins << " bins, bin " << bin;
            ASSERT_LE(values.lower, values.upper);
            for (int v = values.lower; v <= values.upper; ++v) ASSERT_EQ(binOf(v, bins), bin);
            expectedLower = values.upper + 1;
        }
        EXPECT_EQ(expectedLower, 256) << bins << " bins";
    }
}

TEST(HistogramStatistics, BinValuesOfHandPickedBins) {
    EXPECT_EQ(binValues(1, 3).lower, 86);
    EXPECT_EQ(binValues(1, 3).upper, 170);
    EXPECT_DOUBLE_EQ(binValues(2, 4).centre(), 159.5);
    EXPECT_DOUBLE_EQ(binValues(7, 256).centre(), 7.0);
    EXPECT_THROW(binValues(4, 4), UsageError);
    EXPECT_THROW(binValues(0, 257), UsageError);
}

TEST(HistogramStatistics, WholeChannelMatchesHandComputation) {
    const auto stats = computeStatistics(fourRedPixels(), Channel::R);
    EXPECT_EQ(stats.count, 4u);
    EXPECT_DOUBLE_EQ(stats.mean, 20.0);                // (10 + 10 + 20 + 40) / 4
    EXPECT_DOUBLE_EQ(stats.stdDev, std::sqrt(150.0));  // (100 + 100 + 0 + 400) / 4
    EXPECT_DOUBLE_EQ(stats.median, 10.0);              // rank ceil(4 / 2) = 2 is the second 10
    EXPECT_DOUBLE_EQ(stats.mode, 10.0);
    EXPECT_DOUBLE_EQ(stats.min, 10.0);
    EXPECT_DOUBLE_EQ(stats.max, 40.0);
    EXPECT_DOUBLE_EQ(stats.percentOfChannel, 100.0);
}

TEST(HistogramStatistics, RangeMatchesHandComputation) {
    const auto stats = computeStatistics(fourRedPixels(), Channel::R, {15, 45});
    EXPECT_EQ(stats.count, 2u);
    EXPECT_DOUBLE_EQ(stats.mean, 30.0);
    EXPECT_DOUBLE_EQ(stats.stdDev, 10.0);
    EXPECT_DOUBLE_EQ(stats.median, 20.0);
    EXPECT_DOUBLE_EQ(stats.mode, 20.0);  // 20 and 40 tie: the lower bin wins
    EXPECT_DOUBLE_EQ(stats.min, 20.0);
    EXPECT_DOUBLE_EQ(stats.max, 40.0);
    EXPECT_DOUBLE_EQ(stats.percentOfChannel, 50.0);
}

// Six grey pixels (r = g = b = luma) of the values 3, 3, 7, 100, 101 and 250, counted by every strategy at
// several bin counts: the statistics come from the 256 values the result carries, so they are the exact ones
// whatever the bins (with 32 bins, bin centres would give min 3.5 and max 251.5).
TEST(HistogramStatistics, ExactValuesWhateverTheBinCountAndStrategy) {
    const std::vector<std::uint8_t> greys{3, 3, 7, 100, 101, 250};
    ImageRGBA8 image(static_cast<int>(greys.size()), 1);
    for (std::size_t i = 0; i < greys.size(); ++i) {
        std::uint8_t* p = image.pixel(static_cast<int>(i), 0);
        p[0] = p[1] = p[2] = greys[i];
        p[3] = 255;
    }
    // Hand-computed: sum 464, sum of squares 9 + 9 + 49 + 10000 + 10201 + 62500 = 82768.
    const double mean = 464.0 / 6;
    const double stdDev = std::sqrt((82768.0 - 464.0 * 464.0 / 6) / 6);
    Runtime runtime;
    for (const auto* strategy : strategies()) {
        DeviceContext* device = strategy->runsOnDevice() ? &runtime.open("0:0") : nullptr;
        PixelSource pixels(image);
        for (const int bins : {256, 32, 100, 7}) {
            SCOPED_TRACE(std::string(strategy->name()) + ", " + std::to_string(bins) + " bins");
            const Result result = computeHistogram(device, pixels, Params{bins}, *strategy);
            ASSERT_EQ(result.histogram.bins, bins);
            for (const auto channel : {Channel::R, Channel::G, Channel::B, Channel::Luma}) {
                const auto stats = computeStatistics(result.values, channel);
                EXPECT_EQ(stats.count, 6u);
                EXPECT_DOUBLE_EQ(stats.mean, mean);
                EXPECT_DOUBLE_EQ(stats.stdDev, stdDev);
                EXPECT_DOUBLE_EQ(stats.median, 7.0);  // rank ceil(6 / 2) = 3
                EXPECT_DOUBLE_EQ(stats.mode, 3.0);
                EXPECT_DOUBLE_EQ(stats.min, 3.0);
                EXPECT_DOUBLE_EQ(stats.max, 250.0);
                EXPECT_DOUBLE_EQ(percentile(result.values, channel, {0, 255}, 90), 250.0);  // rank 6
            }
            // The first bin's values: 0..7 at 32 bins, 0..2 at 100 (3, 3 and 7 lie beyond), 0..36 at 7.
            const auto firstBin = computeStatistics(result.values, Channel::R, valueRange({0, 0}, bins));
            const std::uint64_t inFirstBin = bins == 32 ? 3 : bins == 7 ? 3 : 0;
            EXPECT_EQ(firstBin.count, inFirstBin);
            if (inFirstBin == 3) {
                EXPECT_DOUBLE_EQ(firstBin.mean, 13.0 / 3);
            }
        }
    }
}

TEST(HistogramStatistics, ValueRangeOfBins) {
    EXPECT_EQ(valueRange({0, 0}, 32).first, 0);
    EXPECT_EQ(valueRange({0, 0}, 32).last, 7);
    EXPECT_EQ(valueRange({1, 2}, 100).first, 3);  // bin 1 of 100: 3..5, bin 2: 6..7
    EXPECT_EQ(valueRange({1, 2}, 100).last, 7);
    EXPECT_EQ(valueRange({5, 9}, 256).first, 5);
    EXPECT_EQ(valueRange({5, 9}, 256).last, 9);
    EXPECT_THROW(valueRange({3, 2}, 16), UsageError);
    EXPECT_THROW(valueRange({0, 16}, 16), UsageError);
}

TEST(HistogramStatistics, RebinnedGroupsTheValuesLikeBinOf) {
    Histogram values;
    for (int v = 0; v < 256; ++v)
        values[Channel::G][static_cast<std::size_t>(v)] = static_cast<std::uint64_t>(v);
    // 100 bins: bin 1 holds 3, 4, 5 (sum 12), bin 2 holds 6, 7 (sum 13).
    const Histogram hundred = values.rebinned(100);
    EXPECT_EQ(hundred.bins, 100);
    EXPECT_EQ(hundred[Channel::G][1], 12u);
    EXPECT_EQ(hundred[Channel::G][2], 13u);
    EXPECT_EQ(hundred.total(Channel::G), values.total(Channel::G));
    EXPECT_EQ(values.rebinned(256), values);
    EXPECT_THROW(hundred.rebinned(10), UsageError);
    EXPECT_THROW(values.rebinned(0), UsageError);
}

TEST(HistogramStatistics, PercentilesByNearestRank) {
    const auto histogram = fourRedPixels();
    const BinRange all{0, 255};
    EXPECT_DOUBLE_EQ(percentile(histogram, Channel::R, all, 0), 10.0);
    EXPECT_DOUBLE_EQ(percentile(histogram, Channel::R, all, 50), 10.0);
    EXPECT_DOUBLE_EQ(percentile(histogram, Channel::R, all, 51), 20.0);  // rank ceil(2.04) = 3
    EXPECT_DOUBLE_EQ(percentile(histogram, Channel::R, all, 75), 20.0);  // rank 3
    EXPECT_DOUBLE_EQ(percentile(histogram, Channel::R, all, 76), 40.0);  // rank 4
    EXPECT_DOUBLE_EQ(percentile(histogram, Channel::R, all, 100), 40.0);
    EXPECT_THROW(percentile(histogram, Channel::R, all, 100.5), UsageError);
    EXPECT_THROW(percentile(histogram, Channel::R, all, -1), UsageError);
}

TEST(HistogramStatistics, EmptyRangeHasCountButNoValues) {
    const auto stats = computeStatistics(fourRedPixels(), Channel::R, {41, 255});
    EXPECT_EQ(stats.count, 0u);
    EXPECT_DOUBLE_EQ(stats.percentOfChannel, 0.0);
    EXPECT_TRUE(std::isnan(stats.mean));
    EXPECT_TRUE(std::isnan(stats.median));
    EXPECT_TRUE(std::isnan(stats.max));
    EXPECT_TRUE(std::isnan(percentile(fourRedPixels(), Channel::R, {41, 255}, 50)));
    EXPECT_DOUBLE_EQ(computeStatistics(Histogram(), Channel::A).percentOfChannel, 0.0);
}

TEST(HistogramStatistics, RejectsRangesOutsideTheValuesAndHistogramsOfBins) {
    const Histogram values;
    EXPECT_THROW(computeStatistics(values, Channel::R, {-1, 3}), UsageError);
    EXPECT_THROW(computeStatistics(values, Channel::R, {4, 3}), UsageError);
    EXPECT_THROW(computeStatistics(values, Channel::R, {0, 256}), UsageError);
    EXPECT_THROW(computeStatistics(Histogram(16), Channel::R), UsageError);
    EXPECT_THROW(percentile(Histogram(16), Channel::R, {0, 15}, 50), UsageError);
}

// With 256 bins every bin centre is the pixel value itself, so the statistics must equal those computed
// directly from the list of values.
TEST(HistogramStatistics, AgreesWithStatisticsOfTheRawValues) {
    std::mt19937 random(7);
    std::binomial_distribution<int> valueOf(255, 0.3);
    std::vector<int> values(10001);
    for (auto& v : values) v = valueOf(random);
    std::vector<std::uint8_t> rgba;
    for (const int v : values) rgba.insert(rgba.end(), {static_cast<std::uint8_t>(v), 0, 0, 255});
    const auto histogram = referenceHistogram(rgba.data(), values.size(), 256);

    const double n = static_cast<double>(values.size());
    const double mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
    double squares = 0;
    for (const int v : values) squares += (v - mean) * (v - mean);
    std::vector<int> sorted = values;
    std::sort(sorted.begin(), sorted.end());

    const auto stats = computeStatistics(histogram, Channel::R);
    EXPECT_EQ(stats.count, values.size());
    EXPECT_NEAR(stats.mean, mean, 1e-9);
    EXPECT_NEAR(stats.stdDev, std::sqrt(squares / n), 1e-9);
    EXPECT_DOUBLE_EQ(stats.median, sorted[values.size() / 2]);  // rank ceil(10001 / 2) = 5001
    EXPECT_DOUBLE_EQ(stats.min, sorted.front());
    EXPECT_DOUBLE_EQ(stats.max, sorted.back());
    EXPECT_DOUBLE_EQ(percentile(histogram, Channel::R, {0, 255}, 90), sorted[9000]);  // rank ceil(9000.9)
}

}  // namespace
}  // namespace hs::histogram
