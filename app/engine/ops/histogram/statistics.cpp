#include "engine/ops/histogram/statistics.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "engine/runtime/error.hpp"

namespace hs::histogram {
namespace {

constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

void validateValues(const Histogram& values, BinRange range) {
    if (values.bins != kMaxBins)
        throw UsageError("statistics need the histogram of the 256 values, not one of " +
                         std::to_string(values.bins) + " bins");
    if (range.first < 0 || range.first > range.last || range.last >= kMaxBins)
        throw UsageError("value range " + std::to_string(range.first) + ".." + std::to_string(range.last) +
                         " is not within 0..255");
}

// The first value of the range whose cumulative count reaches `rank` (1-based); rank <= the range's count.
int valueOfRank(const std::vector<std::uint64_t>& counts, BinRange range, std::uint64_t rank) {
    std::uint64_t cumulative = 0;
    int value = range.first;
    for (; value < range.last; ++value) {
        cumulative += counts[static_cast<std::size_t>(value)];
        if (cumulative >= rank) break;
    }
    return value;
}

std::uint64_t nearestRank(double p, std::uint64_t count) {
    const auto rank = static_cast<std::uint64_t>(std::ceil(p * static_cast<double>(count) / 100.0));
    return rank < 1 ? 1 : rank;
}

}  // namespace

BinValues binValues(int bin, int bins) {
    if (bins < 1 || bins > kMaxBins || bin < 0 || bin >= bins)
        throw UsageError("bin " + std::to_string(bin) + " does not exist among " + std::to_string(bins) +
                         " bins");
    // binOf(v) = floor(v * bins / 256), so the bin holds the v with bin * 256 <= v * bins < (bin + 1) * 256.
    const auto firstValueAtOrAbove = [bins](int edge) { return (edge * 256 + bins - 1) / bins; };
    return {firstValueAtOrAbove(bin), firstValueAtOrAbove(bin + 1) - 1};
}

BinRange valueRange(BinRange range, int bins) {
    if (range.first > range.last)
        throw UsageError("bin range " + std::to_string(range.first) + ".." + std::to_string(range.last) +
                         " is empty");
    return {binValues(range.first, bins).lower, binValues(range.last, bins).upper};
}

double percentile(const Histogram& values, Channel channel, BinRange range, double p) {
    validateValues(values, range);
    if (!(p >= 0 && p <= 100)) throw UsageError("percentile must be within 0..100, got " + std::to_string(p));
    const auto& counts = values[channel];
    std::uint64_t count = 0;
    for (int v = range.first; v <= range.last; ++v) count += counts[static_cast<std::size_t>(v)];
    if (count == 0) return kNoValue;
    return valueOfRank(counts, range, nearestRank(p, count));
}

Statistics computeStatistics(const Histogram& values, Channel channel, BinRange range) {
    validateValues(values, range);
    const auto& counts = values[channel];
    const auto countOf = [&counts](int v) { return counts[static_cast<std::size_t>(v)]; };

    Statistics stats;
    double weightedSum = 0;
    int mode = range.first;
    int lowest = range.last + 1;
    int highest = range.first;
    for (int v = range.first; v <= range.last; ++v) {
        const auto n = countOf(v);
        if (n == 0) continue;
        stats.count += n;
        weightedSum += static_cast<double>(n) * v;
        if (n > countOf(mode)) mode = v;
        if (lowest > range.last) lowest = v;
        highest = v;
    }
    const auto channelTotal = values.total(channel);
    stats.percentOfChannel =
        channelTotal == 0 ? 0.0
                          : 100.0 * static_cast<double>(stats.count) / static_cast<double>(channelTotal);
    if (stats.count == 0) {
        stats.mean = stats.stdDev = stats.median = stats.mode = stats.min = stats.max = kNoValue;
        return stats;
    }

    const auto n = static_cast<double>(stats.count);
    stats.mean = weightedSum / n;
    // Two passes: summing squared deviations from the mean does not cancel catastrophically like
    // E[x²] - E[x]².
    double squaredDeviations = 0;
    for (int v = lowest; v <= highest; ++v) {
        const double deviation = v - stats.mean;
        squaredDeviations += static_cast<double>(countOf(v)) * deviation * deviation;
    }
    stats.stdDev = std::sqrt(squaredDeviations / n);
    stats.median = valueOfRank(counts, range, nearestRank(50, stats.count));
    stats.mode = mode;
    stats.min = lowest;
    stats.max = highest;
    return stats;
}

Statistics computeStatistics(const Histogram& values, Channel channel) {
    return computeStatistics(values, channel, {0, kMaxBins - 1});
}

}  // namespace hs::histogram
