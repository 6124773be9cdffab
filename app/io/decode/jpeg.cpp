// JPEG through libjpeg-turbo. Its errors longjmp, so everything that touches it lives in run(), whose frame
// holds no object with a destructor; what must survive a longjmp lives in JpegState.
//
// Every warning is an error: libjpeg warns, then invents data, for a stream that ends early (grey rows),
// corrupt entropy-coded data, and bytes where a marker should be. Limits: at most kMaxScans scans (a
// progressive file can repeat scans without end, each a pass over the whole image) and kMaxMarkers APPn and
// COM segments (read by our own processor, never saved); data too short to hold the declared size is refused
// before the image is allocated. EXIF orientation (APP1) is applied; CMYK and YCCK are refused.
#include <cstdio>  // jpeglib.h needs FILE and size_t first
// clang-format off
#include <jpeglib.h>
#include <jerror.h>
// clang-format on

#include <algorithm>
#include <csetjmp>
#include <cstring>
#include <memory>
#include <new>
#include <string>

#include "io/decode/decoders.hpp"

namespace hs::io::decode {

namespace {

constexpr int kMaxScans = 1000;
constexpr int kMaxMarkers = 1000;
constexpr unsigned kExifMarker = JPEG_APP0 + 1;

struct JpegState {
    jpeg_decompress_struct decompress;
    jpeg_error_mgr errors;
    jpeg_progress_mgr progress;
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX + 64] = {};
    bool whole = false;  // `message` is the whole reason, not libjpeg's words about the stream
    int markers = 0;
    int orientation = 1;
    std::uint8_t segment[65536];
    ImageRGBA8 image;
};

JpegState& stateOf(j_common_ptr common) {
    // `decompress` is JpegState's first member.
    return *reinterpret_cast<JpegState*>(common);
}

[[noreturn]] void stop(j_common_ptr common, const char* message, bool whole = false) {
    JpegState& state = stateOf(common);
    std::snprintf(state.message, sizeof state.message, "%s", message);
    state.whole = whole;
    std::longjmp(state.jump, 1);
}

void onError(j_common_ptr common) {
    char message[JMSG_LENGTH_MAX];
    (*common->err->format_message)(common, message);
    stop(common, message);
}

void onMessage(j_common_ptr common, int level) {
    if (level < 0) onError(common);  // a warning: see above
}

void onProgress(j_common_ptr common) {
    const auto* decompress = reinterpret_cast<j_decompress_ptr>(common);
    if (decompress->input_scan_number > kMaxScans)
        stop(common, "JPEG with more than 1000 scans (each one a pass over the whole image)", true);
}

int nextByte(j_decompress_ptr decompress) {
    jpeg_source_mgr* source = decompress->src;
    // The memory source inserts an end-of-image marker after a warning (an error here) when it runs dry.
    if (source->bytes_in_buffer == 0 && !(*source->fill_input_buffer)(decompress))
        stop(reinterpret_cast<j_common_ptr>(decompress), "the data ends inside a segment");
    --source->bytes_in_buffer;
    return *source->next_input_byte++;
}

std::uint32_t read(const std::uint8_t* bytes, int count, bool bigEndian) {
    std::uint32_t value = 0;
    for (int i = 0; i < count; ++i)
        value |= std::uint32_t{bytes[bigEndian ? i : count - 1 - i]} << (8 * (count - 1 - i));
    return value;
}

// The Orientation tag (274) of IFD0 in an "Exif\0\0" APP1 segment; 1 when there is none or it cannot be read.
int exifOrientation(const std::uint8_t* segment, std::size_t length) {
    constexpr std::size_t kTiff = 6;  // after "Exif\0\0"
    if (length < kTiff + 8 || std::memcmp(segment, "Exif\0\0", 6) != 0) return 1;
    const std::uint8_t* tiff = segment + kTiff;
    const std::size_t size = length - kTiff;
    bool bigEndian = false;
    if (std::memcmp(tiff, "MM\0*", 4) == 0)
        bigEndian = true;
    else if (std::memcmp(tiff, "II*\0", 4) != 0)
        return 1;
    const std::uint32_t ifd = read(tiff + 4, 4, bigEndian);
    if (ifd > size - 2) return 1;
    const std::uint32_t entries = read(tiff + ifd, 2, bigEndian);
    for (std::uint32_t i = 0; i < entries; ++i) {
        const std::size_t entry = ifd + 2 + 12 * std::size_t{i};
        if (entry + 12 > size) return 1;
        if (read(tiff + entry, 2, bigEndian) == 274 && read(tiff + entry + 2, 2, bigEndian) == 3) {
            const std::uint32_t value = read(tiff + entry + 8, 2, bigEndian);
            return value >= 1 && value <= 8 ? static_cast<int>(value) : 1;
        }
    }
    return 1;
}

// APPn and COM segments, all through here: counted, JFIF (APP0) and Adobe (APP14) read for what libjpeg's
// own readers of them would note (they decide whether three components are YCbCr or RGB), the first EXIF
// (APP1) read for its orientation, everything else skipped unread.
boolean onMarker(j_decompress_ptr decompress) {
    JpegState& state = stateOf(reinterpret_cast<j_common_ptr>(decompress));
    if (++state.markers > kMaxMarkers)
        stop(reinterpret_cast<j_common_ptr>(decompress), "JPEG with more than 1000 APPn and comment segments",
             true);
    const int high = nextByte(decompress);
    const int length = ((high << 8) | nextByte(decompress)) - 2;
    if (length < 0) stop(reinterpret_cast<j_common_ptr>(decompress), "a segment length below 2");
    const int marker = decompress->unread_marker;
    const bool exif = marker == static_cast<int>(kExifMarker) && state.orientation == 1;
    const int kept = exif                                              ? length
                     : marker == JPEG_APP0 || marker == JPEG_APP0 + 14 ? std::min(length, 14)
                                                                       : 0;
    for (int i = 0; i < kept; ++i) state.segment[i] = static_cast<std::uint8_t>(nextByte(decompress));
    if (length > kept) (*decompress->src->skip_input_data)(decompress, length - kept);
    const std::uint8_t* segment = state.segment;
    if (exif) {
        state.orientation = exifOrientation(segment, static_cast<std::size_t>(length));
    } else if (marker == JPEG_APP0 && kept >= 14 && std::memcmp(segment, "JFIF\0", 5) == 0) {
        decompress->saw_JFIF_marker = TRUE;
        decompress->JFIF_major_version = segment[5];
        decompress->JFIF_minor_version = segment[6];
        decompress->density_unit = segment[7];
        decompress->X_density = static_cast<UINT16>(segment[8] << 8 | segment[9]);
        decompress->Y_density = static_cast<UINT16>(segment[10] << 8 | segment[11]);
    } else if (marker == JPEG_APP0 + 14 && kept >= 12 && std::memcmp(segment, "Adobe", 5) == 0) {
        decompress->saw_Adobe_marker = TRUE;
        decompress->Adobe_transform = segment[11];
    }
    return TRUE;
}

// Every block of every component has its DC coefficient Huffman-coded at least once, in at least one bit.
void checkDataSuffices(j_decompress_ptr decompress) {
    if (decompress->arith_code) return;  // arithmetic coding can spend less than a bit on a block
    std::uint64_t blocks = 0;
    for (int c = 0; c < decompress->num_components; ++c) {
        const jpeg_component_info& component = decompress->comp_info[c];
        blocks += std::uint64_t{component.width_in_blocks} * component.height_in_blocks;
    }
    const std::uint64_t bytes = decompress->src->bytes_in_buffer;
    if (bytes * 8 < blocks) {
        // No std::string here: stop() longjmps, which must not pass over a destructor.
        char reason[160];
        std::snprintf(reason, sizeof reason,
                      "truncated JPEG (%llu bytes of data cannot hold the %llu blocks of %ux%u pixels)",
                      static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(blocks),
                      decompress->image_width, decompress->image_height);
        stop(reinterpret_cast<j_common_ptr>(decompress), reason, true);
    }
}

bool run(JpegState& state, const std::uint8_t* data, std::size_t size, std::uint64_t limit) {
    j_decompress_ptr decompress = &state.decompress;
    if (setjmp(state.jump)) return false;
    jpeg_create_decompress(decompress);  // clears all but the error manager
    decompress->progress = &state.progress;
    jpeg_mem_src(decompress, data, static_cast<unsigned long>(size));
    jpeg_set_marker_processor(decompress, JPEG_COM, onMarker);
    for (int n = 0; n < 16; ++n) jpeg_set_marker_processor(decompress, JPEG_APP0 + n, onMarker);
    if (jpeg_read_header(decompress, TRUE) != JPEG_HEADER_OK)
        stop(reinterpret_cast<j_common_ptr>(decompress), "tables but no image");
    if (decompress->jpeg_color_space == JCS_CMYK || decompress->jpeg_color_space == JCS_YCCK)
        stop(reinterpret_cast<j_common_ptr>(decompress), "CMYK JPEG is not supported", true);
    if (decompress->jpeg_color_space != JCS_GRAYSCALE && decompress->jpeg_color_space != JCS_YCbCr &&
        decompress->jpeg_color_space != JCS_RGB)
        stop(reinterpret_cast<j_common_ptr>(decompress),
             "JPEG in a colour space other than grey, YCbCr and RGB", true);
    // Huffman tables have no place in an arithmetic-coded stream: such a header sits over Huffman data.
    if (decompress->arith_code) {
        for (int i = 0; i < NUM_HUFF_TBLS; ++i) {
            if (decompress->dc_huff_tbl_ptrs[i] != nullptr || decompress->ac_huff_tbl_ptrs[i] != nullptr)
                stop(reinterpret_cast<j_common_ptr>(decompress),
                     "corrupt JPEG (Huffman tables in an arithmetic-coded stream)", true);
        }
    }
    checkDataSuffices(decompress);
    state.image = allocate(decompress->image_width, decompress->image_height, limit);
    decompress->out_color_space = JCS_EXT_RGBA;  // alpha 255, grey expanded, straight into the result
    jpeg_start_decompress(decompress);
    if (decompress->output_components != 4 || decompress->output_width != decompress->image_width ||
        decompress->output_height != decompress->image_height)
        stop(reinterpret_cast<j_common_ptr>(decompress), "unexpected output layout");
    while (decompress->output_scanline < decompress->output_height) {
        JSAMPROW row = state.image.pixel(0, static_cast<int>(decompress->output_scanline));
        if (jpeg_read_scanlines(decompress, &row, 1) != 1)
            stop(reinterpret_cast<j_common_ptr>(decompress), "no rows");
    }
    jpeg_finish_decompress(decompress);
    return true;
}

}  // namespace

ImageRGBA8 decodeJpeg(const std::uint8_t* data, std::size_t size, std::uint64_t limit) {
    const auto state = std::make_unique<JpegState>();  // zeroed, so destroying is safe whatever run() reached
    state->decompress.err = jpeg_std_error(&state->errors);
    state->errors.error_exit = onError;
    state->errors.emit_message = onMessage;
    state->progress.progress_monitor = onProgress;
    struct Destroy {
        jpeg_decompress_struct* decompress;
        ~Destroy() { jpeg_destroy_decompress(decompress); }
    } destroy{&state->decompress};
    if (!run(*state, data, size, limit))
        refuse(state->whole ? std::string(state->message)
                            : std::string("corrupt or truncated JPEG (") + state->message + ")");
    return applyOrientation(std::move(state->image), state->orientation);
}

}  // namespace hs::io::decode
