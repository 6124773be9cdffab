#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <vector>

#include "ops/histogram/statistics.hpp"
#include "runtime/error.hpp"

namespace hs::histogram {
namespace {

// Red holds the 8-bit values 10, 10, 20 and 40 (256 bins, so bin == value).
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

TEST(HistogramStatistics, CoarseBinsUseBinCentres) {
    Histogram histogram(4);  // bins 0..63, 64..127, 128..191, 192..255
    histogram[Channel::G] = {0, 3, 1, 0};
    const auto stats = computeStatistics(histogram, Channel::G);
    EXPECT_DOUBLE_EQ(stats.mean, 111.5);               // (3 * 95.5 + 159.5) / 4
    EXPECT_DOUBLE_EQ(stats.stdDev, std::sqrt(768.0));  // (3 * 16² + 48²) / 4
    EXPECT_DOUBLE_EQ(stats.median, 95.5);
    EXPECT_DOUBLE_EQ(stats.min, 95.5);
    EXPECT_DOUBLE_EQ(stats.max, 159.5);
    EXPECT_EQ(computeStatistics(histogram, Channel::B).count, 0u);  // other channels stay untouched
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
    EXPECT_DOUBLE_EQ(computeStatistics(Histogram(8), Channel::A).percentOfChannel, 0.0);
}

TEST(HistogramStatistics, RejectsRangesOutsideTheBins) {
    const Histogram histogram(16);
    EXPECT_THROW(computeStatistics(histogram, Channel::R, {-1, 3}), UsageError);
    EXPECT_THROW(computeStatistics(histogram, Channel::R, {4, 3}), UsageError);
    EXPECT_THROW(computeStatistics(histogram, Channel::R, {0, 16}), UsageError);
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
