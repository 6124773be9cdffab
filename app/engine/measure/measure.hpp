#pragma once
// Measuring, once for the whole tree (the bench, `histoscope-cli histogram --repeat`, the GUI's Compare): an
// untimed warm-up, then repetitions, each one figure; min / median / max of those figures; GB/s from the
// bytes a measurement moves and its median; and the ratio to a baseline measured in the same run.

#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/runtime/timing.hpp"

namespace hs::measure {

// Min, median and max of one figure per repetition, in the figures' unit (nanoseconds throughout the
// engine).
struct Summary {
    double min = 0;
    double median = 0;
    double max = 0;

    // The one median of the tree: the middle value of an odd count, the mean of the two middle values of an
    // even count (1, 2, 7, 100 gives 4.5). `samples` must not be empty.
    static Summary of(std::vector<double> samples);
};

// What one repetition's figure is.
enum class Clock {
    // The kernel time its timing log reports: the sum of its kernel records (device events, or host work a
    // host strategy records as a kernel); uploads, readbacks and clears are left out.
    Kernel,
    // The steady clock around the whole call.
    Wall,
};

// "device" or "host": how the bench's report names the clock (device events, host steady clock).
std::string_view clockName(Clock clock);

// The kernel time of one run's timing log (see Clock::Kernel).
double kernelNs(const std::vector<Timing>& run);
// The summary of the kernel times of runs already made.
Summary kernelSummary(const std::vector<std::vector<Timing>>& runs);

// GB/s (10^9 bytes per second) for `bytes` in `ns`; 0 when `ns` is not positive.
double gigabytesPerSecond(std::uint64_t bytes, double ns);
// How many times faster `subject` is than `baseline`, both moving the same bytes: the baseline's median over
// the subject's (also the ratio of their GB/s). Unset when either median is not positive.
std::optional<double> ratioToBaseline(const Summary& subject, const Summary& baseline);

struct Plan {
    Clock clock = Clock::Kernel;
    int warmUps = 1;          // untimed runs first: program builds and first-enqueue costs are not measured
    int repetitions = 1;      // at least 1
    std::uint64_t bytes = 0;  // what the measured work moves, for GB/s
};

// One run of the measured work, returning its timing log (empty for work that keeps none, on the wall clock).
using Run = std::function<std::vector<Timing>()>;

struct Measurement {
    Clock clock = Clock::Kernel;
    std::uint64_t bytes = 0;
    std::vector<std::vector<Timing>> runs;  // the timed repetitions' logs, in order
    std::vector<double> samplesNs;          // each timed repetition's figure, in order
    Summary summary;

    double gbps() const { return gigabytesPerSecond(bytes, summary.median); }
};

// Runs `run` plan.warmUps times untimed, then plan.repetitions times, each timed by plan.clock.
Measurement measure(const Plan& plan, const Run& run);
// As measure(), asking `proceed` before each timed repetition; nothing when it answers false (a superseded
// or cancelled measurement).
std::optional<Measurement> measureWhile(const Plan& plan, const Run& run,
                                        const std::function<bool()>& proceed);

}  // namespace hs::measure
