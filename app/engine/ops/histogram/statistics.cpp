#include "ops/histogram/statistics.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "runtime/error.hpp"

namespace hs::histogram {
namespace {

constexpr double kNoValue = std::numeric_limits<double>::quiet_NaN();

void validateRange(const Histogram& histogram, BinRange range) {
    if (range.first < 0 || range.first > range.last || range.last >= histogram.bins)
        throw UsageError("bin range " + std::to_string(range.first) + ".." + std::to_string(range.last) +
                         " is not within 0.." + std::to_string(histogram.bins - 1));
}

double centreOf(std::size_t bin, int bins) {
    return binValues(static_cast<int>(bin), bins).centre();
}

// The first bin of the range whose cumulative count reaches `rank` (1-based); rank <= the range's count.
std::size_t binOfRank(const std::vector<std::uint64_t>& counts, BinRange range, std::uint64_t rank) {
    std::uint64_t cumulative = 0;
    auto bin = static_cast<std::size_t>(range.first);
    for (; bin < static_cast<std::size_t>(range.last); ++bin) {
        cumulative += counts[bin];
        if (cumulative >= rank) break;
    }
    return bin;
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

double percentile(const Histogram& histogram, Channel channel, BinRange range, double p) {
    validateRange(histogram, range);
    if (!(p >= 0 && p <= 100)) throw UsageError("percentile must be within 0..100, got " + std::to_string(p));
    const auto& counts = histogram[channel];
    std::uint64_t count = 0;
    for (int bin = range.first; bin <= range.last; ++bin) count += counts[static_cast<std::size_t>(bin)];
    if (count == 0) return kNoValue;
    return centreOf(binOfRank(counts, range, nearestRank(p, count)), histogram.bins);
}

Statistics computeStatistics(const Histogram& histogram, Channel channel, BinRange range) {
    validateRange(histogram, range);
    const auto& counts = histogram[channel];
    const auto first = static_cast<std::size_t>(range.first);
    const auto last = static_cast<std::size_t>(range.last);

    Statistics stats;
    double weightedSum = 0;
    std::size_t modeBin = first;
    std::size_t firstNonEmpty = last + 1;
    std::size_t lastNonEmpty = first;
    for (std::size_t bin = first; bin <= last; ++bin) {
        const auto n = counts[bin];
        if (n == 0) continue;
        stats.count += n;
        weightedSum += static_cast<double>(n) * centreOf(bin, histogram.bins);
        if (n > counts[modeBin]) modeBin = bin;
        if (firstNonEmpty > last) firstNonEmpty = bin;
        lastNonEmpty = bin;
    }
    const auto channelTotal = histogram.total(channel);
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
    for (std::size_t bin = firstNonEmpty; bin <= lastNonEmpty; ++bin) {
        const double deviation = centreOf(bin, histogram.bins) - stats.mean;
        squaredDeviations += static_cast<double>(counts[bin]) * deviation * deviation;
    }
    stats.stdDev = std::sqrt(squaredDeviations / n);
    stats.median = centreOf(binOfRank(counts, range, nearestRank(50, stats.count)), histogram.bins);
    stats.mode = centreOf(modeBin, histogram.bins);
    stats.min = centreOf(firstNonEmpty, histogram.bins);
    stats.max = centreOf(lastNonEmpty, histogram.bins);
    return stats;
}

Statistics computeStatistics(const Histogram& histogram, Channel channel) {
    return computeStatistics(histogram, channel, {0, histogram.bins - 1});
}

}  // namespace hs::histogram
