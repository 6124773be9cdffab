#pragma once
// Image files written byte by byte from the format specifications, so the tests control exactly what a file
// claims (bit depth, colour type, a header size that no data backs) independently of Qt's encoders.

#include <gtest/gtest.h>

#include <QByteArray>
#include <QFile>
#include <QString>
#include <QTemporaryDir>
#include <cstdint>
#include <vector>

namespace hs::test {

// A test with a temporary folder of its own, removed afterwards, to write hand-made files into.
class FileFolder : public ::testing::Test {
  protected:
    // Writes `bytes` to `name` in the folder; returns its path.
    QString write(const QString& name, const QByteArray& bytes) {
        const QString path = directory_.filePath(name);
        QFile file(path);
        EXPECT_TRUE(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        return path;
    }
    QString path(const QString& name) const { return directory_.filePath(name); }

  private:
    QTemporaryDir directory_;
};

enum class PngColour : std::uint8_t { Grey = 0, Rgb = 2, Palette = 3, GreyAlpha = 4, Rgba = 6 };

// A PNG (RFC 2083) with `samples` given row by row, channel by channel, each sample 8 or 16 bits deep as
// `bitDepth` says; the image data is stored uncompressed (deflate "stored" blocks).
QByteArray pngFile(int width, int height, PngColour colour, int bitDepth,
                   const std::vector<std::uint16_t>& samples);
// An IHDR chunk claiming `width` x `height` and an IDAT holding an empty zlib stream: a header no pixels
// back.
QByteArray pngWithoutPixels(std::uint32_t width, std::uint32_t height);

// An 8-bit paletted PNG: PLTE holds `palette` (r, g, b triples, as many entries as given), the pixels are
// `indices`, which may point past the palette.
QByteArray pngPaletted(int width, int height, const std::vector<std::uint8_t>& palette,
                       const std::vector<std::uint8_t>& indices);
// `png` with a chunk of `type` inserted after IHDR whose length field says `declaredLength` but which holds
// only `data` (and no CRC): how a few hundred bytes can ask a decoder for gigabytes.
QByteArray pngWithDeclaredChunk(const QByteArray& png, const char* type, std::uint32_t declaredLength,
                                const QByteArray& data);

// A GIF89a with a 256-entry global palette (`palette` holds r, g, b triples, padded with black) and one image
// of palette indices; LZW codes are written at a fixed 9-bit width with regular clear codes. The logical
// screen is `screenWidth` x `screenHeight` (0: the image's size).
QByteArray gifFile(int width, int height, const std::vector<std::uint8_t>& palette,
                   const std::vector<std::uint8_t>& indices, int screenWidth = 0, int screenHeight = 0);

// A BMP whose BITMAPINFOHEADER claims `width` x `height` at 24 bits per pixel, with no pixel data after it.
QByteArray bmpHeaderOnly(std::int32_t width, std::int32_t height);

}  // namespace hs::test
