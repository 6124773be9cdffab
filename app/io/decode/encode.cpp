// Pixels to image files on the same libraries the decoders use. libpng and libjpeg report errors by
// longjmp, so their calls live in functions whose frames hold no object with a destructor.
#include <cstdio>  // jpeglib.h needs FILE and size_t first
// clang-format off
#include <jpeglib.h>
// clang-format on
#include <png.h>
#include <tiffio.h>
#include <webp/encode.h>

#include <algorithm>
#include <csetjmp>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

#include "engine/runtime/error.hpp"
#include "io/decode/image_codecs.hpp"

namespace hs::io {

namespace {

struct Failure {
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX + 64] = {};
};

// --- PNG: 8-bit RGBA, libpng's default filters and compression ---

struct PngSink {
    Failure failure;
    std::string bytes;
};

void pngError(png_structp png, png_const_charp message) {
    auto* sink = static_cast<PngSink*>(png_get_error_ptr(png));
    std::snprintf(sink->failure.message, sizeof sink->failure.message, "%s", message);
    std::longjmp(sink->failure.jump, 1);
}
void pngWarning(png_structp, png_const_charp) {}
void pngWrite(png_structp png, png_bytep data, png_size_t size) {
    static_cast<PngSink*>(png_get_io_ptr(png))->bytes.append(reinterpret_cast<const char*>(data), size);
}
void pngFlush(png_structp) {}

bool writePng(png_structp png, png_infop info, PngSink& sink, const std::uint8_t* pixels, int width,
              int height) {
    if (setjmp(sink.failure.jump)) return false;
    png_set_write_fn(png, &sink, pngWrite, pngFlush);
    png_set_IHDR(png, info, static_cast<png_uint_32>(width), static_cast<png_uint_32>(height), 8,
                 PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < height; ++y) png_write_row(png, pixels + static_cast<std::size_t>(y) * width * 4);
    png_write_end(png, nullptr);
    return true;
}

std::string encodePng(const std::uint8_t* pixels, int width, int height, const std::string& failurePrefix) {
    const auto sink = std::make_unique<PngSink>();
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, sink.get(), pngError, pngWarning);
    png_infop info = png ? png_create_info_struct(png) : nullptr;
    const bool written = info != nullptr && writePng(png, info, *sink, pixels, width, height);
    png_destroy_write_struct(&png, info ? &info : nullptr);
    if (!written) throw InputError(failurePrefix + (info ? sink->failure.message : "out of memory"));
    return std::move(sink->bytes);
}

// --- JPEG: quality 95, 4:2:0 as libjpeg's defaults have it; alpha is dropped ---

struct JpegSink {
    jpeg_compress_struct compress;  // first: the error handler finds the sink through it
    jpeg_error_mgr errors;
    Failure failure;
    unsigned char* buffer = nullptr;
    unsigned long size = 0;
};

void jpegError(j_common_ptr common) {
    auto* sink = reinterpret_cast<JpegSink*>(common);
    (*common->err->format_message)(common, sink->failure.message);
    std::longjmp(sink->failure.jump, 1);
}

bool writeJpeg(JpegSink& sink, const std::uint8_t* pixels, int width, int height) {
    if (setjmp(sink.failure.jump)) return false;
    jpeg_create_compress(&sink.compress);
    jpeg_mem_dest(&sink.compress, &sink.buffer, &sink.size);
    sink.compress.image_width = static_cast<JDIMENSION>(width);
    sink.compress.image_height = static_cast<JDIMENSION>(height);
    sink.compress.input_components = 4;
    sink.compress.in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(&sink.compress);
    jpeg_set_quality(&sink.compress, 95, TRUE);
    jpeg_start_compress(&sink.compress, TRUE);
    while (sink.compress.next_scanline < sink.compress.image_height) {
        JSAMPROW row =
            const_cast<std::uint8_t*>(pixels) + std::size_t{sink.compress.next_scanline} * width * 4;
        jpeg_write_scanlines(&sink.compress, &row, 1);
    }
    jpeg_finish_compress(&sink.compress);
    return true;
}

std::string encodeJpeg(const std::uint8_t* pixels, int width, int height, const std::string& failurePrefix) {
    const auto sink = std::make_unique<JpegSink>();
    sink->compress.err = jpeg_std_error(&sink->errors);
    sink->errors.error_exit = jpegError;
    const bool written = writeJpeg(*sink, pixels, width, height);
    std::string bytes =
        written ? std::string(reinterpret_cast<const char*>(sink->buffer), sink->size) : std::string();
    jpeg_destroy_compress(&sink->compress);
    std::free(sink->buffer);
    if (!written) throw InputError(failurePrefix + sink->failure.message);
    return bytes;
}

// --- BMP: BITMAPV4HEADER, 32 bits with bit fields (alpha kept), bottom-up ---

void putLittle(std::string& out, std::uint32_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) out += static_cast<char>((value >> (8 * i)) & 0xFF);
}

std::string encodeBmp(const std::uint8_t* pixels, int width, int height, const std::string& failurePrefix) {
    constexpr std::uint32_t kHeaders = 14 + 108;
    const std::uint64_t dataBytes =
        std::uint64_t{4} * static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height);
    if (dataBytes > 0xFFFFFFFFull - kHeaders) throw InputError(failurePrefix + "too large for BMP (4 GiB)");
    std::string out;
    out.reserve(kHeaders + dataBytes);
    out += "BM";
    putLittle(out, static_cast<std::uint32_t>(kHeaders + dataBytes), 4);
    putLittle(out, 0, 4);
    putLittle(out, kHeaders, 4);
    putLittle(out, 108, 4);
    putLittle(out, static_cast<std::uint32_t>(width), 4);
    putLittle(out, static_cast<std::uint32_t>(height), 4);
    putLittle(out, 1, 2);   // planes
    putLittle(out, 32, 2);  // bits
    putLittle(out, 3, 4);   // BI_BITFIELDS
    putLittle(out, static_cast<std::uint32_t>(dataBytes), 4);
    putLittle(out, 2835, 4);  // 72 dpi
    putLittle(out, 2835, 4);
    putLittle(out, 0, 4);
    putLittle(out, 0, 4);
    putLittle(out, 0x00FF0000, 4);  // red, green, blue, alpha masks
    putLittle(out, 0x0000FF00, 4);
    putLittle(out, 0x000000FF, 4);
    putLittle(out, 0xFF000000, 4);
    putLittle(out, 0x73524742, 4);  // LCS_sRGB
    out.append(48, '\0');           // end points and gamma, unused with sRGB
    for (int y = height - 1; y >= 0; --y) {
        const std::uint8_t* row = pixels + static_cast<std::size_t>(y) * width * 4;
        for (int x = 0; x < width; ++x) {
            const std::uint8_t* p = row + 4 * x;
            out += static_cast<char>(p[2]);
            out += static_cast<char>(p[1]);
            out += static_cast<char>(p[0]);
            out += static_cast<char>(p[3]);
        }
    }
    return out;
}

// --- TIFF: 8-bit RGBA, unassociated alpha, deflate with the horizontal predictor ---

struct TiffSink {
    std::string bytes;
    std::size_t position = 0;
    std::string error;
};

tmsize_t tiffRead(thandle_t handle, void* out, tmsize_t count) {
    auto* sink = static_cast<TiffSink*>(handle);
    if (count <= 0 || sink->position >= sink->bytes.size()) return 0;
    const std::size_t n = std::min(static_cast<std::size_t>(count), sink->bytes.size() - sink->position);
    std::memcpy(out, sink->bytes.data() + sink->position, n);
    sink->position += n;
    return static_cast<tmsize_t>(n);
}
tmsize_t tiffWrite(thandle_t handle, void* data, tmsize_t count) {
    auto* sink = static_cast<TiffSink*>(handle);
    const auto n = static_cast<std::size_t>(count);
    if (sink->bytes.size() < sink->position + n) sink->bytes.resize(sink->position + n);
    std::memcpy(sink->bytes.data() + sink->position, data, n);
    sink->position += n;
    return count;
}
toff_t tiffSeek(thandle_t handle, toff_t offset, int whence) {
    auto* sink = static_cast<TiffSink*>(handle);
    const toff_t base = whence == SEEK_CUR ? sink->position : whence == SEEK_END ? sink->bytes.size() : 0;
    sink->position = static_cast<std::size_t>(base + offset);
    return sink->position;
}
int tiffClose(thandle_t) {
    return 0;
}
toff_t tiffSize(thandle_t handle) {
    return static_cast<TiffSink*>(handle)->bytes.size();
}
int tiffMap(thandle_t, void**, toff_t*) {
    return 0;
}
void tiffUnmap(thandle_t, void*, toff_t) {}
int tiffError(TIFF*, void* user, const char* module, const char* format, va_list arguments) {
    auto* sink = static_cast<TiffSink*>(user);
    char message[512];
    std::vsnprintf(message, sizeof message, format, arguments);
    if (sink->error.empty()) sink->error = std::string(module ? module : "") + ": " + message;
    return 1;
}
int tiffWarning(TIFF*, void*, const char*, const char*, va_list) {
    return 1;
}

std::string encodeTiff(const std::uint8_t* pixels, int width, int height, const std::string& failurePrefix) {
    TiffSink sink;
    const std::unique_ptr<TIFFOpenOptions, void (*)(TIFFOpenOptions*)> options(TIFFOpenOptionsAlloc(),
                                                                               TIFFOpenOptionsFree);
    TIFFOpenOptionsSetErrorHandlerExtR(options.get(), tiffError, &sink);
    TIFFOpenOptionsSetWarningHandlerExtR(options.get(), tiffWarning, &sink);
    TIFF* tiff = TIFFClientOpenExt("image", "wm", &sink, tiffRead, tiffWrite, tiffSeek, tiffClose, tiffSize,
                                   tiffMap, tiffUnmap, options.get());
    if (tiff == nullptr) throw InputError(failurePrefix + sink.error);
    const std::uint16_t extra = EXTRASAMPLE_UNASSALPHA;
    bool written = TIFFSetField(tiff, TIFFTAG_IMAGEWIDTH, static_cast<std::uint32_t>(width)) &&
                   TIFFSetField(tiff, TIFFTAG_IMAGELENGTH, static_cast<std::uint32_t>(height)) &&
                   TIFFSetField(tiff, TIFFTAG_BITSPERSAMPLE, 8) &&
                   TIFFSetField(tiff, TIFFTAG_SAMPLESPERPIXEL, 4) &&
                   TIFFSetField(tiff, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_RGB) &&
                   TIFFSetField(tiff, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG) &&
                   TIFFSetField(tiff, TIFFTAG_EXTRASAMPLES, 1, &extra) &&
                   TIFFSetField(tiff, TIFFTAG_COMPRESSION, COMPRESSION_ADOBE_DEFLATE) &&
                   TIFFSetField(tiff, TIFFTAG_PREDICTOR, PREDICTOR_HORIZONTAL) &&
                   TIFFSetField(tiff, TIFFTAG_ROWSPERSTRIP, TIFFDefaultStripSize(tiff, 0));
    for (int y = 0; written && y < height; ++y) {
        // libtiff's predictor works on the row in place, so each row goes through a copy.
        std::string row(reinterpret_cast<const char*>(pixels) + static_cast<std::size_t>(y) * width * 4,
                        static_cast<std::size_t>(width) * 4);
        written = TIFFWriteScanline(tiff, row.data(), static_cast<std::uint32_t>(y), 0) >= 0;
    }
    written = written && TIFFWriteDirectory(tiff);
    TIFFClose(tiff);
    if (!written || !sink.error.empty()) throw InputError(failurePrefix + sink.error);
    return std::move(sink.bytes);
}

// --- WebP: lossless and exact (the colour of fully transparent pixels is kept) ---

std::string encodeWebp(const std::uint8_t* pixels, int width, int height, const std::string& failurePrefix) {
    WebPConfig config;
    if (!WebPConfigInit(&config)) throw InputError(failurePrefix + "libwebp version mismatch");
    config.lossless = 1;
    config.exact = 1;
    config.quality = 75;  // for lossless: effort, not fidelity
    config.method = 4;
    WebPPicture picture;
    if (!WebPPictureInit(&picture)) throw InputError(failurePrefix + "libwebp version mismatch");
    picture.use_argb = 1;
    picture.width = width;
    picture.height = height;
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    const bool written = WebPPictureImportRGBA(&picture, pixels, width * 4) && WebPEncode(&config, &picture);
    const int error = picture.error_code;
    std::string bytes =
        written ? std::string(reinterpret_cast<const char*>(writer.mem), writer.size) : std::string();
    WebPPictureFree(&picture);
    WebPMemoryWriterClear(&writer);
    if (!written) throw InputError(failurePrefix + "libwebp error " + std::to_string(error));
    return bytes;
}

}  // namespace

std::string encodeImage(std::string_view suffix, const std::uint8_t* pixels, int width, int height,
                        std::string_view name) {
    const std::string failurePrefix = std::string(name) + ": cannot encode: ";
    if (pixels == nullptr || width <= 0 || height <= 0)
        throw InputError(std::string(name) + ": no image to write");
    if (suffix == "png") return encodePng(pixels, width, height, failurePrefix);
    if (suffix == "jpg" || suffix == "jpeg") return encodeJpeg(pixels, width, height, failurePrefix);
    if (suffix == "bmp") return encodeBmp(pixels, width, height, failurePrefix);
    if (suffix == "tif" || suffix == "tiff") return encodeTiff(pixels, width, height, failurePrefix);
    if (suffix == "webp") return encodeWebp(pixels, width, height, failurePrefix);
    return {};
}

}  // namespace hs::io
