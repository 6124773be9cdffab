#include "io/jpeg_structure.hpp"

namespace hs::io {

namespace {

constexpr unsigned char kMarkerPrefix = 0xFF;
constexpr unsigned char kStartOfImage = 0xD8;
constexpr unsigned char kEndOfImage = 0xD9;
constexpr unsigned char kStartOfScan = 0xDA;

// Markers without a length field (ITU T.81, B.1.1.3): TEM and the restart markers.
bool standalone(unsigned char marker) {
    return marker == 0x01 || (marker >= 0xD0 && marker <= 0xD7);
}

// Entropy-coded data escapes 0xFF as FF 00 and interleaves restart markers; anything else ends the scan.
std::size_t endOfScan(const unsigned char* data, std::size_t size, std::size_t pos) {
    while (pos + 1 < size) {
        if (data[pos] == kMarkerPrefix && data[pos + 1] != 0x00 && !standalone(data[pos + 1])) return pos;
        ++pos;
    }
    return size;
}

}  // namespace

std::optional<std::string> jpegIncompleteReason(const unsigned char* data, std::size_t size) {
    if (size < 2 || data[0] != kMarkerPrefix || data[1] != kStartOfImage) return "not a JPEG stream";
    std::size_t pos = 2;
    while (true) {
        // Like libjpeg, tolerate stray bytes and fill bytes before a marker.
        while (pos < size && data[pos] != kMarkerPrefix) ++pos;
        while (pos < size && data[pos] == kMarkerPrefix) ++pos;
        if (pos >= size) return "truncated JPEG (the end-of-image marker is missing)";
        const unsigned char marker = data[pos++];
        if (marker == kEndOfImage) return std::nullopt;
        if (standalone(marker)) continue;
        if (pos + 2 > size) return "truncated JPEG (cut inside a segment header)";
        const std::size_t length = (static_cast<std::size_t>(data[pos]) << 8) | data[pos + 1];
        if (length < 2) return "corrupt JPEG (segment length below 2)";
        if (pos + length > size) return "truncated JPEG (cut inside a segment)";
        pos += length;
        if (marker == kStartOfScan) pos = endOfScan(data, size, pos);
    }
}

}  // namespace hs::io
