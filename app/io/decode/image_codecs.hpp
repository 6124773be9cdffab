#pragma once
// Image files to pixels and pixels to image files on the codec libraries themselves (libpng, libjpeg-turbo,
// libtiff, libwebp, giflib; BMP on our own reader), without Qt: what histoscope-cli, histoscope-bench and the
// GUI all decode with, so each gives the same pixels for the same file.
//
// The contract of every decoder: the result is RGBA8 (image/image.hpp) with every pixel defined; 16-bit
// samples become round(v / 257) row by row as they arrive (no 16-bit copy of the image is ever held); 1-, 2-
// and 4-bit samples are scaled to 0..255 exactly; grey sets r = g = b; no alpha gives a = 255; what a format
// leaves undefined (a BMP RLE delta's skipped pixels, GIF screen pixels outside the first frame, a WebP
// canvas outside its first frame) is transparent black (0, 0, 0, 0). The image-size limit is checked from the
// header before anything is allocated for the pixels, and every decoder writes straight into the result. What
// the contract cannot hold is refused with one line: signed or floating-point samples, CMYK, animation beyond
// the first frame of GIF and WebP (which are decoded), more than one TIFF page (the first is decoded).

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/image/image.hpp"

namespace hs::io {

// 1 GiB, or $HISTOSCOPE_MAX_IMAGE_BYTES (bytes, or with a K/M/G suffix); throws hs::UsageError when that
// variable is not a positive byte count.
std::uint64_t defaultMaxImageBytes();

// Decodes the PNG, JPEG, BMP, GIF, TIFF or WebP file in `data` (the format judged from its bytes, never from
// a name). Throws hs::InputError "<name>: <reason>" for a file it refuses, never returns a partial image.
// JPEG and TIFF orientation (EXIF / the Orientation tag) is applied; `maxDecodedBytes` bounds width * height
// * 4 of the file as stored (before orientation, which does not change it).
ImageRGBA8 decodeImage(const std::uint8_t* data, std::size_t size, std::string_view name,
                       std::uint64_t maxDecodedBytes);

// decodeImage() on the file at `path` (mapped, not copied): "<path>: no such file", "not a regular file",
// "empty file" or the system's reason when the path cannot be read.
ImageRGBA8 readImageFile(const std::string& path, std::uint64_t maxDecodedBytes);

// The file formats written: png, jpg/jpeg (quality 95, alpha dropped), bmp (32-bit with alpha), tif/tiff
// (deflate, unassociated alpha), webp (lossless, exact: colours under alpha 0 kept). Suffixes lower-case.
const std::vector<std::string>& writableSuffixes();
// The suffixes readImageFile() reads ("png", "jpg", "jpeg", ...), lower-case.
const std::vector<std::string>& readableSuffixesList();

// `width` x `height` RGBA8 pixels encoded as the format that `suffix` (lower-case, no dot) names; empty when
// it names none. Throws hs::InputError "<name>: cannot encode: <reason>" when the library fails.
std::string encodeImage(std::string_view suffix, const std::uint8_t* pixels, int width, int height,
                        std::string_view name);

}  // namespace hs::io
