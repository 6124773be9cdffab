// WebP through libwebp. The canvas size is checked against the limit before anything is decoded; a still
// image decodes straight into the result. An animation gives its first frame, decoded into its place on a
// transparent black canvas (the ANIM background colour is a hint the format lets readers ignore, and a first
// frame blends onto nothing).
#include <webp/decode.h>
#include <webp/demux.h>

#include <cstring>
#include <memory>
#include <string>

#include "io/decode/decoders.hpp"

namespace hs::io::decode {

namespace {

const char* statusText(VP8StatusCode status) {
    switch (status) {
        case VP8_STATUS_OUT_OF_MEMORY:
            return "out of memory";
        case VP8_STATUS_INVALID_PARAM:
            return "invalid parameter";
        case VP8_STATUS_BITSTREAM_ERROR:
            return "bitstream error";
        case VP8_STATUS_UNSUPPORTED_FEATURE:
            return "unsupported feature";
        case VP8_STATUS_NOT_ENOUGH_DATA:
            return "not enough data";
        default:
            return "error";
    }
}

// Decodes `bytes` into `width` x `height` pixels at `target`, rows `stride` bytes apart, `room` bytes there.
void decodeInto(const std::uint8_t* bytes, std::size_t size, std::uint8_t* target, std::size_t room,
                int stride) {
    if (WebPDecodeRGBAInto(bytes, size, target, room, stride) == nullptr)
        refuse("corrupt or truncated WebP (the image data does not decode)");
}

ImageRGBA8 firstFrame(const std::uint8_t* data, std::size_t size, std::uint64_t limit) {
    const WebPData whole{data, size};
    const std::unique_ptr<WebPDemuxer, void (*)(WebPDemuxer*)> demuxer(WebPDemux(&whole), WebPDemuxDelete);
    if (!demuxer) refuse("corrupt or truncated WebP (the animation's chunks do not parse)");
    ImageRGBA8 canvas = allocate(WebPDemuxGetI(demuxer.get(), WEBP_FF_CANVAS_WIDTH),
                                 WebPDemuxGetI(demuxer.get(), WEBP_FF_CANVAS_HEIGHT), limit);
    WebPIterator frame;
    if (!WebPDemuxGetFrame(demuxer.get(), 1, &frame)) refuse("corrupt or truncated WebP (no first frame)");
    const std::unique_ptr<WebPIterator, void (*)(WebPIterator*)> release(&frame, WebPDemuxReleaseIterator);
    if (frame.x_offset < 0 || frame.y_offset < 0 || frame.width <= 0 || frame.height <= 0 ||
        frame.x_offset + frame.width > canvas.width || frame.y_offset + frame.height > canvas.height)
        refuse("corrupt WebP (the first frame lies outside the canvas)");
    std::uint8_t* target = canvas.pixel(frame.x_offset, frame.y_offset);
    decodeInto(frame.fragment.bytes, frame.fragment.size, target,
               canvas.byteCount() - static_cast<std::size_t>(target - canvas.pixels.data()),
               canvas.width * 4);
    return canvas;
}

}  // namespace

ImageRGBA8 decodeWebp(const std::uint8_t* data, std::size_t size, std::uint64_t limit) {
    // An extended file's canvas (VP8X: 24-bit sides minus one) is judged before libwebp looks at the rest,
    // which it may call a bitstream error when the canvas is absurd.
    constexpr std::size_t kVp8x = 12;
    if (size >= kVp8x + 18 && std::memcmp(data + kVp8x, "VP8X", 4) == 0) {
        const auto side = [&](std::size_t at) {
            return 1 + (std::uint64_t{data[at]} | std::uint64_t{data[at + 1]} << 8 |
                        std::uint64_t{data[at + 2]} << 16);
        };
        checkSize(side(kVp8x + 12), side(kVp8x + 15), limit);
    }
    WebPBitstreamFeatures features;
    const VP8StatusCode status = WebPGetFeatures(data, size, &features);
    if (status != VP8_STATUS_OK)
        refuse(std::string("corrupt or truncated WebP (") + statusText(status) + ")");
    if (features.has_animation) return firstFrame(data, size, limit);
    ImageRGBA8 image = allocate(static_cast<std::uint64_t>(features.width),
                                static_cast<std::uint64_t>(features.height), limit);
    decodeInto(data, size, image.pixels.data(), image.byteCount(), image.width * 4);
    return image;
}

}  // namespace hs::io::decode
