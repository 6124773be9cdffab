// The dense descriptors: the grid and a ramp worked out by hand, and the kernel against the reference.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "engine/ops/bow/descriptors.hpp"
#include "engine/runtime/runtime.hpp"
#include "expect_error.hpp"

namespace hs::bow {
namespace {

Runtime& runtime() {
    static Runtime instance;
    return instance;
}

ImageRGBA8 greyImage(int width, int height, const std::function<int(int, int)>& value) {
    ImageRGBA8 image(width, height);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            std::uint8_t* p = image.pixel(x, y);
            p[0] = p[1] = p[2] = static_cast<std::uint8_t>(value(x, y));
            p[3] = 255;
        }
    }
    return image;
}

ImageRGBA8 noiseImage(int width, int height, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    ImageRGBA8 image(width, height);
    for (auto& byte : image.pixels) byte = static_cast<std::uint8_t>(random() & 0xff);
    return image;
}

TEST(BowDescriptors, GridPlacesWindowsWhereTheirHaarSquaresFit) {
    // Window 40 (s = 2) reaches 42 pixels: x0 = 0, 20, 40 fit 100 columns (40 + 42 = 82), 60 does not.
    const Grid grid = descriptorGrid(100, 61, {40, 20});
    EXPECT_EQ(grid.columns, 3);
    EXPECT_EQ(grid.rows, 1);  // y0 = 0 only: 20 + 42 > 61
    EXPECT_EQ(descriptorGrid(41, 100, {40, 20}).count(), 0u);
    EXPECT_EQ(descriptorGrid(21, 21, {20, 1}).count(), 1u);
}

TEST(BowDescriptors, RefusesWindowsThatAreNotMultiplesOf20) {
    EXPECT_TRUE(test::mentions(test::messageOf<UsageError>([] { validate({30, 10}); }), "multiple of 20"));
    EXPECT_TRUE(test::mentions(test::messageOf<UsageError>([] { validate({20, 0}); }), "stride"));
}

TEST(BowDescriptors, HorizontalRampGivesEqualDxInEverySubRegion) {
    // Luma x: every 2 x 2 Haar square (s = 1) has dx = 2 (x + 1) - 2 x = 2 and dy = 0, so each sub-region
    // sums [50, 0, 50, 0] and the normalised values are 50 / sqrt(32 * 50^2) = 1 / sqrt(32).
    const ImageRGBA8 image = greyImage(30, 21, [](int x, int) { return 3 + x; });
    const Matrix reference = referenceDescriptors(image, {20, 5});
    ASSERT_EQ(reference.rows(), 2u);  // x0 = 0, 5; y0 = 0
    PixelSource pixels(image);
    const auto onDevice = computeDescriptors(runtime().open("0:0"), pixels, {20, 5});
    ASSERT_EQ(onDevice.descriptors.rows(), 2u);
    const float expected = 1.0f / std::sqrt(32.0f);
    for (const Matrix* m : {&reference, &onDevice.descriptors}) {
        for (std::size_t i = 0; i < 2; ++i) {
            for (std::size_t v = 0; v < kDimensions; ++v)
                ASSERT_NEAR(m->row(i)[v], v % 2 == 0 ? expected : 0.0f, 1e-6) << "value " << v;
        }
    }
}

TEST(BowDescriptors, FlatWindowsStayZero) {
    const ImageRGBA8 image = greyImage(42, 42, [](int, int) { return 77; });
    PixelSource pixels(image);
    const auto result = computeDescriptors(runtime().open("0:0"), pixels, {20, 10});
    ASSERT_EQ(result.grid.count(), 9u);  // (42 - 21) / 10 + 1 = 3 per side
    for (const float v : result.descriptors.values) ASSERT_EQ(v, 0.0f);
}

TEST(BowDescriptors, KernelEqualsReferenceWithin1e4) {
    for (const DescriptorParams params :
         {DescriptorParams{20, 7}, DescriptorParams{40, 13}, DescriptorParams{60, 31}}) {
        SCOPED_TRACE("window " + std::to_string(params.window));
        const ImageRGBA8 image = noiseImage(157, 111, static_cast<std::uint64_t>(params.window));
        const Matrix reference = referenceDescriptors(image, params);
        PixelSource pixels(image);
        const auto result = computeDescriptors(runtime().open("0:0"), pixels, params);
        ASSERT_EQ(result.grid.count(), reference.rows());
        ASSERT_GT(reference.rows(), 3u);
        for (std::size_t i = 0; i < reference.values.size(); ++i)
            ASSERT_NEAR(result.descriptors.values[i], reference.values[i], 1e-4) << "value " << i;
        // Normalised: unit length.
        double squares = 0;
        for (std::size_t v = 0; v < kDimensions; ++v) squares += reference.row(0)[v] * reference.row(0)[v];
        EXPECT_NEAR(squares, 1.0, 1e-5);
        ASSERT_EQ(result.timings.size(), 3u);  // upload, kernel, readback
    }
}

}  // namespace
}  // namespace hs::bow
