#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "image/pixel_source.hpp"
#include "ops/strategy.hpp"
#include "runtime/device_info.hpp"
#include "runtime/timing.hpp"

namespace hs {
class DeviceContext;
}

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
};

// Throws UsageError unless bins is within 1..256.
void validate(const Params& params);

// Every strategy counts the 256 values, whatever the bin count: the statistics come from the exact values,
// and `histogram` is `values` grouped into the requested bins on the host (5 × 256 additions).
struct Result {
    Histogram histogram;  // params.bins bins
    Histogram values;     // 256 bins: one per 8-bit value
    std::vector<Timing> timings;
    std::string strategy;  // the strategy that actually ran (for `auto`, the one it chose)

    // A strategy's result from the counts of the 256 values.
    static Result counted(Histogram values, const Params& params, std::vector<Timing> timings,
                          std::string_view strategy);
};

// A named way of computing the histogram. The list of strategies is data that the CLI, the GUI, the bench
// and the tests iterate over.
class Strategy {
  public:
    virtual ~Strategy() = default;
    virtual std::string_view name() const = 0;
    virtual std::string_view description() const = 0;
    virtual bool runsOnDevice() const = 0;
    // `device` is null where no OpenCL device is involved (host strategies only then).
    virtual Support supported(const DeviceInfo* device, const Params& params) const = 0;
    // `device` is non-null for device strategies. Preconditions (validated params, support) are checked by
    // computeHistogram(), which is what callers use.
    virtual Result run(DeviceContext* device, PixelSource& pixels, const Params& params) const = 0;
    // The kernel a device strategy builds for `device` and `params`; none for host strategies.
    virtual std::optional<KernelBuild> kernelBuild(const DeviceInfo& device, const Params& params) const;
};

// Every strategy, in the order they are presented.
const std::vector<const Strategy*>& strategies();
// Throws UsageError naming the known strategies when `name` is not one of them.
const Strategy& findStrategy(std::string_view name);

// The single entry point: validates, checks support (throwing OpenClError with the reason if unsupported),
// runs, and returns the result with every command's timing.
Result computeHistogram(DeviceContext* device, PixelSource& pixels, const Params& params,
                        const Strategy& strategy);

// The golden reference: a plain single-threaded loop over the pixels, counting straight into `bins` bins.
Histogram referenceHistogram(const std::uint8_t* rgba, std::size_t pixelCount, int bins,
                             bool ignoreTransparent = false);

}  // namespace hs::histogram
