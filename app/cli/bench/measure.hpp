#pragma once
// The measuring discipline every histoscope-bench suite shares (after clpeak): an untimed warm-up, then
// repetitions; device work timed by its profiling events, host work by the steady clock; min / median / max;
// GB/s from the bytes a measurement moves and the median; and bandwidth baselines (a streaming read, a copy)
// measured on the same device and bytes in the same run, for ratios.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "runtime/cl.hpp"
#include "runtime/timing.hpp"
#include "util/json_writer.hpp"

namespace hs {
class DeviceContext;
}

namespace hs::bench {

struct Stats {
    double minNs = 0;
    double medianNs = 0;
    double maxNs = 0;

    // From one figure per repetition; `samples` must not be empty.
    static Stats of(std::vector<double> samples);
};

// GB/s (10^9 bytes per second) for `bytes` in `ns`.
double gigabytesPerSecond(std::uint64_t bytes, double ns);

// Kernel time of a device run: the sum of its kernel-stage records (uploads, readbacks and clears excluded).
// `run` is called once untimed, then `repetitions` times.
Stats measureDevice(int repetitions, const std::function<std::vector<Timing>()>& run);
// Wall time of host work with the steady clock; `run` is called once untimed, then `repetitions` times.
Stats measureHost(int repetitions, const std::function<void()>& run);

// Streaming-read and copy kernels (kernels/bench.cl) on one device, measured once per byte count and kept, so
// every suite of a run compares against the same figures. Like clpeak, which reports the best of several
// access shapes, each baseline is measured in the fastest of a few work-group shapes found by a short trial.
struct Baseline : Stats {
    std::string shape;  // "local L, Q uint4 per work-item"
};

class Baselines {
  public:
    Baselines(DeviceContext& device, int repetitions) : device_(device), repetitions_(repetitions) {}

    // Reads the first `bytes` of `data` (uint4 loads, reduced so nothing is optimised away).
    const Baseline& streamRead(const cl::Buffer& data, std::uint64_t bytes);
    // Copies `bytes` from a scratch buffer to another; moves 2 * bytes.
    const Baseline& copy(std::uint64_t bytes);
    // Every baseline measured so far, by kernel name and byte count.
    const std::map<std::pair<std::string, std::uint64_t>, Baseline>& measured() const { return measured_; }

  private:
    struct Shape {
        std::size_t local;
        std::size_t quadsPerItem;
        std::size_t groups;
    };
    std::vector<Shape> shapes(const cl::Kernel& kernel, std::uint64_t bytes) const;
    std::vector<Timing> enqueue(cl::Kernel& kernel, const Shape& shape, const char* name);
    // `quadsArgument` is the index of the kernel's quads_per_item argument.
    Baseline measureFastest(cl::Kernel& kernel, unsigned quadsArgument, std::uint64_t bytes,
                            const char* name);

    DeviceContext& device_;
    int repetitions_;
    std::map<std::pair<std::string, std::uint64_t>, Baseline> measured_;
};

// One line of the report: a subject (strategy, kernel) measured on one input, or skipped with the reason.
struct Measurement {
    std::string suite;
    std::string subject;
    std::string input;        // pattern name or file
    std::uint64_t bytes = 0;  // what gbps() divides: the input, or input plus output (the suite says which)
    std::string clock;        // "device" (profiling events) or "host" (steady clock)
    std::optional<Stats> stats;
    std::optional<double> baselineRatio;  // GB/s over a baseline's (streaming read or copy) on the same bytes
    std::string detail;                   // build options, chosen strategy, or why it was skipped
    std::map<std::string, double> extra;  // suite-specific numbers (bins, angle, ...)

    bool skipped() const { return !stats.has_value(); }
    double gbps() const { return stats ? gigabytesPerSecond(bytes, stats->medianNs) : 0.0; }
};

class Report {
  public:
    void add(Measurement measurement);
    const std::vector<Measurement>& measurements() const { return measurements_; }
    void printTable(std::ostream& out) const;
    // Writes the measurements as a JSON array.
    void writeJson(JsonWriter& json) const;

  private:
    std::vector<Measurement> measurements_;
};

void writeStats(JsonWriter& json, const Stats& stats);

}  // namespace hs::bench
