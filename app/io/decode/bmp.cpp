// BMP on our own reader. Debian has no maintained BMP library beside Qt's (which is what the command line
// must not need), and the format is simple enough to read exactly and bounded here: every offset is checked
// against the file before it is read, and the data an uncompressed image needs is checked before the image
// is allocated.
// Read: BITMAPCOREHEADER and BITMAPINFOHEADER through V5 (not OS/2 2.x); 1, 4 and 8 bits with a palette
// (uncompressed, RLE4, RLE8); 16 and 32 bits as 5-5-5 / 8-8-8 or with bit fields (scaled exactly to 8 bits);
// 24 bits; bottom-up and top-down. 32-bit BI_RGB's fourth byte is reserved by the format, so such pixels are
// opaque; alpha comes only from an alpha mask. RLE: pixels a delta escape or an early end of line or bitmap
// skips are left transparent black (the format leaves them undefined). Refused: JPEG and PNG inside BMP, a
// palette index beyond the palette, a run past the end of a row.
#include <algorithm>
#include <bit>
#include <cstring>
#include <string>

#include "io/decode/decoders.hpp"

namespace hs::io::decode {

namespace {

constexpr std::uint32_t kRgb = 0;
constexpr std::uint32_t kRle8 = 1;
constexpr std::uint32_t kRle4 = 2;
constexpr std::uint32_t kBitfields = 3;
constexpr std::uint32_t kAlphaBitfields = 6;

std::uint32_t little(const std::uint8_t* bytes, int count) {
    std::uint32_t value = 0;
    for (int i = count - 1; i >= 0; --i) value = (value << 8) | bytes[i];
    return value;
}

// One channel of a bit-field pixel: the bits under `mask`, scaled from 0..max to 0..255 with rounding.
struct Channel {
    std::uint32_t mask = 0;
    int shift = 0;
    std::uint64_t maximum = 0;

    explicit Channel(std::uint32_t m) : mask(m) {
        if (mask == 0) return;
        shift = std::countr_zero(mask);
        maximum = mask >> shift;
        if ((maximum & (maximum + 1)) != 0)
            refuse("corrupt BMP (a colour mask whose bits are not contiguous)");
    }
    std::uint8_t operator()(std::uint32_t pixel, std::uint8_t absent) const {
        if (mask == 0) return absent;
        const std::uint64_t value = (pixel & mask) >> shift;
        return static_cast<std::uint8_t>((value * 255 + maximum / 2) / maximum);
    }
};

struct Header {
    std::int64_t width = 0;
    std::int64_t height = 0;  // negative: top-down
    int bits = 0;
    std::uint32_t compression = kRgb;
    std::uint32_t masks[4] = {};  // r, g, b, a
    bool haveMasks = false;
    std::size_t paletteOffset = 0;
    std::size_t paletteEntrySize = 4;
    std::uint32_t paletteEntries = 0;
    std::size_t dataOffset = 0;
};

Header readHeader(const std::uint8_t* data, std::size_t size) {
    constexpr std::size_t kFileHeader = 14;
    if (size < kFileHeader + 16) refuse("truncated BMP (the header is cut short)");
    Header header;
    header.dataOffset = little(data + 10, 4);
    const std::uint32_t infoSize = little(data + kFileHeader, 4);
    const std::uint8_t* info = data + kFileHeader;
    if (infoSize == 12) {
        header.width = little(info + 4, 2);
        header.height = little(info + 6, 2);
        header.bits = static_cast<int>(little(info + 10, 2));
        header.paletteEntrySize = 3;
    } else if (infoSize == 40 || infoSize == 52 || infoSize == 56 || infoSize == 108 || infoSize == 124) {
        // Windows' headers only: OS/2 2.x's (16 to 64 bytes) give the compression values other meanings.
        if (size < kFileHeader + infoSize) refuse("truncated BMP (the header is cut short)");
        header.width = static_cast<std::int32_t>(little(info + 4, 4));
        header.height = static_cast<std::int32_t>(little(info + 8, 4));
        header.bits = static_cast<int>(little(info + 14, 2));
        header.compression = little(info + 16, 4);
        header.paletteEntries = little(info + 32, 4);
    } else {
        refuse("BMP with an information header of " + std::to_string(infoSize) + " bytes is not supported");
    }
    header.paletteOffset = kFileHeader + infoSize;
    if (header.compression == kBitfields || header.compression == kAlphaBitfields) {
        // Masks follow a 40-byte header (12 or 16 bytes) or sit inside a longer one at the same place.
        const std::size_t count = header.compression == kAlphaBitfields || infoSize >= 56 ? 4 : 3;
        if (size < kFileHeader + 40 + 4 * count) refuse("truncated BMP (the colour masks are cut short)");
        for (std::size_t i = 0; i < count; ++i) header.masks[i] = little(info + 40 + 4 * i, 4);
        header.haveMasks = true;
        if (infoSize == 40) header.paletteOffset += 4 * count;
    }
    if (header.compression == 4 || header.compression == 5)
        refuse("BMP holding JPEG or PNG data is not supported");
    return header;
}

class Reader {
  public:
    Reader(const std::uint8_t* data, std::size_t size, const Header& header, ImageRGBA8& image)
        : data_(data), size_(size), header_(header), image_(image) {}

    void readPalette() {
        if (header_.bits > 8) return;
        const std::uint32_t most = 1u << header_.bits;
        const std::uint32_t entries =
            header_.paletteEntries == 0 ? most : std::min(header_.paletteEntries, most);
        if (header_.paletteOffset + std::size_t{entries} * header_.paletteEntrySize > size_)
            refuse("truncated BMP (the palette is cut short)");
        for (std::uint32_t i = 0; i < entries; ++i) {
            const std::uint8_t* entry = data_ + header_.paletteOffset + i * header_.paletteEntrySize;
            palette_[4 * i] = entry[2];
            palette_[4 * i + 1] = entry[1];
            palette_[4 * i + 2] = entry[0];
            palette_[4 * i + 3] = 255;
        }
        entries_ = entries;
    }

    void putIndex(int x, int row, unsigned index) {
        if (index >= entries_)
            refuse("corrupt BMP (a pixel uses palette index " + std::to_string(index) + " of a " +
                   std::to_string(entries_) + "-colour palette)");
        std::memcpy(image_.pixel(x, row), &palette_[4 * index], 4);
    }

    // The row of the result that stored row `y` is.
    int rowOf(int y) const { return header_.height > 0 ? image_.height - 1 - y : y; }

    void readUncompressed() {
        const std::size_t stride = (static_cast<std::size_t>(image_.width) * header_.bits + 31) / 32 * 4;
        if (header_.dataOffset > size_ ||
            (size_ - header_.dataOffset) / stride < static_cast<std::size_t>(image_.height))
            refuse("truncated BMP (" + std::to_string(stride * static_cast<std::size_t>(image_.height)) +
                   " bytes of pixels needed after offset " + std::to_string(header_.dataOffset) +
                   ", the file has " + std::to_string(size_) + " bytes)");
        const bool fields = header_.haveMasks && (header_.bits == 16 || header_.bits == 32);
        const std::uint32_t defaults16[4] = {0x7C00, 0x03E0, 0x001F, 0};
        const std::uint32_t defaults32[4] = {0xFF0000, 0xFF00, 0xFF, 0};
        const std::uint32_t* masks = fields ? header_.masks : header_.bits == 16 ? defaults16 : defaults32;
        const Channel red(masks[0]), green(masks[1]), blue(masks[2]), alpha(masks[3]);
        for (int y = 0; y < image_.height; ++y) {
            const std::uint8_t* in = data_ + header_.dataOffset + stride * static_cast<std::size_t>(y);
            const int row = rowOf(y);
            for (int x = 0; x < image_.width; ++x) {
                std::uint8_t* out = image_.pixel(x, row);
                switch (header_.bits) {
                    case 1:
                    case 2:
                    case 4:
                    case 8: {
                        const std::size_t bit = static_cast<std::size_t>(x) * header_.bits;
                        putIndex(x, row,
                                 (in[bit / 8] >> (8 - header_.bits - bit % 8)) & ((1u << header_.bits) - 1));
                        break;
                    }
                    case 24:
                        out[0] = in[3 * x + 2], out[1] = in[3 * x + 1], out[2] = in[3 * x], out[3] = 255;
                        break;
                    default: {
                        const std::uint32_t pixel = little(in + x * (header_.bits / 8), header_.bits / 8);
                        out[0] = red(pixel, 0), out[1] = green(pixel, 0), out[2] = blue(pixel, 0);
                        out[3] = alpha(pixel, 255);
                    }
                }
            }
        }
    }

    void readRle() {
        const bool four = header_.compression == kRle4;
        std::size_t pos = header_.dataOffset;
        int x = 0;
        int y = 0;  // stored rows, from the bottom
        const auto need = [&](std::size_t bytes) {
            if (pos > size_ || size_ - pos < bytes) refuse("truncated BMP (the RLE data is cut short)");
        };
        const auto put = [&](unsigned index) {
            if (x >= image_.width || y >= image_.height)
                refuse("corrupt BMP (an RLE run past the end of a row)");
            putIndex(x++, rowOf(y), index);
        };
        while (true) {
            need(2);
            const unsigned count = data_[pos];
            const unsigned value = data_[pos + 1];
            pos += 2;
            if (count > 0) {  // a run of `count` pixels
                for (unsigned i = 0; i < count; ++i)
                    put(four ? (i % 2 == 0 ? value >> 4 : value & 15) : value);
            } else if (value == 0) {  // end of line
                x = 0, ++y;
            } else if (value == 1) {  // end of bitmap
                return;
            } else if (value == 2) {  // delta: the pixels passed over stay transparent black
                need(2);
                x += data_[pos], y += data_[pos + 1];
                pos += 2;
            } else {  // `value` literal pixels, padded to a 16-bit boundary
                const std::size_t bytes = four ? (value + 1) / 2 : value;
                need(bytes + bytes % 2);
                for (unsigned i = 0; i < value; ++i)
                    put(four ? (i % 2 == 0 ? data_[pos + i / 2] >> 4 : data_[pos + i / 2] & 15)
                             : data_[pos + i]);
                pos += bytes + bytes % 2;
            }
        }
    }

  private:
    const std::uint8_t* data_;
    std::size_t size_;
    const Header& header_;
    ImageRGBA8& image_;
    std::uint8_t palette_[4 * 256] = {};
    std::uint32_t entries_ = 0;
};

}  // namespace

ImageRGBA8 decodeBmp(const std::uint8_t* data, std::size_t size, std::uint64_t limit) {
    const Header header = readHeader(data, size);
    const bool rle = header.compression == kRle8 || header.compression == kRle4;
    const bool palette = header.bits == 1 || header.bits == 2 || header.bits == 4 || header.bits == 8;
    if (rle ? header.bits != (header.compression == kRle8 ? 8 : 4)
        : header.compression == kRgb
            ? !palette && header.bits != 16 && header.bits != 24 && header.bits != 32
            : (header.compression != kBitfields && header.compression != kAlphaBitfields) ||
                  (header.bits != 16 && header.bits != 32))
        refuse("BMP of " + std::to_string(header.bits) + " bits with compression " +
               std::to_string(header.compression) + " is not supported");
    if (rle && header.height < 0) refuse("corrupt BMP (a top-down RLE image)");
    const std::uint64_t height =
        static_cast<std::uint64_t>(header.height < 0 ? -header.height : header.height);
    if (header.width < 0) refuse("corrupt BMP (a negative width)");
    ImageRGBA8 image = allocate(static_cast<std::uint64_t>(header.width), height, limit);
    Reader reader(data, size, header, image);
    reader.readPalette();
    if (rle)
        reader.readRle();
    else
        reader.readUncompressed();
    return image;
}

}  // namespace hs::io::decode
