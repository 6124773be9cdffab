#include "engine/runtime/atomic_file.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <sstream>
#include <system_error>

#include "engine/runtime/error.hpp"

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

// A write's temporary, for the handler of SIGINT, SIGTERM and SIGHUP to remove before the process ends: an
// interrupted write leaves the previous file and nothing beside it. Fixed slots, since a handler may not
// allocate; a path too long for one (or a 17th concurrent write) is not registered and is then left for the
// next write to that name, as a killed writer's is.
constexpr std::size_t kSlotPathBytes = 4096;
struct TemporarySlot {
    std::atomic<bool> taken{false};
    std::atomic<bool> live{false};
    std::array<char, kSlotPathBytes> path{};
};
std::array<TemporarySlot, 16> temporarySlots;

constexpr std::array<int, 3> kInterruptSignals{SIGINT, SIGTERM, SIGHUP};

// Async-signal-safe: unlink and sigaction only. The signal stays blocked while its handler runs, so the
// raise() takes effect, with the default action, once the handler returns.
extern "C" void removeTemporariesThenDie(int signal) {
    for (auto& slot : temporarySlots) {
        if (slot.live.load()) ::unlink(slot.path.data());
    }
    struct sigaction action {};
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    ::sigaction(signal, &action, nullptr);
    ::raise(signal);
}

}  // namespace

// Once per process, for the signals whose action is still the default (ending the process): one the program
// ignores or handles itself is left to it.
void removeTemporariesOnInterrupt() {
    static std::once_flag installed;
    std::call_once(installed, [] {
        for (const int signal : kInterruptSignals) {
            struct sigaction current {};
            if (::sigaction(signal, nullptr, &current) != 0 || current.sa_handler != SIG_DFL ||
                (current.sa_flags & SA_SIGINFO) != 0)
                continue;
            struct sigaction action {};
            action.sa_handler = removeTemporariesThenDie;
            sigemptyset(&action.sa_mask);
            ::sigaction(signal, &action, nullptr);
        }
    });
}

namespace {

// Holds a slot for `temporary` from before it is created until it is renamed or removed.
class RegisteredTemporary {
  public:
    explicit RegisteredTemporary(const fs::path& temporary) {
        const std::string& text = temporary.native();
        if (text.size() >= kSlotPathBytes) return;
        removeTemporariesOnInterrupt();
        for (auto& slot : temporarySlots) {
            bool expected = false;
            if (!slot.taken.compare_exchange_strong(expected, true)) continue;
            std::memcpy(slot.path.data(), text.c_str(), text.size() + 1);
            slot.live.store(true);
            slot_ = &slot;
            return;
        }
    }
    ~RegisteredTemporary() {
        if (slot_ == nullptr) return;
        slot_->live.store(false);
        slot_->taken.store(false);
    }
    RegisteredTemporary(const RegisteredTemporary&) = delete;
    RegisteredTemporary& operator=(const RegisteredTemporary&) = delete;

  private:
    TemporarySlot* slot_ = nullptr;
};

std::string fileKind(mode_t mode) {
    if (S_ISREG(mode)) return "a regular file";
    if (S_ISLNK(mode)) return "a symbolic link";
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device node";
    return "a special file";
}

std::string kindProblem(const fs::path& path, mode_t mode) {
    return path.string() + ": is " + fileKind(mode) + ", not a regular file; it is left as it is";
}

// Where a write through `path` lands: `path`, or the file its symbolic links lead to, followed as open()
// follows them, so that a dangling link's target is created (as the shell's `>` creates it) and the link
// stays.
fs::path linkTarget(const fs::path& path) {
    fs::path target = path;
    // Linux's limit on the links one path resolution follows.
    for (int hops = 0; hops < 40; ++hops) {
        std::error_code error;
        if (!fs::is_symlink(target, error)) return target;
        const fs::path next = fs::read_symlink(target, error);
        if (error) return target;
        target = next.is_absolute() ? next : target.parent_path() / next;
    }
    throw InputError(path.string() + ": cannot write: " + std::strerror(ELOOP));
}

enum class Links { WriteThrough, Replace };

std::string distrustOf(const struct stat& status, bool folder) {
    if (S_ISLNK(status.st_mode)) return "is a symbolic link";
    if (folder ? !S_ISDIR(status.st_mode) : !S_ISREG(status.st_mode))
        return "is " + fileKind(status.st_mode) + ", not " + (folder ? "a folder" : "a regular file");
    if (status.st_uid != ::geteuid())
        return "belongs to user " + std::to_string(status.st_uid) + ", not to this user (" +
               std::to_string(::geteuid()) + ")";
    const bool group = (status.st_mode & S_IWGRP) != 0, others = (status.st_mode & S_IWOTH) != 0;
    if (group || others) {
        char mode[8];
        std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(status.st_mode & 07777));
        return std::string("is writable by ") +
               (group && others ? "its group and others"
                : group         ? "its group"
                                : "others") +
               " (mode " + mode + ")";
    }
    return {};
}

void writeAtomically(const fs::path& path, std::string_view data, std::optional<fs::perms> permissions,
                     Links links) {
    const auto failed = [&](int error) {
        return InputError(path.string() + ": cannot write: " + std::strerror(error));
    };
    if (path.empty()) throw InputError("cannot write: an empty path names no file");
    fs::path target = path;
    if (links == Links::WriteThrough) {
        checkReplaceable(path);
        target = linkTarget(path);
    } else {
        // A cache's entry is replaced whatever it is (a symbolic link too: the link goes, its target stays
        // untouched), but a folder, FIFO or device is not ours to remove.
        struct stat status;
        if (::lstat(path.c_str(), &status) == 0 && !S_ISREG(status.st_mode) && !S_ISLNK(status.st_mode))
            throw InputError(kindProblem(path, status.st_mode));
    }
    removeStaleTemporaries(target);
    const fs::path temporary = target.parent_path() / (temporaryPrefix(target) + std::to_string(::getpid()) +
                                                       "." + std::to_string(temporaryCounter.fetch_add(1)) +
                                                       std::string(kTemporarySuffix));
    const RegisteredTemporary registered(temporary);
    // The umask applies as to any new file; a file being replaced passes its permissions on. O_EXCL with
    // O_CREAT follows no link: a name planted where the temporary goes fails the write.
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
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

}  // namespace

void checkReplaceable(const fs::path& path) {
    struct stat status;
    if (::stat(path.c_str(), &status) != 0 || S_ISREG(status.st_mode)) return;
    throw InputError(kindProblem(path, status.st_mode));
}

void writeFileAtomically(const fs::path& path, std::string_view data, std::optional<fs::perms> permissions) {
    writeAtomically(path, data, permissions, Links::WriteThrough);
}

std::string replaceCacheFile(const fs::path& path, const std::function<void(std::ostream&)>& write,
                             std::optional<fs::perms> permissions) {
    std::ostringstream contents;
    write(contents);
    try {
        writeAtomically(path, std::move(contents).str(), permissions, Links::Replace);
    } catch (const InputError& error) {
        return error.what();
    }
    return {};
}

std::string cacheFolderDistrust(const fs::path& path, bool followLink) {
    struct stat status;
    if ((followLink ? ::stat(path.c_str(), &status) : ::lstat(path.c_str(), &status)) != 0) return {};
    return distrustOf(status, true);
}

std::string cacheFileDistrust(const fs::path& path) {
    struct stat status;
    if (::lstat(path.c_str(), &status) != 0) return {};
    return distrustOf(status, false);
}

CacheFile readCacheFile(const fs::path& path, std::uint64_t maxBytes) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) return {std::nullopt, errno == ELOOP ? "is a symbolic link" : ""};
    CacheFile file;
    struct stat status;
    if (::fstat(fd, &status) != 0) {
        ::close(fd);
        return file;
    }
    file.distrust = distrustOf(status, false);
    if (file.distrust.empty() && static_cast<std::uint64_t>(status.st_size) <= maxBytes) {
        std::string contents(static_cast<std::size_t>(status.st_size), '\0');
        std::size_t done = 0;
        while (done < contents.size()) {
            const ssize_t count = ::read(fd, contents.data() + done, contents.size() - done);
            if (count < 0 && errno == EINTR) continue;
            if (count <= 0) break;
            done += static_cast<std::size_t>(count);
        }
        // Another process may have replaced it meanwhile: a short read is a damaged entry, which the
        // checksum finds.
        contents.resize(done);
        file.contents = std::move(contents);
    }
    ::close(fd);
    return file;
}

}  // namespace hs
