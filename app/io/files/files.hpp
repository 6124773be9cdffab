#pragma once
// Files in and out without Qt: the part of io that histoscope-bench (engine only, no Qt) links, and that the
// Qt part of io builds on. Every user-facing file is written through writeFileAtomically and read through
// readWholeFile; errors are hs::InputError with one line naming the file and the reason.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "image/image.hpp"
#include "runtime/atomic_file.hpp"

namespace hs::io {

// The one atomic writer (runtime/atomic_file.hpp), for every user-facing file.
using hs::checkReplaceable;
using hs::writeFileAtomically;

// A file opened for reading that is a regular file, so that its size is what will be read: a FIFO (opened
// without waiting for a writer), a device such as /dev/zero or /dev/urandom, a socket or a folder is refused
// before anything is read. Throws hs::InputError "<path>: <failure> the <what> (<reason>)" when it cannot be
// opened ("cannot read the filter file (No such file or directory)"), "<path>: not a regular file (a FIFO)"
// when it is not one.
class RegularFile {
  public:
    RegularFile(const std::filesystem::path& path, std::string_view what,
                std::string_view failure = "cannot read");
    ~RegularFile();
    RegularFile(const RegularFile&) = delete;
    RegularFile& operator=(const RegularFile&) = delete;

    std::uint64_t size() const { return size_; }
    // Exactly `count` bytes from the current position into `into`; throws InputError "<path>: cannot read
    // the <what> (<reason>)", or "... (it ended early)" when the file shrank since it was opened.
    void read(void* into, std::size_t count);

  private:
    std::string name_;
    std::string what_;
    int fd_ = -1;
    std::uint64_t size_ = 0;
};

// The whole file at `path`, at most `maxBytes` of it. Throws hs::InputError naming the file and `what` it was
// meant to be: "<path>: cannot read the filter file (No such file or directory)", "<path>: 70000 bytes is
// too large for a filter file".
std::string readWholeFile(const std::filesystem::path& path, std::size_t maxBytes, std::string_view what);

// Raw RGBA8 pixels (width * height * 4 bytes, rows top first, no header). Throws hs::InputError naming the
// file when it cannot be read, is not a regular file or its size is not width * height * 4 (checked before
// anything is read).
ImageRGBA8 readRawRgba(const std::filesystem::path& path, int width, int height);

}  // namespace hs::io
