#pragma once
// The A/B diff of two recorded runs, or two groups of runs: per kernel, per stage and in total, the two
// distributions of times (one figure per repetition of every run of a side), the ratio of their medians B/A
// with a seeded bootstrap 95 % interval, and a verdict; beside them what else differs (spec, build options,
// device, driver, image, version, results).
//
// Why a bootstrap of the ratio of medians: kernel times are skewed (a few slow repetitions: a preemption, a
// clock ramp), so medians, not means; and no distribution is assumed. Seeded, so one input gives one output.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "archive/record.hpp"
#include "engine/measure/measure.hpp"

namespace hs::archive {

struct Interval {
    double low = 0;
    double high = 0;
};

inline constexpr std::uint64_t kBootstrapSeed = 0x5eed'2026'0026ull;
inline constexpr int kBootstrapResamples = 4000;
// The smallest change a verdict calls one: 2 %. Below it an interval can exclude 1 from a steady drift
// (a clock that ramps, a warm cache) that no one would call a change of the kernel.
inline constexpr double kMinimumEffect = 0.02;
// Fewer repetitions on either side give no interval: the bootstrap of one or two values says nothing of the
// noise.
inline constexpr std::size_t kMinimumSamples = 3;

// The p-quantile (0..1) of `sorted` values: the value at rank ceil(p·n) (from 1), the "nearest rank"
// percentile, so that an interval's ends are ratios that occurred.
double percentile(const std::vector<double>& sorted, double p);
// The median of `b` over the median of `a` for each of `resamples` resamples (with replacement, each side its
// own size) drawn by std::mt19937_64 seeded with `seed`, sorted. `a` and `b` must not be empty.
std::vector<double> bootstrapRatios(const std::vector<double>& a, const std::vector<double>& b,
                                    int resamples = kBootstrapResamples, std::uint64_t seed = kBootstrapSeed);
// The 2.5 % and 97.5 % percentiles of bootstrapRatios().
Interval bootstrapInterval(const std::vector<double>& a, const std::vector<double>& b,
                           int resamples = kBootstrapResamples, std::uint64_t seed = kBootstrapSeed);

enum class Verdict { Faster, Slower, NoDifference, TooFewSamples, OnlyInA, OnlyInB };
// "faster", "slower", "no difference at this noise", "too few repetitions", "only in A", "only in B" (a
// kernel that one side's strategy does not have).
std::string_view verdictText(Verdict verdict);

// One compared time: a kernel ("histogram: histogram_local"), a stage ("histogram") or the total.
struct TimeComparison {
    std::string scope;  // "kernel", "stage", "total"
    std::string name;
    std::vector<double> a;  // ns, one per repetition of every run of side A, in order
    std::vector<double> b;
    measure::Summary summaryA;
    measure::Summary summaryB;
    double ratio = 0;  // median(b) / median(a)
    Interval interval;
    Verdict verdict = Verdict::TooFewSamples;
};

// B is slower when the whole interval lies above 1 and the ratio is at least 1 + kMinimumEffect; faster when
// it lies below 1 and the ratio at most 1 / (1 + kMinimumEffect); otherwise no difference at this noise.
// Sets ratio, interval and verdict from a and b.
void judge(TimeComparison& comparison);

// Something else that differs between the sides ("device", "stage 1 strategy", "build histogram options").
struct Difference {
    std::string what;
    std::string a;
    std::string b;
};

// A histogram bin whose counts differ.
struct BinDifference {
    std::string channel;
    int bin = 0;
    std::uint64_t a = 0;
    std::uint64_t b = 0;
};

// The first runs' output images, pixel by pixel, where both kept them (record.hpp: the PNG under the per-run
// cap); otherwise why not.
struct PixelComparison {
    bool compared = false;
    std::string reason;  // why they were not compared; empty when they were
    int width = 0;
    int height = 0;
    std::uint64_t differing = 0;  // pixels of which at least one channel differs
    int maxDifference = 0;        // the largest |A - B| of any channel of any pixel
    int firstX = -1;              // the first differing pixel in row order (top row first); -1: none
    int firstY = -1;
    std::string firstChannel;  // its first differing channel: "r", "g", "b" or "a"
};

struct Diff {
    std::vector<std::int64_t> idsA;
    std::vector<std::int64_t> idsB;
    std::vector<TimeComparison> times;  // kernels, then stages, then the total
    // Between the first run of each side; a side whose runs differ among themselves in these says so too
    // ("A: device").
    std::vector<Difference> differences;
    std::vector<BinDifference> bins;  // of the first runs, when both counted with the same bins
    // Of the first runs, when either has an output image (an image stage ran).
    std::optional<PixelComparison> pixels;
};

// `a`'s and `b`'s output images compared (outputHash, outputPng); none when neither has one.
std::optional<PixelComparison> comparePixels(const Record& a, const Record& b);

// `a` and `b` must not be empty. Per kernel: the durations of the records of that kernel (step and name) in a
// repetition, summed; per stage: of every record of the step (transfers included); total: the kernel time of
// the repetition (measure::kernelNs: every kernel record).
Diff diff(const std::vector<Record>& a, const std::vector<Record>& b);

}  // namespace hs::archive
