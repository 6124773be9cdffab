#pragma once
// Summary statistics of a bin range of one histogram channel (the GUI's range readout), and the 8-bit values
// each bin stands for (also the CSV export's and the CLI table's lower and upper columns).
//
// Definitions (exact, so a reader can recompute them by hand):
// - A bin stands for the 8-bit values v with binOf(v, bins) == bin, i.e. lower..upper of binValues(). Every
//   count in a bin is taken to have the bin's centre value (lower + upper) / 2; with 256 bins that is v.
// - count: the sum of the counts in the range.
// - mean: sum(count_b * centre_b) / count.
// - stdDev: population standard deviation, sqrt(sum(count_b * (centre_b - mean)^2) / count). The histogram
//   holds every pixel of the image, not a sample of it, so there is no n - 1 correction.
// - percentile(p), 0 <= p <= 100, by cumulative count (nearest rank): the centre of the first bin of the
//   range whose cumulative count within the range reaches max(1, ceil(p / 100 * count)).
// - median: percentile(50), the lower median when the count is even.
// - mode: the centre of the range's most populated bin, the lowest such bin on ties.
// - min, max: the centres of the first and last non-empty bins of the range.
// - percentOfChannel: 100 * count / (count of the whole channel), the share of the image in the range.
// With count == 0 the value statistics (mean .. max) are NaN: there is no value to report.

#include <cstdint>

#include "ops/histogram/histogram.hpp"

namespace hs::histogram {

// The 8-bit values that fall into a bin, both ends inclusive.
struct BinValues {
    int lower = 0;
    int upper = 0;

    double centre() const { return (lower + upper) / 2.0; }
};

// Throws UsageError unless 1 <= bins <= 256 and 0 <= bin < bins.
BinValues binValues(int bin, int bins);

// Bins first..last, both inclusive.
struct BinRange {
    int first = 0;
    int last = 0;
};

struct Statistics {
    std::uint64_t count = 0;
    double mean = 0;
    double stdDev = 0;
    double median = 0;
    double mode = 0;
    double min = 0;
    double max = 0;
    double percentOfChannel = 0;
};

// Throws UsageError unless 0 <= range.first <= range.last < histogram.bins.
Statistics computeStatistics(const Histogram& histogram, Channel channel, BinRange range);
// The statistics of every bin of the channel.
Statistics computeStatistics(const Histogram& histogram, Channel channel);

// The nearest-rank percentile defined above; NaN for an empty range. Throws UsageError for p outside 0..100
// or an invalid range.
double percentile(const Histogram& histogram, Channel channel, BinRange range, double p);

}  // namespace hs::histogram
