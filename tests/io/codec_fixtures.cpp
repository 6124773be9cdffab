#include "codec_fixtures.hpp"

#include <gtest/gtest.h>
#include <tiffio.h>
#include <zlib.h>

#include <csetjmp>
#include <cstdio>
// clang-format off
#include <jpeglib.h>
// clang-format on
#include <gif_lib.h>
#include <webp/encode.h>
#include <webp/mux.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>

namespace hs::test {

namespace {

void appendPng(png_structp png, png_bytep data, png_size_t size) {
    static_cast<std::string*>(png_get_io_ptr(png))->append(reinterpret_cast<const char*>(data), size);
}
void flushPng(png_structp) {}

int channelsOf(int colour) {
    switch (colour) {
        case PNG_COLOR_TYPE_GRAY_ALPHA:
            return 2;
        case PNG_COLOR_TYPE_RGB:
            return 3;
        case PNG_COLOR_TYPE_RGB_ALPHA:
            return 4;
        default:
            return 1;
    }
}

// Samples packed as a file stores them: 1, 2 and 4 bits from the high bits of each byte, 16 bits big-endian.
std::vector<png_byte> packPngRow(const PngSpec& spec, int y) {
    const int count = spec.width * channelsOf(spec.colour);
    std::vector<png_byte> row((static_cast<std::size_t>(count) * spec.depth + 7) / 8, 0);
    for (int i = 0; i < count; ++i) {
        const unsigned v = spec.samples[static_cast<std::size_t>(y) * count + i];
        if (spec.depth == 16) {
            row[2 * i] = static_cast<png_byte>(v >> 8);
            row[2 * i + 1] = static_cast<png_byte>(v);
        } else {
            const int bit = i * spec.depth;
            row[bit / 8] |= static_cast<png_byte>(v << (8 - spec.depth - bit % 8));
        }
    }
    return row;
}

bool pngBody(png_structp png, png_infop info, const PngSpec& spec, std::vector<png_bytep>& rows) {
    if (setjmp(png_jmpbuf(png))) return false;
    png_set_IHDR(png, info, spec.width, spec.height, spec.depth, spec.colour,
                 spec.interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (!spec.palette.empty())
        png_set_PLTE(png, info, spec.palette.data(), static_cast<int>(spec.palette.size()));
    if (!spec.paletteAlpha.empty())
        png_set_tRNS(png, info, spec.paletteAlpha.data(), static_cast<int>(spec.paletteAlpha.size()),
                     nullptr);
    if (spec.transparent) {
        png_color_16 key = *spec.transparent;
        png_set_tRNS(png, info, nullptr, 0, &key);
    }
    png_write_info(png, info);
    png_write_image(png, rows.data());
    png_write_end(png, nullptr);
    return true;
}

}  // namespace

std::string writePng(const PngSpec& spec) {
    std::string out;
    std::vector<std::vector<png_byte>> packed;
    std::vector<png_bytep> rows;
    for (int y = 0; y < spec.height; ++y) packed.push_back(packPngRow(spec, y));
    for (auto& row : packed) rows.push_back(row.data());
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    png_set_write_fn(png, &out, appendPng, flushPng);
    const bool written = pngBody(png, info, spec, rows);
    png_destroy_write_struct(&png, &info);
    EXPECT_TRUE(written) << "libpng refused the fixture";
    return out;
}

namespace {

struct JpegWriter {
    jpeg_compress_struct compress;
    jpeg_error_mgr errors;
    std::jmp_buf jump;
    unsigned char* buffer = nullptr;
    unsigned long size = 0;
    std::vector<jpeg_scan_info> scans;
};

void jpegFail(j_common_ptr common) {
    std::longjmp(reinterpret_cast<JpegWriter*>(common)->jump, 1);
}

bool jpegBody(JpegWriter& writer, const JpegSpec& spec) {
    if (setjmp(writer.jump)) return false;
    jpeg_create_compress(&writer.compress);
    jpeg_mem_dest(&writer.compress, &writer.buffer, &writer.size);
    writer.compress.image_width = static_cast<JDIMENSION>(spec.width);
    writer.compress.image_height = static_cast<JDIMENSION>(spec.height);
    writer.compress.input_components = spec.components;
    writer.compress.in_color_space = spec.components == 1   ? JCS_GRAYSCALE
                                     : spec.components == 4 ? JCS_CMYK
                                                            : JCS_RGB;
    jpeg_set_defaults(&writer.compress);
    if (spec.storeRgb) jpeg_set_colorspace(&writer.compress, JCS_RGB);
    jpeg_set_quality(&writer.compress, spec.quality, TRUE);
    for (int c = 0; c < writer.compress.num_components; ++c) {
        writer.compress.comp_info[c].h_samp_factor = 1;  // 4:4:4, so flat blocks stay flat
        writer.compress.comp_info[c].v_samp_factor = 1;
    }
    writer.compress.arith_code = spec.arithmetic ? TRUE : FALSE;
    if (spec.progressive) jpeg_simple_progression(&writer.compress);
    if (!spec.scans.empty()) {
        for (const auto& scan : spec.scans) {
            jpeg_scan_info info{};
            info.comps_in_scan = scan[0];
            for (int c = 0; c < scan[0]; ++c) info.component_index[c] = scan[1] + c;
            info.Ss = scan[2];
            info.Se = scan[3];
            info.Ah = scan[4];
            info.Al = scan[5];
            writer.scans.push_back(info);
        }
        writer.compress.scan_info = writer.scans.data();
        writer.compress.num_scans = static_cast<int>(writer.scans.size());
    }
    jpeg_start_compress(&writer.compress, TRUE);
    if (!spec.app1.empty())
        jpeg_write_marker(&writer.compress, JPEG_APP0 + 1, reinterpret_cast<const JOCTET*>(spec.app1.data()),
                          static_cast<unsigned>(spec.app1.size()));
    while (writer.compress.next_scanline < writer.compress.image_height) {
        JSAMPROW row = const_cast<std::uint8_t*>(spec.pixels.data()) +
                       std::size_t{writer.compress.next_scanline} * spec.width * spec.components;
        jpeg_write_scanlines(&writer.compress, &row, 1);
    }
    jpeg_finish_compress(&writer.compress);
    return true;
}

}  // namespace

std::string writeJpeg(const JpegSpec& spec) {
    const auto writer = std::make_unique<JpegWriter>();
    writer->compress.err = jpeg_std_error(&writer->errors);
    writer->errors.error_exit = jpegFail;
    const bool written = jpegBody(*writer, spec);
    std::string out = written ? std::string(reinterpret_cast<const char*>(writer->buffer), writer->size) : "";
    jpeg_destroy_compress(&writer->compress);
    std::free(writer->buffer);
    EXPECT_TRUE(written) << "libjpeg refused the fixture";
    return out;
}

namespace {

// `count` samples of `bits` each from `source`, packed as TIFF stores them (MSB first; 16 bits in host order,
// which libtiff writes as the file's order).
std::vector<std::uint8_t> packTiff(const std::uint16_t* source, std::size_t stride, int count, int bits) {
    std::vector<std::uint8_t> out((static_cast<std::size_t>(count) * bits + 7) / 8, 0);
    for (int i = 0; i < count; ++i) {
        const unsigned v = source[i * stride];
        if (bits == 16) {
            const auto value = static_cast<std::uint16_t>(v);
            std::memcpy(out.data() + 2 * i, &value, 2);
        } else if (bits == 8) {
            out[i] = static_cast<std::uint8_t>(v);
        } else {
            const int bit = i * bits;
            out[bit / 8] |= static_cast<std::uint8_t>(v << (8 - bits - bit % 8));
        }
    }
    return out;
}

}  // namespace

std::string writeTiff(const std::string& path, const TiffSpec& spec) {
    TIFF* tiff = TIFFOpen(path.c_str(), "w");
    EXPECT_NE(tiff, nullptr);
    if (tiff == nullptr) return {};
    TIFFSetField(tiff, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(spec.width));
    TIFFSetField(tiff, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(spec.height));
    TIFFSetField(tiff, TIFFTAG_BITSPERSAMPLE, spec.bits);
    TIFFSetField(tiff, TIFFTAG_SAMPLESPERPIXEL, spec.samplesPerPixel);
    TIFFSetField(tiff, TIFFTAG_PHOTOMETRIC, spec.photometric);
    TIFFSetField(tiff, TIFFTAG_SAMPLEFORMAT, spec.sampleFormat);
    TIFFSetField(tiff, TIFFTAG_PLANARCONFIG, spec.planar ? PLANARCONFIG_SEPARATE : PLANARCONFIG_CONTIG);
    if (spec.jpegYcbcr) {
        TIFFSetField(tiff, TIFFTAG_COMPRESSION, COMPRESSION_JPEG);
        TIFFSetField(tiff, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_YCBCR);
        TIFFSetField(tiff, TIFFTAG_YCBCRSUBSAMPLING, 1, 1);
        TIFFSetField(tiff, TIFFTAG_JPEGQUALITY, 100);
        TIFFSetField(tiff, TIFFTAG_JPEGCOLORMODE, JPEGCOLORMODE_RGB);
    } else {
        TIFFSetField(tiff, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE);
    }
    TIFFSetField(tiff, TIFFTAG_ORIENTATION, spec.orientation);
    if (!spec.extraSamples.empty())
        TIFFSetField(tiff, TIFFTAG_EXTRASAMPLES, static_cast<std::uint16_t>(spec.extraSamples.size()),
                     spec.extraSamples.data());
    if (!spec.colourMap.empty()) {
        const std::size_t entries = spec.colourMap.size() / 3;
        TIFFSetField(tiff, TIFFTAG_COLORMAP, spec.colourMap.data(), spec.colourMap.data() + entries,
                     spec.colourMap.data() + 2 * entries);
    }
    const int spp = spec.samplesPerPixel;
    const int planes = spec.planar ? spp : 1;
    const int perPixel = spec.planar ? 1 : spp;
    bool ok = true;
    if (spec.tiled) {
        constexpr int kTile = 16;
        TIFFSetField(tiff, TIFFTAG_TILEWIDTH, kTile);
        TIFFSetField(tiff, TIFFTAG_TILELENGTH, kTile);
        const std::size_t rowBytes = (static_cast<std::size_t>(kTile) * perPixel * spec.bits + 7) / 8;
        for (int plane = 0; plane < planes; ++plane) {
            for (int y0 = 0; y0 < spec.height; y0 += kTile) {
                for (int x0 = 0; x0 < spec.width; x0 += kTile) {
                    std::vector<std::uint8_t> tile(rowBytes * kTile, 0);
                    for (int r = 0; r < kTile && y0 + r < spec.height; ++r) {
                        const int pixels = std::min(kTile, spec.width - x0);
                        const std::uint16_t* first =
                            &spec.samples[(static_cast<std::size_t>(y0 + r) * spec.width + x0) * spp + plane];
                        const auto packed = spec.planar ? packTiff(first, spp, pixels, spec.bits)
                                                        : packTiff(first, 1, pixels * spp, spec.bits);
                        std::copy(packed.begin(), packed.end(),
                                  tile.begin() + static_cast<long>(r * rowBytes));
                    }
                    ok = ok && TIFFWriteTile(tiff, tile.data(), static_cast<std::uint32_t>(x0),
                                             static_cast<std::uint32_t>(y0), 0,
                                             static_cast<std::uint16_t>(plane)) >= 0;
                }
            }
        }
    } else {
        // Several strips, the last one short (JPEG: whole MCU rows).
        TIFFSetField(tiff, TIFFTAG_ROWSPERSTRIP, spec.jpegYcbcr ? 16 : 3);
        for (int plane = 0; plane < planes; ++plane) {
            for (int y = 0; y < spec.height; ++y) {
                const std::uint16_t* first =
                    &spec.samples[static_cast<std::size_t>(y) * spec.width * spp + plane];
                auto packed = spec.planar ? packTiff(first, spp, spec.width, spec.bits)
                                          : packTiff(first, 1, spec.width * spp, spec.bits);
                ok = ok && TIFFWriteScanline(tiff, packed.data(), static_cast<std::uint32_t>(y),
                                             static_cast<std::uint16_t>(plane)) >= 0;
            }
        }
    }
    TIFFClose(tiff);
    EXPECT_TRUE(ok) << "libtiff refused the fixture";
    std::ifstream file(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(file), {});
}

namespace {

int appendGif(GifFileType* gif, const GifByteType* data, int size) {
    static_cast<std::string*>(gif->UserData)
        ->append(reinterpret_cast<const char*>(data), static_cast<std::size_t>(size));
    return size;
}

}  // namespace

std::string writeGif(const GifSpec& spec) {
    std::string out;
    int error = 0;
    GifFileType* gif = EGifOpen(&out, appendGif, &error);
    EXPECT_NE(gif, nullptr);
    const int entries = static_cast<int>(spec.palette.size() / 3);
    ColorMapObject* map =
        GifMakeMapObject(entries, reinterpret_cast<const GifColorType*>(spec.palette.data()));
    EGifSetGifVersion(gif, true);
    bool ok = EGifPutScreenDesc(gif, spec.screenWidth, spec.screenHeight, 8, 0, map) == GIF_OK;
    if (spec.transparent >= 0) {
        GraphicsControlBlock control{};
        control.TransparentColor = spec.transparent;
        GifByteType extension[4];
        const std::size_t length = EGifGCBToExtension(&control, extension);
        ok = ok &&
             EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(length), extension) == GIF_OK;
    }
    ok = ok && EGifPutImageDesc(gif, spec.left, spec.top, spec.width, spec.height, spec.interlaced,
                                nullptr) == GIF_OK;
    static constexpr int kStart[] = {0, 4, 2, 1};
    static constexpr int kStep[] = {8, 8, 4, 2};
    for (int pass = 0; pass < (spec.interlaced ? 4 : 1); ++pass) {
        for (int y = spec.interlaced ? kStart[pass] : 0; y < spec.height;
             y += spec.interlaced ? kStep[pass] : 1) {
            std::vector<GifPixelType> line(spec.indices.begin() + static_cast<long>(y) * spec.width,
                                           spec.indices.begin() + static_cast<long>(y + 1) * spec.width);
            ok = ok && EGifPutLine(gif, line.data(), spec.width) == GIF_OK;
        }
    }
    ok = EGifCloseFile(gif, &error) == GIF_OK && ok;
    GifFreeMapObject(map);
    EXPECT_TRUE(ok) << "giflib refused the fixture";
    return out;
}

std::string writeWebp(int width, int height, const std::vector<std::uint8_t>& rgba) {
    std::uint8_t* encoded = nullptr;
    const std::size_t size = WebPEncodeLosslessRGBA(rgba.data(), width, height, width * 4, &encoded);
    EXPECT_GT(size, 0u);
    std::string out(reinterpret_cast<const char*>(encoded), size);
    WebPFree(encoded);
    return out;
}

std::string writeAnimatedWebp(int width, int height, const std::vector<std::uint8_t>& first,
                              const std::vector<std::uint8_t>& second) {
    WebPAnimEncoderOptions options;
    WebPAnimEncoderOptionsInit(&options);
    WebPAnimEncoder* encoder = WebPAnimEncoderNew(width, height, &options);
    WebPConfig config;
    WebPConfigInit(&config);
    config.lossless = 1;
    config.exact = 1;
    bool ok = encoder != nullptr;
    int timestamp = 0;
    for (const auto* pixels : {&first, &second}) {
        WebPPicture picture;
        WebPPictureInit(&picture);
        picture.use_argb = 1;
        picture.width = width;
        picture.height = height;
        ok = ok && WebPPictureImportRGBA(&picture, pixels->data(), width * 4) &&
             WebPAnimEncoderAdd(encoder, &picture, timestamp, &config);
        WebPPictureFree(&picture);
        timestamp += 100;
    }
    WebPData data;
    WebPDataInit(&data);
    ok = ok && WebPAnimEncoderAdd(encoder, nullptr, timestamp, nullptr) &&
         WebPAnimEncoderAssemble(encoder, &data);
    std::string out(reinterpret_cast<const char*>(data.bytes), data.size);
    WebPDataClear(&data);
    WebPAnimEncoderDelete(encoder);
    EXPECT_TRUE(ok) << "libwebp refused the fixture";
    return out;
}

std::string zlibCompress(const std::string& bytes) {
    uLongf size = compressBound(static_cast<uLong>(bytes.size()));
    std::string out(size, '\0');
    EXPECT_EQ(compress2(reinterpret_cast<Bytef*>(out.data()), &size,
                        reinterpret_cast<const Bytef*>(bytes.data()), static_cast<uLong>(bytes.size()), 9),
              Z_OK);
    out.resize(size);
    return out;
}

}  // namespace hs::test
