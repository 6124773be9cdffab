#include "io/stream_check.hpp"

#include <QByteArray>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

namespace hs::io {

namespace {

using Reason = std::optional<std::string>;

std::uint32_t littleEndian(const unsigned char* bytes, int count) {
    std::uint32_t value = 0;
    for (int i = count - 1; i >= 0; --i) value = (value << 8) | bytes[i];
    return value;
}

// --- JPEG (ITU T.81 annex B) ---

constexpr unsigned char kMarkerPrefix = 0xFF;
constexpr unsigned char kEndOfImage = 0xD9;
constexpr unsigned char kStartOfScan = 0xDA;

// Markers without a length field: TEM and the restart markers.
bool standaloneMarker(unsigned char marker) {
    return marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7);
}

// Entropy-coded data escapes 0xFF as FF 00 and interleaves restart markers; any other marker ends the scan.
std::size_t endOfScan(const unsigned char* data, std::size_t size, std::size_t pos) {
    for (; pos + 1 < size; ++pos) {
        if (data[pos] == kMarkerPrefix && data[pos + 1] != 0x00 && !standaloneMarker(data[pos + 1]))
            return pos;
    }
    return size;
}

Reason jpegIncomplete(const unsigned char* data, std::size_t size) {
    std::size_t pos = 2;  // after the start-of-image marker that format detection has seen
    while (true) {
        // Like libjpeg, tolerate stray bytes and fill bytes before a marker.
        while (pos < size && data[pos] != kMarkerPrefix) ++pos;
        while (pos < size && data[pos] == kMarkerPrefix) ++pos;
        if (pos >= size) return "truncated JPEG (the end-of-image marker is missing)";
        const unsigned char marker = data[pos++];
        if (marker == kEndOfImage) return std::nullopt;
        if (standaloneMarker(marker)) continue;
        if (pos + 2 > size) return "truncated JPEG (cut inside a segment header)";
        const std::size_t length = (static_cast<std::size_t>(data[pos]) << 8) | data[pos + 1];
        if (length < 2) return "corrupt JPEG (a segment length below 2)";
        if (pos + length > size) return "truncated JPEG (cut inside a segment)";
        pos += length;
        if (marker == kStartOfScan) pos = endOfScan(data, size, pos);
    }
}

// --- BMP (BITMAPFILEHEADER + BITMAPCOREHEADER or BITMAPINFOHEADER and later) ---

Reason bmpIncomplete(const unsigned char* data, std::size_t size) {
    constexpr std::size_t kFileHeader = 14;
    if (size < kFileHeader + 12) return "truncated BMP (cut inside the header)";
    const std::uint64_t pixelOffset = littleEndian(data + 10, 4);
    const std::uint32_t infoSize = littleEndian(data + 14, 4);
    std::uint64_t width = 0;
    std::uint64_t height = 0;
    std::uint32_t bitsPerPixel = 0;
    std::uint32_t compression = 0;
    std::uint64_t compressedSize = 0;
    if (infoSize == 12) {
        width = littleEndian(data + 18, 2);
        height = littleEndian(data + 20, 2);
        bitsPerPixel = littleEndian(data + 24, 2);
    } else {
        if (size < kFileHeader + 40) return "truncated BMP (cut inside the header)";
        width = static_cast<std::uint64_t>(std::llabs(static_cast<std::int32_t>(littleEndian(data + 18, 4))));
        height =
            static_cast<std::uint64_t>(std::llabs(static_cast<std::int32_t>(littleEndian(data + 22, 4))));
        bitsPerPixel = littleEndian(data + 28, 2);
        compression = littleEndian(data + 30, 4);
        compressedSize = littleEndian(data + 34, 4);
    }
    constexpr std::uint32_t kRle8 = 1;
    constexpr std::uint32_t kRle4 = 2;
    const std::uint64_t needed =
        compression == kRle8 || compression == kRle4
            ? pixelOffset + compressedSize
            : pixelOffset + (width * bitsPerPixel + 31) / 32 * 4 * height;  // rows padded to 4 bytes
    if (needed > size)
        return "truncated BMP (" + std::to_string(size) + " bytes, the header describes " +
               std::to_string(needed) + ")";
    return std::nullopt;
}

// --- GIF (GIF89a specification): only the first image is decoded, so it must be whole ---

Reason gifIncomplete(const unsigned char* data, std::size_t size) {
    const Reason truncated = "truncated GIF (the first image's data is cut short)";
    const auto colourTableBytes = [](unsigned char flags) -> std::size_t {
        return (flags & 0x80) ? 3u << ((flags & 0x07) + 1) : 0;
    };
    // Data sub-blocks: a length byte, that many bytes, ..., a zero length.
    const auto skipSubBlocks = [&](std::size_t& pos) {
        while (pos < size) {
            const std::size_t length = data[pos++];
            if (length == 0) return true;
            pos += length;
        }
        return false;
    };
    constexpr std::size_t kHeaderAndScreen = 13;
    if (size < kHeaderAndScreen) return truncated;
    std::size_t pos = kHeaderAndScreen + colourTableBytes(data[10]);
    while (pos < size) {
        const unsigned char introducer = data[pos++];
        if (introducer == 0x21) {  // extension: label, then sub-blocks
            ++pos;
            if (!skipSubBlocks(pos)) return truncated;
        } else if (introducer ==
                   0x2C) {  // image descriptor: 9 bytes, colour table, LZW code size, sub-blocks
            if (pos + 9 > size) return truncated;
            pos += 9 + colourTableBytes(data[pos + 8]) + 1;
            return skipSubBlocks(pos) ? std::nullopt : truncated;
        } else if (introducer == 0x3B) {
            return "GIF without an image";
        } else {
            return "corrupt GIF (unknown block type)";
        }
    }
    return truncated;
}

std::uint32_t bigEndian(const unsigned char* bytes) {
    return (std::uint32_t{bytes[0]} << 24) | (std::uint32_t{bytes[1]} << 16) |
           (std::uint32_t{bytes[2]} << 8) | bytes[3];
}

}  // namespace

std::optional<std::string> pngChunkProblem(const unsigned char* data, std::size_t size) {
    constexpr std::size_t kSignature = 8;
    constexpr std::size_t kLengthAndType = 8;
    constexpr std::size_t kCrc = 4;
    constexpr std::uint32_t kMaxChunkLength = 0x7FFFFFFF;  // PNG specification, section 5.3
    std::size_t pos = kSignature;
    while (pos + kLengthAndType <= size) {
        const std::uint32_t length = bigEndian(data + pos);
        std::string type(reinterpret_cast<const char*>(data + pos + 4), 4);
        for (char& c : type) {
            if (c < 0x20 || c > 0x7E) c = '?';
        }
        const std::size_t available = size - pos - kLengthAndType;
        if (length > kMaxChunkLength || length > available)
            return "corrupt or truncated PNG (chunk '" + type + "' declares " + std::to_string(length) +
                   " bytes, " +
                   (length > kMaxChunkLength ? "beyond the PNG maximum" : "beyond the file's end") + ")";
        if (type == "IEND") return std::nullopt;
        pos += kLengthAndType + length + kCrc;
    }
    // A file cut between chunks: libpng reports that itself without allocating.
    return std::nullopt;
}

std::optional<std::string> pngPaletteProblem(const unsigned char* data, std::size_t size) {
    constexpr std::size_t kSignature = 8;
    constexpr std::uint8_t kPaletteColour = 3;
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    int bitDepth = 0;
    bool paletted = false;
    bool interlaced = false;
    std::size_t paletteEntries = 0;
    QByteArray compressed;
    for (std::size_t pos = kSignature; pos + 8 <= size;) {
        const std::uint32_t length = bigEndian(data + pos);
        const std::string_view type(reinterpret_cast<const char*>(data + pos + 4), 4);
        if (length > size - pos - 8) return std::nullopt;  // pngChunkProblem's business
        const unsigned char* body = data + pos + 8;
        if (type == "IHDR" && length >= 13) {
            width = bigEndian(body);
            height = bigEndian(body + 4);
            bitDepth = body[8];
            paletted = body[9] == kPaletteColour;
            interlaced = body[12] == 1;
        } else if (type == "PLTE") {
            paletteEntries = length / 3;
        } else if (type == "IDAT") {
            compressed.append(reinterpret_cast<const char*>(body), static_cast<qsizetype>(length));
        } else if (type == "IEND") {
            break;
        }
        pos += 8 + std::size_t{length} + 4;
    }
    if (!paletted || bitDepth < 1 || bitDepth > 8 || paletteEntries >= (std::size_t{1} << bitDepth) ||
        width == 0 || height == 0)
        return std::nullopt;
    // Adam7 passes (origin and step in x and y), or the whole image as one pass.
    struct Pass {
        std::uint32_t x0, y0, dx, dy;
    };
    static constexpr Pass kAdam7[] = {{0, 0, 8, 8}, {4, 0, 8, 8}, {0, 4, 4, 8}, {2, 0, 4, 4},
                                      {0, 2, 2, 4}, {1, 0, 2, 2}, {0, 1, 1, 2}};
    static constexpr Pass kWhole[] = {{0, 0, 1, 1}};
    const auto passes = interlaced ? std::span<const Pass>(kAdam7) : std::span<const Pass>(kWhole);
    std::uint64_t expected = 0;
    for (const auto& pass : passes) {
        const std::uint64_t columns = width > pass.x0 ? (width - pass.x0 + pass.dx - 1) / pass.dx : 0;
        const std::uint64_t rows = height > pass.y0 ? (height - pass.y0 + pass.dy - 1) / pass.dy : 0;
        if (columns > 0) expected += rows * (1 + (columns * static_cast<std::uint64_t>(bitDepth) + 7) / 8);
    }
    if (expected > std::uint64_t{1} << 31)
        return std::nullopt;  // beyond qUncompress; the size limit judges it
    // qUncompress wants the inflated size first, big-endian.
    const auto bytes = static_cast<std::uint32_t>(expected);
    const char sizePrefix[4] = {static_cast<char>(bytes >> 24), static_cast<char>(bytes >> 16),
                                static_cast<char>(bytes >> 8), static_cast<char>(bytes)};
    const QByteArray raw = qUncompress(QByteArray(sizePrefix, 4) + compressed);
    if (static_cast<std::uint64_t>(raw.size()) < expected)
        return std::nullopt;  // broken data: the decoder says so

    const auto* in = reinterpret_cast<const unsigned char*>(raw.constData());
    std::vector<unsigned char> previous;
    std::vector<unsigned char> row;
    for (const auto& pass : passes) {
        const std::uint32_t columns = width > pass.x0 ? (width - pass.x0 + pass.dx - 1) / pass.dx : 0;
        const std::uint32_t rows = height > pass.y0 ? (height - pass.y0 + pass.dy - 1) / pass.dy : 0;
        if (columns == 0 || rows == 0) continue;
        const std::size_t rowBytes = (std::size_t{columns} * static_cast<std::size_t>(bitDepth) + 7) / 8;
        previous.assign(rowBytes, 0);
        row.resize(rowBytes);
        for (std::uint32_t y = 0; y < rows; ++y) {
            const unsigned char filter = *in++;
            // PNG filters (specification section 9), one byte per pixel unit for palette images.
            for (std::size_t i = 0; i < rowBytes; ++i) {
                const int left = i > 0 ? row[i - 1] : 0;
                const int up = previous[i];
                const int upLeft = i > 0 ? previous[i - 1] : 0;
                int predicted = 0;
                if (filter == 1) predicted = left;
                if (filter == 2) predicted = up;
                if (filter == 3) predicted = (left + up) / 2;
                if (filter == 4) {
                    const int estimate = left + up - upLeft;
                    const int toLeft = std::abs(estimate - left);
                    const int toUp = std::abs(estimate - up);
                    const int toUpLeft = std::abs(estimate - upLeft);
                    predicted = toLeft <= toUp && toLeft <= toUpLeft ? left : toUp <= toUpLeft ? up : upLeft;
                }
                if (filter > 4) return std::nullopt;  // the decoder reports a bad filter itself
                row[i] = static_cast<unsigned char>(in[i] + predicted);
            }
            in += rowBytes;
            for (std::uint32_t x = 0; x < columns; ++x) {
                const std::size_t bit = std::size_t{x} * static_cast<std::size_t>(bitDepth);
                const unsigned index = (row[bit / 8] >> (8 - bitDepth - bit % 8)) & ((1u << bitDepth) - 1);
                if (index >= paletteEntries)
                    return "corrupt PNG (a pixel uses palette index " + std::to_string(index) + " of a " +
                           std::to_string(paletteEntries) + "-colour palette)";
            }
            std::swap(previous, row);
            row.resize(rowBytes);
        }
    }
    return std::nullopt;
}

std::optional<CanvasSize> gifLogicalScreen(const unsigned char* data, std::size_t size) {
    constexpr std::size_t kHeader = 6;  // "GIF87a" / "GIF89a"
    if (size < kHeader + 4) return std::nullopt;
    return CanvasSize{littleEndian(data + kHeader, 2), littleEndian(data + kHeader + 2, 2)};
}

std::optional<CanvasSize> declaredSize(std::string_view format, const unsigned char* data, std::size_t size) {
    if (format == "png") {
        // The signature (8 bytes), then IHDR's length and type, then its width and height, big-endian.
        constexpr std::size_t kIhdrBody = 16;
        if (size < kIhdrBody + 8 || std::string_view(reinterpret_cast<const char*>(data) + 12, 4) != "IHDR")
            return std::nullopt;
        return CanvasSize{bigEndian(data + kIhdrBody), bigEndian(data + kIhdrBody + 4)};
    }
    if (format == "bmp") {
        // BITMAPCOREHEADER (12 bytes: 16-bit sizes) or a later one (32-bit, a negative height is top-down).
        constexpr std::size_t kInfo = 14;
        if (size < kInfo + 12) return std::nullopt;
        if (littleEndian(data + kInfo, 4) == 12)
            return CanvasSize{littleEndian(data + 18, 2), littleEndian(data + 20, 2)};
        if (size < kInfo + 16) return std::nullopt;
        const auto side = [&](std::size_t at) {
            return static_cast<std::uint32_t>(
                std::llabs(static_cast<std::int32_t>(littleEndian(data + at, 4))));
        };
        return CanvasSize{side(18), side(22)};
    }
    return std::nullopt;
}

std::optional<std::string> incompleteReason(std::string_view format, const unsigned char* data,
                                            std::size_t size) {
    if (format == "jpeg") return jpegIncomplete(data, size);
    if (format == "bmp") return bmpIncomplete(data, size);
    if (format == "gif") return gifIncomplete(data, size);
    return std::nullopt;
}

}  // namespace hs::io
