#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/image/pixel_source.hpp"
#include "engine/image/region.hpp"
#include "engine/ops/operation.hpp"
#include "engine/runtime/device_info.hpp"
#include "engine/runtime/timing.hpp"

namespace hs::histogram {

inline constexpr int kChannelCount = 5;
inline constexpr int kMaxBins = 256;

enum class Channel { R = 0, G = 1, B = 2, A = 3, Luma = 4 };
inline constexpr std::array<Channel, kChannelCount> kChannels{Channel::R, Channel::G, Channel::B, Channel::A,
                                                              Channel::Luma};

// "r", "g", "b", "a", "luma": the names of the JSON keys and CSV columns.
std::string_view channelName(Channel channel);

// The integer luma of the contract: (299 R + 587 G + 114 B + 500) / 1000.
constexpr int luma(int r, int g, int b) {
    return (299 * r + 587 * g + 114 * b + 500) / 1000;
}
// The bin of an 8-bit value among `bins` equal bins.
constexpr int binOf(int value, int bins) {
    return value * bins / 256;
}

// Counts per channel and bin.
struct Histogram {
    int bins = kMaxBins;
    std::array<std::vector<std::uint64_t>, kChannelCount> counts;

    Histogram() : Histogram(kMaxBins) {}
    explicit Histogram(int binCount);
    // From the device layout: kChannelCount rows of `bins` counters, channel-major.
    static Histogram fromFlat(const std::vector<std::uint32_t>& flat, int binCount);

    std::vector<std::uint64_t>& operator[](Channel c) { return counts[static_cast<std::size_t>(c)]; }
    const std::vector<std::uint64_t>& operator[](Channel c) const {
        return counts[static_cast<std::size_t>(c)];
    }
    std::uint64_t total(Channel c) const;
    // This histogram of the 256 values grouped into `binCount` bins (bin = v * binCount / 256). Throws
    // UsageError unless this histogram has 256 bins and 1 <= binCount <= 256.
    Histogram rebinned(int binCount) const;
    bool operator==(const Histogram&) const = default;
};

struct Params {
    int bins = kMaxBins;
    // Leaves pixels of alpha 0 out of R, G, B and luma (A still counts them): the transparent padding of a
    // rotation, say, is not black. Off by default: the contract counts every pixel.
    bool ignoreTransparent = false;
    // Counts only this rectangle of the image (it must lie inside); none: every pixel.
    std::optional<Region> roi = std::nullopt;
};

// Throws UsageError unless bins is within 1..256.
void validate(const Params& params);

// Every strategy counts the 256 values, whatever the bin count: the statistics come from the exact values,
// and `histogram` is `values` grouped into the requested bins on the host (5 × 256 additions).
struct Result : RunRecord {
    Histogram histogram;  // params.bins bins
    Histogram values;     // 256 bins: one per 8-bit value

    // A strategy's result from the counts of the 256 values; `record` says what ran.
    static Result counted(Histogram values, const Params& params, RunRecord record);
};

// The histogram as an operation (see ops/operation.hpp): its strategies take the pixels, on the host or a
// device, and there is no fallback (a host strategy always runs).
struct Operation {
    static constexpr OperationKind kKind = OperationKind::Histogram;
    static constexpr std::string_view kStrategyNoun = "strategy";
    static constexpr std::string_view kFallback = "";
    using Params = histogram::Params;
    using Input = PixelSource;
    using Result = histogram::Result;
};

using Strategy = hs::Strategy<Operation>;

// Every strategy, in the order they are presented (the registry's list).
inline const std::vector<const Strategy*>& strategies() {
    return Registry<Operation>::list();
}
// Throws UsageError naming the known strategies when `name` is not one of them.
inline const Strategy& findStrategy(std::string_view name) {
    return Registry<Operation>::find(name);
}

// The single entry point: validates, checks support (throwing OpenClError with the reason if unsupported),
// runs, and returns the result with every command's timing. With a region (UsageError naming the image's size
// when it does not lie inside), the strategy counts a packed copy of it: made on the device for a device
// strategy (launch::cropped), on the host for a host one.
Result computeHistogram(DeviceContext* device, PixelSource& pixels, const Params& params,
                        const Strategy& strategy);

// The golden reference: a plain single-threaded loop over the pixels, counting straight into `bins` bins.
Histogram referenceHistogram(const std::uint8_t* rgba, std::size_t pixelCount, int bins,
                             bool ignoreTransparent = false);

}  // namespace hs::histogram
