// GIF through giflib, first frame only. The result covers the logical screen (grown to hold the frame where
// the frame reaches past it, as browsers show such files); screen pixels outside the frame and pixels of the
// transparent index are transparent black. A pixel whose index lies beyond the colour table is refused.
#include <gif_lib.h>

#include <algorithm>
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
};

int readProc(GifFileType* gif, GifByteType* out, int count) {
    auto* source = static_cast<Source*>(gif->UserData);
    const std::size_t n =
        std::min(static_cast<std::size_t>(std::max(count, 0)), source->size - source->position);
    std::memcpy(out, source->data + source->position, n);
    source->position += n;
    return static_cast<int>(n);
}

[[noreturn]] void fail(int error) {
    const char* text = GifErrorString(error);
    refuse(std::string("corrupt or truncated GIF (") + (text != nullptr ? text : "unknown error") + ")");
}

}  // namespace

ImageRGBA8 decodeGif(const std::uint8_t* data, std::size_t size, std::uint64_t limit) {
    Source source{data, size, 0};
    int error = 0;
    const auto close = [](GifFileType* gif) { DGifCloseFile(gif, nullptr); };
    const std::unique_ptr<GifFileType, decltype(close)> gif(DGifOpen(&source, readProc, &error), close);
    if (!gif) fail(error);
    // The screen is judged before anything else is read: it alone can ask for more than the limit.
    checkSize(static_cast<std::uint64_t>(std::max(gif->SWidth, 1)),
              static_cast<std::uint64_t>(std::max(gif->SHeight, 1)), limit);
    int transparent = NO_TRANSPARENT_COLOR;
    while (true) {
        GifRecordType type = UNDEFINED_RECORD_TYPE;
        if (DGifGetRecordType(gif.get(), &type) != GIF_OK) fail(gif->Error);
        if (type == TERMINATE_RECORD_TYPE) refuse("GIF without an image");
        if (type == EXTENSION_RECORD_TYPE) {
            int code = 0;
            GifByteType* block = nullptr;
            if (DGifGetExtension(gif.get(), &code, &block) != GIF_OK) fail(gif->Error);
            if (code == GRAPHICS_EXT_FUNC_CODE && block != nullptr && block[0] >= 4) {
                GraphicsControlBlock control;
                if (DGifExtensionToGCB(block[0], block + 1, &control) == GIF_OK)
                    transparent = control.TransparentColor;
            }
            while (block != nullptr) {
                if (DGifGetExtensionNext(gif.get(), &block) != GIF_OK) fail(gif->Error);
            }
            continue;
        }
        if (type != IMAGE_DESC_RECORD_TYPE) continue;
        if (DGifGetImageDesc(gif.get()) != GIF_OK) fail(gif->Error);
        const GifImageDesc& frame = gif->Image;
        const ColorMapObject* colours = frame.ColorMap != nullptr ? frame.ColorMap : gif->SColorMap;
        if (colours == nullptr) refuse("GIF without a colour table");
        if (frame.Width <= 0 || frame.Height <= 0 || frame.Left < 0 || frame.Top < 0)
            refuse("zero-sized image (" + std::to_string(frame.Width) + "x" + std::to_string(frame.Height) +
                   ")");
        ImageRGBA8 image =
            allocate(std::max<std::uint64_t>(gif->SWidth, std::uint64_t(frame.Left) + frame.Width),
                     std::max<std::uint64_t>(gif->SHeight, std::uint64_t(frame.Top) + frame.Height), limit);
        std::vector<GifPixelType> line(static_cast<std::size_t>(frame.Width));
        // Interlaced rows arrive as every 8th from 0, every 8th from 4, every 4th from 2, every 2nd from 1.
        static constexpr int kStart[] = {0, 4, 2, 1};
        static constexpr int kStep[] = {8, 8, 4, 2};
        const int passes = frame.Interlace ? 4 : 1;
        for (int pass = 0; pass < passes; ++pass) {
            const int start = frame.Interlace ? kStart[pass] : 0;
            const int step = frame.Interlace ? kStep[pass] : 1;
            for (int row = start; row < frame.Height; row += step) {
                if (DGifGetLine(gif.get(), line.data(), frame.Width) != GIF_OK) fail(gif->Error);
                std::uint8_t* pixel = image.pixel(frame.Left, frame.Top + row);
                for (const GifPixelType index : line) {
                    if (index >= colours->ColorCount)
                        refuse("corrupt GIF (a pixel uses colour index " + std::to_string(index) + " of a " +
                               std::to_string(colours->ColorCount) + "-colour table)");
                    if (index != transparent) {
                        pixel[0] = colours->Colors[index].Red;
                        pixel[1] = colours->Colors[index].Green;
                        pixel[2] = colours->Colors[index].Blue;
                        pixel[3] = 255;
                    }
                    pixel += 4;
                }
            }
        }
        return image;
    }
}

}  // namespace hs::io::decode
