#pragma once
// Some of Qt's decoders return a "successful" image for a file that was cut short: libjpeg fills missing rows
// with grey after a warning, the BMP and GIF readers stop quietly. Walking the container structure catches
// that before decoding. PNG, TIFF and WebP decoders report truncation themselves, so they need no walk here.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace hs::io {

// Why the `format` ("jpeg", "bmp", "gif") stream in `data` is incomplete; nothing when it is whole or when
// `format` is one whose decoder checks this itself.
std::optional<std::string> incompleteReason(std::string_view format, const unsigned char* data,
                                            std::size_t size);

}  // namespace hs::io
