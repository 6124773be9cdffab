#pragma once
// What the decoders of this folder share. Each decoder throws Refusal with the reason alone; decodeImage()
// puts the file's name in front and turns it into hs::InputError.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "engine/image/image.hpp"

namespace hs::io::decode {

struct Refusal : std::runtime_error {
    using std::runtime_error::runtime_error;
};

[[noreturn]] inline void refuse(const std::string& reason) {
    throw Refusal(reason);
}

// Throws Refusal for a zero side, a side beyond int, or width * height * 4 over `limit`, in the words the
// image-size limit has always used.
void checkSize(std::uint64_t width, std::uint64_t height, std::uint64_t limit);
// checkSize(), then a transparent black image of that size.
ImageRGBA8 allocate(std::uint64_t width, std::uint64_t height, std::uint64_t limit);

// round(v / 257): the 16-bit sample nearest in 8 bits (v / 257 is never halfway, 257 being odd).
inline std::uint8_t from16(unsigned v) {
    return static_cast<std::uint8_t>((v + 128u) / 257u);
}
// A `bits`-deep sample (1, 2, 4, 8 or 16) scaled to 0..255: exact for 1, 2, 4 and 8 bits (255 is a multiple
// of 1, 3 and 15), round(v / 257) for 16.
inline std::uint8_t scaleTo8(unsigned v, int bits) {
    if (bits == 16) return from16(v);
    return static_cast<std::uint8_t>(v * (255u / ((1u << bits) - 1u)));
}

// The image as EXIF and TIFF orientation `orientation` (1..8) says to show it; other values leave it as it
// is.
ImageRGBA8 applyOrientation(ImageRGBA8 image, int orientation);

ImageRGBA8 decodePng(const std::uint8_t* data, std::size_t size, std::uint64_t limit);
ImageRGBA8 decodeJpeg(const std::uint8_t* data, std::size_t size, std::uint64_t limit);
ImageRGBA8 decodeTiff(const std::uint8_t* data, std::size_t size, std::uint64_t limit);
ImageRGBA8 decodeWebp(const std::uint8_t* data, std::size_t size, std::uint64_t limit);
ImageRGBA8 decodeGif(const std::uint8_t* data, std::size_t size, std::uint64_t limit);
ImageRGBA8 decodeBmp(const std::uint8_t* data, std::size_t size, std::uint64_t limit);

}  // namespace hs::io::decode
