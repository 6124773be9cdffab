#include "util/atomic_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <sstream>
#include <system_error>

#include "runtime/error.hpp"

namespace hs {

namespace fs = std::filesystem;

namespace {

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

void writeFileAtomically(const fs::path& path, std::string_view data, std::optional<fs::perms> permissions) {
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
    if (permissions) {
        if (::fchmod(fd, static_cast<mode_t>(*permissions) & 07777) != 0) throw abandon(errno);
    } else if (::stat(target.c_str(), &previous) == 0 && ::fchmod(fd, previous.st_mode & 07777) != 0) {
        throw abandon(errno);
    }
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

std::string replaceCacheFile(const fs::path& path, const std::function<void(std::ostream&)>& write,
                             std::optional<fs::perms> permissions) {
    std::ostringstream contents;
    write(contents);
    try {
        writeFileAtomically(path, std::move(contents).str(), permissions);
    } catch (const InputError& error) {
        return error.what();
    }
    return {};
}

}  // namespace hs
