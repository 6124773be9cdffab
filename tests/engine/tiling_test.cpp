// Images beyond the device's limits run in tiles (ops/tiling.hpp): a device whose largest allocation (and 2-D
// image size) a test lowers makes an ordinary image too big, and the tiled result is compared with the
// untiled one on the same device as the driver describes it.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "engine/ops/convolve/convolve.hpp"
#include "engine/ops/convolve/filter.hpp"
#include "engine/ops/histogram/device_strategy.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/pipeline/pipeline.hpp"
#include "engine/ops/rotate/rotate.hpp"
#include "engine/ops/tiling.hpp"
#include "engine/runtime/runtime.hpp"
#include "pipeline_test_support.hpp"

namespace hs {
namespace {

using testing::noiseImage;
using testing::readBack;
using testing::testDevice;

Runtime& runtime() {
    static Runtime instance;
    return instance;
}

// The test device with a largest allocation of `maxAllocBytes` and 2-D images of at most `imageSide` a side.
DeviceContext limitedDevice(std::uint64_t maxAllocBytes, std::size_t imageSide) {
    DeviceContext& real = runtime().open("0:0");
    DeviceInfo info = real.info();
    info.maxAllocBytes = maxAllocBytes;
    info.image2dMaxWidth = imageSide;
    info.image2dMaxHeight = imageSide;
    return DeviceContext(info, real.context(), real.device(), runtime().programCache());
}

std::size_t countTimings(const std::vector<Timing>& timings, const std::string& name) {
    return static_cast<std::size_t>(
        std::count_if(timings.begin(), timings.end(), [&](const Timing& t) { return t.name == name; }));
}

// Tiles cover the whole image once, row by row, the last of a row or column cut short.
TEST(TilingCover, CoversEveryPixelOnceWithTheLastTilesCutShort) {
    const auto rects = tiling::cover({10, 7}, {4, 3});
    ASSERT_EQ(rects.size(), 9u);
    std::vector<int> covered(70, 0);
    for (const auto& r : rects) {
        for (int y = r.y; y < r.y + r.height; ++y) {
            for (int x = r.x; x < r.x + r.width; ++x) ++covered[static_cast<std::size_t>(y * 10 + x)];
        }
    }
    EXPECT_EQ(std::count(covered.begin(), covered.end(), 1), 70);
    EXPECT_EQ(rects[2].x, 8);
    EXPECT_EQ(rects[2].width, 2);
    EXPECT_EQ(rects[8].y, 6);
    EXPECT_EQ(rects[8].height, 1);
}

// A last column and a last row one pixel wide: 9x5 in tiles of 4x2 is x = 0, 4, 8 (widths 4, 4, 1) and
// y = 0, 2, 4 (heights 2, 2, 1).
TEST(TilingCover, ALastColumnAndRowOfOnePixelAreTiles) {
    const auto rects = tiling::cover({9, 5}, {4, 2});
    ASSERT_EQ(rects.size(), 9u);
    EXPECT_EQ(rects[2].x, 8);
    EXPECT_EQ(rects[2].width, 1);
    EXPECT_EQ(rects[6].y, 4);
    EXPECT_EQ(rects[6].height, 1);
    EXPECT_EQ(rects[8].x, 8);
    EXPECT_EQ(rects[8].y, 4);
    EXPECT_EQ(rects[8].width * rects[8].height, 1);
}

TEST(TilingCover, TheLargestTileHalvesTheLongerSideUntilItFits) {
    const auto tile = tiling::largestTile({100, 30}, [](ImageShape s) { return s.width * s.height <= 500; });
    ASSERT_TRUE(tile);
    // 100x30 -> 50x30 -> 25x30 -> 25x15 (375).
    EXPECT_EQ(tile->width, 25);
    EXPECT_EQ(tile->height, 15);
    EXPECT_FALSE(tiling::largestTile({5, 5}, [](ImageShape) { return false; }));
}

// Odd sides halve upwards (101 -> 51, so two tiles still cover the 101 columns), a square halves its width
// first, and a one-pixel-wide image still halves its height.
TEST(TilingCover, OddSidesHalveUpwardsSquaresHalveTheirWidthOneWideImagesTheirHeight) {
    const auto odd = tiling::largestTile({101, 7}, [](ImageShape s) { return s.width <= 60; });
    ASSERT_TRUE(odd);
    EXPECT_EQ(odd->width, 51);
    EXPECT_EQ(odd->height, 7);
    const auto tall = tiling::largestTile({8, 9}, [](ImageShape s) { return s.height <= 4; });
    ASSERT_TRUE(tall);  // 8x9 -> 8x5 -> 4x5 (8 >= 5) -> 4x3
    EXPECT_EQ(tall->width, 4);
    EXPECT_EQ(tall->height, 3);
    const auto square = tiling::largestTile({8, 8}, [](ImageShape s) { return s.width * s.height <= 32; });
    ASSERT_TRUE(square);  // 8x8 -> 4x8
    EXPECT_EQ(square->width, 4);
    EXPECT_EQ(square->height, 8);
    const auto column = tiling::largestTile({1, 10}, [](ImageShape s) { return s.height <= 3; });
    ASSERT_TRUE(column);  // 1x10 -> 1x5 -> 1x3
    EXPECT_EQ(column->width, 1);
    EXPECT_EQ(column->height, 3);
}

// ---- histogram: bands of pixels, counts summed on the host ----

class TiledHistogram : public ::testing::TestWithParam<std::string> {};

TEST_P(TiledHistogram, BandsCountExactlyWhatTheWholeImageCounts) {
    const auto& strategy = histogram::findStrategy(GetParam());
    // 301 x 97 pixels; bands of 1236 pixels (the limit rounded down to whole uint4 loads) end mid-row.
    const auto image = noiseImage(301, 97, 7);
    const std::uint64_t limit = 4 * 1237 + 3;
    DeviceContext limited = limitedDevice(limit, 1 << 14);
    for (const bool ignoreTransparent : {false, true}) {
        const histogram::Params params{37, ignoreTransparent};
        PixelSource whole(image);
        const auto untiled = histogram::computeHistogram(&testDevice(), whole, params, strategy);
        PixelSource pixels(image);
        const auto tiled = histogram::computeHistogram(&limited, pixels, params, strategy);
        EXPECT_EQ(untiled.note, "");
        EXPECT_EQ(tiled.values, untiled.values);
        EXPECT_EQ(tiled.histogram, untiled.histogram);
        EXPECT_EQ(tiled.values, histogram::referenceHistogram(image.pixels.data(), image.pixelCount(), 256,
                                                              ignoreTransparent));
        const std::size_t bands = (image.pixelCount() + 1235) / 1236;
        EXPECT_EQ(countTimings(tiled.timings, "upload pixels (band)"), bands);
        EXPECT_NE(tiled.note.find("counted in " + std::to_string(bands) + " bands of at most 1236 pixels"),
                  std::string::npos)
            << tiled.note;
        EXPECT_NE(tiled.note.find("largest allocation"), std::string::npos) << tiled.note;
    }
}

std::vector<std::string> deviceHistogramStrategies() {
    std::vector<std::string> names;
    for (const auto* strategy : histogram::strategies()) {
        if (strategy->runsOnDevice()) names.emplace_back(strategy->name());
    }
    return names;
}

INSTANTIATE_TEST_SUITE_P(Every, TiledHistogram, ::testing::ValuesIn(deviceHistogramStrategies()),
                         testing::paramName);

// ---- convolution: output tiles, each from its input region with the filter's halo ----

// An asymmetric 5x3 integer filter: a tile read from the wrong place, or a halo cut short on one side, shows.
convolve::Filter lopsided() {
    return convolve::parseFilterText("1 2 0 -1 3\n4 -2 5 1 0\n0 1 -3 2 6\n");
}

// A 4x2 integer filter: even sizes reach further left and up (anchor 2, 1) than right and down (1, 0), so a
// halo taken as if the filter were odd-sized shows.
convolve::Filter evenSized() {
    return convolve::parseFilterText("2 -1 3 1\n-2 4 1 5\n/ 9");
}

class TiledConvolution : public ::testing::TestWithParam<std::string> {};

TEST_P(TiledConvolution, TilesGiveTheUntiledImageBitForBit) {
    const auto& strategy = convolve::findStrategy(GetParam());
    // Not separable (odd and even sizes); separable integer and float; a gradient magnitude.
    const convolve::Filter filters[] = {lopsided(), evenSized(), convolve::boxFilter(3),
                                        convolve::gaussianFilter(1.3), convolve::sobelFilter()};
    // Room for about 1000 pixels: tiles of 20-odd pixels a side, boundaries at odd places.
    DeviceContext limited = limitedDevice(4 * 1000 + 1, 37);
    for (const auto& [width, height] : {std::pair{157, 83}, std::pair{7, 300}}) {
        const auto image = noiseImage(width, height, static_cast<unsigned>(width + height));
        for (const auto& filter : filters) {
            SCOPED_TRACE(filter.label + " on " + std::to_string(width) + "x" + std::to_string(height));
            PixelSource whole(image);
            auto untiled = convolve::convolve(testDevice(), whole, filter, strategy);
            PixelSource pixels(image);
            auto tiled = convolve::convolve(limited, pixels, filter, strategy);
            EXPECT_EQ(tiled.strategyName(), untiled.strategyName());
            EXPECT_EQ(readBack(tiled.image), readBack(untiled.image));
            // Every tile builds the untiled run's program: the record lists it once.
            EXPECT_EQ(tiled.builds, untiled.builds);
            if (filter.isInteger()) {
                EXPECT_EQ(readBack(tiled.image), convolve::referenceConvolve(image, filter));
            }
            EXPECT_NE(tiled.note.find("ran in "), std::string::npos) << tiled.note;
            EXPECT_NE(tiled.note.find(" tiles of at most "), std::string::npos) << tiled.note;
        }
    }
}

std::vector<std::string> convolutionStrategies() {
    std::vector<std::string> names;
    for (const auto* strategy : convolve::strategies()) names.emplace_back(strategy->name());
    return names;
}

INSTANTIATE_TEST_SUITE_P(Every, TiledConvolution, ::testing::ValuesIn(convolutionStrategies()),
                         testing::paramName);

// ---- rotation: output tiles, each from its source bounding box ----

// Where tiled and untiled nearest sampling may differ: the source point lies within float rounding of the
// boundary between two pixels, and the tile's map (the same map, offset by the tile's corner and its box's)
// rounds it to the other side.
bool nearATie(const std::array<double, 6>& m, int x, int y) {
    const auto near = [](double s) { return std::abs(s + 0.5 - std::round(s + 0.5)) < 1e-3; };
    return near(m[0] * x + m[1] * y + m[2]) || near(m[3] * x + m[4] * y + m[5]);
}

class TiledRotation : public ::testing::TestWithParam<std::string> {};

TEST_P(TiledRotation, TilesGiveTheUntiledImageWithinTheRotationTolerances) {
    const auto& strategy = rotate::findStrategy(GetParam());
    const auto image = noiseImage(157, 83, 5);
    DeviceContext limited = limitedDevice(4 * 900 + 3, 41);
    for (const double angle : {33.3, 90.0, 108.0, -45.0, 180.0}) {
        for (const auto mode : {rotate::FilterMode::Linear, rotate::FilterMode::Nearest}) {
            for (const bool fit : {false, true}) {
                const rotate::Params params{angle, mode, fit};
                SCOPED_TRACE(std::to_string(angle) + " degrees, " +
                             std::string(rotate::filterModeName(mode)) + (fit ? ", fit canvas" : ""));
                PixelSource whole(image);
                auto untiledResult = rotate::rotate(testDevice(), whole, params, strategy);
                PixelSource pixels(image);
                auto tiledResult = rotate::rotate(limited, pixels, params, strategy);
                EXPECT_EQ(tiledResult.strategyName(), strategy.name());
                EXPECT_NE(tiledResult.note.find(" tiles of at most "), std::string::npos) << tiledResult.note;
                const auto untiled = readBack(untiledResult.image);
                const auto tiled = readBack(tiledResult.image);
                ASSERT_EQ(tiled.width, untiled.width);
                ASSERT_EQ(tiled.height, untiled.height);
                if (std::fmod(angle, 90.0) == 0.0) {
                    // Whole-pixel moves: no rounding to differ in.
                    EXPECT_EQ(tiled, untiled);
                    continue;
                }
                const auto m = rotate::inverseMap(params, image.width, image.height);
                const auto difference = testing::compare(tiled, untiled);
                if (mode == rotate::FilterMode::Linear) {
                    // Both interpolate in float from the same neighbours: within 1 of each other.
                    EXPECT_LE(difference.maxAbs, 1) << difference.first;
                    continue;
                }
                std::size_t awayFromTies = 0;
                for (int y = 0; y < tiled.height; ++y) {
                    for (int x = 0; x < tiled.width; ++x) {
                        if (!std::equal(tiled.pixel(x, y), tiled.pixel(x, y) + 4, untiled.pixel(x, y)) &&
                            !nearATie(m, x, y))
                            ++awayFromTies;
                    }
                }
                EXPECT_EQ(awayFromTies, 0u) << difference.first;
            }
        }
    }
}

std::vector<std::string> rotationStrategies() {
    std::vector<std::string> names;
    for (const auto* strategy : rotate::strategies()) names.emplace_back(strategy->name());
    return names;
}

INSTANTIATE_TEST_SUITE_P(Every, TiledRotation, ::testing::ValuesIn(rotationStrategies()), testing::paramName);

// On a CPU device the device's memory is the host's: an image over kHostMemoryBandBytes is counted in bands,
// so that the host does not hold it twice.
TEST(TiledHistogram, ACpuDeviceCountsImagesBeyondTheBandSizeInBands) {
    if (testDevice().info().type != DeviceType::Cpu)
        GTEST_SKIP() << "bands for host memory are a CPU device's rule; " << testDevice().info().name
                     << " is not one";
    const int width = 2049, height = 2049;  // just over 16 MiB: two bands
    ASSERT_GT(static_cast<std::uint64_t>(width) * height * 4, histogram::device::kHostMemoryBandBytes);
    const auto image = noiseImage(width, height, 9);
    PixelSource pixels(image);
    const auto result = histogram::computeHistogram(&testDevice(), pixels, {256, false},
                                                    histogram::findStrategy("local-atomic"));
    EXPECT_EQ(result.values, histogram::referenceHistogram(image.pixels.data(), image.pixelCount(), 256));
    EXPECT_EQ(countTimings(result.timings, "upload pixels (band)"), 2u);
    EXPECT_NE(result.note.find("memory is the host's"), std::string::npos) << result.note;
    EXPECT_FALSE(pixels.onDevice(testDevice())) << "the whole image never went to the device";
}

// The band rule's boundary: 2048 x 2048 RGBA8 is 16 MiB exactly, not more, so it is uploaded whole.
TEST(TiledHistogram, ACpuDeviceCountsAnImageOfExactly16MiBAtOnce) {
    if (testDevice().info().type != DeviceType::Cpu)
        GTEST_SKIP() << "bands for host memory are a CPU device's rule; " << testDevice().info().name
                     << " is not one";
    const auto image = noiseImage(2048, 2048, 10);
    PixelSource pixels(image);
    const auto result = histogram::computeHistogram(&testDevice(), pixels, {256, false},
                                                    histogram::findStrategy("local-atomic"));
    EXPECT_EQ(result.values, histogram::referenceHistogram(image.pixels.data(), image.pixelCount(), 256));
    EXPECT_EQ(countTimings(result.timings, "upload pixels (band)"), 0u);
    EXPECT_EQ(result.note.find("bands"), std::string::npos) << result.note;
    EXPECT_TRUE(pixels.onDevice(testDevice()));
}

// A source owning its host pixels gives them up once uploaded and reads them back when asked again.
TEST(PixelSourceOwned, GivesUpItsHostPixelsOnceUploadedAndReadsThemBack) {
    const auto image = noiseImage(33, 17, 4);
    PixelSource owned(std::vector<std::uint8_t>(image.pixels), image.width, image.height);
    TimingLog upload;
    owned.device(testDevice(), upload);
    EXPECT_EQ(countTimings(upload.collect(), "upload pixels"), 1u);
    EXPECT_EQ(readBack(owned), image);
    TimingLog again;
    owned.host(again);
    EXPECT_EQ(countTimings(again.collect(), "read pixels"), 0u) << "read back once, then kept";

    PixelSource fresh(std::vector<std::uint8_t>(image.pixels), image.width, image.height);
    TimingLog first, afterUpload;
    fresh.device(testDevice(), first);
    first.collect();
    fresh.host(afterUpload);
    EXPECT_EQ(countTimings(afterUpload.collect(), "read pixels"), 1u) << "the host copy went with the upload";
}

// ---- the pipeline: each stage tiles, the output stays on the host ----

TEST(TiledPipeline, RotateConvolveHistogramMatchTheReferencePipeline) {
    const auto image = noiseImage(120, 90, 3);
    DeviceContext limited = limitedDevice(4 * 1500, 64);
    pipeline::Spec spec;
    spec.rotation = pipeline::RotateStage{{90.0, rotate::FilterMode::Nearest, true}};
    spec.convolution = pipeline::ConvolveStage{lopsided()};
    spec.histogram = pipeline::HistogramStage{{64, false}, &histogram::findStrategy("partial-reduce")};
    PixelSource pixels(image);
    auto result = pipeline::runPipeline(limited, pixels, spec);
    const auto expected = pipeline::referencePipeline(image, spec);
    EXPECT_EQ(result.readBack(), expected);
    EXPECT_EQ(*result.histogram,
              histogram::referenceHistogram(expected.pixels.data(), expected.pixelCount(), 64));
    for (const auto* kind : {"rotate", "convolve", "histogram"}) {
        const auto* stage = result.stage(kind);
        ASSERT_NE(stage, nullptr);
        EXPECT_NE(stage->note.find("largest allocation"), std::string::npos) << stage->note;
    }
}

}  // namespace
}  // namespace hs
