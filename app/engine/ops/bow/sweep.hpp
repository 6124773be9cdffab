#pragma once
// The book's table: descriptors x centroids x every builder strategy on synthetic descriptors, kernel time
// min / median / max (the transpose of GPU2..GPU5 timed apart), speed-up over bow-gpu1-baseline, and each
// result checked against the nearest centroids. `histoscope-cli bow-sweep` and the bench's `bow` suite print
// it, measured by the engine's one measuring module (measure/measure.hpp: an untimed warm-up, then the
// repetitions, on the kernel clock).

#include <functional>
#include <optional>

#include "engine/measure/measure.hpp"
#include "engine/ops/bow/bow.hpp"

namespace hs::bow {

struct SweepParams {
    std::vector<std::size_t> descriptorCounts{4096, 16384, 65536};
    std::vector<std::size_t> centroidCounts{8, 16, 64, 128, 256};
    std::vector<std::string> strategies;  // empty: all
    int repetitions = 20;
    std::uint64_t seed = 1;
};

struct SweepRow {
    std::size_t descriptors = 0;
    std::size_t centroids = 0;
    std::string strategy;
    bool onDevice = false;  // clock: device events (Clock::Kernel), else the host's steady clock (Wall)
    std::optional<measure::Summary> kernel;     // none: skipped, `detail` says why
    std::optional<measure::Summary> transpose;  // GPU2..GPU5
    std::optional<double> speedupOverGpu1;      // GPU1's median kernel time over this one's
    std::size_t misassigned = 0;                // memberships not nearest up to a near tie (0 when right)
    std::string detail;                         // build options, or why the row was skipped
};

// Unit-length descriptors of uniform values from `seed` (std::mt19937_64, 24-bit floats).
Matrix syntheticDescriptors(std::size_t count, std::uint64_t seed);

// Asked before each row with the rows measured so far and the rows of the whole sweep; false stops the sweep
// there (the app's Cancel).
using SweepProgress = std::function<bool(std::size_t done, std::size_t total)>;

// Throws UsageError for an empty list, a count of 0, an unknown strategy or repetitions < 1. A device
// strategy without `device`, or unsupported, or failing, is a skipped row with the reason. Stopped by
// `progress`, it returns the rows measured until then (the last size's speed-ups where its GPU1 row ran).
std::vector<SweepRow> sweep(DeviceContext* device, const SweepParams& params,
                            const SweepProgress& progress = {});

}  // namespace hs::bow
