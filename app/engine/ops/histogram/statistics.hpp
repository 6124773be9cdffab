#pragma once
// Summary statistics of a value range of one histogram channel (the GUI's range readout), and the 8-bit
// values each bin stands for (also the CSV export's and the CLI table's lower and upper columns).
//
// The statistics are computed from the histogram of the 256 values (Result::values), never from bins: they
// are exact and do not change with the bin count. Definitions (so a reader can recompute them by hand), with
// n_v the count of value v within the range:
// - count: the sum of n_v.
// - mean: sum(n_v * v) / count.
// - stdDev: population standard deviation, sqrt(sum(n_v * (v - mean)^2) / count). The histogram holds every
//   pixel of the image, not a sample of it, so there is no n - 1 correction.
// - percentile(p), 0 <= p <= 100, by cumulative count (nearest rank): the first value of the range whose
//   cumulative count within the range reaches max(1, ceil(p / 100 * count)).
// - median: percentile(50), the lower median when the count is even.
// - mode: the range's most frequent value, the lowest on ties.
// - min, max: the lowest and highest values of the range that occur.
// - percentOfChannel: 100 * count / (count of the whole channel), the share of the image in the range.
// With count == 0 the value statistics (mean .. max) are NaN: there is no value to report.

#include <cstdint>

#include "engine/ops/histogram/histogram.hpp"

namespace hs::histogram {

// The 8-bit values that fall into a bin, both ends inclusive.
struct BinValues {
    int lower = 0;
    int upper = 0;

    double centre() const { return (lower + upper) / 2.0; }
};

// Throws UsageError unless 1 <= bins <= 256 and 0 <= bin < bins.
BinValues binValues(int bin, int bins);

// Bins first..last, both inclusive; of the 256 values, values first..last.
struct BinRange {
    int first = 0;
    int last = 0;
};

// The 8-bit values that bins range.first..range.last of `bins` bins stand for. Throws UsageError for an
// invalid range.
BinRange valueRange(BinRange range, int bins);

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

// `values` is a histogram of the 256 values, `range` a range of values. Throws UsageError unless
// values.bins == 256 and 0 <= range.first <= range.last <= 255.
Statistics computeStatistics(const Histogram& values, Channel channel, BinRange range);
// The statistics of the whole channel.
Statistics computeStatistics(const Histogram& values, Channel channel);

// The nearest-rank percentile defined above; NaN for an empty range. Throws UsageError for p outside 0..100
// or as computeStatistics().
double percentile(const Histogram& values, Channel channel, BinRange range, double p);

}  // namespace hs::histogram
