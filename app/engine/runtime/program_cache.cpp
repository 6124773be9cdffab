#include "runtime/program_cache.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <system_error>

#include "util/atomic_file.hpp"
#include "util/hash.hpp"

namespace hs {

namespace fs = std::filesystem;

namespace {

// Version 2 adds the checksum line; a version-1 entry reads as damaged and is replaced.
constexpr std::string_view kMagic = "histoscope-program-binary 2\n";
constexpr std::size_t kChecksumDigits = 16;

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
// ours, or read what we compiled. A folder we did not create (HISTOSCOPE_CACHE_DIR=/tmp) is left as it is.
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

std::optional<fs::path> ProgramCache::stateDirectory() const {
    if (!settings_.enabled) return std::nullopt;
    return settings_.directory;
}

std::optional<std::vector<unsigned char>> ProgramCache::load(const std::string& key) {
    if (!settings_.enabled) return std::nullopt;
    const auto path = entryPath(key);
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        ++misses_;
        return std::nullopt;
    }
    // The full key is stored in the entry, so a hash collision reads as a miss rather than a wrong binary.
    std::string magic(kMagic.size(), '\0');
    in.read(magic.data(), static_cast<std::streamsize>(magic.size()));
    std::string storedKey;
    std::getline(in, storedKey, '\0');
    std::string checksum;
    std::getline(in, checksum, '\n');
    if (!in || magic != kMagic || storedKey != key) {
        ++misses_;
        return std::nullopt;
    }
    std::vector<unsigned char> binary((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    in.close();
    // Drivers trust a binary they are handed (PoCL crashed on damaged ones), so nothing unverified reaches
    // them. A damaged entry goes; the rebuilt program replaces it.
    if (binary.empty() || checksum.size() != kChecksumDigits || checksum != checksumOf(binary)) {
        removeQuietly(path);
        ++misses_;
        return std::nullopt;
    }
    // The modification time is the entry's last use, for the least-recently-used eviction in store().
    std::error_code ignored;
    fs::last_write_time(path, fs::file_time_type::clock::now(), ignored);
    ++hits_;
    return binary;
}

void ProgramCache::store(const std::string& key, const std::vector<unsigned char>& binary) {
    if (!settings_.enabled || binary.empty()) return;
    std::error_code ec;
    fs::create_directories(settings_.directory.parent_path(), ec);
    if (!makePrivateDirectory(settings_.directory) || !makePrivateDirectory(entriesDirectory())) return;
    // A failed write costs a rebuild next time, nothing more: the reason is not worth a caller's attention.
    replaceCacheFile(
        entryPath(key),
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
        if (item.path().extension() != ".bin" || !item.is_regular_file(statError)) continue;
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
