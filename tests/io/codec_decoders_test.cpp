// Every decoder of io/decode against values computed from the samples its fixture was written with (the
// libraries' own encoders, or BMP bytes from the specification): every colour type, bit depth, alpha kind and
// layout a format allows, exact. Then what each decoder must refuse, with one line naming the input.
#include <gtest/gtest.h>
#include <tiff.h>
#include <zlib.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <unistd.h>

#include "codec_fixtures.hpp"
#include "engine/runtime/error.hpp"
#include "io/decode/image_codecs.hpp"

namespace hs {
namespace {

using Pixel = std::array<int, 4>;

ImageRGBA8 decode(const std::string& bytes, std::uint64_t limit = std::uint64_t{1} << 30) {
    return io::decodeImage(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size(), "fixture",
                           limit);
}

// The one line the decoder refuses `bytes` with; fails the test when it decodes.
std::string refusal(const std::string& bytes, std::uint64_t limit = std::uint64_t{1} << 30) {
    try {
        decode(bytes, limit);
        ADD_FAILURE() << "accepted";
    } catch (const InputError& error) {
        const std::string message = error.what();
        EXPECT_EQ(message.rfind("fixture: ", 0), 0u) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
        return message;
    }
    return {};
}

bool mentions(const std::string& message, const std::string& part) {
    return message.find(part) != std::string::npos;
}

void expectPixels(const ImageRGBA8& image, int width, int height,
                  const std::function<Pixel(int, int)>& expected, int tolerance = 0) {
    ASSERT_EQ(image.width, width);
    ASSERT_EQ(image.height, height);
    ASSERT_EQ(image.pixels.size(), image.byteCount());
    int mismatches = 0;
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const Pixel want = expected(x, y);
            const std::uint8_t* got = image.pixel(x, y);
            for (int c = 0; c < 4; ++c) {
                if (std::abs(got[c] - want[static_cast<std::size_t>(c)]) > tolerance && ++mismatches <= 4)
                    ADD_FAILURE() << "pixel (" << x << ", " << y << ") channel " << c << ": " << int{got[c]}
                                  << ", expected " << want[static_cast<std::size_t>(c)];
            }
        }
    }
    EXPECT_EQ(mismatches, 0);
}

std::vector<std::uint16_t> randomSamples(std::size_t count, int bits, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<unsigned> value(0, (1u << bits) - 1);
    std::vector<std::uint16_t> samples(count);
    for (auto& sample : samples) sample = static_cast<std::uint16_t>(value(random));
    return samples;
}

// round(v * 255 / max) for a `bits`-deep sample: the reference for every scaling (for 16 bits the same as
// round(v / 257)).
int scaled(unsigned v, int bits) {
    const unsigned max = (1u << bits) - 1;
    return static_cast<int>((v * 255u * 2 + max) / (2 * max));
}

// --- PNG ---

struct PngCase {
    int colour;
    int depth;
};

TEST(PngDecoder, EveryColourTypeDepthAndInterlaceIsExact) {
    const PngCase cases[] = {
        {PNG_COLOR_TYPE_GRAY, 1},        {PNG_COLOR_TYPE_GRAY, 2},       {PNG_COLOR_TYPE_GRAY, 4},
        {PNG_COLOR_TYPE_GRAY, 8},        {PNG_COLOR_TYPE_GRAY, 16},      {PNG_COLOR_TYPE_GRAY_ALPHA, 8},
        {PNG_COLOR_TYPE_GRAY_ALPHA, 16}, {PNG_COLOR_TYPE_RGB, 8},        {PNG_COLOR_TYPE_RGB, 16},
        {PNG_COLOR_TYPE_RGB_ALPHA, 8},   {PNG_COLOR_TYPE_RGB_ALPHA, 16}, {PNG_COLOR_TYPE_PALETTE, 1},
        {PNG_COLOR_TYPE_PALETTE, 2},     {PNG_COLOR_TYPE_PALETTE, 4},    {PNG_COLOR_TYPE_PALETTE, 8},
    };
    constexpr int kWidth = 13;
    constexpr int kHeight = 11;  // odd sizes: Adam7's passes are uneven
    unsigned seed = 1;
    for (const auto& png : cases) {
        // Plain copies, not a structured binding: clang before 16 does not let lambdas capture those.
        const int colour = png.colour;
        const int depth = png.depth;
        for (const bool interlaced : {false, true}) {
            for (const bool keyed : {false, true}) {  // tRNS: a grey or RGB key, or palette alphas
                if (keyed && (colour == PNG_COLOR_TYPE_GRAY_ALPHA || colour == PNG_COLOR_TYPE_RGB_ALPHA))
                    continue;
                SCOPED_TRACE("colour type " + std::to_string(colour) + ", " + std::to_string(depth) +
                             " bits" + (interlaced ? ", Adam7" : "") + (keyed ? ", tRNS" : ""));
                test::PngSpec spec;
                spec.width = kWidth;
                spec.height = kHeight;
                spec.colour = colour;
                spec.depth = depth;
                spec.interlaced = interlaced;
                const int channels = colour == PNG_COLOR_TYPE_GRAY_ALPHA  ? 2
                                     : colour == PNG_COLOR_TYPE_RGB       ? 3
                                     : colour == PNG_COLOR_TYPE_RGB_ALPHA ? 4
                                                                          : 1;
                const bool paletted = colour == PNG_COLOR_TYPE_PALETTE;
                // A palette smaller than the depth allows (but at least 2 entries), so unused indices exist.
                const int entries = paletted ? std::max(2, (1 << depth) - 1) : 0;
                spec.samples = randomSamples(std::size_t{kWidth} * kHeight * channels, depth, seed++);
                if (paletted) {
                    for (auto& index : spec.samples) index = static_cast<std::uint16_t>(index % entries);
                    std::mt19937 random(seed++);
                    for (int i = 0; i < entries; ++i)
                        spec.palette.push_back({static_cast<png_byte>(random()),
                                                static_cast<png_byte>(random()),
                                                static_cast<png_byte>(random())});
                    if (keyed)
                        for (int i = 0; i < entries / 2 + 1; ++i)
                            spec.paletteAlpha.push_back(static_cast<png_byte>(random()));
                } else if (keyed) {
                    // The key is pixel 0's colour, given to every third pixel as well.
                    for (std::size_t p = 3; p < std::size_t{kWidth} * kHeight; p += 3)
                        for (int c = 0; c < channels; ++c) spec.samples[p * channels + c] = spec.samples[c];
                    png_color_16 key{};
                    key.gray = spec.samples[0];
                    if (channels == 3)
                        key.red = spec.samples[0], key.green = spec.samples[1], key.blue = spec.samples[2];
                    spec.transparent = key;
                }
                const ImageRGBA8 image = decode(test::writePng(spec));
                expectPixels(image, kWidth, kHeight, [&](int x, int y) -> Pixel {
                    const std::uint16_t* s =
                        &spec.samples[(static_cast<std::size_t>(y) * kWidth + x) * channels];
                    if (paletted) {
                        const png_color& entry = spec.palette[s[0]];
                        const int alpha = s[0] < spec.paletteAlpha.size() ? spec.paletteAlpha[s[0]] : 255;
                        return {entry.red, entry.green, entry.blue, alpha};
                    }
                    bool matchesKey = keyed;
                    for (int c = 0; c < channels && keyed; ++c)
                        matchesKey = matchesKey && s[c] == spec.samples[c];
                    const int keyAlpha = matchesKey ? 0 : 255;
                    switch (channels) {
                        case 1:
                            return {scaled(s[0], depth), scaled(s[0], depth), scaled(s[0], depth), keyAlpha};
                        case 2:
                            return {scaled(s[0], depth), scaled(s[0], depth), scaled(s[0], depth),
                                    scaled(s[1], depth)};
                        case 3:
                            return {scaled(s[0], depth), scaled(s[1], depth), scaled(s[2], depth), keyAlpha};
                        default:
                            return {scaled(s[0], depth), scaled(s[1], depth), scaled(s[2], depth),
                                    scaled(s[3], depth)};
                    }
                });
            }
        }
    }
}

TEST(PngDecoder, SixteenBitRgbWithTrnsIsExactAndEveryPixelDefined) {
    // Issue 21 item 1: Qt left the last quarter of every row unwritten for this file.
    test::PngSpec spec;
    spec.width = 64;
    spec.height = 48;
    spec.colour = PNG_COLOR_TYPE_RGB;
    spec.depth = 16;
    spec.samples = randomSamples(64 * 48 * 3, 16, 99);
    spec.samples[3] = spec.samples[0], spec.samples[4] = spec.samples[1], spec.samples[5] = spec.samples[2];
    spec.transparent = png_color_16{0, spec.samples[0], spec.samples[1], spec.samples[2], 0};
    expectPixels(decode(test::writePng(spec)), 64, 48, [&](int x, int y) -> Pixel {
        const std::uint16_t* s = &spec.samples[(static_cast<std::size_t>(y) * 64 + x) * 3];
        const bool key = s[0] == spec.samples[0] && s[1] == spec.samples[1] && s[2] == spec.samples[2];
        return {scaled(s[0], 16), scaled(s[1], 16), scaled(s[2], 16), key ? 0 : 255};
    });
}

TEST(PngDecoder, EverySixteenBitValueRoundsToNearest) {
    test::PngSpec spec;
    spec.width = 256;
    spec.height = 256;
    spec.colour = PNG_COLOR_TYPE_GRAY;
    spec.depth = 16;
    for (unsigned v = 0; v < 65536; ++v) spec.samples.push_back(static_cast<std::uint16_t>(v));
    expectPixels(decode(test::writePng(spec)), 256, 256, [](int x, int y) -> Pixel {
        const int v = (static_cast<int>(y * 256 + x) + 128) / 257;
        return {v, v, v, 255};
    });
}

// A PNG's chunk inserted right after IHDR.
std::string withChunk(const std::string& png, const std::string& type, const std::string& body) {
    std::string chunk;
    for (int i = 3; i >= 0; --i) chunk += static_cast<char>((body.size() >> (8 * i)) & 0xFF);
    const std::string typed = type + body;
    chunk += typed;
    const auto crc = static_cast<std::uint32_t>(
        crc32(0, reinterpret_cast<const Bytef*>(typed.data()), static_cast<uInt>(typed.size())));
    for (int i = 3; i >= 0; --i) chunk += static_cast<char>((crc >> (8 * i)) & 0xFF);
    constexpr std::size_t kAfterIhdr = 8 + 25;
    return png.substr(0, kAfterIhdr) + chunk + png.substr(kAfterIhdr);
}

TEST(PngDecoder, CompressedTextIsSkippedNotInflated) {
    // Issue 21 item 3: zTXt and iTXt chunks that inflate to 64 MiB each. The pixels decode; the text is never
    // inflated (tests/memory checks the heap stays small).
    test::PngSpec spec;
    spec.width = 1;
    spec.height = 1;
    spec.colour = PNG_COLOR_TYPE_RGB;
    spec.samples = {10, 20, 30};
    const std::string zeros = test::zlibCompress(std::string(64u << 20, '\0'));
    std::string png = test::writePng(spec);
    for (int i = 0; i < 8; ++i) {
        png = withChunk(png, "zTXt", std::string("Comment\0\0", 9) + zeros);
        png = withChunk(png, "iTXt", std::string("Comment\0\1\0\0\0", 12) + zeros);
    }
    expectPixels(decode(png), 1, 1, [](int, int) -> Pixel { return {10, 20, 30, 255}; });
}

TEST(PngDecoder, SixteenBitGreyBeyondTheLimitIsRefusedFromTheHeader) {
    // Issue 21 item 3: a 16384^2 16-bit grey PNG. Its IHDR alone decides: no pixel data is needed.
    test::PngSpec spec;
    spec.width = 1;
    spec.height = 1;
    spec.depth = 16;
    spec.samples = {0};
    std::string png = test::writePng(spec);
    const char side[4] = {0, 0, 0x40, 0};
    png.replace(16, 4, side, 4);
    png.replace(20, 4, side, 4);
    const std::string message = refusal(png, 512u << 20);
    EXPECT_TRUE(mentions(message, "16384x16384")) << message;
    EXPECT_TRUE(mentions(message, "over the limit")) << message;
}

// --- JPEG ---

// 8x8 blocks of one colour each: what a quality-100 4:4:4 JPEG keeps within a level or two.
std::vector<std::uint8_t> blockPixels(int width, int height, int components, unsigned seed) {
    std::mt19937 random(seed);
    std::vector<std::uint8_t> colours(static_cast<std::size_t>((width / 8) * (height / 8) * components));
    for (auto& value : colours) value = static_cast<std::uint8_t>(random());
    std::vector<std::uint8_t> pixels(static_cast<std::size_t>(width) * height * components);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int c = 0; c < components; ++c)
                pixels[(static_cast<std::size_t>(y) * width + x) * components + c] =
                    colours[((y / 8) * (width / 8) + x / 8) * components + c];
    return pixels;
}

test::JpegSpec jpegSpec(int width, int height, int components) {
    test::JpegSpec spec;
    spec.width = width;
    spec.height = height;
    spec.components = components;
    spec.pixels = blockPixels(width, height, components, 7);
    return spec;
}

std::function<Pixel(int, int)> jpegSource(const test::JpegSpec& spec) {
    return [&spec](int x, int y) -> Pixel {
        const std::uint8_t* p =
            &spec.pixels[(static_cast<std::size_t>(y) * spec.width + x) * spec.components];
        return spec.components == 1 ? Pixel{p[0], p[0], p[0], 255} : Pixel{p[0], p[1], p[2], 255};
    };
}

TEST(JpegDecoder, BaselineProgressiveAndArithmeticDecodeWithinTheCodingError) {
    for (const int components : {1, 3}) {
        for (const int mode : {0, 1, 2}) {
            SCOPED_TRACE(std::to_string(components) + " components, mode " + std::to_string(mode));
            test::JpegSpec spec = jpegSpec(48, 32, components);
            spec.progressive = mode == 1;
            spec.arithmetic = mode == 2;
            expectPixels(decode(test::writeJpeg(spec)), 48, 32, jpegSource(spec), 2);
        }
    }
}

std::string exifOrientation(int orientation) {
    std::string exif("Exif\0\0II*\0\x08\0\0\0\x01\0\x12\x01\x03\0\x01\0\0\0", 24);
    exif += static_cast<char>(orientation);
    exif += std::string(7, '\0');  // the value's padding, then no next IFD
    return exif;
}

TEST(JpegDecoder, ExifOrientationIsApplied) {
    test::JpegSpec spec = jpegSpec(24, 16, 3);
    const auto stored = jpegSource(spec);
    spec.app1 = exifOrientation(6);  // rotate 90 degrees clockwise to show
    expectPixels(
        decode(test::writeJpeg(spec)), 16, 24, [&](int x, int y) { return stored(y, 16 - 1 - x); }, 2);
    spec.app1 = exifOrientation(3);  // 180 degrees
    expectPixels(
        decode(test::writeJpeg(spec)), 24, 16, [&](int x, int y) { return stored(23 - x, 15 - y); }, 2);
}

TEST(JpegDecoder, CmykIsRefused) {
    const std::string message = refusal(test::writeJpeg(jpegSpec(16, 16, 4)));
    EXPECT_TRUE(mentions(message, "CMYK")) << message;
}

std::size_t markerAt(const std::string& jpeg, unsigned char marker) {
    const std::size_t at = jpeg.find(std::string{'\xFF', static_cast<char>(marker)});
    EXPECT_NE(at, std::string::npos);
    return at;
}

TEST(JpegDecoder, AdobeSegmentDecidesRgbOverYcbcr) {
    // RGB stored as RGB, its components renamed 1, 2, 3 (what YCbCr files use): only the Adobe segment's
    // transform 0 says the samples are RGB.
    test::JpegSpec spec = jpegSpec(32, 16, 3);
    spec.storeRgb = true;
    std::string jpeg = test::writeJpeg(spec);
    const std::size_t sof = markerAt(jpeg, 0xC0);
    const std::size_t sos = markerAt(jpeg, 0xDA);
    for (int c = 0; c < 3; ++c) {
        jpeg[sof + 10 + 3 * c] = static_cast<char>(c + 1);
        jpeg[sos + 5 + 2 * c] = static_cast<char>(c + 1);
    }
    expectPixels(decode(jpeg), 32, 16, jpegSource(spec), 2);
}

TEST(JpegDecoder, ArithmeticHeaderOverHuffmanDataIsRefused) {
    // Issue 21 item 4: SOF0 turned into SOF9 (arithmetic, sequential) over the Huffman-coded scan.
    std::string jpeg = test::writeJpeg(jpegSpec(32, 32, 3));
    jpeg[markerAt(jpeg, 0xC0) + 1] = '\xC9';
    const std::string message = refusal(jpeg);
    EXPECT_TRUE(mentions(message, "arithmetic")) << message;
}

TEST(JpegDecoder, TwoHundredThousandCommentsAreRefusedAtTheMarkerLimit) {
    std::string jpeg = test::writeJpeg(jpegSpec(16, 16, 1));
    std::string comments;
    for (int i = 0; i < 200000; ++i) comments += std::string("\xFF\xFE\x00\x02", 4);
    jpeg.insert(2, comments);
    const std::string message = refusal(jpeg);
    EXPECT_TRUE(mentions(message, "more than 1000")) << message;
    EXPECT_FALSE(mentions(message, "corrupt")) << message;  // a limit, not damage
}

TEST(JpegDecoder, ScansBeyondTheLimitAreRefused) {
    // A valid progressive file of 2090 scans: the DC scan and each AC coefficient of each component sent
    // first at 10 bits of shift, then refined bit by bit (the most successive approximation libjpeg allows).
    test::JpegSpec spec = jpegSpec(8, 8, 3);
    spec.scans.push_back({3, 0, 0, 0, 0, 10});
    for (int a = 9; a >= 0; --a) spec.scans.push_back({3, 0, 0, 0, a + 1, a});
    for (int c = 0; c < 3; ++c) {
        for (int k = 1; k < 64; ++k) {
            spec.scans.push_back({1, c, k, k, 0, 10});
            for (int a = 9; a >= 0; --a) spec.scans.push_back({1, c, k, k, a + 1, a});
        }
    }
    const std::string message = refusal(test::writeJpeg(spec));
    EXPECT_TRUE(mentions(message, "more than 1000 scans")) << message;
    // The same picture in libjpeg's own ten-scan progression decodes.
    spec.scans.clear();
    spec.progressive = true;
    expectPixels(decode(test::writeJpeg(spec)), 8, 8, jpegSource(spec), 2);
}

TEST(JpegDecoder, DataTooShortForTheDeclaredSizeIsRefusedBeforeAllocating) {
    // Issue 21 item 3: 8x8 pixels of data under a header declaring 16384x16384 (1 GiB decoded, within the
    // default limit): refused from the size of the data, not after inventing 268 M grey pixels.
    std::string jpeg = test::writeJpeg(jpegSpec(8, 8, 1));
    const std::size_t sof = markerAt(jpeg, 0xC0);
    const char side[2] = {0x40, 0};
    jpeg.replace(sof + 5, 2, side, 2);
    jpeg.replace(sof + 7, 2, side, 2);
    const std::string message = refusal(jpeg);
    EXPECT_TRUE(mentions(message, "16384x16384")) << message;
    EXPECT_TRUE(mentions(message, "truncated")) << message;
}

// --- TIFF ---

struct TiffCase {
    const char* name;
    int bits;
    int samples;
    int photometric;
    std::vector<std::uint16_t> extra;
    bool planar = false;
    bool tiled = false;
};

class TiffDecoder : public ::testing::Test {
  protected:
    // A file of this process's own: ctest runs the TIFF tests side by side, and a name they shared let one
    // read the fixture another was writing ("ZIPDecode: incorrect header check" under ctest -j2).
    std::string write(const test::TiffSpec& spec) { return test::writeTiff(path_, spec); }
    void TearDown() override { std::remove(path_.c_str()); }

  private:
    const std::string path_ = ::testing::TempDir() + "fixture-" + std::to_string(getpid()) + ".tif";
};

TEST_F(TiffDecoder, EveryLayoutDepthAndAlphaKindIsExact) {
    const std::vector<TiffCase> cases{
        {"grey 1", 1, 1, PHOTOMETRIC_MINISBLACK, {}},
        {"grey 2", 2, 1, PHOTOMETRIC_MINISBLACK, {}},
        {"grey 4", 4, 1, PHOTOMETRIC_MINISBLACK, {}},
        {"grey 8", 8, 1, PHOTOMETRIC_MINISBLACK, {}},
        {"grey 16", 16, 1, PHOTOMETRIC_MINISBLACK, {}},
        {"min-is-white 1", 1, 1, PHOTOMETRIC_MINISWHITE, {}},
        {"min-is-white 8", 8, 1, PHOTOMETRIC_MINISWHITE, {}},
        {"grey + unassociated alpha", 8, 2, PHOTOMETRIC_MINISBLACK, {EXTRASAMPLE_UNASSALPHA}},
        {"grey + alpha 16 planar", 16, 2, PHOTOMETRIC_MINISBLACK, {EXTRASAMPLE_UNASSALPHA}, true},
        {"rgb 8", 8, 3, PHOTOMETRIC_RGB, {}},
        {"rgb 16", 16, 3, PHOTOMETRIC_RGB, {}},
        {"rgb 4", 4, 3, PHOTOMETRIC_RGB, {}},
        {"rgb + unspecified extra", 8, 4, PHOTOMETRIC_RGB, {EXTRASAMPLE_UNSPECIFIED}},
        {"rgba unassociated", 8, 4, PHOTOMETRIC_RGB, {EXTRASAMPLE_UNASSALPHA}},
        {"rgba unassociated planar", 8, 4, PHOTOMETRIC_RGB, {EXTRASAMPLE_UNASSALPHA}, true},
        {"rgba unassociated 16 planar", 16, 4, PHOTOMETRIC_RGB, {EXTRASAMPLE_UNASSALPHA}, true},
        {"rgba unassociated tiled", 8, 4, PHOTOMETRIC_RGB, {EXTRASAMPLE_UNASSALPHA}, false, true},
        {"rgba unassociated tiled planar", 8, 4, PHOTOMETRIC_RGB, {EXTRASAMPLE_UNASSALPHA}, true, true},
        {"rgba + two extras", 8, 5, PHOTOMETRIC_RGB, {EXTRASAMPLE_UNASSALPHA, EXTRASAMPLE_UNSPECIFIED}, true},
        {"palette 4", 4, 1, PHOTOMETRIC_PALETTE, {}},
        {"palette 8 tiled", 8, 1, PHOTOMETRIC_PALETTE, {}, false, true},
    };
    constexpr int kWidth = 37;
    constexpr int kHeight = 19;  // strips of 3 rows and tiles of 16: the last ones are partial
    unsigned seed = 100;
    for (const auto& c : cases) {
        SCOPED_TRACE(c.name);
        test::TiffSpec spec;
        spec.width = kWidth;
        spec.height = kHeight;
        spec.bits = c.bits;
        spec.samplesPerPixel = c.samples;
        spec.photometric = c.photometric;
        spec.extraSamples = c.extra;
        spec.planar = c.planar;
        spec.tiled = c.tiled;
        spec.samples = randomSamples(std::size_t{kWidth} * kHeight * c.samples, c.bits, seed++);
        if (c.photometric == PHOTOMETRIC_PALETTE) spec.colourMap = randomSamples(3u << c.bits, 16, seed++);
        const std::size_t entries = std::size_t{1} << c.bits;
        const bool alpha = !c.extra.empty() && c.extra[0] == EXTRASAMPLE_UNASSALPHA;
        const int colours = c.photometric == PHOTOMETRIC_RGB ? 3 : 1;
        expectPixels(decode(write(spec)), kWidth, kHeight, [&](int x, int y) -> Pixel {
            const std::uint16_t* s = &spec.samples[(static_cast<std::size_t>(y) * kWidth + x) * c.samples];
            const int a = alpha ? scaled(s[colours], c.bits) : 255;
            if (c.photometric == PHOTOMETRIC_PALETTE)
                return {scaled(spec.colourMap[s[0]], 16), scaled(spec.colourMap[entries + s[0]], 16),
                        scaled(spec.colourMap[2 * entries + s[0]], 16), a};
            if (colours == 3) return {scaled(s[0], c.bits), scaled(s[1], c.bits), scaled(s[2], c.bits), a};
            const unsigned grey = c.photometric == PHOTOMETRIC_MINISWHITE ? (1u << c.bits) - 1 - s[0] : s[0];
            return {scaled(grey, c.bits), scaled(grey, c.bits), scaled(grey, c.bits), a};
        });
    }
}

TEST_F(TiffDecoder, AssociatedAlphaIsUnpremultipliedAsDocumented) {
    test::TiffSpec spec;
    spec.width = 32;
    spec.height = 8;
    spec.samplesPerPixel = 4;
    spec.photometric = PHOTOMETRIC_RGB;
    spec.extraSamples = {EXTRASAMPLE_ASSOCALPHA};
    // Premultiplied samples: every colour at most its alpha, alpha 0 included.
    std::mt19937 random(5);
    for (int i = 0; i < 32 * 8; ++i) {
        const unsigned a = i == 0 ? 0 : random() % 256;
        for (int c = 0; c < 3; ++c)
            spec.samples.push_back(static_cast<std::uint16_t>(a == 0 ? 0 : random() % (a + 1)));
        spec.samples.push_back(static_cast<std::uint16_t>(a));
    }
    expectPixels(decode(write(spec)), 32, 8, [&](int x, int y) -> Pixel {
        const std::uint16_t* s = &spec.samples[(static_cast<std::size_t>(y) * 32 + x) * 4];
        Pixel p{0, 0, 0, s[3]};
        for (int c = 0; c < 3 && s[3] > 0; ++c)
            p[static_cast<std::size_t>(c)] =
                std::min(255, static_cast<int>(std::lround(s[c] * 255.0 / s[3])));
        return p;
    });
}

TEST_F(TiffDecoder, OrientationIsApplied) {
    test::TiffSpec spec;
    spec.width = 5;
    spec.height = 3;
    spec.samplesPerPixel = 3;
    spec.photometric = PHOTOMETRIC_RGB;
    spec.orientation = ORIENTATION_RIGHTTOP;  // 6: rotate 90 degrees clockwise to show
    spec.samples = randomSamples(5 * 3 * 3, 8, 11);
    expectPixels(decode(write(spec)), 3, 5, [&](int x, int y) -> Pixel {
        const std::uint16_t* s = &spec.samples[(static_cast<std::size_t>(3 - 1 - x) * 5 + y) * 3];
        return {s[0], s[1], s[2], 255};
    });
}

TEST_F(TiffDecoder, JpegCompressedYcbcrDecodesAsRgb) {
    test::TiffSpec spec;
    spec.width = 48;
    spec.height = 40;
    spec.samplesPerPixel = 3;
    spec.photometric = PHOTOMETRIC_RGB;
    spec.jpegYcbcr = true;
    for (const auto value : blockPixels(48, 40, 3, 21)) spec.samples.push_back(value);
    expectPixels(
        decode(write(spec)), 48, 40,
        [&](int x, int y) -> Pixel {
            const std::uint16_t* s = &spec.samples[(static_cast<std::size_t>(y) * 48 + x) * 3];
            return {s[0], s[1], s[2], 255};
        },
        3);
}

// The first directory's entry for `tag` in a little-endian classic TIFF: where its value is.
std::size_t tagValueAt(const std::string& tiff, std::uint16_t tag) {
    const auto number = [&](std::size_t at, int bytes) {
        std::uint32_t value = 0;
        for (int i = bytes - 1; i >= 0; --i) value = value << 8 | static_cast<std::uint8_t>(tiff[at + i]);
        return value;
    };
    const std::uint32_t ifd = number(4, 4);
    for (std::uint32_t i = 0; i < number(ifd, 2); ++i) {
        const std::size_t entry = ifd + 2 + 12 * i;
        if (number(entry, 2) == tag) return entry + 8;
    }
    ADD_FAILURE() << "no tag " << tag;
    return 0;
}

TEST_F(TiffDecoder, WhatRgba8CannotHoldIsRefused) {
    test::TiffSpec spec;
    spec.width = 4;
    spec.height = 4;
    spec.bits = 16;
    spec.sampleFormat = SAMPLEFORMAT_INT;
    spec.samples = std::vector<std::uint16_t>(16, 0xFFFF);  // -1
    std::string message = refusal(write(spec));
    EXPECT_TRUE(mentions(message, "signed")) << message;

    spec.bits = 8;
    spec.sampleFormat = SAMPLEFORMAT_UINT;
    spec.samples = std::vector<std::uint16_t>(16, 7);
    std::string palette = write(spec);
    palette[tagValueAt(palette, TIFFTAG_PHOTOMETRIC)] = PHOTOMETRIC_PALETTE;  // and no ColorMap
    message = refusal(palette);
    EXPECT_TRUE(mentions(message, "palette TIFF without a colour map")) << message;

    spec.samplesPerPixel = 4;
    spec.photometric = PHOTOMETRIC_SEPARATED;
    spec.samples = std::vector<std::uint16_t>(64, 7);
    message = refusal(write(spec));
    EXPECT_TRUE(mentions(message, "CMYK")) << message;
}

// --- GIF ---

TEST(GifDecoder, FirstFrameOnTheScreenWithTransparencyAndInterlace) {
    for (const bool interlaced : {false, true}) {
        SCOPED_TRACE(interlaced ? "interlaced" : "sequential");
        test::GifSpec spec;
        spec.screenWidth = 12;
        spec.screenHeight = 11;
        spec.left = 3;
        spec.top = 2;
        spec.width = 7;
        spec.height = 9;
        spec.interlaced = interlaced;
        spec.transparent = 2;
        spec.palette = {200, 10, 20, 30, 220, 40, 1, 2, 3, 90, 80, 250};
        for (const auto sample : randomSamples(7 * 9, 2, 3))
            spec.indices.push_back(static_cast<std::uint8_t>(sample));
        expectPixels(decode(test::writeGif(spec)), 12, 11, [&](int x, int y) -> Pixel {
            const int fx = x - spec.left;
            const int fy = y - spec.top;
            if (fx < 0 || fy < 0 || fx >= spec.width || fy >= spec.height) return {0, 0, 0, 0};
            const int index = spec.indices[static_cast<std::size_t>(fy * spec.width + fx)];
            if (index == spec.transparent) return {0, 0, 0, 0};
            const std::uint8_t* rgb = &spec.palette[static_cast<std::size_t>(3 * index)];
            return {rgb[0], rgb[1], rgb[2], 255};
        });
    }
}

TEST(GifDecoder, AFrameBeyondTheScreenGrowsTheCanvas) {
    test::GifSpec spec;
    spec.screenWidth = 4;
    spec.screenHeight = 4;
    spec.left = 1;
    spec.top = 2;
    spec.width = 6;
    spec.height = 3;
    spec.palette = {0, 0, 0, 255, 255, 255};
    spec.indices = std::vector<std::uint8_t>(18, 1);
    expectPixels(decode(test::writeGif(spec)), 7, 5, [&](int x, int y) -> Pixel {
        return x >= 1 && y >= 2 ? Pixel{255, 255, 255, 255} : Pixel{0, 0, 0, 0};
    });
}

// --- WebP ---

std::vector<std::uint8_t> visibleRgba(int width, int height, unsigned seed) {
    std::vector<std::uint8_t> pixels;
    for (const auto sample : randomSamples(std::size_t(width) * height * 4, 8, seed))
        pixels.push_back(static_cast<std::uint8_t>(sample));
    for (std::size_t i = 3; i < pixels.size(); i += 4)
        pixels[i] = static_cast<std::uint8_t>(std::max<int>(pixels[i], 1));
    return pixels;
}

std::function<Pixel(int, int)> rgbaSource(const std::vector<std::uint8_t>& pixels, int width) {
    return [&pixels, width](int x, int y) -> Pixel {
        const std::uint8_t* p = &pixels[(static_cast<std::size_t>(y) * width + x) * 4];
        return {p[0], p[1], p[2], p[3]};
    };
}

TEST(WebpDecoder, LosslessStillAndFirstFrameOfAnAnimationAreExact) {
    const auto first = visibleRgba(23, 17, 1);
    expectPixels(decode(test::writeWebp(23, 17, first)), 23, 17, rgbaSource(first, 23));
    const auto second = visibleRgba(23, 17, 2);
    expectPixels(decode(test::writeAnimatedWebp(23, 17, first, second)), 23, 17, rgbaSource(first, 23));
}

TEST(WebpDecoder, AHugeCanvasMeetsTheSizeLimit) {
    // Issue 21 item 13: a VP8X canvas of 2^24 x 2^24 over a 1x1 picture was "corrupt or truncated".
    const std::string still = test::writeWebp(1, 1, {1, 2, 3, 4});
    std::string vp8x("VP8X\x0A\0\0\0\x10\0\0\0\xFF\xFF\xFF\xFF\xFF\xFF", 18);
    std::string body = "WEBP" + vp8x + still.substr(12);
    std::string riff = "RIFF";
    for (int i = 0; i < 4; ++i) riff += static_cast<char>((body.size() >> (8 * i)) & 0xFF);
    const std::string message = refusal(riff + body);
    EXPECT_TRUE(mentions(message, "16777216x16777216")) << message;
    EXPECT_TRUE(mentions(message, "over the limit")) << message;
}

// --- BMP (bytes from the specification) ---

void little(std::string& out, std::uint32_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out += static_cast<char>((value >> (8 * i)) & 0xFF);
}

struct BmpSpec {
    int width = 0;
    int height = 0;  // negative: top-down
    int bits = 8;
    std::uint32_t compression = 0;
    std::vector<std::uint32_t> palette;  // 0x00RRGGBB
    std::vector<std::uint32_t> masks;    // r, g, b[, a]: a V4 header holds them
    std::string data;
};

std::string bmpFile(const BmpSpec& spec) {
    const std::uint32_t infoSize = spec.masks.empty() ? 40 : 108;
    std::string info;
    little(info, infoSize, 4);
    little(info, static_cast<std::uint32_t>(spec.width), 4);
    little(info, static_cast<std::uint32_t>(spec.height), 4);
    little(info, 1, 2);
    little(info, static_cast<std::uint32_t>(spec.bits), 2);
    little(info, spec.compression, 4);
    little(info, static_cast<std::uint32_t>(spec.data.size()), 4);
    little(info, 2835, 4);
    little(info, 2835, 4);
    little(info, static_cast<std::uint32_t>(spec.palette.size()), 4);
    little(info, 0, 4);
    if (infoSize == 108) {
        for (int i = 0; i < 4; ++i)
            little(info,
                   i < static_cast<int>(spec.masks.size()) ? spec.masks[static_cast<std::size_t>(i)] : 0, 4);
        info += std::string(108 - 56, '\0');
    }
    std::string palette;
    for (const auto entry : spec.palette) little(palette, entry, 4);
    std::string file = "BM";
    const auto offset = static_cast<std::uint32_t>(14 + info.size() + palette.size());
    little(file, offset + static_cast<std::uint32_t>(spec.data.size()), 4);
    little(file, 0, 4);
    little(file, offset, 4);
    return file + info + palette + spec.data;
}

// Rows of `bits`-deep values (bottom row first unless top-down), each padded to 4 bytes.
std::string bmpRows(int width, int height, int bits, const std::function<std::uint32_t(int, int)>& value,
                    bool topDown) {
    std::string out;
    const std::size_t stride = (static_cast<std::size_t>(width) * bits + 31) / 32 * 4;
    for (int stored = 0; stored < height; ++stored) {
        const int y = topDown ? stored : height - 1 - stored;
        std::string row(stride, '\0');
        for (int x = 0; x < width; ++x) {
            const std::uint32_t v = value(x, y);
            if (bits < 8) {
                row[static_cast<std::size_t>(x * bits / 8)] |=
                    static_cast<char>(v << (8 - bits - x * bits % 8));
            } else {
                for (int b = 0; b < bits / 8; ++b)
                    row[static_cast<std::size_t>(x * bits / 8 + b)] = static_cast<char>(v >> (8 * b));
            }
        }
        out += row;
    }
    return out;
}

TEST(BmpDecoder, EveryDepthAndLayoutIsExact) {
    constexpr int kWidth = 13;
    constexpr int kHeight = 5;
    std::mt19937 random(17);
    std::vector<std::uint32_t> values(kWidth * kHeight);
    for (auto& v : values) v = random();
    const auto at = [&](int x, int y) { return values[static_cast<std::size_t>(y * kWidth + x)]; };
    std::vector<std::uint32_t> palette(256);
    for (auto& entry : palette) entry = random() & 0xFFFFFF;
    const auto fromPalette = [&](std::uint32_t index) -> Pixel {
        const std::uint32_t entry = palette[index];
        return {static_cast<int>(entry >> 16 & 0xFF), static_cast<int>(entry >> 8 & 0xFF),
                static_cast<int>(entry & 0xFF), 255};
    };
    for (const int bits : {1, 4, 8}) {
        for (const bool topDown : {false, true}) {
            SCOPED_TRACE(std::to_string(bits) + " bits" + (topDown ? ", top-down" : ""));
            const std::uint32_t entries = bits == 8 ? 200 : 1u << bits;  // 8 bits: a palette of 200
            BmpSpec spec{kWidth, topDown ? -kHeight : kHeight, bits, 0, {}, {}, {}};
            spec.palette.assign(palette.begin(), palette.begin() + entries);
            spec.data = bmpRows(
                kWidth, kHeight, bits, [&](int x, int y) { return at(x, y) % entries; }, topDown);
            expectPixels(decode(bmpFile(spec)), kWidth, kHeight,
                         [&](int x, int y) { return fromPalette(at(x, y) % entries); });
        }
    }
    {
        SCOPED_TRACE("24 bits");
        const BmpSpec spec{kWidth, kHeight, 24, 0, {}, {}, bmpRows(kWidth, kHeight, 24, at, false)};
        expectPixels(decode(bmpFile(spec)), kWidth, kHeight, [&](int x, int y) -> Pixel {
            const std::uint32_t v = at(x, y);
            return {static_cast<int>(v >> 16 & 0xFF), static_cast<int>(v >> 8 & 0xFF),
                    static_cast<int>(v & 0xFF), 255};
        });
    }
    {
        SCOPED_TRACE("32 bits, BI_RGB: the fourth byte is reserved, so opaque");
        const BmpSpec spec{kWidth, kHeight, 32, 0, {}, {}, bmpRows(kWidth, kHeight, 32, at, false)};
        expectPixels(decode(bmpFile(spec)), kWidth, kHeight, [&](int x, int y) -> Pixel {
            const std::uint32_t v = at(x, y);
            return {static_cast<int>(v >> 16 & 0xFF), static_cast<int>(v >> 8 & 0xFF),
                    static_cast<int>(v & 0xFF), 255};
        });
    }
    {
        SCOPED_TRACE("16 bits, 5-5-5");
        const BmpSpec spec{kWidth, kHeight, 16, 0, {}, {}, bmpRows(kWidth, kHeight, 16, at, false)};
        expectPixels(decode(bmpFile(spec)), kWidth, kHeight, [&](int x, int y) -> Pixel {
            const std::uint32_t v = at(x, y) & 0xFFFF;
            return {scaled(v >> 10 & 31, 5), scaled(v >> 5 & 31, 5), scaled(v & 31, 5), 255};
        });
    }
    {
        SCOPED_TRACE("16 bits, bit fields 5-6-5");
        const BmpSpec spec{
            kWidth, kHeight, 16, 3, {}, {0xF800, 0x07E0, 0x001F}, bmpRows(kWidth, kHeight, 16, at, false)};
        expectPixels(decode(bmpFile(spec)), kWidth, kHeight, [&](int x, int y) -> Pixel {
            const std::uint32_t v = at(x, y) & 0xFFFF;
            return {scaled(v >> 11 & 31, 5), scaled(v >> 5 & 63, 6), scaled(v & 31, 5), 255};
        });
    }
    {
        SCOPED_TRACE("32 bits, bit fields with alpha, 10-10-10-2");
        const BmpSpec spec{kWidth,
                           kHeight,
                           32,
                           3,
                           {},
                           {0x3FF00000, 0x000FFC00, 0x000003FF, 0xC0000000},
                           bmpRows(kWidth, kHeight, 32, at, false)};
        expectPixels(decode(bmpFile(spec)), kWidth, kHeight, [&](int x, int y) -> Pixel {
            const std::uint32_t v = at(x, y);
            return {scaled(v >> 20 & 1023, 10), scaled(v >> 10 & 1023, 10), scaled(v & 1023, 10),
                    scaled(v >> 30, 2)};
        });
    }
}

TEST(BmpDecoder, RleSkippedPixelsAreTransparentBlack) {
    // Issue 21 item 1: what a delta escape passes over was left uninitialised.
    const std::vector<std::uint32_t> palette{0x102030, 0x405060, 0x708090, 0xA0B0C0};
    BmpSpec rle8{8, 4, 8, 1, palette, {}, {}};
    // Bottom row: 3 of index 1, then a delta of (2, 1) to x = 5 of the next row up; 2 of index 2; end of
    // line; the third row: 4 literal pixels 0, 1, 2, 3; end of bitmap (the top row never written).
    rle8.data = std::string("\x03\x01\x00\x02\x02\x01\x02\x02\x00\x00\x00\x04\x00\x01\x02\x03\x00\x01", 18);
    const auto colour = [&](int index) -> Pixel {
        const std::uint32_t entry = palette[static_cast<std::size_t>(index)];
        return {static_cast<int>(entry >> 16 & 0xFF), static_cast<int>(entry >> 8 & 0xFF),
                static_cast<int>(entry & 0xFF), 255};
    };
    const auto expected = [&](int x, int y) -> Pixel {
        const int stored = 3 - y;  // rows from the bottom
        if (stored == 0 && x < 3) return colour(1);
        if (stored == 1 && x >= 5 && x < 7) return colour(2);
        if (stored == 2 && x < 4) return colour(x);
        return {0, 0, 0, 0};
    };
    expectPixels(decode(bmpFile(rle8)), 8, 4, expected);

    // The same picture in RLE4: runs alternate the two nibbles of their byte.
    BmpSpec rle4{8, 4, 4, 2, palette, {}, {}};
    rle4.data = std::string("\x03\x11\x00\x02\x02\x01\x02\x22\x00\x00\x00\x04\x01\x23\x00\x01", 16);
    expectPixels(decode(bmpFile(rle4)), 8, 4, expected);
}

TEST(BmpDecoder, CorruptDataIsRefused) {
    BmpSpec spec{4, 1, 8, 0, {0x112233, 0x445566}, {}, std::string("\x00\x01\x05\x00", 4)};
    std::string message = refusal(bmpFile(spec));
    EXPECT_TRUE(mentions(message, "palette index 5 of a 2-colour palette")) << message;

    spec.compression = 1;
    spec.data = std::string("\x05\x01\x00\x01", 4);  // 5 pixels in a row of 4
    message = refusal(bmpFile(spec));
    EXPECT_TRUE(mentions(message, "past the end of a row")) << message;

    spec.data = std::string("\x02\x01", 2);  // no end of bitmap
    message = refusal(bmpFile(spec));
    EXPECT_TRUE(mentions(message, "truncated")) << message;
}

}  // namespace
}  // namespace hs
