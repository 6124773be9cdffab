// Strategies that run on the host: the golden reference, and the native multithreaded one.
#include <algorithm>
#include <chrono>
#include <thread>

#include "ops/histogram/histogram.hpp"
#include "ops/histogram/strategy_list.hpp"

namespace hs::histogram {

namespace {

class SerialStrategy final : public Strategy {
  public:
    std::string_view name() const override { return "serial"; }
    std::string_view description() const override { return "single-thread C++ loop; the golden reference"; }
    bool runsOnDevice() const override { return false; }
    Support supported(const DeviceInfo*, const Params&) const override { return Support::yes(); }
    Result run(DeviceContext*, PixelSource& pixels, const Params& params) const override {
        TimingLog log;
        const std::uint8_t* rgba = pixels.host(log);
        const auto start = std::chrono::steady_clock::now();
        Histogram histogram = referenceHistogram(rgba, pixels.pixelCount(), params.bins);
        log.addHost(Stage::Kernel, "serial", start, std::chrono::steady_clock::now());
        return {std::move(histogram), log.collect(), std::string(name())};
    }
};

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
using BinTable = std::array<std::uint8_t, 256>;

// Counts pixels [first, last) into the lanes. `kScaled` is false for 256 bins, where the bin is the value.
template <bool kScaled>
void countPixels(const std::uint8_t* rgba, std::size_t first, std::size_t last, const BinTable& binOfValue,
                 LaneCounters& lanes) {
    const auto bin = [&](std::uint32_t value) -> std::uint32_t {
        return kScaled ? binOfValue[value] : value;
    };
    const auto count = [&](std::uint32_t* lane, const std::uint8_t* p) {
        const std::uint32_t r = p[0], g = p[1], b = p[2], a = p[3];
        ++lane[0 * kMaxBins + bin(r)];
        ++lane[1 * kMaxBins + bin(g)];
        ++lane[2 * kMaxBins + bin(b)];
        ++lane[3 * kMaxBins + bin(a)];
        ++lane[4 * kMaxBins + bin(static_cast<std::uint32_t>(
                                  luma(static_cast<int>(r), static_cast<int>(g), static_cast<int>(b))))];
    };
    std::uint32_t* lane0 = lanes.data();
    std::size_t i = first;
    for (; i + kLanes <= last; i += kLanes) {
        const std::uint8_t* p = rgba + i * 4;
        for (std::size_t l = 0; l < kLanes; ++l) count(lane0 + l * kLaneSize, p + l * 4);
    }
    for (; i < last; ++i) count(lane0, rgba + i * 4);
}

// Channel-major totals of one thread's pixels: kChannelCount rows of kMaxBins (scaled bins use the first
// `bins`).
using Totals = std::vector<std::uint64_t>;

Totals countRange(const std::uint8_t* rgba, std::size_t first, std::size_t last, int bins,
                  const BinTable& binOfValue) {
    Totals totals(kLaneSize, 0);
    LaneCounters lanes(kLanes * kLaneSize);
    for (std::size_t blockStart = first; blockStart < last; blockStart += kFoldPixels) {
        std::fill(lanes.begin(), lanes.end(), 0);
        const std::size_t blockEnd = std::min(last, blockStart + kFoldPixels);
        if (bins == kMaxBins)
            countPixels<false>(rgba, blockStart, blockEnd, binOfValue, lanes);
        else
            countPixels<true>(rgba, blockStart, blockEnd, binOfValue, lanes);
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
    Support supported(const DeviceInfo*, const Params&) const override { return Support::yes(); }
    Result run(DeviceContext*, PixelSource& pixels, const Params& params) const override {
        TimingLog log;
        const std::uint8_t* rgba = pixels.host(log);
        const std::size_t pixelCount = pixels.pixelCount();
        const auto start = std::chrono::steady_clock::now();

        BinTable binOfValue{};
        for (int v = 0; v < 256; ++v)
            binOfValue[static_cast<std::size_t>(v)] = static_cast<std::uint8_t>(binOf(v, params.bins));

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
                    countRange(rgba, first, std::min(pixelCount, first + share), params.bins, binOfValue);
            };
            for (std::size_t t = 1; t < threadCount; ++t) helpers.emplace_back(work, t);
            work(0);
        }

        Histogram histogram(params.bins);
        for (const auto& totals : perThread) {
            for (std::size_t c = 0; c < kChannelCount; ++c) {
                for (std::size_t b = 0; b < static_cast<std::size_t>(params.bins); ++b)
                    histogram.counts[c][b] += totals[c * kMaxBins + b];
            }
        }
        log.addHost(Stage::Kernel, "cpu-parallel", start, std::chrono::steady_clock::now());
        return {std::move(histogram), log.collect(), std::string(name())};
    }
};

}  // namespace

const Strategy& serialStrategy() {
    static const SerialStrategy strategy;
    return strategy;
}

const Strategy& cpuParallelStrategy() {
    static const CpuParallelStrategy strategy;
    return strategy;
}

}  // namespace hs::histogram
