#pragma once
// Files in and out without Qt: the part of io that histoscope-bench (engine only, no Qt) links, and that the
// Qt part of io builds on. Every user-facing file is written through writeFileAtomically and read through
// readWholeFile; errors are hs::InputError with one line naming the file and the reason.

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "image/image.hpp"

namespace hs::io {

// Writes `data` to a temporary file beside `path` and renames it over `path`, so a reader, a failed write and
// a writer killed mid-way all leave the previous file whole. Throws hs::InputError "<path>: cannot write:
// <reason in words>" ("No space left on device"). Refuses to replace anything but a regular file (a FIFO or
// device node at `path` stays as it is). A symbolic link stays one: its target gets the new contents.
// Temporaries that killed writers left beside `path` go at the next write to it.
void writeFileAtomically(const std::filesystem::path& path, std::string_view data);
// Throws hs::InputError when something other than a regular file (a folder, FIFO, socket, device) is at
// `path`, which writeFileAtomically() would refuse to replace: for checking outputs before work starts.
void checkReplaceable(const std::filesystem::path& path);

// The whole file at `path`, at most `maxBytes` of it. Throws hs::InputError naming the file and `what` it was
// meant to be: "<path>: cannot read the filter file (No such file or directory)", "<path>: 70000 bytes is
// too large for a filter file".
std::string readWholeFile(const std::filesystem::path& path, std::size_t maxBytes, std::string_view what);

// Raw RGBA8 pixels (width * height * 4 bytes, rows top first, no header). Throws hs::InputError naming the
// file when it cannot be read or its size is not width * height * 4.
ImageRGBA8 readRawRgba(const std::filesystem::path& path, int width, int height);

}  // namespace hs::io
