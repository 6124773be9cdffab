#pragma once
// Some of Qt's decoders return a "successful" image for a file that was cut short: libjpeg fills missing rows
// with grey after a warning, the BMP and GIF readers stop quietly. Walking the container structure catches
// that before decoding. PNG, TIFF and WebP decoders report truncation themselves, so they need no walk here.
// What a file declares is also judged here before a decoder trusts it: PNG chunk lengths, PNG palette
// indices, the GIF logical screen.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hs::io {

// Why the `format` ("jpeg", "bmp", "gif") stream in `data` is incomplete; nothing when it is whole or when
// `format` is one whose decoder checks this itself.
std::optional<std::string> incompleteReason(std::string_view format, const unsigned char* data,
                                            std::size_t size);

// The first PNG chunk (up to IEND) whose declared length runs past the end of `data` or beyond the PNG
// maximum of 2^31 - 1, in words; nothing when every chunk fits. libpng allocates a chunk's declared length
// before reading it (a few hundred bytes could ask for 2 GiB), so this runs before the decoder sees the file.
std::optional<std::string> pngChunkProblem(const unsigned char* data, std::size_t size);

// The first palette index of a paletted PNG that its PLTE does not hold, in words; nothing for other PNGs or
// when every index is within the palette (or the data is too broken to tell: the decoder reports that). Qt
// quietly paints such pixels with entry 0, so the file would pass for a picture it is not.
std::optional<std::string> pngPaletteProblem(const unsigned char* data, std::size_t size);

struct CanvasSize {
    std::uint32_t width = 0;
    std::uint32_t height = 0;
};
// The logical screen a GIF declares: Qt's decoder allocates it whole, whatever size the frames have.
std::optional<CanvasSize> gifLogicalScreen(const unsigned char* data, std::size_t size);
// The picture size a "png" (IHDR) or "bmp" header declares; nothing for other formats or a header too short
// to say. Qt reports no size at all for a declared width or height of 0, which this tells apart from damage.
std::optional<CanvasSize> declaredSize(std::string_view format, const unsigned char* data, std::size_t size);

}  // namespace hs::io
