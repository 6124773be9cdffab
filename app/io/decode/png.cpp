// PNG through libpng. libpng reports errors by longjmp, so everything that touches it lives in run(), whose
// frame holds no object with a destructor; the state that must survive a longjmp lives in PngState.
#include <png.h>

#include <algorithm>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <new>
#include <string>

#include "io/decode/decoders.hpp"

namespace hs::io::decode {

namespace {

constexpr std::uint32_t kMaxChunkLength = 0x7FFFFFFFu;  // PNG's own maximum (2^31 - 1)
// No chunk that this decoder keeps (IHDR, PLTE, tRNS, IDAT) is anywhere near this large in memory: libpng
// hands IDAT on in pieces.
constexpr png_alloc_size_t kMaxChunkMemory = 8u << 20;

struct PngState {
    const std::uint8_t* data = nullptr;
    std::size_t size = 0;
    std::size_t position = 0;
    std::jmp_buf jump;
    char message[200] = {};
    ImageRGBA8 image;
    int paletteEntries = 0;
    png_color palette[256] = {};
    png_byte paletteAlpha[256] = {};
};

std::uint32_t bigEndian(const std::uint8_t* bytes) {
    return std::uint32_t{bytes[0]} << 24 | std::uint32_t{bytes[1]} << 16 | std::uint32_t{bytes[2]} << 8 |
           bytes[3];
}

// libpng allocates a chunk's declared length before reading it: a few hundred bytes could ask for 2 GiB.
// Walking the chunk headers first names such a chunk.
void checkChunkLengths(const std::uint8_t* data, std::size_t size) {
    for (std::size_t pos = 8; pos + 8 <= size;) {
        const std::uint32_t length = bigEndian(data + pos);
        std::string type(reinterpret_cast<const char*>(data + pos + 4), 4);
        for (char& c : type)
            if (c < 0x20 || c > 0x7E) c = '?';
        if (length > kMaxChunkLength || length > size - pos - 8)
            refuse("corrupt or truncated PNG (chunk '" + type + "' declares " + std::to_string(length) +
                   " bytes, " +
                   (length > kMaxChunkLength ? "beyond the PNG maximum" : "beyond the file's end") + ")");
        if (type == "IEND") return;
        pos += 8 + std::size_t{length} + 4;
    }
}

void onError(png_structp png, png_const_charp message) {
    auto* state = static_cast<PngState*>(png_get_error_ptr(png));
    std::snprintf(state->message, sizeof state->message, "%s", message);
    std::longjmp(state->jump, 1);
}

// What libpng only warns about (a damaged ancillary chunk, which it then drops) changes no pixel; everything
// that would is an error (benign errors are made errors below).
void onWarning(png_structp, png_const_charp) {}

void onRead(png_structp png, png_bytep out, png_size_t count) {
    auto* state = static_cast<PngState*>(png_get_io_ptr(png));
    if (count > state->size - state->position) png_error(png, "the file ends inside a chunk");
    std::memcpy(out, state->data + state->position, count);
    state->position += count;
}

// Palette indices stored at the start of each row (one byte each) become RGBA in place, from the end of the
// row back, so no index is overwritten before it is read.
void expandPalette(PngState& state) {
    for (int y = 0; y < state.image.height; ++y) {
        std::uint8_t* row = state.image.pixel(0, y);
        for (int x = state.image.width - 1; x >= 0; --x) {
            const int index = row[x];
            if (index >= state.paletteEntries)
                refuse("corrupt PNG (a pixel uses palette index " + std::to_string(index) + " of a " +
                       std::to_string(state.paletteEntries) + "-colour palette)");
            std::uint8_t* pixel = row + 4 * static_cast<std::size_t>(x);
            pixel[3] = state.paletteAlpha[index];
            pixel[2] = state.palette[index].blue;
            pixel[1] = state.palette[index].green;
            pixel[0] = state.palette[index].red;
        }
    }
}

// Returns false after a libpng error (the message is in state.message). Throws Refusal for what this code
// itself refuses, never while libpng is on the stack.
bool run(png_structp png, png_infop info, PngState& state, std::uint64_t limit) {
    if (setjmp(state.jump)) return false;
    png_set_read_fn(png, &state, onRead);
    // A second guard beside checkSize(): libpng checks IHDR's sides against these itself.
    const std::uint64_t maxSide = std::min<std::uint64_t>(limit / 4, kMaxChunkLength);
    png_set_user_limits(png, static_cast<png_uint_32>(std::max<std::uint64_t>(maxSide, 1)),
                        static_cast<png_uint_32>(std::max<std::uint64_t>(maxSide, 1)));
    png_set_chunk_cache_max(png, 64);
    png_set_chunk_malloc_max(png, kMaxChunkMemory);
    png_set_benign_errors(png, 0);
    // expandPalette() refuses an index beyond the palette and names it; libpng would only say that one was.
    png_set_check_for_invalid_index(png, 0);
    // Every ancillary chunk but tRNS is skipped unread (only its CRC is computed): text (zTXt and iTXt are
    // the compressed bombs), ICC profiles, EXIF and the rest change no pixel of the RGBA8 contract, which
    // applies no gamma or colour management. Unknown chunks likewise.
    static const png_byte kSkipped[] =
        "bKGD\0cHRM\0eXIf\0gAMA\0hIST\0iCCP\0iTXt\0oFFs\0pCAL\0"
        "pHYs\0sBIT\0sCAL\0sPLT\0sRGB\0tEXt\0tIME\0zTXt";
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, nullptr, 0);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, kSkipped, sizeof kSkipped / 5);
    png_read_info(png, info);

    png_uint_32 width = 0;
    png_uint_32 height = 0;
    int depth = 0;
    int colour = 0;
    int interlace = 0;
    png_get_IHDR(png, info, &width, &height, &depth, &colour, &interlace, nullptr, nullptr);
    state.image = allocate(width, height, limit);

    const bool paletted = colour == PNG_COLOR_TYPE_PALETTE;
    if (paletted) {
        png_colorp entries = nullptr;
        int count = 0;
        if (!png_get_PLTE(png, info, &entries, &count)) png_error(png, "a paletted image without PLTE");
        state.paletteEntries = std::min(count, 256);
        std::memcpy(state.palette, entries,
                    sizeof(png_color) * static_cast<std::size_t>(state.paletteEntries));
        std::memset(state.paletteAlpha, 0xFF, sizeof state.paletteAlpha);
        png_bytep alphas = nullptr;
        int alphaCount = 0;
        if (png_get_tRNS(png, info, &alphas, &alphaCount, nullptr))
            std::memcpy(state.paletteAlpha, alphas, static_cast<std::size_t>(std::min(alphaCount, 256)));
        // Indices as bytes; the palette is applied once every pass is in (expandPalette).
        png_set_packing(png);
    } else {
        if (colour == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
        // tRNS is compared with the samples before they are scaled, so a 16-bit key matches exactly.
        if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
        // Each row arrives in 8 bits, round(v * 255 / 65535) = round(v / 257) (tests check every value).
        if (depth == 16) png_set_scale_16(png);
        if (colour == PNG_COLOR_TYPE_GRAY || colour == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(png);
        png_set_filler(png, 0xFF, PNG_FILLER_AFTER);
    }
    // Adam7: libpng puts each pass's pixels into the rows given, which are the result's own rows.
    const int passes = png_set_interlace_handling(png);
    png_read_update_info(png, info);
    const std::size_t rowBytes = png_get_rowbytes(png, info);
    if (rowBytes != std::size_t{width} * (paletted ? 1 : 4)) png_error(png, "unexpected row layout");
    for (int pass = 0; pass < passes; ++pass) {
        for (png_uint_32 y = 0; y < height; ++y)
            png_read_row(png, state.image.pixel(0, static_cast<int>(y)), nullptr);
    }
    // Up to IEND, the chunks after IDAT skipped like those before: a stream cut after its pixels is refused.
    png_read_end(png, nullptr);
    return true;
}

}  // namespace

ImageRGBA8 decodePng(const std::uint8_t* data, std::size_t size, std::uint64_t limit) {
    // IHDR's size judged first: libpng calls a zero side only "invalid IHDR data".
    if (size >= 24 && std::memcmp(data + 12, "IHDR", 4) == 0)
        checkSize(bigEndian(data + 16), bigEndian(data + 20), limit);
    checkChunkLengths(data, size);
    PngState state;
    state.data = data;
    state.size = size;
    struct Structs {
        png_structp png = nullptr;
        png_infop info = nullptr;
        ~Structs() { png_destroy_read_struct(&png, info ? &info : nullptr, nullptr); }
    } structs;
    structs.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, onError, onWarning);
    if (structs.png == nullptr) throw std::bad_alloc();
    structs.info = png_create_info_struct(structs.png);
    if (structs.info == nullptr) throw std::bad_alloc();
    if (!run(structs.png, structs.info, state, limit)) {
        refuse(std::string("corrupt or truncated PNG (") + state.message + ")");
    }
    if (state.paletteEntries > 0) expandPalette(state);
    return std::move(state.image);
}

}  // namespace hs::io::decode
