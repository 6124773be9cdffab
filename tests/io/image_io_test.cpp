#include <gtest/gtest.h>

#include <QBuffer>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QImageReader>
#include <QImageWriter>
#include <QTemporaryDir>
#include <cstdlib>
#include <functional>

#include "engine/runtime/error.hpp"
#include "handmade_files.hpp"
#include "io/image_io.hpp"

namespace hs {
namespace {

using test::PngColour;

// A pattern in which neighbouring pixels differ in every channel; alpha never 0 (lossless WebP may alter the
// colour of fully transparent pixels).
QColor patternColour(int x, int y) {
    return QColor((x * 7 + y * 3) % 256, (y * 11 + x) % 256, (x * y + 40) % 256, 128 + (x * 5 + y) % 128);
}

QImage patternImage(int width, int height, QImage::Format format) {
    QImage image(width, height, QImage::Format_RGBA8888);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) image.setPixelColor(x, y, patternColour(x, y));
    }
    return image.convertToFormat(format);
}

QByteArray encodeWithQt(const QImage& image, const char* format, int quality = -1) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QImageWriter writer(&buffer, format);
    writer.setQuality(quality);
    EXPECT_TRUE(writer.write(image)) << format << ": " << writer.errorString().toStdString();
    return bytes;
}

QImage::Format formatQtReads(const QString& path) {
    return QImageReader(path).imageFormat();
}

class ImageFiles : public test::FileFolder {
  protected:
    // Asserts that loading fails with one line that begins with the path and contains `reason`.
    void expectRefused(const QString& file, const std::string& reason, const io::LoadOptions& options = {}) {
        try {
            io::loadImage(file, options);
            ADD_FAILURE() << file.toStdString() << " was accepted";
        } catch (const InputError& error) {
            const std::string message = error.what();
            EXPECT_EQ(message.rfind(file.toStdString() + ": ", 0), 0u) << message;
            EXPECT_NE(message.find(reason), std::string::npos) << message;
            EXPECT_EQ(message.find('\n'), std::string::npos) << message;
        }
    }
};

void expectPixels(const ImageRGBA8& image, int width, int height,
                  const std::function<std::array<int, 4>(int, int)>& expected, int tolerance = 0) {
    ASSERT_EQ(image.width, width);
    ASSERT_EQ(image.height, height);
    ASSERT_EQ(image.pixels.size(), image.byteCount());
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            const auto want = expected(x, y);
            for (int c = 0; c < 4; ++c)
                ASSERT_NEAR(image.pixel(x, y)[c], want[static_cast<std::size_t>(c)], tolerance)
                    << "pixel " << x << "," << y << " channel " << c;
        }
    }
}

std::array<int, 4> rgba(const QColor& colour) {
    return {colour.red(), colour.green(), colour.blue(), colour.alpha()};
}
std::array<int, 4> opaque(const QColor& colour) {
    return {colour.red(), colour.green(), colour.blue(), 255};
}

TEST_F(ImageFiles, ReadsFormatsWithAlpha) {
    // libtiff's RGBA interface premultiplies unassociated alpha, so TIFF colours come back within one level
    // (alpha >= 128 here); PNG and lossless WebP are exact.
    const QImage source = patternImage(37, 23, QImage::Format_RGBA8888);
    for (const auto& [format, quality, tolerance] :
         {std::tuple{"png", -1, 0}, {"webp", 100, 0}, {"tiff", -1, 1}}) {
        SCOPED_TRACE(format);
        const QString file = write(QString("pattern.") + format, encodeWithQt(source, format, quality));
        expectPixels(
            io::loadImage(file), 37, 23, [](int x, int y) { return rgba(patternColour(x, y)); }, tolerance);
    }
}

TEST_F(ImageFiles, FilesWithoutAlphaGetOpaqueAlpha) {
    const QImage source = patternImage(37, 23, QImage::Format_RGB888);
    for (const char* format : {"png", "bmp", "tiff"}) {
        SCOPED_TRACE(format);
        const QString file = write(QString("opaque.") + format, encodeWithQt(source, format));
        expectPixels(io::loadImage(file), 37, 23, [](int x, int y) { return opaque(patternColour(x, y)); });
    }
}

TEST_F(ImageFiles, ReadsJpegWithinCompressionError) {
    // Flat 16x16 blocks (one chroma-subsampled MCU each) survive JPEG at quality 100 within a few levels away
    // from their edges, where chroma upsampling blends neighbours.
    const auto blockColour = [](int x, int y) { return patternColour(x / 16 * 9, y / 16 * 5); };
    QImage source(64, 32, QImage::Format_RGB888);
    for (int y = 0; y < 32; ++y) {
        for (int x = 0; x < 64; ++x) source.setPixelColor(x, y, blockColour(x, y));
    }
    const ImageRGBA8 image = io::loadImage(write("blocks.jpg", encodeWithQt(source, "jpeg", 100)));
    ASSERT_EQ(image.width, 64);
    ASSERT_EQ(image.height, 32);
    const auto interior = [](int v) { return v % 16 >= 3 && v % 16 <= 12; };
    for (int y = 0; y < 32; ++y) {
        for (int x = 0; x < 64; ++x) {
            if (!interior(x) || !interior(y)) continue;
            const auto want = opaque(blockColour(x, y));
            for (int c = 0; c < 4; ++c)
                ASSERT_NEAR(image.pixel(x, y)[c], want[static_cast<std::size_t>(c)], 3)
                    << x << "," << y << " " << c;
        }
    }
}

TEST_F(ImageFiles, ReadsPaletteGif) {
    std::vector<std::uint8_t> palette;
    const auto paletteColour = [](int i) { return QColor(i, 255 - i, (i * 7) % 256); };
    for (int i = 0; i < 256; ++i) {
        const QColor colour = paletteColour(i);
        palette.insert(palette.end(),
                       {static_cast<std::uint8_t>(colour.red()), static_cast<std::uint8_t>(colour.green()),
                        static_cast<std::uint8_t>(colour.blue())});
    }
    const auto indexAt = [](int x, int y) { return (x * 5 + y * 3) % 256; };
    std::vector<std::uint8_t> indices;
    for (int y = 0; y < 19; ++y) {
        for (int x = 0; x < 23; ++x) indices.push_back(static_cast<std::uint8_t>(indexAt(x, y)));
    }
    const QString file = write("palette.gif", test::gifFile(23, 19, palette, indices));
    expectPixels(io::loadImage(file), 23, 19,
                 [&](int x, int y) { return opaque(paletteColour(indexAt(x, y))); });
}

// 16-bit samples and round(v / 257), worked out by hand: 257 k + r rounds up exactly when r >= 129.
const std::vector<std::pair<std::uint16_t, int>> kSixteenBit{
    {0, 0},       {128, 0},     {129, 1},     {257, 1},     {385, 1},     {386, 2},
    {25828, 100}, {25829, 101}, {32767, 127}, {32768, 128}, {32896, 128}, {65406, 254},
    {65407, 255}, {65535, 255}, {1000, 4},    {60000, 233},
};

std::vector<std::uint16_t> sixteenBitSamples(std::size_t count) {
    std::vector<std::uint16_t> samples;
    for (std::size_t i = 0; i < count; ++i) samples.push_back(kSixteenBit[i % kSixteenBit.size()].first);
    return samples;
}

int roundedSample(std::size_t i) {
    return kSixteenBit[i % kSixteenBit.size()].second;
}

TEST_F(ImageFiles, SixteenBitPngRoundsToNearest) {
    const int width = 4;
    const int height = 3;
    const QString rgbaFile = write("rgba16.png", test::pngFile(width, height, PngColour::Rgba, 16,
                                                               sixteenBitSamples(4 * width * height)));
    ASSERT_EQ(formatQtReads(rgbaFile), QImage::Format_RGBA64);
    expectPixels(io::loadImage(rgbaFile), width, height, [&](int x, int y) {
        const std::size_t base = static_cast<std::size_t>(y * width + x) * 4;
        return std::array<int, 4>{roundedSample(base), roundedSample(base + 1), roundedSample(base + 2),
                                  roundedSample(base + 3)};
    });

    const QString rgbFile = write(
        "rgb16.png", test::pngFile(width, height, PngColour::Rgb, 16, sixteenBitSamples(3 * width * height)));
    expectPixels(io::loadImage(rgbFile), width, height, [&](int x, int y) {
        const std::size_t base = static_cast<std::size_t>(y * width + x) * 3;
        return std::array<int, 4>{roundedSample(base), roundedSample(base + 1), roundedSample(base + 2), 255};
    });

    const QString greyFile = write(
        "grey16.png", test::pngFile(width, height, PngColour::Grey, 16, sixteenBitSamples(width * height)));
    ASSERT_EQ(formatQtReads(greyFile), QImage::Format_Grayscale16);
    expectPixels(io::loadImage(greyFile), width, height, [&](int x, int y) {
        const int grey = roundedSample(static_cast<std::size_t>(y * width + x));
        return std::array<int, 4>{grey, grey, grey, 255};
    });
}

TEST_F(ImageFiles, SixteenBitTiffRoundsToNearest) {
    const int width = 4;
    const int height = 4;
    QImage colour(width, height, QImage::Format_RGBX64);
    QImage grey(width, height, QImage::Format_Grayscale16);
    for (int y = 0; y < height; ++y) {
        auto* colourRow = reinterpret_cast<quint16*>(colour.scanLine(y));
        auto* greyRow = reinterpret_cast<quint16*>(grey.scanLine(y));
        for (int x = 0; x < width; ++x) {
            const std::size_t i = static_cast<std::size_t>(y * width + x);
            for (std::size_t c = 0; c < 3; ++c)
                colourRow[x * 4 + static_cast<int>(c)] = kSixteenBit[(i * 3 + c) % 16].first;
            colourRow[x * 4 + 3] = 65535;
            greyRow[x] = kSixteenBit[i % 16].first;
        }
    }
    const QString colourFile = write("colour16.tif", encodeWithQt(colour, "tiff"));
    const QString greyFile = write("grey16.tif", encodeWithQt(grey, "tiff"));
    ASSERT_EQ(QImageReader(colourFile).imageFormat(), QImage::Format_RGBX64)
        << "the test file should be 16-bit";
    ASSERT_EQ(QImageReader(greyFile).imageFormat(), QImage::Format_Grayscale16)
        << "the test file should be 16-bit";
    expectPixels(io::loadImage(colourFile), width, height, [&](int x, int y) {
        const std::size_t i = static_cast<std::size_t>(y * width + x);
        return std::array<int, 4>{roundedSample(i * 3), roundedSample(i * 3 + 1), roundedSample(i * 3 + 2),
                                  255};
    });
    expectPixels(io::loadImage(greyFile), width, height, [&](int x, int y) {
        const int value = roundedSample(static_cast<std::size_t>(y * width + x));
        return std::array<int, 4>{value, value, value, 255};
    });
}

TEST_F(ImageFiles, EightBitGreyGivesEqualChannels) {
    std::vector<std::uint16_t> greyAlpha;
    for (int i = 0; i < 16; ++i)
        greyAlpha.insert(greyAlpha.end(),
                         {static_cast<std::uint16_t>(i * 17), static_cast<std::uint16_t>(255 - i)});
    const QString greyAlphaFile =
        write("grey-alpha.png", test::pngFile(4, 4, PngColour::GreyAlpha, 8, greyAlpha));
    expectPixels(io::loadImage(greyAlphaFile), 4, 4, [](int x, int y) {
        const int i = y * 4 + x;
        return std::array<int, 4>{i * 17, i * 17, i * 17, 255 - i};
    });
    const QString greyFile =
        write("grey.bmp", encodeWithQt(patternImage(9, 7, QImage::Format_Grayscale8), "bmp"));
    expectPixels(io::loadImage(greyFile), 9, 7, [](int x, int y) {
        const int grey = qGray(patternColour(x, y).rgb());
        return std::array<int, 4>{grey, grey, grey, 255};
    });
}

TEST_F(ImageFiles, RefusesMissingEmptyAndNonFiles) {
    expectRefused(path("missing.png"), "no such file");
    expectRefused(write("empty.png", {}), "empty file");
    QDir(path("")).mkdir("folder.png");
    expectRefused(path("folder.png"), "not a regular file");
}

TEST_F(ImageFiles, RefusesTruncatedFilesOfEveryFormat) {
    const QImage source = patternImage(64, 48, QImage::Format_RGBA8888);
    std::vector<std::pair<QString, QByteArray>> whole{
        {"png", encodeWithQt(source, "png")},
        {"jpg", encodeWithQt(source, "jpeg", 90)},
        {"bmp", encodeWithQt(source, "bmp")},
        {"tif", encodeWithQt(source, "tiff")},
        {"webp", encodeWithQt(source, "webp")},
        {"gif", test::gifFile(64, 48, {255, 0, 0, 0, 0, 255}, std::vector<std::uint8_t>(64 * 48, 1))},
    };
    for (const auto& [suffix, bytes] : whole) {
        SCOPED_TRACE(suffix.toStdString());
        ASSERT_NO_THROW(io::loadImage(write("whole." + suffix, bytes)));
        for (const double kept : {0.98, 0.7, 0.4, 0.1}) {
            const QString file =
                write(QString("cut-%1.%2").arg(kept).arg(suffix), bytes.left(qsizetype(bytes.size() * kept)));
            expectRefused(file, "truncated");
        }
    }
}

TEST_F(ImageFiles, RefusesCorruptData) {
    QByteArray png = test::pngFile(8, 8, PngColour::Rgb, 8, std::vector<std::uint16_t>(8 * 8 * 3, 99));
    const qsizetype idat = png.indexOf("IDAT");
    png[idat + 20] =
        static_cast<char>(png[idat + 20] ^ 0x5A);  // inside the stored pixels: the CRC no longer matches
    expectRefused(write("flipped.png", png), "corrupt or truncated PNG");

    QByteArray noise(4096, '\0');
    for (qsizetype i = 0; i < noise.size(); ++i) noise[i] = static_cast<char>((i * 131 + 7) % 251);
    expectRefused(write("noise.webp", noise), "not an image file");
    expectRefused(write("notes.png", "These are notes, not pixels.\n"), "not an image file");
}

TEST_F(ImageFiles, RefusesFormatsOutsideTheListEvenWhenQtReadsThem) {
    const QString file = write("picture.ppm", encodeWithQt(patternImage(4, 4, QImage::Format_RGB888), "ppm"));
    ASSERT_FALSE(QImageReader(file).read().isNull()) << "Qt itself reads PPM";
    expectRefused(file, "a ppm image");
}

TEST_F(ImageFiles, RefusesZeroSizedImages) {
    expectRefused(write("zero.png", test::pngWithoutPixels(0, 0)), "zero-sized image (0x0)");
    expectRefused(write("zero-wide.bmp", test::bmpHeaderOnly(0, 5)), "zero-sized image (0x5)");
    expectRefused(write("zero-high.bmp", test::bmpHeaderOnly(5, 0)), "zero-sized image (5x0)");
}

TEST_F(ImageFiles, RefusesDecompressionBombFromTheHeader) {
    // No pixel data backs this header: a refusal that says "limit" came from the header size, before
    // decoding.
    const QString bomb = write("bomb.png", test::pngWithoutPixels(100000, 100000));
    expectRefused(bomb, "100000x100000");
    expectRefused(bomb, "over the limit");
    // Qt's BMP reader has no header size beyond 16384 pixels a side, so the limit is lowered for this one.
    expectRefused(write("bomb.bmp", test::bmpHeaderOnly(16000, 16000)), "over the limit",
                  io::LoadOptions{100 << 20});
}

TEST_F(ImageFiles, SizeLimitIsExactAndConfigurable) {
    const QString file =
        write("64x64.png", encodeWithQt(patternImage(64, 64, QImage::Format_RGBA8888), "png"));
    const std::uint64_t exact = 64 * 64 * 4;
    EXPECT_NO_THROW(io::loadImage(file, io::LoadOptions{exact}));
    expectRefused(file, "over the limit", io::LoadOptions{exact - 1});
    // A 16-bit file counts by its 8-bit result, not by Qt's 8 bytes per pixel.
    const QString wide = write("wide.png", test::pngFile(64, 64, PngColour::Rgba, 16,
                                                         std::vector<std::uint16_t>(64 * 64 * 4, 5000)));
    EXPECT_NO_THROW(io::loadImage(wide, io::LoadOptions{exact}));
}

TEST(ImageLimit, EnvironmentSetsTheDefault) {
    ASSERT_EQ(unsetenv("HISTOSCOPE_MAX_IMAGE_BYTES"), 0);
    EXPECT_EQ(io::LoadOptions::defaultMaxDecodedBytes(), std::uint64_t{1} << 30);
    setenv("HISTOSCOPE_MAX_IMAGE_BYTES", "16384", 1);
    EXPECT_EQ(io::LoadOptions{}.maxDecodedBytes, 16384u);
    setenv("HISTOSCOPE_MAX_IMAGE_BYTES", "2M", 1);
    EXPECT_EQ(io::LoadOptions::defaultMaxDecodedBytes(), 2u * 1024 * 1024);
    setenv("HISTOSCOPE_MAX_IMAGE_BYTES", "lots", 1);
    EXPECT_THROW(io::LoadOptions::defaultMaxDecodedBytes(), UsageError);
    unsetenv("HISTOSCOPE_MAX_IMAGE_BYTES");
}

TEST_F(ImageFiles, SaveImageRoundTrips) {
    ImageRGBA8 image(29, 17);
    for (int y = 0; y < image.height; ++y) {
        for (int x = 0; x < image.width; ++x) {
            const auto want = rgba(patternColour(x, y));
            for (int c = 0; c < 4; ++c)
                image.pixel(x, y)[c] = static_cast<std::uint8_t>(want[static_cast<std::size_t>(c)]);
        }
    }
    for (const char* suffix : {"png", "webp"}) {
        SCOPED_TRACE(suffix);
        const QString file = path(QString("saved.") + suffix);
        io::saveImage(file, image);
        EXPECT_EQ(io::loadImage(file), image);
    }
    const QString tif = path("saved.tif");
    io::saveImage(tif, image);
    expectPixels(
        io::loadImage(tif), 29, 17, [](int x, int y) { return rgba(patternColour(x, y)); }, 1);
    const QString bmp = path("saved.bmp");
    io::saveImage(bmp, image);
    const ImageRGBA8 fromBmp = io::loadImage(bmp);
    expectPixels(fromBmp, 29, 17, [&](int x, int y) {
        return std::array<int, 4>{image.pixel(x, y)[0], image.pixel(x, y)[1], image.pixel(x, y)[2],
                                  fromBmp.pixel(x, y)[3]};
    });
    const QString jpg = path("saved.jpg");
    io::saveImage(jpg, image);
    EXPECT_EQ(io::loadImage(jpg).width, 29);

    EXPECT_THROW(io::saveImage(path("saved.gif"), image), InputError);
    EXPECT_THROW(io::saveImage(path("saved.xyz"), image), InputError);
}

TEST(ImageFormats, ListsEveryPromisedSuffix) {
    const QStringList suffixes = io::readableSuffixes();
    for (const char* suffix : {"png", "jpg", "jpeg", "bmp", "gif", "tif", "tiff", "webp"})
        EXPECT_TRUE(suffixes.contains(suffix)) << suffix;
    EXPECT_FALSE(suffixes.contains("ppm"));
    EXPECT_TRUE(io::openDialogFilter().contains("*.webp"));
}

}  // namespace
}  // namespace hs
