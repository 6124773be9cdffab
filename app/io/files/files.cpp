#include "io/files/files.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "engine/runtime/error.hpp"

namespace hs::io {

namespace fs = std::filesystem;

namespace {

std::string kindOf(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    return "a special file";
}

}  // namespace

RegularFile::RegularFile(const fs::path& path, std::string_view what, std::string_view failure)
    : name_(path.string()), what_(what) {
    const auto cannot = [&](int error) {
        return InputError(name_ + ": " + std::string(failure) + " the " + what_ + " (" +
                          std::strerror(error) + ")");
    };
    // Non-blocking, so that opening a FIFO does not wait for a writer; a regular file reads the same either
    // way.
    fd_ = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd_ < 0) throw cannot(errno);
    struct stat status;
    if (::fstat(fd_, &status) != 0) {
        const int error = errno;
        ::close(fd_);
        throw cannot(error);
    }
    if (!S_ISREG(status.st_mode)) {
        ::close(fd_);
        throw InputError(name_ + ": not a regular file (" + kindOf(status.st_mode) + ")");
    }
    size_ = static_cast<std::uint64_t>(status.st_size);
}

RegularFile::~RegularFile() {
    ::close(fd_);
}

void RegularFile::read(void* into, std::size_t count) {
    auto* bytes = static_cast<char*>(into);
    for (std::size_t done = 0; done < count;) {
        const ssize_t got = ::read(fd_, bytes + done, count - done);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0)
            throw InputError(name_ + ": cannot read the " + what_ + " (" + std::strerror(errno) + ")");
        if (got == 0) throw InputError(name_ + ": cannot read the " + what_ + " (it ended early)");
        done += static_cast<std::size_t>(got);
    }
}

std::string readWholeFile(const fs::path& path, std::size_t maxBytes, std::string_view what) {
    RegularFile file(path, what);
    if (file.size() > maxBytes)
        throw InputError(path.string() + ": " + std::to_string(file.size()) + " bytes is too large for a " +
                         std::string(what));
    std::string text(static_cast<std::size_t>(file.size()), '\0');
    file.read(text.data(), text.size());
    return text;
}

ImageRGBA8 readRawRgba(const fs::path& path, int width, int height) {
    RegularFile file(path, "raw RGBA file", "cannot open");
    const auto expected = static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height) * 4;
    if (file.size() != expected)
        throw InputError(path.string() + ": holds " + std::to_string(file.size()) + " bytes, but " +
                         std::to_string(width) + "x" + std::to_string(height) + " RGBA8 pixels need " +
                         std::to_string(expected));
    ImageRGBA8 image(width, height);
    file.read(image.pixels.data(), static_cast<std::size_t>(expected));
    return image;
}

}  // namespace hs::io
