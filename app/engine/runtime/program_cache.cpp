#include "runtime/program_cache.hpp"

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <system_error>

#include "util/atomic_file.hpp"
#include "util/hash.hpp"

namespace hs {

namespace {

constexpr std::string_view kMagic = "histoscope-program-binary 1\n";

std::filesystem::path defaultDirectory() {
    if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
        return std::filesystem::path(xdg) / "histoscope";
    if (const char* home = std::getenv("HOME"); home && *home)
        return std::filesystem::path(home) / ".cache" / "histoscope";
    return std::filesystem::temp_directory_path() / "histoscope-cache";
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
    return settings;
}

ProgramCache::ProgramCache(ProgramCacheSettings settings) : settings_(std::move(settings)) {}

std::filesystem::path ProgramCache::entryPath(const std::string& key) const {
    return settings_.directory / "programs" / (toHex(fnv1a64(key)) + ".bin");
}

std::optional<std::filesystem::path> ProgramCache::stateDirectory() const {
    if (!settings_.enabled) return std::nullopt;
    return settings_.directory;
}

std::optional<std::vector<unsigned char>> ProgramCache::load(const std::string& key) {
    if (!settings_.enabled) return std::nullopt;
    std::ifstream in(entryPath(key), std::ios::binary);
    if (!in) {
        ++misses_;
        return std::nullopt;
    }
    // The full key is stored in the entry, so a hash collision reads as a miss rather than a wrong binary.
    std::string magic(kMagic.size(), '\0');
    in.read(magic.data(), static_cast<std::streamsize>(magic.size()));
    std::string storedKey;
    std::getline(in, storedKey, '\0');
    if (!in || magic != kMagic || storedKey != key) {
        ++misses_;
        return std::nullopt;
    }
    std::vector<unsigned char> binary((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (binary.empty()) {
        ++misses_;
        return std::nullopt;
    }
    ++hits_;
    return binary;
}

void ProgramCache::store(const std::string& key, const std::vector<unsigned char>& binary) {
    if (!settings_.enabled || binary.empty()) return;
    const auto path = entryPath(key);
    std::error_code ec;
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) return;
    // A failed write costs a rebuild next time, nothing more: the reason is not worth a caller's attention.
    writeFileAtomically(path, [&](std::ostream& out) {
        out.write(kMagic.data(), static_cast<std::streamsize>(kMagic.size()));
        out.write(key.data(), static_cast<std::streamsize>(key.size()));
        out.put('\0');
        out.write(reinterpret_cast<const char*>(binary.data()), static_cast<std::streamsize>(binary.size()));
    });
}

}  // namespace hs
