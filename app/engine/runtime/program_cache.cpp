#include "runtime/program_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <system_error>

#include "runtime/atomic_file.hpp"
#include "runtime/error.hpp"
#include "util/hash.hpp"

namespace hs {

namespace fs = std::filesystem;

namespace {

// Version 2 adds the checksum line; a version-1 entry reads as damaged and is replaced.
constexpr std::string_view kMagic = "histoscope-program-binary 2\n";
constexpr std::size_t kChecksumDigits = 16;
// A record of stateDirectory() (auto's choices: a line per device and size class) is far smaller.
constexpr std::uint64_t kMaxStateBytes = 1 << 20;

fs::path defaultDirectory() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return fs::path(xdg) / "histoscope";
    if (const char* home = std::getenv("HOME"); home && *home)
        return fs::path(home) / ".cache" / "histoscope";
    return fs::temp_directory_path() / "histoscope-cache";
}

std::string checksumOf(const std::vector<unsigned char>& binary) {
    return toHex(fnv1a64(std::string_view(reinterpret_cast<const char*>(binary.data()), binary.size())));
}

// "67108864", "64M", "512K", "1G" (binary multiples); nothing for anything else.
std::optional<std::uint64_t> parseByteCount(std::string_view text) {
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end == text.data()) return std::nullopt;
    const std::string_view suffix(end, static_cast<std::size_t>(text.data() + text.size() - end));
    int shift = 0;
    if (suffix == "K" || suffix == "k")
        shift = 10;
    else if (suffix == "M" || suffix == "m")
        shift = 20;
    else if (suffix == "G" || suffix == "g")
        shift = 30;
    else if (!suffix.empty())
        return std::nullopt;
    if (value > (std::uint64_t{1} << (63 - shift))) return std::nullopt;
    return value << shift;
}

// Compiled programs are private to their user: another account could otherwise plant a binary that runs as
// ours, or read what we compiled. A folder we did not create is left as it is, and used only if trusted.
bool makePrivateDirectory(const fs::path& directory) {
    std::error_code ec;
    if (fs::create_directory(directory, ec)) {
        fs::permissions(directory, fs::perms::owner_all, ec);
        return !ec;
    }
    return !ec && fs::is_directory(directory, ec);
}

void removeQuietly(const fs::path& path) {
    std::error_code ignored;
    fs::remove(path, ignored);
}

}  // namespace

ProgramCacheSettings ProgramCacheSettings::fromEnvironment() {
    ProgramCacheSettings settings;
    if (const char* dir = std::getenv("HISTOSCOPE_CACHE_DIR"); dir && *dir)
        settings.directory = dir;
    else
        settings.directory = defaultDirectory();
    if (const char* flag = std::getenv("HISTOSCOPE_PROGRAM_CACHE"); flag) {
        const std::string value(flag);
        settings.enabled = !(value == "0" || value == "off" || value == "OFF" || value == "false");
    }
    if (const char* cap = std::getenv("HISTOSCOPE_PROGRAM_CACHE_MAX"); cap && *cap) {
        if (const auto bytes = parseByteCount(cap)) settings.maxBytes = *bytes;
    }
    return settings;
}

ProgramCache::ProgramCache(ProgramCacheSettings settings) : settings_(std::move(settings)) {}

fs::path ProgramCache::entriesDirectory() const {
    return settings_.directory / "programs";
}

fs::path ProgramCache::entryPath(const std::string& key) const {
    return entriesDirectory() / (toHex(fnv1a64(key)) + ".bin");
}

bool ProgramCache::usable() {
    if (!settings_.enabled) return false;
    std::call_once(foldersChecked_, [this] {
        if (const auto reason = cacheFolderDistrust(settings_.directory, true); !reason.empty())
            distrust(settings_.directory, reason);
        else if (const auto inside = cacheFolderDistrust(entriesDirectory(), false); !inside.empty())
            distrust(entriesDirectory(), inside);
    });
    return !distrusted_;
}

void ProgramCache::distrust(const fs::path& path, const std::string& reason) {
    distrusted_ = true;
    // Once per process: every cache of a process (one per Runtime) shares the folder.
    static std::atomic<bool> said{false};
    if (said.exchange(true)) return;
    warn(path.string() + ": " + reason +
         "; the program cache is not used (it trusts only this user's files, writable by no one else)");
}

bool ProgramCache::makeFolders(bool entries) {
    std::error_code ec;
    fs::create_directories(settings_.directory.parent_path(), ec);
    if (!makePrivateDirectory(settings_.directory) || (entries && !makePrivateDirectory(entriesDirectory())))
        return false;
    // Made by someone else between the first check and now.
    if (const auto reason = cacheFolderDistrust(settings_.directory, true); !reason.empty()) {
        distrust(settings_.directory, reason);
        return false;
    }
    if (const auto reason = entries ? cacheFolderDistrust(entriesDirectory(), false) : std::string();
        !reason.empty()) {
        distrust(entriesDirectory(), reason);
        return false;
    }
    return true;
}

std::optional<fs::path> ProgramCache::stateDirectory() {
    if (!usable()) return std::nullopt;
    return settings_.directory;
}

std::optional<std::string> ProgramCache::readState(const std::string& name) {
    if (!usable()) return std::nullopt;
    const fs::path path = settings_.directory / name;
    CacheFile file = readCacheFile(path, kMaxStateBytes);
    if (!file.distrust.empty()) distrust(path, file.distrust);
    return file.contents;
}

void ProgramCache::writeState(const std::string& name, const std::string& contents) {
    if (!usable() || !makeFolders(false)) return;
    const fs::path path = settings_.directory / name;
    if (const auto reason = cacheFileDistrust(path); !reason.empty()) return distrust(path, reason);
    // Owner-only whatever the umask: a record the group could write would not be trusted when read back.
    replaceCacheFile(
        path, [&](std::ostream& out) { out << contents; }, fs::perms::owner_read | fs::perms::owner_write);
}

std::optional<std::vector<unsigned char>> ProgramCache::load(const std::string& key) {
    if (!usable()) return std::nullopt;
    const auto path = entryPath(key);
    const CacheFile file = readCacheFile(path, settings_.maxBytes);
    if (!file.distrust.empty()) distrust(path, file.distrust);
    if (!file.contents) {
        ++misses_;
        return std::nullopt;
    }
    // The full key is stored in the entry, so a hash collision reads as a miss rather than a wrong binary.
    const std::string_view text = *file.contents;
    const std::size_t keyEnd = text.find('\0', kMagic.size());
    const std::size_t checksumEnd = keyEnd == std::string_view::npos ? keyEnd : text.find('\n', keyEnd + 1);
    if (!text.starts_with(kMagic) || checksumEnd == std::string_view::npos ||
        text.substr(kMagic.size(), keyEnd - kMagic.size()) != key) {
        ++misses_;
        return std::nullopt;
    }
    const std::string_view checksum = text.substr(keyEnd + 1, checksumEnd - keyEnd - 1);
    const std::string_view stored = text.substr(checksumEnd + 1);
    std::vector<unsigned char> binary(stored.begin(), stored.end());
    // Drivers trust a binary they are handed (PoCL crashed on damaged ones), so nothing unverified reaches
    // them. A damaged entry goes; the rebuilt program replaces it.
    if (binary.empty() || checksum.size() != kChecksumDigits || checksum != checksumOf(binary)) {
        removeQuietly(path);
        ++misses_;
        return std::nullopt;
    }
    // The modification time is the entry's last use, for the least-recently-used eviction in store(); the
    // entry itself, never what a link planted since would lead to.
    ::utimensat(AT_FDCWD, path.c_str(), nullptr, AT_SYMLINK_NOFOLLOW);
    ++hits_;
    return binary;
}

void ProgramCache::store(const std::string& key, const std::vector<unsigned char>& binary) {
    if (!usable() || binary.empty() || !makeFolders(true)) return;
    const auto path = entryPath(key);
    if (const auto reason = cacheFileDistrust(path); !reason.empty()) return distrust(path, reason);
    // A failed write costs a rebuild next time, nothing more: the reason is not worth a caller's attention.
    replaceCacheFile(
        path,
        [&](std::ostream& out) {
            out.write(kMagic.data(), static_cast<std::streamsize>(kMagic.size()));
            out.write(key.data(), static_cast<std::streamsize>(key.size()));
            out.put('\0');
            out << checksumOf(binary) << '\n';
            out.write(reinterpret_cast<const char*>(binary.data()),
                      static_cast<std::streamsize>(binary.size()));
        },
        fs::perms::owner_read | fs::perms::owner_write);
    evictToCap();
}

void ProgramCache::evictToCap() {
    struct Entry {
        fs::path path;
        std::uintmax_t bytes;
        fs::file_time_type lastUse;
    };
    std::vector<Entry> entries;
    std::uintmax_t total = 0;
    std::error_code ec;
    for (const auto& item : fs::directory_iterator(entriesDirectory(), ec)) {
        std::error_code statError;
        // Only the cache's own entries: nothing is followed or counted through a link.
        if (item.path().extension() != ".bin" ||
            item.symlink_status(statError).type() != fs::file_type::regular)
            continue;
        Entry entry{item.path(), item.file_size(statError), item.last_write_time(statError)};
        if (statError) continue;  // removed meanwhile by another process
        total += entry.bytes;
        entries.push_back(std::move(entry));
    }
    if (total <= settings_.maxBytes) return;
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.lastUse < b.lastUse; });
    for (const auto& entry : entries) {
        if (total <= settings_.maxBytes) break;
        removeQuietly(entry.path);
        total -= entry.bytes;
    }
}

}  // namespace hs
