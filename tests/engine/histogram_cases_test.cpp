// Hand-computed histograms, bin edges, luma rounding, parameter checks, device adaptation and timing records.
#include <gtest/gtest.h>

#include <tuple>

#include "engine/ops/histogram/histogram.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"
#include "histogram_test_images.hpp"

namespace hs::histogram {
namespace {

Runtime& runtime() {
    static Runtime instance;
    return instance;
}

ImageRGBA8 imageOf(const std::vector<std::array<std::uint8_t, 4>>& pixels) {
    ImageRGBA8 image(static_cast<int>(pixels.size()), 1);
    for (std::size_t i = 0; i < pixels.size(); ++i)
        std::copy(pixels[i].begin(), pixels[i].end(), image.pixel(static_cast<int>(i), 0));
    return image;
}

// Runs every strategy on `image` and hands each result to `check`.
template <typename Check>
void forEveryStrategyResult(const ImageRGBA8& image, const Params& params, Check check) {
    for (const auto* strategy : strategies()) {
        SCOPED_TRACE(std::string(strategy->name()));
        PixelSource pixels(image);
        DeviceContext* device = strategy->runsOnDevice() ? &runtime().open("0:0") : nullptr;
        check(computeHistogram(device, pixels, params, *strategy));
    }
}

// Runs every strategy on `image` and hands each histogram of `bins` bins to `check`.
template <typename Check>
void forEveryStrategy(const ImageRGBA8& image, int bins, Check check) {
    forEveryStrategyResult(image, Params{bins}, [&](const Result& result) { check(result.histogram); });
}

// A histogram of `bins` zeros with the given (bin, count) entries.
std::vector<std::uint64_t> counts(int bins, std::initializer_list<std::pair<int, std::uint64_t>> entries) {
    std::vector<std::uint64_t> row(static_cast<std::size_t>(bins), 0);
    for (const auto& [bin, count] : entries) row[static_cast<std::size_t>(bin)] = count;
    return row;
}

TEST(HistogramCases, TwoByTwoImageCountedByHand) {
    // Lumas: (0,0,0) -> 500/1000 = 0; (255,255,255) -> 255500/1000 = 255;
    // (10,20,30) -> (2990 + 11740 + 3420 + 500)/1000 = 18;
    // (200,100,50) -> (59800 + 58700 + 5700 + 500)/1000 = 124.
    ImageRGBA8 image(2, 2);
    const std::uint8_t values[4][4] = {
        {0, 0, 0, 255}, {255, 255, 255, 255}, {10, 20, 30, 40}, {200, 100, 50, 0}};
    for (int i = 0; i < 4; ++i) std::copy(values[i], values[i] + 4, image.pixel(i % 2, i / 2));

    forEveryStrategy(image, 256, [](const Histogram& h) {
        EXPECT_EQ(h[Channel::R], counts(256, {{0, 1}, {255, 1}, {10, 1}, {200, 1}}));
        EXPECT_EQ(h[Channel::G], counts(256, {{0, 1}, {255, 1}, {20, 1}, {100, 1}}));
        EXPECT_EQ(h[Channel::B], counts(256, {{0, 1}, {255, 1}, {30, 1}, {50, 1}}));
        EXPECT_EQ(h[Channel::A], counts(256, {{255, 2}, {40, 1}, {0, 1}}));
        EXPECT_EQ(h[Channel::Luma], counts(256, {{0, 1}, {255, 1}, {18, 1}, {124, 1}}));
    });
    // bin = v * 7 / 256: 10, 20, 30, 40, 18 -> 0; 50 -> 1; 100 -> 2; 124 -> 3; 200 -> 5; 255 -> 6.
    forEveryStrategy(image, 7, [](const Histogram& h) {
        EXPECT_EQ(h[Channel::R], counts(7, {{0, 2}, {5, 1}, {6, 1}}));
        EXPECT_EQ(h[Channel::G], counts(7, {{0, 2}, {2, 1}, {6, 1}}));
        EXPECT_EQ(h[Channel::B], counts(7, {{0, 2}, {1, 1}, {6, 1}}));
        EXPECT_EQ(h[Channel::A], counts(7, {{6, 2}, {1, 1}, {0, 1}}));
        EXPECT_EQ(h[Channel::Luma], counts(7, {{0, 2}, {3, 1}, {6, 1}}));
    });
}

TEST(HistogramCases, TransparentPixelsLeftOutOfColourAndLumaByHand) {
    // The 2x2 image above with its alpha-0 pixel (200, 100, 50, 0) ignored: R, G, B and luma lose 200, 100,
    // 50 and 124; A still counts the pixel at 0.
    const auto image = imageOf({{0, 0, 0, 255}, {255, 255, 255, 255}, {10, 20, 30, 40}, {200, 100, 50, 0}});
    forEveryStrategyResult(image, Params{256, true}, [](const Result& result) {
        const Histogram& h = result.histogram;
        EXPECT_EQ(h[Channel::R], counts(256, {{0, 1}, {255, 1}, {10, 1}}));
        EXPECT_EQ(h[Channel::G], counts(256, {{0, 1}, {255, 1}, {20, 1}}));
        EXPECT_EQ(h[Channel::B], counts(256, {{0, 1}, {255, 1}, {30, 1}}));
        EXPECT_EQ(h[Channel::A], counts(256, {{255, 2}, {40, 1}, {0, 1}}));
        EXPECT_EQ(h[Channel::Luma], counts(256, {{0, 1}, {255, 1}, {18, 1}}));
    });
    // Only alpha 0 is left out: alpha 1 counts in every channel ((5,10,20): luma (1495 + 5870 + 2280 + 500) /
    // 1000 = 10).
    forEveryStrategyResult(imageOf({{5, 10, 20, 1}, {9, 9, 9, 0}}), Params{256, true},
                           [](const Result& result) {
                               const Histogram& h = result.histogram;
                               EXPECT_EQ(h[Channel::R], counts(256, {{5, 1}}));
                               EXPECT_EQ(h[Channel::G], counts(256, {{10, 1}}));
                               EXPECT_EQ(h[Channel::B], counts(256, {{20, 1}}));
                               EXPECT_EQ(h[Channel::A], counts(256, {{1, 1}, {0, 1}}));
                               EXPECT_EQ(h[Channel::Luma], counts(256, {{10, 1}}));
                           });
    // A fully transparent image leaves the colour channels empty.
    forEveryStrategyResult(imageOf({{9, 9, 9, 0}, {250, 1, 7, 0}}), Params{7, true},
                           [](const Result& result) {
                               for (const auto channel : {Channel::R, Channel::G, Channel::B, Channel::Luma})
                                   EXPECT_EQ(result.histogram.total(channel), 0u) << channelName(channel);
                               EXPECT_EQ(result.histogram[Channel::A], counts(7, {{0, 2}}));
                           });
}

TEST(HistogramCases, SevenBinsSplitAtTheHandComputedEdges) {
    // With 7 bins the edges fall between 36|37, 73|74, 109|110, 146|147, 182|183 and 219|220 (v * 7 / 256),
    // so each bin gets exactly two of these red values. Luma is (299 R + 500) / 1000:
    // 0..33 -> bin 0, 44..66 -> bin 1, 76 -> bin 2.
    const std::vector<int> reds{0, 36, 37, 73, 74, 109, 110, 146, 147, 182, 183, 219, 220, 255};
    std::vector<std::array<std::uint8_t, 4>> pixels;
    for (const int red : reds) pixels.push_back({static_cast<std::uint8_t>(red), 0, 0, 255});
    forEveryStrategy(imageOf(pixels), 7, [](const Histogram& h) {
        EXPECT_EQ(h[Channel::R], std::vector<std::uint64_t>(7, 2));
        EXPECT_EQ(h[Channel::G], counts(7, {{0, 14}}));
        EXPECT_EQ(h[Channel::A], counts(7, {{6, 14}}));
        EXPECT_EQ(h[Channel::Luma], counts(7, {{0, 7}, {1, 6}, {2, 1}}));
    });
}

TEST(HistogramCases, LumaRoundsHalfUpAsTheContractSays) {
    // (1,0,0): 799/1000 = 0; (0,0,4): 956 -> 0; (2,0,0): 1098 -> 1; (0,0,5): 1070 -> 1;
    // (0,1,0): 1087 -> 1; (1,1,1): 1500 -> 1.
    const auto image =
        imageOf({{1, 0, 0, 0}, {0, 0, 4, 0}, {2, 0, 0, 0}, {0, 0, 5, 0}, {0, 1, 0, 0}, {1, 1, 1, 0}});
    forEveryStrategy(image, 256, [](const Histogram& h) {
        EXPECT_EQ(h[Channel::Luma], counts(256, {{0, 2}, {1, 4}}));
    });
}

TEST(HistogramCases, LumaExactlyOnAHalfRoundsUpByHand) {
    // Exact lumas on a half go up: (0,0,250): 114 * 250 = 28500, 28.5 -> 29; (0,12,4): 7044 + 456 = 7500,
    // 7.5 -> 8; (0,4,168): 2348 + 19152 = 21500, 21.5 -> 22. Just below a half goes down: (0,1,8):
    // 587 + 912 = 1499 -> 1; (2,3,10): 598 + 1761 + 1140 = 3499 -> 3. Just above goes up: (8,7,0):
    // 2392 + 4109 = 6501 -> 7.
    const auto image = imageOf({{0, 0, 250, 255},
                                {0, 12, 4, 255},
                                {0, 4, 168, 255},
                                {0, 1, 8, 255},
                                {2, 3, 10, 255},
                                {8, 7, 0, 255}});
    forEveryStrategy(image, 256, [](const Histogram& h) {
        EXPECT_EQ(h[Channel::Luma], counts(256, {{29, 1}, {8, 1}, {22, 1}, {1, 1}, {3, 1}, {7, 1}}));
    });
}

TEST(HistogramCases, BinsOutsideOneTo256AreAUsageError) {
    const ImageRGBA8 image(3, 3);
    for (const auto* strategy : strategies()) {
        SCOPED_TRACE(std::string(strategy->name()));
        PixelSource pixels(image);
        DeviceContext* device = strategy->runsOnDevice() ? &runtime().open("0:0") : nullptr;
        for (const int bins : {0, -3, 257}) {
            try {
                computeHistogram(device, pixels, Params{bins}, *strategy);
                ADD_FAILURE() << bins << " bins were accepted";
            } catch (const UsageError& e) {
                EXPECT_NE(std::string(e.what()).find(std::to_string(bins)), std::string::npos) << e.what();
            }
        }
    }
}

DeviceInfo describedDevice(DeviceType type, std::uint64_t localMemBytes, std::size_t maxWorkGroupSize) {
    DeviceInfo info;
    info.name = "described device";
    info.type = type;
    info.computeUnits = 4;
    info.localMemBytes = localMemBytes;
    info.maxWorkGroupSize = maxWorkGroupSize;
    return info;
}

TEST(HistogramSupport, StrategiesNeedingMoreLocalMemoryThanTheDeviceHasSayWhy) {
    // 256 bins: a local histogram alone is 5 * 256 * 4 bytes = 5 KiB; private-uchar's counters of one
    // work-item 5 * 256 bytes, beside a 4-byte chunk index.
    const DeviceInfo tiny = describedDevice(DeviceType::Gpu, 4096, 256);
    const DeviceInfo tinier = describedDevice(DeviceType::Gpu, 1024, 256);
    const DeviceInfo small = describedDevice(DeviceType::Gpu, 8192, 256);
    // The kernels count the 256 values whatever the bin count: a local histogram alone is 5 * 256 * 4 bytes
    // = 5 KiB, private-uchar's counters for one work-item 1280 bytes, at 64 bins too.
    for (const auto& [name, device, size] :
         {std::tuple{"local-atomic", tiny, "4 KiB"}, std::tuple{"partial-reduce", tiny, "4 KiB"},
          std::tuple{"private-uchar", tinier, "1 KiB"}}) {
        for (const int bins : {256, 64}) {
            const Support support = findStrategy(name).supported(&device, {}, Params{bins});
            EXPECT_FALSE(support.ok) << name;
            EXPECT_NE(support.reason.find("local memory"), std::string::npos)
                << name << ": " << support.reason;
            EXPECT_NE(support.reason.find(size), std::string::npos) << name << ": " << support.reason;
        }
        EXPECT_TRUE(findStrategy(name).supported(&small, {}, Params{64}).ok) << name;
    }
    EXPECT_TRUE(findStrategy("global-atomic").supported(&tiny, {}, Params{256}).ok);
    EXPECT_TRUE(findStrategy("auto").supported(&tiny, {}, Params{256}).ok)
        << "global-atomic still runs there";
    EXPECT_TRUE(findStrategy("serial").supported(nullptr, {}, Params{256}).ok);
    EXPECT_TRUE(findStrategy("cpu-parallel").supported(nullptr, {}, Params{256}).ok);
}

TEST(HistogramSupport, KernelBuildsAdaptToLocalMemoryAndWorkGroupLimits) {
    const Strategy& privateUchar = findStrategy("private-uchar");
    // 48 KiB: WG * 1280 bytes of uchar counters and 4 must fit, so WG <= 38; halving from 256 gives 32, a
    // multiple of 16, so the GPU's interleaved layout.
    EXPECT_EQ(
        privateUchar.kernelBuild(describedDevice(DeviceType::Gpu, 48 * 1024, 1024), Params{256}, {})->options,
        "-D BINS=256 -D WG=32 -D ITEM_QUADS=63 -D INTERLEAVED=1 -D LANES=1");
    // A device allowing 8 work-items per group gets 8, too few for the interleaved layout.
    EXPECT_EQ(
        privateUchar.kernelBuild(describedDevice(DeviceType::Gpu, 48 * 1024, 8), Params{256}, {})->options,
        "-D BINS=256 -D WG=8 -D ITEM_QUADS=63 -D INTERLEAVED=0 -D LANES=1");
    // 7 bins build the same kernel: the device counts the 256 values, the host groups them into bins.
    EXPECT_EQ(
        privateUchar.kernelBuild(describedDevice(DeviceType::Gpu, 48 * 1024, 1024), Params{7}, {})->options,
        "-D BINS=256 -D WG=32 -D ITEM_QUADS=63 -D INTERLEAVED=1 -D LANES=1");
    // Ignoring transparent pixels is one more -D option.
    EXPECT_EQ(
        privateUchar.kernelBuild(describedDevice(DeviceType::Gpu, 48 * 1024, 1024), Params{7, true}, {})
            ->options,
        "-D BINS=256 -D IGNORE_TRANSPARENT -D WG=32 -D ITEM_QUADS=63 -D INTERLEAVED=1 -D LANES=1");

    // A CPU: rows of counters per work-item, 4 lanes each, so 255 uint4 loads between flushes; 4 work-items.
    EXPECT_EQ(privateUchar.kernelBuild(describedDevice(DeviceType::Cpu, 1024 * 1024, 4096), Params{256}, {})
                  ->options,
              "-D BINS=256 -D WG=4 -D ITEM_QUADS=255 -D INTERLEAVED=0 -D LANES=4");

    for (const char* name : {"partial-reduce", "local-atomic"}) {
        const Strategy& subHistograms = findStrategy(name);
        // One sub-histogram a group, whatever the local memory or the bins; the work-group as the device
        // allows; partial-reduce takes 64 uint4 loads a chunk on a GPU, 16 elsewhere.
        const std::string gpuChunk = std::string(name) == "partial-reduce" ? "64" : "16";
        // partial-reduce's program holds its own kernels, not local_atomic.
        const std::string kernels = std::string(name) == "partial-reduce" ? " -D PARTIALS" : "";
        for (const std::uint64_t localBytes : {48 * 1024, 16 * 1024}) {
            EXPECT_EQ(subHistograms
                          .kernelBuild(describedDevice(DeviceType::Gpu, localBytes, 1024), Params{256}, {})
                          ->options,
                      "-D BINS=256 -D WG=256 -D COPIES=1 -D CHUNK_QUADS=" + gpuChunk + kernels)
                << name;
        }
        EXPECT_EQ(subHistograms.kernelBuild(describedDevice(DeviceType::Gpu, 48 * 1024, 128), Params{64}, {})
                      ->options,
                  "-D BINS=256 -D WG=128 -D COPIES=1 -D CHUNK_QUADS=" + gpuChunk + kernels)
            << name;
        EXPECT_EQ(
            subHistograms.kernelBuild(describedDevice(DeviceType::Cpu, 1024 * 1024, 4096), Params{256}, {})
                ->options,
            "-D BINS=256 -D WG=256 -D COPIES=1 -D CHUNK_QUADS=16" + kernels)
            << name;
    }

    const auto build = findStrategy("global-atomic")
                           .kernelBuild(describedDevice(DeviceType::Gpu, 48 * 1024, 1024), Params{64}, {});
    ASSERT_TRUE(build.has_value());
    EXPECT_EQ(build->source, "histogram");
    EXPECT_EQ(build->options, "-D BINS=256");
    EXPECT_FALSE(findStrategy("serial")
                     .kernelBuild(describedDevice(DeviceType::Cpu, 0, 0), Params{64}, {})
                     .has_value());
}

TEST(HistogramTimings, EveryCommandIsRecordedAndPixelsUploadOnce) {
    auto& device = runtime().open("0:0");
    const ImageRGBA8 image = test_images::makeImage(301, 7, test_images::Pattern::Uniform);
    for (const auto* strategy : strategies()) {
        if (!strategy->runsOnDevice() || strategy->name() == "auto") continue;
        SCOPED_TRACE(std::string(strategy->name()));
        PixelSource pixels(image);
        const auto first = computeHistogram(&device, pixels, Params{64}, *strategy).timings;
        const auto second = computeHistogram(&device, pixels, Params{64}, *strategy).timings;
        const auto countStage = [](const std::vector<Timing>& timings, Stage stage) {
            return std::count_if(timings.begin(), timings.end(),
                                 [&](const Timing& t) { return t.stage == stage; });
        };
        EXPECT_EQ(countStage(first, Stage::Upload), 1);
        EXPECT_EQ(countStage(second, Stage::Upload), 0) << "the pixels stay on the device";
        EXPECT_EQ(countStage(second, Stage::Readback), 1);
        EXPECT_GE(countStage(second, Stage::Kernel), 1);
        for (const auto& timing : second) {
            EXPECT_LE(timing.queuedNs, timing.submitNs) << timing.name;
            EXPECT_LE(timing.startNs, timing.endNs) << timing.name;
        }
    }
}

}  // namespace
}  // namespace hs::histogram
