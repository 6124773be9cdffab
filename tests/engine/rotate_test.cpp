#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "engine/ops/rotate/rotate.hpp"
#include "engine/runtime/error.hpp"
#include "pipeline_test_support.hpp"

namespace hs::rotate {
namespace {

using hs::testing::compare;
using hs::testing::noiseImage;
using hs::testing::readBack;
using hs::testing::testDevice;

constexpr FilterMode kModes[] = {FilterMode::Linear, FilterMode::Nearest};

ImageRGBA8 rotateOnDevice(const ImageRGBA8& image, const Params& params, const Strategy& strategy) {
    PixelSource source(image);
    Result result = rotate(testDevice(), source, params, strategy);
    EXPECT_EQ(result.strategyName(), strategy.name());
    EXPECT_EQ(result.note, "");
    return readBack(result.image);
}

// A 3x3 image whose pixels are all different: pixel (x, y) = (10 x + y, 100 + x, 200 - y, 255 - x - y).
ImageRGBA8 numbered3x3() {
    ImageRGBA8 image(3, 3);
    for (int y = 0; y < 3; ++y) {
        for (int x = 0; x < 3; ++x) {
            std::uint8_t* p = image.pixel(x, y);
            p[0] = static_cast<std::uint8_t>(10 * x + y);
            p[1] = static_cast<std::uint8_t>(100 + x);
            p[2] = static_cast<std::uint8_t>(200 - y);
            p[3] = static_cast<std::uint8_t>(255 - x - y);
        }
    }
    return image;
}

// Counter-clockwise by 90 degrees on screen, written out by hand: the input
//   a b c         c f i
//   d e f   ->    b e h
//   g h i         a d g
// i.e. output (x, y) is input (2 - y, x).
ImageRGBA8 numbered3x3TurnedLeft() {
    const ImageRGBA8 in = numbered3x3();
    const int source[3][3][2] = {
        {{2, 0}, {2, 1}, {2, 2}}, {{1, 0}, {1, 1}, {1, 2}}, {{0, 0}, {0, 1}, {0, 2}}};
    ImageRGBA8 out(3, 3);
    for (int y = 0; y < 3; ++y) {
        for (int x = 0; x < 3; ++x) {
            const std::uint8_t* p = in.pixel(source[y][x][0], source[y][x][1]);
            std::copy(p, p + 4, out.pixel(x, y));
        }
    }
    return out;
}

// A 4 x 3 image turned by a quarter turn on its own 4 x 3 canvas: the centre of rotation (1.5, 1) is half a
// pixel off the grid in x and on it in y, so after the turn every source point lies exactly halfway between
// two pixels in both directions. At 90 degrees output (x, y) samples (2.5 - y, x - 0.5), at -90 degrees
// (y + 0.5, 2.5 - x). Nearest takes floor(s + 0.5), the upper of the two pixels: at 90 degrees input
// (3 - y, x), which for x = 3 is row 3, below the image (transparent); at -90 degrees input (y + 1, 3 - x),
// row 3 for x = 0. Input pixels are numbered as in numbered3x3, so a pixel taken from a neighbour shows.
struct TieCase {
    double angle;
    int (*sourceX)(int x, int y);
    int (*sourceY)(int x, int y);
};
constexpr TieCase kTieCases[] = {
    {90.0, [](int, int y) { return 3 - y; }, [](int x, int) { return x; }},
    {-90.0, [](int, int y) { return y + 1; }, [](int x, int) { return 3 - x; }},
};

ImageRGBA8 numbered4x3() {
    ImageRGBA8 image(4, 3);
    for (int y = 0; y < 3; ++y) {
        for (int x = 0; x < 4; ++x) {
            std::uint8_t* p = image.pixel(x, y);
            p[0] = static_cast<std::uint8_t>(10 * x + y);
            p[1] = static_cast<std::uint8_t>(100 + x);
            p[2] = static_cast<std::uint8_t>(200 - y);
            p[3] = static_cast<std::uint8_t>(255 - x - y);
        }
    }
    return image;
}

ImageRGBA8 tiesTakenUpward(const TieCase& tie) {
    const ImageRGBA8 in = numbered4x3();
    ImageRGBA8 out(4, 3);
    for (int y = 0; y < 3; ++y) {
        for (int x = 0; x < 4; ++x) {
            const int sx = tie.sourceX(x, y), sy = tie.sourceY(x, y);
            if (sy < 3) std::copy(in.pixel(sx, sy), in.pixel(sx, sy) + 4, out.pixel(x, y));
        }
    }
    return out;
}

// Nearest sampling differs from the double-precision reference only where the source point lies (within
// float rounding) on the boundary between two pixels. Returns how many differing pixels are not such ties.
// (Which pixel an exact tie takes is pinned by NearestTakesTheUpperPixelOnExactTiesByHand.)
std::size_t nearestMismatchesAwayFromTies(const ImageRGBA8& input, const ImageRGBA8& actual,
                                          const ImageRGBA8& expected, const Params& params) {
    const auto m = inverseMap(params, input.width, input.height);
    const auto nearBoundary = [](double s) {
        const double t = s + 0.5;
        return std::abs(t - std::round(t)) < 1e-3;
    };
    std::size_t count = 0;
    for (int y = 0; y < actual.height; ++y) {
        for (int x = 0; x < actual.width; ++x) {
            if (std::equal(actual.pixel(x, y), actual.pixel(x, y) + 4, expected.pixel(x, y))) continue;
            const double sx = m[0] * x + m[1] * y + m[2];
            const double sy = m[3] * x + m[4] * y + m[5];
            if (!nearBoundary(sx) && !nearBoundary(sy)) ++count;
        }
    }
    return count;
}

TEST(RotateReference, QuarterTurnLeftOfA3x3ImageByHand) {
    for (const auto mode : kModes) {
        const auto out = referenceRotate(numbered3x3(), {90.0, mode});
        EXPECT_EQ(out, numbered3x3TurnedLeft()) << filterModeName(mode);
    }
}

// An image that is black except for the centre pixel, rotated by 45 degrees: output pixel (2, 1) samples
// (1 + cos 45, 1 + sin 45), so the centre pixel contributes (1 - sqrt(2)/2)^2 = 1.5 - sqrt(2) of its value:
// 200 * 0.0857864 = 17.16 -> 17. Output pixel (2, 2) samples (1, 1 + sqrt 2): alpha 255 blends with the
// transparent border below the image with weight sqrt(2) - 1, 255 * (2 - sqrt 2) = 149.37 -> 149.
ImageRGBA8 centreDot() {
    ImageRGBA8 image(3, 3);
    for (int y = 0; y < 3; ++y) {
        for (int x = 0; x < 3; ++x) image.pixel(x, y)[3] = 255;
    }
    image.pixel(1, 1)[0] = 200;
    return image;
}

TEST(RotateReference, NearestTakesTheUpperPixelOnExactTiesByHand) {
    for (const auto& tie : kTieCases) {
        SCOPED_TRACE(tie.angle);
        EXPECT_EQ(referenceRotate(numbered4x3(), {tie.angle, FilterMode::Nearest}), tiesTakenUpward(tie));
    }
}

// Bilinear on the same exact ties: at 90 degrees output (x, y) sits at the middle of input columns 2 - y,
// 3 - y and rows x - 1, x (row -1 and row 3 are transparent), so it is the mean of four pixels, a whole
// number plus 0, 1/4, 1/2 or 3/4 (red: 25 - 10 y + x - 1/2 inside the image), rounded half to even.
ImageRGBA8 quarterTurnBlendedByHand() {
    const ImageRGBA8 in = numbered4x3();
    const auto texel = [&](int x, int y, int c) { return y < 0 || y > 2 ? 0 : in.pixel(x, y)[c]; };
    ImageRGBA8 out(4, 3);
    for (int y = 0; y < 3; ++y) {
        for (int x = 0; x < 4; ++x) {
            for (int c = 0; c < 4; ++c) {
                const int sum =
                    texel(2 - y, x - 1, c) + texel(3 - y, x - 1, c) + texel(2 - y, x, c) + texel(3 - y, x, c);
                const int whole = sum / 4, quarters = sum % 4;
                const bool up = quarters == 3 || (quarters == 2 && whole % 2 == 1);
                out.pixel(x, y)[c] = static_cast<std::uint8_t>(whole + (up ? 1 : 0));
            }
        }
    }
    return out;
}

TEST(RotateReference, BilinearOnExactTiesRoundsHalfToEvenByHand) {
    EXPECT_EQ(referenceRotate(numbered4x3(), {90.0, FilterMode::Linear}), quarterTurnBlendedByHand());
}

// The buffer variant blends in float, exactly here (weights of 1/2), and rounds like the reference. (A
// texture unit's blend, the image-sampler's, may be off by one: see MatchesTheReference.)
TEST(RotateBuffer, BilinearOnExactTiesRoundsHalfToEvenByHand) {
    EXPECT_EQ(rotateOnDevice(numbered4x3(), {90.0, FilterMode::Linear}, bufferStrategy()),
              quarterTurnBlendedByHand());
}

TEST(RotateReference, BilinearAt45DegreesByHand) {
    const auto out = referenceRotate(centreDot(), {45.0, FilterMode::Linear});
    EXPECT_EQ(out.pixel(1, 1)[0], 200);
    EXPECT_EQ(out.pixel(2, 1)[0], 17);
    EXPECT_EQ(out.pixel(2, 1)[3], 255);
    EXPECT_EQ(out.pixel(2, 2)[3], 149);
    EXPECT_EQ(out.pixel(2, 2)[0], 0);
}

TEST(RotateReference, QuarterTurnsOfSquareImagesArePermutations) {
    const auto in = noiseImage(5, 5, 7);
    for (const auto mode : kModes) {
        const auto left = referenceRotate(in, {90.0, mode});
        const auto half = referenceRotate(in, {-180.0, mode});
        const auto right = referenceRotate(in, {270.0, mode});
        for (int y = 0; y < 5; ++y) {
            for (int x = 0; x < 5; ++x) {
                EXPECT_TRUE(std::equal(in.pixel(4 - y, x), in.pixel(4 - y, x) + 4, left.pixel(x, y)));
                EXPECT_TRUE(std::equal(in.pixel(4 - x, 4 - y), in.pixel(4 - x, 4 - y) + 4, half.pixel(x, y)));
                EXPECT_TRUE(std::equal(in.pixel(y, 4 - x), in.pixel(y, 4 - x) + 4, right.pixel(x, y)));
            }
        }
        EXPECT_EQ(referenceRotate(in, {0.0, mode}), in);
        EXPECT_EQ(referenceRotate(in, {720.0, mode}), in);
    }
}

// The fitted canvas, computed by hand from W' = W |cos a| + H |sin a|, H' = W |sin a| + H |cos a|, rounded
// up: 5 x 3 at 30 degrees: 5 * 0.8660 + 3 * 0.5 = 5.830 -> 6, 5 * 0.5 + 3 * 0.8660 = 5.098 -> 6; 5 x 3 at 45
// degrees: 8 * 0.7071 = 5.657 -> 6 both ways; 5 x 3 at 108 degrees (|cos| 0.3090, sin 0.9511): 1.545 + 2.853
// = 4.398 -> 5, 4.755 + 0.927 = 5.682 -> 6; 7 x 5 at 30 degrees: 6.062 + 2.5 = 8.562 -> 9, 3.5 + 4.330
// = 7.830 -> 8; 7 x 5 at 108 degrees: 2.163 + 4.755 = 6.918 -> 7, 6.657 + 1.545 = 8.202 -> 9; 1920 x 1080 at
// 108 degrees: 593.3 + 1027.1 = 1620.45 -> 1621, 1826.0 + 333.7 = 2159.77 -> 2160; a single pixel at 45
// degrees: sqrt 2 = 1.414 -> 2.
TEST(RotateGeometry, FittedCanvasSizesByHand) {
    struct Case {
        int width, height;
        double angle;
        CanvasSize expected;
    };
    const Case cases[] = {
        {5, 3, 0, {5, 3}},   {5, 3, 90, {3, 5}},
        {5, 3, 180, {5, 3}}, {5, 3, 270, {3, 5}},
        {5, 3, -90, {3, 5}}, {5, 3, 360, {5, 3}},
        {5, 3, 30, {6, 6}},  {5, 3, 45, {6, 6}},
        {5, 3, 108, {5, 6}}, {5, 3, -108, {5, 6}},
        {7, 5, 30, {9, 8}},  {7, 5, 108, {7, 9}},
        {7, 5, 90, {5, 7}},  {1920, 1080, 108, {1621, 2160}},
        {1, 1, 45, {2, 2}},  {1, 1, 90, {1, 1}},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(std::to_string(c.width) + "x" + std::to_string(c.height) + " at " +
                     std::to_string(c.angle));
        EXPECT_EQ(outputSize({c.angle, FilterMode::Linear, true}, c.width, c.height), c.expected);
        // Without fit canvas the output keeps the input's size at every angle.
        EXPECT_EQ(outputSize({c.angle, FilterMode::Linear, false}, c.width, c.height),
                  (CanvasSize{c.width, c.height}));
    }
}

// atan(3/4) = 36.8699 degrees has cos 0.8 and sin 0.6, so a 1 x 3 image's fitted height is 1 * 0.6 + 3 * 0.8
// = 3 exactly, which double arithmetic gives as 3.0000000000000004: the 1e-6 keeps that noise from adding a
// row, and the canvas is 3 x 3 (width 0.8 + 1.8 = 2.6 -> 3).
TEST(RotateGeometry, RoundingNoiseAddsNoRowToTheFittedCanvas) {
    EXPECT_EQ(outputSize({36.86989764584402, FilterMode::Linear, true}, 1, 3), (CanvasSize{3, 3}));
}

// The fitted canvas holds the whole rotated image and is the smallest that does: the corners of the input's
// pixel area, [-0.5, W - 0.5] x [-0.5, H - 0.5], carried forward by the inverse of inverseMap (a rotation, so
// its transpose), land within the canvas's area [-0.5, W' - 0.5] x [-0.5, H' - 0.5], and span more than
// W' - 1 by H' - 1 (one pixel less would not hold them).
TEST(RotateGeometry, TheFittedCanvasHoldsTheRotatedImageTightly) {
    for (const auto& [width, height] :
         {std::pair{5, 3}, std::pair{7, 5}, std::pair{1920, 1080}, std::pair{1, 1}}) {
        for (const double angle : {-170.0, -108.0, -45.0, 1.0, 30.0, 60.0, 89.9, 108.0, 135.0, 179.0}) {
            SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height) + " at " +
                         std::to_string(angle));
            const Params params{angle, FilterMode::Linear, true};
            const auto m = inverseMap(params, width, height);
            const CanvasSize canvas = outputSize(params, width, height);
            double left = INFINITY, right = -INFINITY, top = INFINITY, bottom = -INFINITY;
            for (const double sx : {-0.5, width - 0.5}) {
                for (const double sy : {-0.5, height - 0.5}) {
                    const double x = m[0] * (sx - m[2]) + m[3] * (sy - m[5]);
                    const double y = m[1] * (sx - m[2]) + m[4] * (sy - m[5]);
                    left = std::min(left, x);
                    right = std::max(right, x);
                    top = std::min(top, y);
                    bottom = std::max(bottom, y);
                }
            }
            constexpr double kSlack = 1e-6;
            EXPECT_GE(left, -0.5 - kSlack);
            EXPECT_LE(right, canvas.width - 0.5 + kSlack);
            EXPECT_GE(top, -0.5 - kSlack);
            EXPECT_LE(bottom, canvas.height - 0.5 + kSlack);
            EXPECT_GT(right - left, canvas.width - 1);
            EXPECT_GT(bottom - top, canvas.height - 1);
        }
    }
}

// Quarter turns onto a fitted canvas move whole pixels: a 5 x 3 image turned by 90 degrees is 3 x 5 with
// output (x, y) = input (4 - y, x) (the top row of the output is the input's right column, read top down);
// 270 degrees: input (y, 2 - x); 180 degrees: input (4 - x, 2 - y). Both samplings, exactly.
TEST(RotateReference, QuarterTurnsOntoAFittedCanvasArePermutations) {
    const auto in = noiseImage(5, 3, 13);
    for (const auto mode : kModes) {
        const auto left = referenceRotate(in, {90.0, mode, true});
        const auto half = referenceRotate(in, {180.0, mode, true});
        const auto right = referenceRotate(in, {-90.0, mode, true});
        ASSERT_EQ((CanvasSize{left.width, left.height}), (CanvasSize{3, 5}));
        ASSERT_EQ((CanvasSize{half.width, half.height}), (CanvasSize{5, 3}));
        ASSERT_EQ((CanvasSize{right.width, right.height}), (CanvasSize{3, 5}));
        for (int y = 0; y < 5; ++y) {
            for (int x = 0; x < 3; ++x) {
                EXPECT_TRUE(std::equal(in.pixel(4 - y, x), in.pixel(4 - y, x) + 4, left.pixel(x, y)));
                EXPECT_TRUE(std::equal(in.pixel(y, 2 - x), in.pixel(y, 2 - x) + 4, right.pixel(x, y)));
            }
        }
        for (int y = 0; y < 3; ++y) {
            for (int x = 0; x < 5; ++x)
                EXPECT_TRUE(std::equal(in.pixel(4 - x, 2 - y), in.pixel(4 - x, 2 - y) + 4, half.pixel(x, y)));
        }
        EXPECT_EQ(referenceRotate(in, {0.0, mode, true}), in);
    }
}

// One opaque pixel (200, 100, 50, 255) turned by 45 degrees onto its fitted 2 x 2 canvas (centre (0.5, 0.5)):
// output (0, 0) samples (0, 0) + R(-45)(-0.5, -0.5) = (0, -sqrt(1/2)); bilinear takes 1 - sqrt(1/2) = 0.2929
// of the pixel: (58.6, 29.3, 14.6, 74.7) -> (59, 29, 15, 75), and by symmetry so does every output pixel.
// Nearest picks floor(-0.707 + 0.5) = -1, outside the image: transparent.
TEST(RotateReference, ASinglePixelAt45DegreesOntoItsFittedCanvasByHand) {
    ImageRGBA8 dot(1, 1);
    const std::uint8_t value[4] = {200, 100, 50, 255};
    std::copy(value, value + 4, dot.pixel(0, 0));
    const auto linear = referenceRotate(dot, {45.0, FilterMode::Linear, true});
    const auto nearest = referenceRotate(dot, {45.0, FilterMode::Nearest, true});
    ASSERT_EQ((CanvasSize{linear.width, linear.height}), (CanvasSize{2, 2}));
    const std::uint8_t blended[4] = {59, 29, 15, 75};
    for (int y = 0; y < 2; ++y) {
        for (int x = 0; x < 2; ++x) {
            EXPECT_TRUE(std::equal(blended, blended + 4, linear.pixel(x, y))) << x << "," << y;
            EXPECT_EQ(nearest.pixel(x, y)[3], 0) << x << "," << y;
        }
    }
}

TEST(RotateParams, BadValuesAreUsageErrors) {
    EXPECT_THROW(validate({std::nan(""), FilterMode::Linear}), UsageError);
    EXPECT_THROW(validate({INFINITY, FilterMode::Linear}), UsageError);
    EXPECT_EQ(parseFilterMode("nearest"), FilterMode::Nearest);
    EXPECT_EQ(parseFilterMode("Nearest"), FilterMode::Nearest);
    EXPECT_EQ(parseFilterMode("LINEAR"), FilterMode::Linear);
    EXPECT_THROW(parseFilterMode("cubic"), UsageError);
    EXPECT_THROW(findStrategy("no-such-strategy"), UsageError);
    ImageRGBA8 empty;
    PixelSource source(empty);
    EXPECT_THROW(rotate(testDevice(), source, {}, bufferStrategy()), UsageError);
}

TEST(RotateParams, AnglesReduceIntoTheHalfOpenTurn) {
    // (-180, 180]: the same rotation, the value the angle panel can show.
    EXPECT_EQ(normalizeAngle(0), 0);
    EXPECT_EQ(normalizeAngle(400), 40);
    EXPECT_EQ(normalizeAngle(-400), -40);
    EXPECT_EQ(normalizeAngle(180), 180);
    EXPECT_EQ(normalizeAngle(-180), 180);
    EXPECT_EQ(normalizeAngle(540), 180);
    EXPECT_EQ(normalizeAngle(-190), 170);
    EXPECT_EQ(normalizeAngle(720), 0);
    EXPECT_EQ(normalizeAngle(-33.5), -33.5);
    EXPECT_EQ(normalizeAngle(359.5), -0.5);
    // The reduced angle rotates exactly as the given one (here by the reference's exact quarter turns).
    const auto map = [](double degrees) { return inverseMap(Params{degrees}, 7, 5); };
    EXPECT_EQ(map(normalizeAngle(450)), map(90));
    EXPECT_EQ(map(normalizeAngle(-270)), map(90));
}

DeviceInfo deviceWithImages(std::size_t maxWidth, std::size_t maxHeight) {
    DeviceInfo device;
    device.name = "Hand-made GPU";
    device.imageSupport = true;
    device.image2dMaxWidth = maxWidth;
    device.image2dMaxHeight = maxHeight;
    device.maxAllocBytes = 1 << 20;
    return device;
}

TEST(RotateChoice, ImagesBeyondTheDeviceLimitsUseTheBufferVariantAndSayWhy) {
    const auto& imageSampler = findStrategy("image-sampler");
    const auto device = deviceWithImages(100, 50);

    const auto within = chooseRunnable<Operation>(&device, {100, 50}, {}, imageSampler);
    EXPECT_EQ(within.strategy, &imageSampler);
    EXPECT_EQ(within.note, "");

    for (const auto& [width, height] : {std::pair{101, 50}, std::pair{100, 51}}) {
        const auto beyond = chooseRunnable<Operation>(&device, {width, height}, {}, imageSampler);
        EXPECT_EQ(beyond.strategy, &bufferStrategy());
        const std::string size = std::to_string(width) + "x" + std::to_string(height);
        EXPECT_NE(beyond.note.find(size), std::string::npos) << beyond.note;
        EXPECT_NE(beyond.note.find("100x50"), std::string::npos) << beyond.note;
        EXPECT_NE(beyond.note.find("Hand-made GPU"), std::string::npos) << beyond.note;
        EXPECT_NE(beyond.note.find("used buffer"), std::string::npos) << beyond.note;
    }

    auto noImages = device;
    noImages.imageSupport = false;
    const auto without = chooseRunnable<Operation>(&noImages, {10, 10}, {}, imageSampler);
    EXPECT_EQ(without.strategy, &bufferStrategy());
    EXPECT_NE(without.note.find("no image support"), std::string::npos) << without.note;

    // 1024 x 1024 x 4 bytes is beyond the 1 MiB allocation limit: nothing can run, and the error says why.
    try {
        const auto large = deviceWithImages(4096, 4096);
        chooseRunnable<Operation>(&large, {1024, 1024}, {}, imageSampler);
        FAIL() << "expected an OpenClError";
    } catch (const OpenClError& e) {
        EXPECT_NE(std::string(e.what()).find("largest allocation"), std::string::npos) << e.what();
    }
}

TEST(RotateChoice, AnImageWiderThanThePoclLimitRunsOnTheBufferVariant) {
    auto& device = testDevice();
    ASSERT_TRUE(device.info().imageSupport);
    const int width = static_cast<int>(device.info().image2dMaxWidth) + 1;
    const auto image = noiseImage(width, 2, 3);
    PixelSource source(image);
    const Params params{180.0, FilterMode::Linear};
    Result result = rotate(device, source, params, findStrategy("image-sampler"));
    EXPECT_EQ(result.strategyName(), "buffer");
    EXPECT_NE(result.note.find("2-D image limit"), std::string::npos) << result.note;
    EXPECT_EQ(readBack(result.image), referenceRotate(image, params));
}

class RotateStrategy : public ::testing::TestWithParam<std::string> {};

TEST_P(RotateStrategy, QuarterTurnLeftOfA3x3ImageByHand) {
    for (const auto mode : kModes)
        EXPECT_EQ(rotateOnDevice(numbered3x3(), {90.0, mode}, findStrategy(GetParam())),
                  numbered3x3TurnedLeft());
}

TEST_P(RotateStrategy, NearestTakesTheUpperPixelOnExactTiesByHand) {
    // The source points are exact in float too (the map's entries are 0, +-1 and halves).
    for (const auto& tie : kTieCases) {
        SCOPED_TRACE(tie.angle);
        EXPECT_EQ(rotateOnDevice(numbered4x3(), {tie.angle, FilterMode::Nearest}, findStrategy(GetParam())),
                  tiesTakenUpward(tie));
    }
}

TEST_P(RotateStrategy, BilinearAt45DegreesByHandWithinOneStep) {
    const auto out = rotateOnDevice(centreDot(), {45.0, FilterMode::Linear}, findStrategy(GetParam()));
    EXPECT_EQ(out.pixel(1, 1)[0], 200);
    EXPECT_NEAR(out.pixel(2, 1)[0], 17, 1);
    EXPECT_NEAR(out.pixel(2, 2)[3], 149, 1);
}

TEST_P(RotateStrategy, MatchesTheReference) {
    const Strategy& strategy = findStrategy(GetParam());
    const std::pair<int, int> sizes[] = {{1, 1}, {3, 1}, {1023, 767}, {64, 64}};
    const double angles[] = {0, 1, 33.3, 90, 108, 180, 270, -45};
    // The buffer kernel interpolates in float: within 1 of the exact reference. A texture unit may quantise
    // the bilinear weights to 8 bits (NVIDIA's does, in steps of 1/256), which moves a blend of values up to
    // 255 apart by up to 255/512 per axis; with the output rounding that is up to 2 from the rounded exact
    // value (seen on an H100 with a 1023x767 noise image at 1, 33.3 and -45 degrees).
    const int linearTolerance = strategy.name() == "image-sampler" ? 2 : 1;
    for (const auto& [width, height] : sizes) {
        const auto image = noiseImage(width, height, static_cast<unsigned>(width * 31 + height));
        for (const double angle : angles) {
            for (const auto mode : kModes) {
                for (const bool fit : {false, true}) {
                    const Params params{angle, mode, fit};
                    SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height) + " at " +
                                 std::to_string(angle) + " degrees, " + std::string(filterModeName(mode)) +
                                 (fit ? ", fit canvas" : ""));
                    const auto actual = rotateOnDevice(image, params, strategy);
                    const auto expected = referenceRotate(image, params);
                    ASSERT_EQ((CanvasSize{actual.width, actual.height}), outputSize(params, width, height));
                    const auto difference = compare(actual, expected);
                    const bool quarterTurn = std::fmod(angle, 90.0) == 0.0;
                    if (angle == 0.0) {
                        EXPECT_EQ(actual, image) << "angle 0 is the identity";
                    } else if (angle == 180.0 || (quarterTurn && (width == height || fit))) {
                        // A fitted canvas swaps the sides, so the centres stay on the pixel grid.
                        EXPECT_EQ(difference.differing, 0u) << "an exact permutation; " << difference.first;
                    } else if (mode == FilterMode::Linear) {
                        EXPECT_LE(difference.maxAbs, linearTolerance) << difference.first;
                    } else {
                        EXPECT_EQ(nearestMismatchesAwayFromTies(image, actual, expected, params), 0u)
                            << difference.first;
                    }
                }
            }
        }
    }
}

TEST_P(RotateStrategy, DeviceInputStaysOnTheDeviceAndEveryCommandIsTimed) {
    const Strategy& strategy = findStrategy(GetParam());
    const auto image = noiseImage(48, 48, 11);
    PixelSource source(image);
    Result left = rotate(testDevice(), source, {90.0, FilterMode::Nearest}, strategy);
    ASSERT_FALSE(left.timings.empty());
    EXPECT_GT(totalNs(left.timings, Stage::Kernel), 0u);

    Result back = rotate(testDevice(), left.image, {-90.0, FilterMode::Nearest}, strategy);
    for (const auto& timing : back.timings) EXPECT_NE(timing.stage, Stage::Upload) << timing.name;
    const std::string kernel = strategy.name() == "buffer" ? "rotate_buffer" : "rotate_image";
    EXPECT_EQ(back.timings.back().name, kernel);
    EXPECT_EQ(readBack(back.image), image);
}

std::vector<std::string> strategyNames() {
    std::vector<std::string> names;
    for (const auto* strategy : strategies()) names.emplace_back(strategy->name());
    return names;
}

INSTANTIATE_TEST_SUITE_P(Every, RotateStrategy, ::testing::ValuesIn(strategyNames()), hs::testing::paramName);

}  // namespace
}  // namespace hs::rotate
