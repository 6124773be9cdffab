#pragma once
// libjpeg decodes a truncated JPEG "successfully" (a warning, then grey rows), so Qt cannot tell us that a
// file was cut short. Walking the marker structure up to the end-of-image marker can.

#include <cstddef>
#include <optional>
#include <string>

namespace hs::io {

// Why the JPEG stream in `data` is incomplete, or nothing when it reaches its end-of-image marker.
std::optional<std::string> jpegIncompleteReason(const unsigned char* data, std::size_t size);

}  // namespace hs::io
