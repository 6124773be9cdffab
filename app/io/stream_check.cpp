#include "io/stream_check.hpp"

#include <cstdint>
#include <cstdlib>

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

}  // namespace

std::optional<std::string> incompleteReason(std::string_view format, const unsigned char* data,
                                            std::size_t size) {
    if (format == "jpeg") return jpegIncomplete(data, size);
    if (format == "bmp") return bmpIncomplete(data, size);
    if (format == "gif") return gifIncomplete(data, size);
    return std::nullopt;
}

}  // namespace hs::io
