#include <gtest/gtest.h>

#include <cctype>
#include <random>
#include <tuple>

#include "engine/ops/convolve/convolve.hpp"
#include "engine/runtime/error.hpp"
#include "pipeline_test_support.hpp"

namespace hs::convolve {
namespace {

using hs::testing::compare;
using hs::testing::noiseImage;
using hs::testing::readBack;
using hs::testing::testDevice;

// A 4x4 image: R = 10, 20, ... row by row, G = 1..16 row by row, B = 7, alpha = 200 + x + y.
//   R:  10  20  30  40      G:  1  2  3  4
//       50  60  70  80          5  6  7  8
//       90 100 110 120          9 10 11 12
//      130 140 150 160         13 14 15 16
ImageRGBA8 known4x4() {
    ImageRGBA8 image(4, 4);
    for (int y = 0; y < 4; ++y) {
        for (int x = 0; x < 4; ++x) {
            std::uint8_t* p = image.pixel(x, y);
            p[0] = static_cast<std::uint8_t>(10 * (4 * y + x + 1));
            p[1] = static_cast<std::uint8_t>(4 * y + x + 1);
            p[2] = 7;
            p[3] = static_cast<std::uint8_t>(200 + x + y);
        }
    }
    return image;
}

// One bright pixel, R = 10 at (1, 1), in a black 4x4 image with alpha 255.
ImageRGBA8 dot4x4() {
    ImageRGBA8 image(4, 4);
    for (int y = 0; y < 4; ++y) {
        for (int x = 0; x < 4; ++x) image.pixel(x, y)[3] = 255;
    }
    image.pixel(1, 1)[0] = 10;
    return image;
}

// A step edge along x in an 8x2 image: R = 50 left of x = 4, 150 from there; G = B = 0, alpha 255.
ImageRGBA8 stepEdge8x2() {
    ImageRGBA8 image(8, 2);
    for (int y = 0; y < 2; ++y) {
        for (int x = 0; x < 8; ++x) {
            image.pixel(x, y)[0] = x < 4 ? 50 : 150;
            image.pixel(x, y)[3] = 255;
        }
    }
    return image;
}

// The registry's unsharp mask (the filter has no function of its own: it is added through the registry).
Filter unsharp(std::string_view spec) {
    return namedFilterFromSpec(spec).value();
}

// The hand-computed expectations of the cases above; each line shows the sum.
void expectHandComputedResults(const std::function<ImageRGBA8(const ImageRGBA8&, const Filter&)>& apply) {
    const auto box3 = apply(known4x4(), boxFilter(3));
    // (10 + 10 + 20) * 2 + (50 + 50 + 60) = 240, / 9 = 26.7 -> 27 (clamped border).
    EXPECT_EQ(box3.pixel(0, 0)[0], 27);
    // (10 + 20 + 30) * 2 + (50 + 60 + 70) = 300, / 9 = 33.3 -> 33.
    EXPECT_EQ(box3.pixel(1, 0)[0], 33);
    // 10 + 20 + 30 + 50 + 60 + 70 + 90 + 100 + 110 = 540, / 9 = 60.
    EXPECT_EQ(box3.pixel(1, 1)[0], 60);
    // (110 + 120 + 120) + (150 + 160 + 160) * 2 = 1290, / 9 = 143.3 -> 143.
    EXPECT_EQ(box3.pixel(3, 3)[0], 143);
    EXPECT_EQ(box3.pixel(2, 1)[2], 7);
    EXPECT_EQ(box3.pixel(2, 1)[3], 203) << "alpha kept";

    // 2x2 box: anchor (1, 1), taps over (x - 1 .. x, y - 1 .. y), divisor 4; halves round to even.
    const auto box2 = apply(known4x4(), boxFilter(2));
    EXPECT_EQ(box2.pixel(1, 1)[1], 4);  // (1 + 2 + 5 + 6) / 4 = 3.5 -> 4
    EXPECT_EQ(box2.pixel(2, 1)[1], 4);  // (2 + 3 + 6 + 7) / 4 = 4.5 -> 4
    EXPECT_EQ(box2.pixel(0, 0)[1], 1);  // the clamped corner: 4 * 1 / 4

    const auto sobel = apply(dot4x4(), sobelFilter());
    EXPECT_EQ(sobel.pixel(2, 2)[0], 14);  // gx = gy = -10: sqrt(200) = 14.1
    EXPECT_EQ(sobel.pixel(2, 1)[0], 20);  // gx = -2 * 10, gy = 0
    EXPECT_EQ(sobel.pixel(1, 1)[0], 0);   // symmetric neighbourhood
    EXPECT_EQ(sobel.pixel(3, 3)[0], 0);   // beyond the taps' reach
    EXPECT_EQ(sobel.pixel(1, 1)[3], 255);

    const auto laplacian = apply(dot4x4(), laplacianFilter());
    EXPECT_EQ(laplacian.pixel(1, 1)[0], 0);   // -4 * 10 saturates to 0
    EXPECT_EQ(laplacian.pixel(2, 1)[0], 10);  // one neighbour
    EXPECT_EQ(laplacian.pixel(2, 2)[0], 0);   // diagonal: no tap

    // unsharp:1:1 = 2 * identity - Gaussian(sigma 1, 7x7); the rows are equal, so the Gaussian acts along x
    // with weights c0..c3 = 0.39905, 0.24204, 0.05401, 0.00443 (exp(-d^2 / 2) / 2.50595).
    const auto sharpened = apply(stepEdge8x2(), unsharp("unsharp:1:1"));
    // x = 0: every tap reaches 50 (clamped border): 2 * 50 - 50 = 50.
    EXPECT_EQ(sharpened.pixel(0, 0)[0], 50);
    // x = 2: blur = 50 (c0 + 2 c1 + c2 + c3) + 150 (c2 + c3) = 55.84; 100 - 55.84 = 44.16 -> 44 (the dip).
    EXPECT_EQ(sharpened.pixel(2, 1)[0], 44);
    // x = 3: blur = 50 (c0 + c1 + c2 + c3) + 150 (c1 + c2 + c3) = 80.05; 100 - 80.05 = 19.95 -> 20
    // (undershoot).
    EXPECT_EQ(sharpened.pixel(3, 0)[0], 20);
    // x = 4: the mirror image: 300 - 119.95 = 180.05 -> 180 (overshoot above 150).
    EXPECT_EQ(sharpened.pixel(4, 0)[0], 180);
    EXPECT_EQ(sharpened.pixel(5, 1)[0], 156);  // 300 - 144.16 = 155.84
    EXPECT_EQ(sharpened.pixel(7, 0)[0], 150);
    EXPECT_EQ(sharpened.pixel(4, 0)[3], 255) << "alpha kept";
}

TEST(ConvolveReference, HandComputedCases) {
    expectHandComputedResults(referenceConvolve);
}

// A 15x15 integer filter of rank above 1 with signed taps.
Filter random15x15() {
    std::mt19937 random(15);
    std::uniform_int_distribution<int> tap(-4, 9);
    std::string text;
    for (int j = 0; j < 15; ++j) {
        for (int i = 0; i < 15; ++i) text += std::to_string(tap(random)) + " ";
        text += "\n";
    }
    return parseFilterText(text + "/ 300");
}

// The last filter is of rank 1 and asymmetric both ways (column (1, 2, -1) times row (3, 0, 1, -2)), so that
// separable cannot take its taps mirrored, nor its anchor from the wrong side of an even width.
std::vector<Filter> everyFilter() {
    return {boxFilter(3),
            boxFilter(5),
            gaussianFilter(1.0),
            gaussianFilter(3.0),
            sharpenFilter(),
            embossFilter(),
            laplacianFilter(),
            sobelFilter(),
            random15x15(),
            parseFilterText("0.5 -0.25 1 0.125\n0.3 0.1 -0.2 0.7\n/ 1.5"),
            parseFilterText("1 2 1\n2 4 2\n1 2 1\n/ 16"),
            unsharp("unsharp:1.5:2"),
            unsharp("unsharp:5:0.5"),
            parseFilterText("3 0 1 -2\n6 0 2 -4\n-3 0 -1 2\n/ 7")};
}

class ConvolveStrategy : public ::testing::TestWithParam<std::string> {};

// Runs the strategy; where it cannot run this filter, checks that the fallback ran and said why.
ImageRGBA8 convolveOnDevice(const ImageRGBA8& image, const Filter& filter, const Strategy& strategy) {
    PixelSource source(image);
    Result result = convolve(testDevice(), source, filter, strategy);
    if (strategy.supported(&testDevice().info(), {image.width, image.height}, filter).ok) {
        EXPECT_EQ(result.strategyName(), strategy.name());
        EXPECT_EQ(result.note, "");
    } else {
        EXPECT_EQ(result.strategyName(), "buffer-naive");
        EXPECT_NE(result.note.find("unsupported"), std::string::npos) << result.note;
    }
    return readBack(result.image);
}

TEST_P(ConvolveStrategy, HandComputedCases) {
    const Strategy& strategy = findStrategy(GetParam());
    expectHandComputedResults([&](const ImageRGBA8& image, const Filter& filter) {
        return convolveOnDevice(image, filter, strategy);
    });
}

TEST_P(ConvolveStrategy, DeviceInputIsNotUploadedAgain) {
    const Strategy& strategy = findStrategy(GetParam());
    const auto image = noiseImage(40, 30, 5);
    PixelSource source(image);
    Result first = convolve(testDevice(), source, boxFilter(3), strategy);
    Result second = convolve(testDevice(), first.image, boxFilter(3), strategy);
    for (const auto& timing : second.timings) EXPECT_NE(timing.name, "upload pixels") << timing.name;
    EXPECT_GT(totalNs(second.timings, Stage::Kernel), 0u);
    const auto twice = referenceConvolve(referenceConvolve(image, boxFilter(3)), boxFilter(3));
    EXPECT_EQ(readBack(second.image), twice);
}

std::vector<std::string> strategyNames() {
    std::vector<std::string> names;
    for (const auto* strategy : strategies()) names.emplace_back(strategy->name());
    return names;
}

INSTANTIATE_TEST_SUITE_P(Every, ConvolveStrategy, ::testing::ValuesIn(strategyNames()),
                         hs::testing::paramName);

// A strategy and one of everyFilter() (its index): a test each, as each filter is a program build of its own
// (KW, KH, INTEGER, MAGNITUDE) and all of them in one test took up to three minutes on two busy cores.
class ConvolveStrategyAndFilter : public ::testing::TestWithParam<std::tuple<std::string, std::size_t>> {};

TEST_P(ConvolveStrategyAndFilter, MatchesTheReferenceExactlyOnIntegerFiltersAndWithinOneStepOtherwise) {
    const Strategy& strategy = findStrategy(std::get<0>(GetParam()));
    const Filter filter = everyFilter().at(std::get<1>(GetParam()));
    // 100 x 70: a width that is a multiple of 4 (kernels may read 4 pixels at once then) but of no tile.
    const std::pair<int, int> sizes[] = {{1, 1}, {3, 1}, {1023, 767}, {100, 70}};
    for (const auto& [width, height] : sizes) {
        const auto image = noiseImage(width, height, static_cast<unsigned>(width + 7 * height));
        SCOPED_TRACE(filter.label + " on " + std::to_string(width) + "x" + std::to_string(height));
        const auto difference =
            compare(convolveOnDevice(image, filter, strategy), referenceConvolve(image, filter));
        if (filter.isInteger())
            EXPECT_EQ(difference.differing, 0u) << difference.first;
        else
            EXPECT_LE(difference.maxAbs, 1) << difference.first;
    }
}

// Every/ConvolveStrategyAndFilter.MatchesThe...Otherwise/local_tiled_08_random_15x15: the strategy, the
// filter's index and its label.
INSTANTIATE_TEST_SUITE_P(Every, ConvolveStrategyAndFilter,
                         ::testing::Combine(::testing::ValuesIn(strategyNames()),
                                            ::testing::Range(std::size_t{0}, everyFilter().size())),
                         [](const auto& param) {
                             const std::size_t index = std::get<1>(param.param);
                             std::string name = std::get<0>(param.param) + (index < 10 ? "_0" : "_") +
                                                std::to_string(index) + "_" + everyFilter()[index].label;
                             for (char& c : name) {
                                 if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                             }
                             return name;
                         });

DeviceInfo handMadeDevice() {
    DeviceInfo device;
    device.name = "Hand-made GPU";
    device.imageSupport = true;
    device.image2dMaxWidth = 100;
    device.image2dMaxHeight = 100;
    device.maxAllocBytes = 1 << 24;
    device.maxWorkGroupSize = 256;
    device.localMemBytes = 32 * 1024;
    return device;
}

TEST(ConvolveChoice, UnsupportedStrategiesFallBackToTheBufferAndSayWhy) {
    const auto device = handMadeDevice();
    const auto& imageSampler = findStrategy("image-sampler");
    EXPECT_EQ(chooseRunnable<Operation>(&device, {100, 100}, boxFilter(3), imageSampler).strategy,
              &imageSampler);
    const auto beyond = chooseRunnable<Operation>(&device, {100, 101}, boxFilter(3), imageSampler);
    EXPECT_EQ(beyond.strategy, &bufferStrategy());
    EXPECT_NE(beyond.note.find("100x101, beyond the device's 2-D image limit of 100x100"), std::string::npos)
        << beyond.note;

    const auto& separable = findStrategy("separable");
    EXPECT_EQ(chooseRunnable<Operation>(&device, {64, 64}, gaussianFilter(2.0), separable).strategy,
              &separable);
    const auto sharpen = chooseRunnable<Operation>(&device, {64, 64}, sharpenFilter(), separable);
    EXPECT_EQ(sharpen.strategy, &bufferStrategy());
    EXPECT_NE(sharpen.note.find("not separable"), std::string::npos) << sharpen.note;
    const auto sobel = chooseRunnable<Operation>(&device, {64, 64}, sobelFilter(), separable);
    EXPECT_NE(sobel.note.find("not one correlation"), std::string::npos) << sobel.note;

    // The tiled kernels make 4 output rows per work-item: a 32x32 block is 256 work-items, 16x16 is 64.
    const auto& tiled = findStrategy("local-tiled");
    EXPECT_NE(
        tiled.kernelBuild(device, boxFilter(3), {})->options.find("-D TILE_X=32 -D TILE_Y=32 -D ROWS=4"),
        std::string::npos);
    auto small = device;
    small.maxWorkGroupSize = 64;
    EXPECT_NE(tiled.kernelBuild(small, boxFilter(3), {})->options.find("-D TILE_X=16 -D TILE_Y=16 -D ROWS=4"),
              std::string::npos);
    // separable also keeps the row pass's sums, three float planes of 33 columns for a 32-wide block, and
    // pads the input rows to a pitch of 1 modulo 4: a 13x13 Gaussian on a 32x32 block needs 45 * 44 * 4 + 33
    // * 44
    // * 12 = 25344 bytes, within 32 KiB; its preferred 32x64 block (8 rows per work-item) needs 45 * 76 * 4 +
    // 33 * 76 * 12 = 43776 bytes, so it takes that only with 48 KiB. A 3x3 filter keeps the 32x32 block.
    EXPECT_NE(separable.kernelBuild(device, gaussianFilter(2.0), {})
                  ->options.find("-D TILE_X=32 -D TILE_Y=32 -D ROWS=4"),
              std::string::npos);
    auto largeLocal = device;
    largeLocal.localMemBytes = 48 * 1024;
    EXPECT_NE(separable.kernelBuild(largeLocal, gaussianFilter(2.0), {})
                  ->options.find("-D TILE_X=32 -D TILE_Y=64 -D ROWS=8"),
              std::string::npos);
    EXPECT_NE(separable.kernelBuild(largeLocal, gaussianFilter(0.5, 3), {})
                  ->options.find("-D TILE_X=32 -D TILE_Y=32 -D ROWS=4"),
              std::string::npos);
    auto smallLocal = device;
    smallLocal.localMemBytes = 16 * 1024;
    EXPECT_NE(
        separable.kernelBuild(smallLocal, gaussianFilter(2.0), {})->options.find("-D TILE_X=16 -D TILE_Y=16"),
        std::string::npos);
    // A 15x15 filter on a 16x16 block needs 30 * 30 * 4 = 3600 bytes; with 1 KiB only a 2x2 block fits
    // (16 * 16 * 4 = 1024 bytes).
    small.localMemBytes = 1024;
    EXPECT_NE(tiled.kernelBuild(small, boxFilter(15), {})->options.find("-D TILE_X=2 -D TILE_Y=2 -D ROWS=2"),
              std::string::npos);
    small.localMemBytes = 512;
    const auto none = chooseRunnable<Operation>(&small, {64, 64}, boxFilter(15), tiled);
    EXPECT_EQ(none.strategy, &bufferStrategy());
    EXPECT_NE(none.note.find("local memory"), std::string::npos) << none.note;
    const auto noneSeparable = chooseRunnable<Operation>(&small, {64, 64}, gaussianFilter(2.0), separable);
    EXPECT_EQ(noneSeparable.strategy, &bufferStrategy());
    EXPECT_NE(noneSeparable.note.find("local memory"), std::string::npos) << noneSeparable.note;
}

TEST(ConvolveChoice, UnknownStrategyAndEmptyImageAreUsageErrors) {
    EXPECT_THROW(findStrategy("fft"), UsageError);
    ImageRGBA8 empty;
    PixelSource source(empty);
    EXPECT_THROW(convolve(testDevice(), source, boxFilter(3), bufferStrategy()), UsageError);
}

}  // namespace
}  // namespace hs::convolve
