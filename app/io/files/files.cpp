#include "io/files/files.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>

#include "runtime/error.hpp"

namespace hs::io {

namespace {

namespace fs = std::filesystem;

// Temporaries are ".<name>.<pid>.<n>.histoscope-tmp" beside the target: hidden, tied to their writer.
constexpr std::string_view kTemporarySuffix = ".histoscope-tmp";
std::atomic<unsigned> temporaryCounter{0};

std::string temporaryPrefix(const fs::path& target) {
    // Appended piece by piece: GCC 12 reports a false -Wrestrict for "." + string + ".".
    std::string prefix(1, '.');
    prefix += target.filename().string();
    prefix += '.';
    return prefix;
}

// Removes the temporaries of `target` whose writer no longer runs (killed mid-write).
void removeStaleTemporaries(const fs::path& target) {
    const std::string prefix = temporaryPrefix(target);
    std::error_code error;
    const fs::path folder = target.parent_path().empty() ? fs::path(".") : target.parent_path();
    for (fs::directory_iterator entry(folder, error), end; !error && entry != end; entry.increment(error)) {
        const std::string name = entry->path().filename().string();
        if (name.size() <= prefix.size() + kTemporarySuffix.size() || !name.starts_with(prefix) ||
            !name.ends_with(kTemporarySuffix))
            continue;
        const std::string pid = name.substr(prefix.size(), name.find('.', prefix.size()) - prefix.size());
        char* parsed = nullptr;
        const long writer = std::strtol(pid.c_str(), &parsed, 10);
        if (!pid.empty() && *parsed == '\0' && writer > 0 && ::kill(static_cast<pid_t>(writer), 0) != 0 &&
            errno == ESRCH) {
            std::error_code ignored;
            fs::remove(entry->path(), ignored);
        }
    }
}

std::string fileKind(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device node";
    return "a special file";
}

}  // namespace

void checkReplaceable(const fs::path& path) {
    struct stat status;
    if (::stat(path.c_str(), &status) != 0 || S_ISREG(status.st_mode)) return;
    throw InputError(path.string() + ": is " + fileKind(status.st_mode) +
                     ", not a regular file; it is left as it is");
}

void writeFileAtomically(const fs::path& path, std::string_view data) {
    const auto failed = [&](int error) {
        return InputError(path.string() + ": cannot write: " + std::strerror(error));
    };
    if (path.empty()) throw InputError("cannot write: an empty path names no file");
    checkReplaceable(path);
    // A symbolic link stays one: its target gets the new contents, as a plain write would give it.
    std::error_code error;
    fs::path target = path;
    if (fs::is_symlink(path, error)) {
        const fs::path canonical = fs::weakly_canonical(path, error);
        if (!error) target = canonical;
    }
    removeStaleTemporaries(target);
    const fs::path temporary = target.parent_path() / (temporaryPrefix(target) + std::to_string(::getpid()) +
                                                       "." + std::to_string(temporaryCounter.fetch_add(1)) +
                                                       std::string(kTemporarySuffix));
    // The umask applies as to any new file; a file being replaced passes its permissions on.
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) throw failed(errno);
    const auto abandon = [&](int errorCode) {
        ::close(fd);
        ::unlink(temporary.c_str());
        return failed(errorCode);
    };
    struct stat previous;
    if (::stat(target.c_str(), &previous) == 0 && ::fchmod(fd, previous.st_mode & 07777) != 0)
        throw abandon(errno);
    for (std::size_t written = 0; written < data.size();) {
        const ssize_t count = ::write(fd, data.data() + written, data.size() - written);
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) throw abandon(errno);
        written += static_cast<std::size_t>(count);
    }
    // A full disk or quota often shows only when the data reaches the disk.
    if (::fdatasync(fd) != 0) throw abandon(errno);
    if (::close(fd) != 0) {
        const int closeError = errno;
        ::unlink(temporary.c_str());
        throw failed(closeError);
    }
    if (::rename(temporary.c_str(), target.c_str()) != 0) {
        const int renameError = errno;
        ::unlink(temporary.c_str());
        throw failed(renameError);
    }
}

std::string readWholeFile(const fs::path& path, std::size_t maxBytes, std::string_view what) {
    const std::string name = path.string();
    std::error_code error;
    const auto size = fs::file_size(path, error);
    if (error)
        throw InputError(name + ": cannot read the " + std::string(what) + " (" + error.message() + ")");
    if (size > maxBytes)
        throw InputError(name + ": " + std::to_string(size) + " bytes is too large for a " +
                         std::string(what));
    std::ifstream file(path, std::ios::binary);
    std::string text(static_cast<std::size_t>(size), '\0');
    if (!file || !file.read(text.data(), static_cast<std::streamsize>(size)))
        throw InputError(name + ": cannot read the " + std::string(what));
    return text;
}

ImageRGBA8 readRawRgba(const fs::path& path, int width, int height) {
    const std::string name = path.string();
    std::ifstream in(path, std::ios::binary | std::ios::ate);
    if (!in) throw InputError(name + ": cannot open the raw RGBA file");
    const auto expected = static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height) * 4;
    const auto actual = static_cast<std::uint64_t>(in.tellg());
    if (actual != expected)
        throw InputError(name + ": holds " + std::to_string(actual) + " bytes, but " + std::to_string(width) +
                         "x" + std::to_string(height) + " RGBA8 pixels need " + std::to_string(expected));
    ImageRGBA8 image(width, height);
    in.seekg(0);
    in.read(reinterpret_cast<char*>(image.pixels.data()), static_cast<std::streamsize>(expected));
    if (!in) throw InputError(name + ": read failed");
    return image;
}

}  // namespace hs::io
