#pragma once
// Files in and out without Qt: the part of io that histoscope-bench (engine only, no Qt) links, and that the
// Qt part of io builds on. Every user-facing file is written through writeFileAtomically and read through
// readWholeFile; errors are hs::InputError with one line naming the file and the reason.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "image/image.hpp"
#include "util/atomic_file.hpp"

namespace hs::io {

// The one atomic writer (util/atomic_file.hpp), for every user-facing file.
using hs::checkReplaceable;
using hs::writeFileAtomically;

// The whole file at `path`, at most `maxBytes` of it. Throws hs::InputError naming the file and `what` it was
// meant to be: "<path>: cannot read the filter file (No such file or directory)", "<path>: 70000 bytes is
// too large for a filter file".
std::string readWholeFile(const std::filesystem::path& path, std::size_t maxBytes, std::string_view what);

// Raw RGBA8 pixels (width * height * 4 bytes, rows top first, no header). Throws hs::InputError naming the
// file when it cannot be read or its size is not width * height * 4.
ImageRGBA8 readRawRgba(const std::filesystem::path& path, int width, int height);

}  // namespace hs::io
