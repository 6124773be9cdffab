#include "handmade_files.hpp"

#include <array>

namespace hs::test {

namespace {

void appendBigEndian(QByteArray& out, std::uint32_t value, int bytes) {
    for (int i = bytes - 1; i >= 0; --i) out.append(static_cast<char>((value >> (8 * i)) & 0xFF));
}

void appendLittleEndian(QByteArray& out, std::uint32_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out.append(static_cast<char>((value >> (8 * i)) & 0xFF));
}

std::uint32_t crc32(const QByteArray& data) {
    static const auto table = [] {
        std::array<std::uint32_t, 256> entries{};
        for (std::uint32_t n = 0; n < 256; ++n) {
            std::uint32_t c = n;
            for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            entries[n] = c;
        }
        return entries;
    }();
    std::uint32_t crc = 0xFFFFFFFFu;
    for (const char byte : data) crc = table[(crc ^ static_cast<std::uint8_t>(byte)) & 0xFF] ^ (crc >> 8);
    return crc ^ 0xFFFFFFFFu;
}

std::uint32_t adler32(const QByteArray& data) {
    std::uint32_t a = 1;
    std::uint32_t b = 0;
    for (const char byte : data) {
        a = (a + static_cast<std::uint8_t>(byte)) % 65521;
        b = (b + a) % 65521;
    }
    return (b << 16) | a;
}

void appendChunk(QByteArray& png, const char* type, const QByteArray& data) {
    appendBigEndian(png, static_cast<std::uint32_t>(data.size()), 4);
    const QByteArray typed = QByteArray(type) + data;
    png += typed;
    appendBigEndian(png, crc32(typed), 4);
}

// zlib stream (RFC 1950) of deflate stored blocks (RFC 1951, BTYPE = 00).
QByteArray zlibStored(const QByteArray& raw) {
    QByteArray out("\x78\x01", 2);
    constexpr int kMaxBlock = 65535;
    qsizetype offset = 0;
    do {
        const int length = static_cast<int>(std::min<qsizetype>(kMaxBlock, raw.size() - offset));
        const bool last = offset + length >= raw.size();
        out.append(static_cast<char>(last ? 1 : 0));
        appendLittleEndian(out, static_cast<std::uint32_t>(length), 2);
        appendLittleEndian(out, static_cast<std::uint32_t>(~length & 0xFFFF), 2);
        out += raw.mid(offset, length);
        offset += length;
    } while (offset < raw.size());
    appendBigEndian(out, adler32(raw), 4);
    return out;
}

QByteArray ihdr(std::uint32_t width, std::uint32_t height, int bitDepth, PngColour colour) {
    QByteArray header;
    appendBigEndian(header, width, 4);
    appendBigEndian(header, height, 4);
    header.append(static_cast<char>(bitDepth));
    header.append(static_cast<char>(colour));
    header.append(3, '\0');  // compression, filter, interlace
    return header;
}

const QByteArray kPngSignature("\x89PNG\r\n\x1a\n", 8);

int channelsOf(PngColour colour) {
    switch (colour) {
        case PngColour::Grey:
        case PngColour::Palette:
            return 1;
        case PngColour::GreyAlpha:
            return 2;
        case PngColour::Rgb:
            return 3;
        case PngColour::Rgba:
            break;
    }
    return 4;
}

}  // namespace

QByteArray pngFile(int width, int height, PngColour colour, int bitDepth,
                   const std::vector<std::uint16_t>& samples) {
    const int rowSamples = width * channelsOf(colour);
    QByteArray raw;
    for (int y = 0; y < height; ++y) {
        raw.append('\0');  // filter type None
        for (int i = 0; i < rowSamples; ++i)
            appendBigEndian(raw, samples[static_cast<std::size_t>(y * rowSamples + i)], bitDepth / 8);
    }
    QByteArray png = kPngSignature;
    appendChunk(
        png, "IHDR",
        ihdr(static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height), bitDepth, colour));
    appendChunk(png, "IDAT", zlibStored(raw));
    appendChunk(png, "IEND", {});
    return png;
}

QByteArray pngWithoutPixels(std::uint32_t width, std::uint32_t height) {
    QByteArray png = kPngSignature;
    appendChunk(png, "IHDR", ihdr(width, height, 8, PngColour::Rgba));
    appendChunk(png, "IDAT", zlibStored({}));
    appendChunk(png, "IEND", {});
    return png;
}

QByteArray pngPaletted(int width, int height, const std::vector<std::uint8_t>& palette,
                       const std::vector<std::uint8_t>& indices) {
    QByteArray raw;
    for (int y = 0; y < height; ++y) {
        raw.append('\0');  // filter type None
        for (int x = 0; x < width; ++x)
            raw.append(static_cast<char>(indices[static_cast<std::size_t>(y * width + x)]));
    }
    QByteArray png = kPngSignature;
    appendChunk(
        png, "IHDR",
        ihdr(static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height), 8, PngColour::Palette));
    appendChunk(
        png, "PLTE",
        QByteArray(reinterpret_cast<const char*>(palette.data()), static_cast<qsizetype>(palette.size())));
    appendChunk(png, "IDAT", zlibStored(raw));
    appendChunk(png, "IEND", {});
    return png;
}

QByteArray pngWithDeclaredChunk(const QByteArray& png, const char* type, std::uint32_t declaredLength,
                                const QByteArray& data) {
    constexpr qsizetype kAfterHeader = 8 + 4 + 4 + 13 + 4;  // signature, IHDR length, type, data, CRC
    QByteArray chunk;
    appendBigEndian(chunk, declaredLength, 4);
    chunk += QByteArray(type) + data;
    return png.left(kAfterHeader) + chunk + png.mid(kAfterHeader);
}

QByteArray gifFile(int width, int height, const std::vector<std::uint8_t>& palette,
                   const std::vector<std::uint8_t>& indices, int screenWidth, int screenHeight) {
    QByteArray gif("GIF89a");
    appendLittleEndian(gif, static_cast<std::uint32_t>(screenWidth > 0 ? screenWidth : width), 2);
    appendLittleEndian(gif, static_cast<std::uint32_t>(screenHeight > 0 ? screenHeight : height), 2);
    gif.append(static_cast<char>(0xF7));  // global colour table of 2^(7+1) entries, 8-bit colour resolution
    gif.append(2, '\0');                  // background index, aspect ratio
    for (std::size_t i = 0; i < 256 * 3; ++i)
        gif.append(static_cast<char>(i < palette.size() ? palette[i] : 0));

    gif.append(',');  // image descriptor
    appendLittleEndian(gif, 0, 4);
    appendLittleEndian(gif, static_cast<std::uint32_t>(width), 2);
    appendLittleEndian(gif, static_cast<std::uint32_t>(height), 2);
    gif.append('\0');  // no local table, not interlaced

    constexpr int kMinCodeSize = 8;
    constexpr std::uint32_t kClear = 256;
    constexpr std::uint32_t kEnd = 257;
    constexpr int kCodeBits = 9;
    // The decoder adds a table entry per code after the first following a clear; clearing every 200 codes
    // keeps the table below 512 entries, so every code stays 9 bits wide.
    constexpr int kCodesPerClear = 200;
    QByteArray codes;
    std::uint32_t bitBuffer = 0;
    int bitCount = 0;
    const auto writeCode = [&](std::uint32_t code) {
        bitBuffer |= code << bitCount;
        bitCount += kCodeBits;
        while (bitCount >= 8) {
            codes.append(static_cast<char>(bitBuffer & 0xFF));
            bitBuffer >>= 8;
            bitCount -= 8;
        }
    };
    for (std::size_t i = 0; i < indices.size(); ++i) {
        if (i % kCodesPerClear == 0) writeCode(kClear);
        writeCode(indices[i]);
    }
    writeCode(kEnd);
    if (bitCount > 0) codes.append(static_cast<char>(bitBuffer & 0xFF));

    gif.append(static_cast<char>(kMinCodeSize));
    for (qsizetype offset = 0; offset < codes.size(); offset += 255) {
        const QByteArray block = codes.mid(offset, 255);
        gif.append(static_cast<char>(block.size()));
        gif += block;
    }
    gif.append('\0');  // block terminator
    gif.append(';');   // trailer
    return gif;
}

QByteArray bmpHeaderOnly(std::int32_t width, std::int32_t height) {
    constexpr std::uint32_t kHeaders = 14 + 40;
    QByteArray bmp("BM");
    appendLittleEndian(bmp, kHeaders, 4);  // file size
    appendLittleEndian(bmp, 0, 4);
    appendLittleEndian(bmp, kHeaders, 4);  // pixel data offset
    appendLittleEndian(bmp, 40, 4);
    appendLittleEndian(bmp, static_cast<std::uint32_t>(width), 4);
    appendLittleEndian(bmp, static_cast<std::uint32_t>(height), 4);
    appendLittleEndian(bmp, 1, 2);   // planes
    appendLittleEndian(bmp, 24, 2);  // bits per pixel
    appendLittleEndian(bmp, 0, 4);   // BI_RGB
    for (int i = 0; i < 5; ++i) appendLittleEndian(bmp, 0, 4);
    return bmp;
}

}  // namespace hs::test
