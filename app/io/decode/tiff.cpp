// TIFF through libtiff, first page only. TIFFReadRGBA* is not used: it premultiplies unassociated alpha (and
// a round trip through 8-bit premultiplied values loses up to 14 levels), so scanlines and tiles are read
// and converted here, contiguous and planar alike. Mapping to RGBA8:
// - MinIsBlack / MinIsWhite grey, RGB and palette (colour map entries round(v / 257)); 1, 2, 4, 8 and 16
// bits;
// - the first extra sample is alpha when ExtraSamples says associated (1) or unassociated (2); unassociated
//   is taken as it is; associated is un-premultiplied after the 16 -> 8 bit step: c = min(255, round(c * 255
//   / a)), and a = 0 gives transparent black; unspecified extra samples (0) are ignored;
// - JPEG-compressed YCbCr is converted to RGB by libtiff's JPEG codec;
// - refused with a line: signed and floating-point samples, CMYK and other photometric interpretations, a
//   palette image without a colour map (libtiff itself would read it as grey), other bit depths.
// libtiff's errors, and its warnings while pixels are read (a strip cut short), are refusals.
#include <tiffio.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "io/decode/decoders.hpp"

namespace hs::io::decode {

namespace {

struct Source {
    const std::uint8_t* data = nullptr;
    std::size_t size = 0;
    std::size_t position = 0;
    bool readingPixels = false;
    std::string error;
};

tmsize_t readProc(thandle_t handle, void* out, tmsize_t count) {
    auto* source = static_cast<Source*>(handle);
    if (count <= 0 || source->position >= source->size) return 0;
    const std::size_t n = std::min(static_cast<std::size_t>(count), source->size - source->position);
    std::memcpy(out, source->data + source->position, n);
    source->position += n;
    return static_cast<tmsize_t>(n);
}
tmsize_t writeProc(thandle_t, void*, tmsize_t) {
    return -1;
}
toff_t seekProc(thandle_t handle, toff_t offset, int whence) {
    auto* source = static_cast<Source*>(handle);
    const toff_t base = whence == SEEK_CUR ? source->position : whence == SEEK_END ? source->size : 0;
    source->position = static_cast<std::size_t>(std::min<toff_t>(base + offset, source->size));
    return source->position;
}
int closeProc(thandle_t) {
    return 0;
}
toff_t sizeProc(thandle_t handle) {
    return static_cast<Source*>(handle)->size;
}
int mapProc(thandle_t handle, void** base, toff_t* size) {
    auto* source = static_cast<Source*>(handle);
    *base = const_cast<std::uint8_t*>(source->data);
    *size = source->size;
    return 1;
}
void unmapProc(thandle_t, void*, toff_t) {}

void record(Source& source, const char* module, const char* format, va_list arguments) {
    if (!source.error.empty()) return;  // the first says most
    char message[512];
    std::vsnprintf(message, sizeof message, format, arguments);
    source.error = module != nullptr && *module != '\0' ? std::string(module) + ": " + message : message;
}

int onError(TIFF*, void* user, const char* module, const char* format, va_list arguments) {
    record(*static_cast<Source*>(user), module, format, arguments);
    return 1;
}

// While the directory is read, warnings are about tags (unknown or private ones, which many writers add);
// they change no pixel. While pixels are read, a warning means data libtiff made up.
int onWarning(TIFF*, void* user, const char* module, const char* format, va_list arguments) {
    auto* source = static_cast<Source*>(user);
    if (source->readingPixels) record(*source, module, format, arguments);
    return 1;
}

// What the first directory itself says about Photometric (262) and ColorMap (320): libtiff turns a palette
// image without a colour map into grey or RGB when it reads the directory, which would pass for a picture it
// is not.
struct RawDirectory {
    int photometric = -1;
    bool colourMap = false;
};

std::uint64_t readNumber(const std::uint8_t* bytes, int count, bool bigEndian) {
    std::uint64_t value = 0;
    for (int i = 0; i < count; ++i)
        value |= std::uint64_t{bytes[bigEndian ? i : count - 1 - i]} << (8 * (count - 1 - i));
    return value;
}

RawDirectory rawDirectory(const std::uint8_t* data, std::size_t size) {
    RawDirectory directory;
    if (size < 16) return directory;
    const bool bigEndian = data[0] == 'M';
    const bool big = readNumber(data + 2, 2, bigEndian) == 43;  // BigTIFF
    const std::uint64_t ifd = big ? readNumber(data + 8, 8, bigEndian) : readNumber(data + 4, 4, bigEndian);
    const std::size_t countBytes = big ? 8 : 2;
    const std::size_t entryBytes = big ? 20 : 12;
    if (ifd > size || size - ifd < countBytes) return directory;
    const std::uint64_t entries = readNumber(data + ifd, static_cast<int>(countBytes), bigEndian);
    for (std::uint64_t i = 0; i < entries; ++i) {
        const std::uint64_t at = ifd + countBytes + i * entryBytes;
        if (at + entryBytes > size) break;
        const std::uint64_t tag = readNumber(data + at, 2, bigEndian);
        if (tag == TIFFTAG_PHOTOMETRIC)
            directory.photometric = static_cast<int>(readNumber(data + at + (big ? 12 : 8), 2, bigEndian));
        if (tag == TIFFTAG_COLORMAP) directory.colourMap = true;
    }
    return directory;
}

struct Layout {
    int width = 0;
    int height = 0;
    int bits = 0;
    int samplesPerPixel = 0;
    int colourSamples = 0;
    int alphaSample = -1;  // the sample index of alpha, or -1
    bool associated = false;
    std::uint16_t photometric = 0;
    std::vector<std::uint8_t> palette;  // r, g, b per entry, 8-bit
};

unsigned sampleAt(const std::uint8_t* row, std::size_t index, int bits) {
    if (bits == 8) return row[index];
    if (bits == 16) {
        std::uint16_t value;  // libtiff has put it in host order
        std::memcpy(&value, row + 2 * index, 2);
        return value;
    }
    const std::size_t bit = index * static_cast<std::size_t>(bits);
    return (row[bit / 8] >> (8 - bits - bit % 8)) & ((1u << bits) - 1u);
}

// Samples [first, first + count) of `pixels` pixels from `row` into the result from (x, y) on.
void store(const Layout& layout, ImageRGBA8& image, const std::uint8_t* row, int x, int y, int pixels,
           int first, int count) {
    const unsigned maximum = (1u << layout.bits) - 1u;
    for (int i = 0; i < pixels; ++i) {
        std::uint8_t* pixel = image.pixel(x + i, y);
        for (int k = 0; k < count; ++k) {
            const int sample = first + k;
            const unsigned value = sampleAt(row, static_cast<std::size_t>(i) * count + k, layout.bits);
            if (sample == layout.alphaSample) {
                pixel[3] = scaleTo8(value, layout.bits);
            } else if (sample >= layout.colourSamples) {
                continue;
            } else if (layout.photometric == PHOTOMETRIC_PALETTE) {
                std::memcpy(pixel, &layout.palette[3 * value], 3);
            } else if (layout.colourSamples == 1) {
                const unsigned grey = layout.photometric == PHOTOMETRIC_MINISWHITE ? maximum - value : value;
                pixel[0] = pixel[1] = pixel[2] = scaleTo8(grey, layout.bits);
            } else {
                pixel[sample] = scaleTo8(value, layout.bits);
            }
        }
    }
}

void fail(const Source& source, const std::string& fallback) {
    refuse("corrupt or truncated TIFF (" + (source.error.empty() ? fallback : source.error) + ")");
}

Layout readLayout(TIFF* tiff, const Source& source, const std::uint8_t* data, std::size_t size,
                  std::uint64_t limit) {
    Layout layout;
    std::uint32_t width = 0;
    std::uint32_t height = 0;
    std::uint16_t bits = 1;
    std::uint16_t samples = 1;
    std::uint16_t format = SAMPLEFORMAT_UINT;
    if (!TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &width) || !TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &height))
        fail(source, "no image size");
    TIFFGetFieldDefaulted(tiff, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLEFORMAT, &format);
    if (!TIFFGetField(tiff, TIFFTAG_PHOTOMETRIC, &layout.photometric))
        refuse("TIFF without a photometric interpretation");
    checkSize(width, height, limit);
    if (format == SAMPLEFORMAT_INT)
        refuse("TIFF with signed integer samples is not supported (RGBA8 holds 0..255)");
    if (format == SAMPLEFORMAT_IEEEFP)
        refuse("TIFF with floating-point samples is not supported (RGBA8 holds 0..255)");
    if (format != SAMPLEFORMAT_UINT)
        refuse("TIFF sample format " + std::to_string(format) + " is not supported");
    if (bits != 1 && bits != 2 && bits != 4 && bits != 8 && bits != 16)
        refuse("TIFF with " + std::to_string(bits) + "-bit samples is not supported (1, 2, 4, 8, 16)");

    const RawDirectory raw = rawDirectory(data, size);
    if (raw.photometric == PHOTOMETRIC_PALETTE && !raw.colourMap) refuse("palette TIFF without a colour map");
    std::uint16_t compression = COMPRESSION_NONE;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_COMPRESSION, &compression);
    if (layout.photometric == PHOTOMETRIC_YCBCR && compression == COMPRESSION_JPEG) {
        TIFFSetField(tiff, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
        layout.photometric = PHOTOMETRIC_RGB;
    }
    switch (layout.photometric) {
        case PHOTOMETRIC_MINISWHITE:
        case PHOTOMETRIC_MINISBLACK:
            layout.colourSamples = 1;
            break;
        case PHOTOMETRIC_RGB:
            layout.colourSamples = 3;
            break;
        case PHOTOMETRIC_PALETTE:
            layout.colourSamples = 1;
            break;
        case PHOTOMETRIC_SEPARATED:
            refuse("CMYK TIFF is not supported");
        case PHOTOMETRIC_YCBCR:
            refuse("YCbCr TIFF is only supported JPEG-compressed");
        default:
            refuse("TIFF photometric interpretation " + std::to_string(layout.photometric) +
                   " is not supported");
    }
    if (samples < layout.colourSamples) refuse("TIFF with fewer samples per pixel than its colours need");
    // Each sample of each pixel is visited: a file of thousands of samples per pixel (which RGBA8 could not
    // show anyway) would be work out of all proportion to the image.
    if (samples > 8)
        refuse("TIFF with " + std::to_string(samples) + " samples per pixel is not supported (at most 8)");
    if (layout.photometric == PHOTOMETRIC_PALETTE) {
        if (bits > 8) refuse("palette TIFF deeper than 8 bits is not supported");
        std::uint16_t* red = nullptr;
        std::uint16_t* green = nullptr;
        std::uint16_t* blue = nullptr;
        if (!TIFFGetField(tiff, TIFFTAG_COLORMAP, &red, &green, &blue))
            refuse("palette TIFF without a colour map");
        const std::size_t entries = std::size_t{1} << bits;
        layout.palette.resize(3 * entries);
        for (std::size_t i = 0; i < entries; ++i) {
            layout.palette[3 * i] = from16(red[i]);
            layout.palette[3 * i + 1] = from16(green[i]);
            layout.palette[3 * i + 2] = from16(blue[i]);
        }
    }
    std::uint16_t extraCount = 0;
    std::uint16_t* extra = nullptr;
    if (samples > layout.colourSamples && TIFFGetField(tiff, TIFFTAG_EXTRASAMPLES, &extraCount, &extra) &&
        extraCount > 0 && (extra[0] == EXTRASAMPLE_ASSOCALPHA || extra[0] == EXTRASAMPLE_UNASSALPHA)) {
        layout.alphaSample = layout.colourSamples;
        layout.associated = extra[0] == EXTRASAMPLE_ASSOCALPHA;
    }
    layout.width = static_cast<int>(width);
    layout.height = static_cast<int>(height);
    layout.bits = bits;
    layout.samplesPerPixel = samples;
    return layout;
}

void readPixels(TIFF* tiff, const Source& source, const Layout& layout, ImageRGBA8& image) {
    std::uint16_t planar = PLANARCONFIG_CONTIG;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_PLANARCONFIG, &planar);
    const bool separate = planar == PLANARCONFIG_SEPARATE && layout.samplesPerPixel > 1;
    const int planes = separate ? layout.samplesPerPixel : 1;
    const int perPixel = separate ? 1 : layout.samplesPerPixel;
    const auto wanted = [&](int plane) {
        return !separate || plane < layout.colourSamples || plane == layout.alphaSample;
    };
    if (TIFFIsTiled(tiff)) {
        std::uint32_t tileWidth = 0;
        std::uint32_t tileHeight = 0;
        TIFFGetField(tiff, TIFFTAG_TILEWIDTH, &tileWidth);
        TIFFGetField(tiff, TIFFTAG_TILELENGTH, &tileHeight);
        const tmsize_t tileBytes = TIFFTileSize(tiff);
        const tmsize_t rowBytes = TIFFTileRowSize(tiff);
        if (tileWidth == 0 || tileHeight == 0 || tileBytes <= 0 || rowBytes <= 0)
            fail(source, "bad tile size");
        std::vector<std::uint8_t> tile(static_cast<std::size_t>(tileBytes));
        for (int plane = 0; plane < planes; ++plane) {
            if (!wanted(plane)) continue;
            for (std::uint32_t y0 = 0; y0 < static_cast<std::uint32_t>(layout.height); y0 += tileHeight) {
                for (std::uint32_t x0 = 0; x0 < static_cast<std::uint32_t>(layout.width); x0 += tileWidth) {
                    if (TIFFReadTile(tiff, tile.data(), x0, y0, 0, static_cast<std::uint16_t>(plane)) < 0 ||
                        !source.error.empty())
                        fail(source, "cannot read a tile");
                    const int pixels =
                        static_cast<int>(std::min<std::uint32_t>(tileWidth, layout.width - x0));
                    const int rows =
                        static_cast<int>(std::min<std::uint32_t>(tileHeight, layout.height - y0));
                    for (int r = 0; r < rows; ++r)
                        store(layout, image, tile.data() + r * rowBytes, static_cast<int>(x0),
                              static_cast<int>(y0) + r, pixels, separate ? plane : 0, perPixel);
                }
            }
        }
        return;
    }
    const tmsize_t rowBytes = TIFFScanlineSize(tiff);
    if (rowBytes <= 0) fail(source, "bad scanline size");
    std::vector<std::uint8_t> row(static_cast<std::size_t>(rowBytes));
    // Plane by plane, rows in order: what compressed strips need to be read without starting over.
    for (int plane = 0; plane < planes; ++plane) {
        if (!wanted(plane)) continue;
        for (int y = 0; y < layout.height; ++y) {
            if (TIFFReadScanline(tiff, row.data(), static_cast<std::uint32_t>(y),
                                 static_cast<std::uint16_t>(plane)) < 0 ||
                !source.error.empty())
                fail(source, "cannot read a row");
            store(layout, image, row.data(), 0, y, layout.width, separate ? plane : 0, perPixel);
        }
    }
}

void unpremultiply(ImageRGBA8& image) {
    for (std::size_t i = 0; i < image.pixelCount(); ++i) {
        std::uint8_t* pixel = image.pixels.data() + 4 * i;
        const unsigned alpha = pixel[3];
        for (int c = 0; c < 3; ++c)
            pixel[c] = alpha == 0
                           ? 0
                           : static_cast<std::uint8_t>(std::min(255u, (pixel[c] * 255u + alpha / 2) / alpha));
    }
}

}  // namespace

ImageRGBA8 decodeTiff(const std::uint8_t* data, std::size_t size, std::uint64_t limit) {
    Source source;
    source.data = data;
    source.size = size;
    const std::unique_ptr<TIFFOpenOptions, void (*)(TIFFOpenOptions*)> options(TIFFOpenOptionsAlloc(),
                                                                               TIFFOpenOptionsFree);
    if (!options) throw std::bad_alloc();
    TIFFOpenOptionsSetErrorHandlerExtR(options.get(), onError, &source);
    TIFFOpenOptionsSetWarningHandlerExtR(options.get(), onWarning, &source);
    // No single buffer libtiff needs for a first page within the limit (a strip, a tile, a tag's array) is
    // larger than the decoded image; a directory asking for more is a bomb.
    TIFFOpenOptionsSetMaxSingleMemAlloc(
        options.get(), static_cast<tmsize_t>(std::clamp<std::uint64_t>(limit, 16u << 20, 1ull << 40)));
    const std::unique_ptr<TIFF, void (*)(TIFF*)> tiff(
        TIFFClientOpenExt("image", "r", &source, readProc, writeProc, seekProc, closeProc, sizeProc, mapProc,
                          unmapProc, options.get()),
        TIFFClose);
    if (!tiff) fail(source, "cannot read the first directory");
    const Layout layout = readLayout(tiff.get(), source, data, size, limit);
    ImageRGBA8 image =
        allocate(static_cast<std::uint64_t>(layout.width), static_cast<std::uint64_t>(layout.height), limit);
    if (layout.alphaSample < 0) {
        for (std::size_t i = 0; i < image.pixelCount(); ++i) image.pixels[4 * i + 3] = 255;
    }
    source.readingPixels = true;
    readPixels(tiff.get(), source, layout, image);
    if (layout.associated) unpremultiply(image);
    std::uint16_t orientation = ORIENTATION_TOPLEFT;
    TIFFGetFieldDefaulted(tiff.get(), TIFFTAG_ORIENTATION, &orientation);
    return applyOrientation(std::move(image), orientation);
}

}  // namespace hs::io::decode
