// cpu-parallel: the native multithreaded host strategy.
#include <algorithm>
#include <chrono>
#include <thread>

#include "engine/ops/histogram/histogram.hpp"

namespace hs::histogram {

namespace {

// Consecutive pixels go to different copies of the counters, so incrementing the same bin twice in a row
// (flat image regions) does not wait for the previous store to be forwarded.
constexpr std::size_t kLanes = 4;
constexpr std::size_t kLaneSize = kChannelCount * kMaxBins;
// uint32 lane counters are folded into the thread's uint64 totals at least this often, so they never
// overflow.
constexpr std::size_t kFoldPixels = std::size_t{1} << 30;
// Below this many pixels per thread, starting a thread costs more than it saves.
constexpr std::size_t kMinPixelsPerThread = std::size_t{1} << 16;

using LaneCounters = std::vector<std::uint32_t>;  // kLanes * kLaneSize

// Counts the values of pixels [first, last) into the lanes. With `kIgnoreTransparent`, a pixel of alpha 0
// counts in A only.
template <bool kIgnoreTransparent>
void countPixels(const std::uint8_t* rgba, std::size_t first, std::size_t last, LaneCounters& lanes) {
    const auto count = [](std::uint32_t* lane, const std::uint8_t* p) {
        const std::uint32_t r = p[0], g = p[1], b = p[2], a = p[3];
        ++lane[3 * kMaxBins + a];
        if (kIgnoreTransparent && a == 0) return;
        ++lane[0 * kMaxBins + r];
        ++lane[1 * kMaxBins + g];
        ++lane[2 * kMaxBins + b];
        ++lane[4 * kMaxBins + static_cast<std::uint32_t>(
                                  luma(static_cast<int>(r), static_cast<int>(g), static_cast<int>(b)))];
    };
    std::uint32_t* lane0 = lanes.data();
    std::size_t i = first;
    for (; i + kLanes <= last; i += kLanes) {
        const std::uint8_t* p = rgba + i * 4;
        for (std::size_t l = 0; l < kLanes; ++l) count(lane0 + l * kLaneSize, p + l * 4);
    }
    for (; i < last; ++i) count(lane0, rgba + i * 4);
}

// Channel-major counts of one thread's pixels: kChannelCount rows of the 256 values.
using Totals = std::vector<std::uint64_t>;

Totals countRange(const std::uint8_t* rgba, std::size_t first, std::size_t last, bool ignoreTransparent) {
    Totals totals(kLaneSize, 0);
    LaneCounters lanes(kLanes * kLaneSize);
    for (std::size_t blockStart = first; blockStart < last; blockStart += kFoldPixels) {
        std::fill(lanes.begin(), lanes.end(), 0);
        const std::size_t blockEnd = std::min(last, blockStart + kFoldPixels);
        if (ignoreTransparent)
            countPixels<true>(rgba, blockStart, blockEnd, lanes);
        else
            countPixels<false>(rgba, blockStart, blockEnd, lanes);
        for (std::size_t l = 0; l < kLanes; ++l) {
            for (std::size_t i = 0; i < kLaneSize; ++i) totals[i] += lanes[l * kLaneSize + i];
        }
    }
    return totals;
}

class CpuParallelStrategy final : public Strategy {
  public:
    std::string_view name() const override { return "cpu-parallel"; }
    std::string_view description() const override {
        return "a C++ thread per hardware thread, private interleaved histograms merged once";
    }
    bool runsOnDevice() const override { return false; }
    Support supported(const DeviceInfo*, ImageShape, const Params&) const override { return Support::yes(); }
    Result run(DeviceContext*, PixelSource& pixels, const Params& params) const override {
        TimingLog log;
        const std::uint8_t* rgba = pixels.host(log);
        const std::size_t pixelCount = pixels.pixelCount();
        const auto start = std::chrono::steady_clock::now();

        const std::size_t hardwareThreads = std::max(1u, std::thread::hardware_concurrency());
        const std::size_t threadCount =
            std::clamp<std::size_t>(pixelCount / kMinPixelsPerThread, 1, hardwareThreads);
        const std::size_t share = (pixelCount + threadCount - 1) / threadCount;
        std::vector<Totals> perThread(threadCount);
        {
            std::vector<std::jthread> helpers;
            const auto work = [&](std::size_t t) {
                const std::size_t first = std::min(pixelCount, t * share);
                perThread[t] =
                    countRange(rgba, first, std::min(pixelCount, first + share), params.ignoreTransparent);
            };
            for (std::size_t t = 1; t < threadCount; ++t) helpers.emplace_back(work, t);
            work(0);
        }

        Histogram values;
        for (const auto& totals : perThread) {
            for (std::size_t c = 0; c < kChannelCount; ++c) {
                for (std::size_t v = 0; v < kMaxBins; ++v) values.counts[c][v] += totals[c * kMaxBins + v];
            }
        }
        log.addHost(Stage::Kernel, "cpu-parallel", start, std::chrono::steady_clock::now());
        return Result::counted(std::move(values), params, {this, {}, log.collect(), {}});
    }
};

const CpuParallelStrategy strategy;
const Registration<Operation> registration(strategy, 20);

}  // namespace

}  // namespace hs::histogram
