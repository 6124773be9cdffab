#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace hs {

// Where compiled program binaries live between runs. fromEnvironment() reads HISTOSCOPE_CACHE_DIR for the
// folder (default $XDG_CACHE_HOME/histoscope, else ~/.cache/histoscope) and HISTOSCOPE_PROGRAM_CACHE, whose
// values 0, off, OFF and false disable the cache, and HISTOSCOPE_PROGRAM_CACHE_MAX for the size cap (bytes,
// or with a K/M/G suffix; a value that is not a size leaves the default).
struct ProgramCacheSettings {
    static constexpr std::uint64_t kDefaultMaxBytes = 64ull * 1024 * 1024;

    bool enabled = true;
    std::filesystem::path directory;
    // The entries together stay within this; the least recently used go first.
    std::uint64_t maxBytes = kDefaultMaxBytes;

    static ProgramCacheSettings fromEnvironment();
};

// Persistent program-binary cache. The key names everything that changes the binary: platform and its
// version, device, driver version, build options and a hash of the source. Each entry carries a checksum of
// its binary; a damaged or mismatching entry is a miss, never an error (nor a binary handed to the driver):
// the cache is an accelerator, not a store of record. Folders it creates and its entries are owner-only, and
// it trusts nothing it did not make: its folder, `programs/` and every entry must be this user's and
// writable by no one else, and no entry may be a symbolic link or anything but a regular file. Otherwise
// it says so once (hs::warn: the file or folder and the reason) and runs as if disabled.
class ProgramCache {
  public:
    struct Stats {
        std::uint64_t hits = 0;
        std::uint64_t misses = 0;
    };

    explicit ProgramCache(ProgramCacheSettings settings);

    const ProgramCacheSettings& settings() const { return settings_; }
    // The binary stored under `key`; nothing (a miss) when the cache is disabled or has no intact entry. A
    // damaged entry is removed; a hit marks the entry as just used.
    std::optional<std::vector<unsigned char>> load(const std::string& key);
    // Written to a temporary file and renamed, so a concurrent reader never sees half an entry. A failed
    // write is ignored: the next process builds from source again. Then evicts least recently used entries
    // until the cache is within its cap.
    void store(const std::string& key, const std::vector<unsigned char>& binary);
    // Enabled, and nothing found that is not to be trusted; checks the folders at the first call. A caller
    // asks before it reads a program's binary for store(): that read makes PoCL compile every kernel of the
    // program once more.
    bool usable();
    // Counts only lookups made while the cache is enabled.
    Stats stats() const { return {hits_.load(), misses_.load()}; }
    // Records that the driver rejected a binary load() returned; that lookup then counts as both.
    void countMiss() { ++misses_; }

    // The folder for small per-device records that outlive a process (such as `auto` strategy choices); none
    // while the cache is disabled or not trusted, so that disabling it leaves no file behind.
    std::optional<std::filesystem::path> stateDirectory();
    // The record `name` in stateDirectory(), read and trusted as the entries are; nothing when it is absent
    // or there is no such folder.
    std::optional<std::string> readState(const std::string& name);
    // Replaces the record `name` (owner-only); a failed write is ignored, as store()'s is.
    void writeState(const std::string& name, const std::string& contents);

  private:
    std::filesystem::path entriesDirectory() const;
    std::filesystem::path entryPath(const std::string& key) const;
    // Creates the folders (owner-only) that `store` and `writeState` write into; false when that failed or
    // they are not to be trusted.
    bool makeFolders(bool entries);
    // Stops using the cache: `path` is not to be trusted for `reason`. Said once per process.
    void distrust(const std::filesystem::path& path, const std::string& reason);
    void evictToCap();

    ProgramCacheSettings settings_;
    std::atomic<std::uint64_t> hits_{0};
    std::atomic<std::uint64_t> misses_{0};
    std::atomic<bool> distrusted_{false};
    std::once_flag foldersChecked_;
};

}  // namespace hs
