#pragma once
// Comparing the histogram strategies on one input: the pixels go to the device once, and every strategy's
// warm-up and repetitions run on that device copy (host strategies read the host pixels), so what differs
// between the strategies is their kernels alone.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/image/image.hpp"
#include "engine/measure/measure.hpp"
#include "engine/ops/histogram/histogram.hpp"

namespace hs {
class DeviceContext;
}

namespace hs::measure {

// One strategy of a comparison: measured, or not run with the reason.
struct StrategyMeasurement {
    std::string strategy;           // the registry's name
    std::string ranAs;              // what ran when another strategy did (`auto`'s choice); empty otherwise
    std::string unsupported;        // why it did not run or failed; empty when measured
    std::optional<Summary> kernel;  // kernel time over the repetitions (Clock::Kernel)
    double gbps = 0;                // image bytes per second of median kernel time
    std::optional<double> ratioToBaseline;  // the baseline strategy's median over this one's

    bool measured() const { return kernel.has_value(); }
};

struct Comparison {
    std::string baseline;     // the strategy the ratios are to
    std::uint64_t bytes = 0;  // the image's, what GB/s divides
    int repetitions = 0;
    std::vector<StrategyMeasurement>
        strategies;  // every strategy of the registry, in its order (then an edit)
    // The proceed hook said stop: the strategies measured until then are kept, the rest say so.
    // Every record of the comparison in order: the one upload of the pixels, then each strategy's warm-up and
    // repetitions.
    std::vector<Timing> timings;
    bool stopped = false;
};

struct CompareHooks {
    // Asked before each repetition; false stops the comparison: the strategies measured so far keep their
    // figures, the one interrupted and those after it are not measured (kNotMeasured), and `stopped` is set.
    std::function<bool()> proceed;
    // After each repetition: `done` of `total` measured runs (supported strategies × repetitions).
    std::function<void(int done, int total)> progress;
};

// Why a strategy of a stopped comparison has no figures.
inline constexpr std::string_view kNotMeasured = "not measured: the comparison was stopped";

// A strategy built from a user's edit of its kernels (the kernel lab's edited built-in,
// lab/edited_strategy.hpp), measured as one more row after the registry's, named "STRATEGY (edited: LABEL)".
struct EditedSource {
    std::string strategy;  // the registered strategy whose kernels `text` replaces
    std::string label;     // the text's file name
    std::string text;
};

// Speed-ups are relative to the golden reference strategy (issue 3).
inline constexpr std::string_view kCompareBaseline = "serial";

// Every histogram strategy on `image` with `params`: one untimed warm-up, then `repetitions` measured runs
// each. `device` is null where no OpenCL device is selected (device strategies are then unsupported). A
// strategy that fails is reported with the error's message; the others are still measured.
Comparison compareHistogramStrategies(DeviceContext* device, const ImageRGBA8& image,
                                      const histogram::Params& params, int repetitions,
                                      const CompareHooks& hooks = {},
                                      std::string_view baseline = kCompareBaseline,
                                      const std::optional<EditedSource>& edited = std::nullopt);

}  // namespace hs::measure
