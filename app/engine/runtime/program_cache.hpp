#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
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
// the cache is an accelerator, not a store of record. Folders it creates and its entries are owner-only.
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
    // Counts only lookups made while the cache is enabled.
    Stats stats() const { return {hits_.load(), misses_.load()}; }
    // Records that the driver rejected a binary load() returned; that lookup then counts as both.
    void countMiss() { ++misses_; }

    // The folder for small per-device records that outlive a process (such as `auto` strategy choices); none
    // while the cache is disabled, so that disabling it leaves no file behind.
    std::optional<std::filesystem::path> stateDirectory() const;

  private:
    std::filesystem::path entriesDirectory() const;
    std::filesystem::path entryPath(const std::string& key) const;
    void evictToCap();

    ProgramCacheSettings settings_;
    std::atomic<std::uint64_t> hits_{0};
    std::atomic<std::uint64_t> misses_{0};
};

}  // namespace hs
