#pragma once
// Image files written by the codec libraries' own encoders (libpng, libjpeg-turbo, libtiff, giflib, libwebp)
// from known sample arrays, so each decoder is checked against values computed from those arrays, not against
// another decoder. BMP, which has no library here, is written byte by byte from the specification.

#include <png.h>

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hs::test {

struct PngSpec {
    int width = 0;
    int height = 0;
    int colour = PNG_COLOR_TYPE_GRAY;
    int depth = 8;
    bool interlaced = false;
    std::vector<std::uint16_t> samples;  // row by row, channel by channel (one index per pixel for palette)
    std::vector<png_color> palette;
    std::vector<png_byte> paletteAlpha;
    std::optional<png_color_16> transparent;  // grey or RGB key (tRNS)
};
std::string writePng(const PngSpec& spec);

struct JpegSpec {
    int width = 0;
    int height = 0;
    int components = 3;  // 1 grey, 3 RGB, 4 CMYK
    std::vector<std::uint8_t> pixels;
    int quality = 100;
    bool progressive = false;
    bool arithmetic = false;
    bool storeRgb = false;  // RGB stored as RGB (libjpeg then writes an Adobe segment saying so), not YCbCr
    std::vector<std::array<int, 6>>
        scans;         // component count, first component, Ss, Se, Ah, Al; empty: default
    std::string app1;  // an APP1 segment's body, such as an EXIF block
};
std::string writeJpeg(const JpegSpec& spec);

struct TiffSpec {
    int width = 0;
    int height = 0;
    int bits = 8;
    int samplesPerPixel = 1;
    int photometric = 1;
    bool planar = false;
    bool tiled = false;  // 16 x 16 tiles
    int sampleFormat = 1;
    std::vector<std::uint16_t> extraSamples;
    std::vector<std::uint16_t> colourMap;  // r..., g..., b... (3 * 2^bits)
    int orientation = 1;
    bool jpegYcbcr = false;  // 8-bit RGB samples stored as JPEG-compressed YCbCr (4:4:4, quality 100)
    std::vector<std::uint16_t> samples;  // row by row, pixel by pixel, sample by sample
};
// Written to `path` (libtiff writes through a file), returned as bytes.
std::string writeTiff(const std::string& path, const TiffSpec& spec);

struct GifSpec {
    int screenWidth = 0;
    int screenHeight = 0;
    int left = 0;
    int top = 0;
    int width = 0;
    int height = 0;
    bool interlaced = false;
    int transparent = -1;
    std::vector<std::uint8_t> palette;  // r, g, b; a power of two of entries
    std::vector<std::uint8_t> indices;
};
std::string writeGif(const GifSpec& spec);

// Lossless WebP of RGBA pixels (alpha never 0 here: the lossless encoder may change colours under alpha 0).
std::string writeWebp(int width, int height, const std::vector<std::uint8_t>& rgba);
// A two-frame lossless animation on a `width` x `height` canvas: `first` covers the canvas, then a second.
std::string writeAnimatedWebp(int width, int height, const std::vector<std::uint8_t>& first,
                              const std::vector<std::uint8_t>& second);

// zlib's compression of `bytes` (a zlib stream).
std::string zlibCompress(const std::string& bytes);

}  // namespace hs::test
