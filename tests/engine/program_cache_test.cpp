// The persistent program cache as an untrusted store: damaged entries are misses (and rebuilt), entries are
// private to their owner, and the folder stays under its size cap by evicting the least recently used entry.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "engine/runtime/program_cache.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs {
namespace {

namespace fs = std::filesystem;

fs::path freshCacheDir(const std::string& name) {
    auto dir = fs::temp_directory_path() /
               ("histoscope-cache-test-" + name + "-" + std::to_string(std::random_device{}()));
    fs::remove_all(dir);
    return dir;
}

std::vector<fs::path> entries(const fs::path& cacheDir) {
    std::vector<fs::path> found;
    if (!fs::exists(cacheDir / "programs")) return found;
    for (const auto& entry : fs::directory_iterator(cacheDir / "programs")) found.push_back(entry.path());
    return found;
}

// Flips `count` bytes `fromEnd` bytes before the end of `path`: inside the stored binary, past the header.
void damage(const fs::path& path, std::uintmax_t fromEnd, int count) {
    std::fstream file(path, std::ios::binary | std::ios::in | std::ios::out);
    ASSERT_TRUE(file);
    const auto size = fs::file_size(path);
    ASSERT_GT(size, fromEnd);
    for (int i = 0; i < count; ++i) {
        const auto at = static_cast<std::streamoff>(size - fromEnd + static_cast<std::uintmax_t>(i));
        file.seekg(at);
        const char original = static_cast<char>(file.get());
        file.seekp(at);
        file.put(static_cast<char>(~original));
    }
}

std::vector<unsigned char> bytes(std::size_t size, unsigned char seed) {
    std::vector<unsigned char> data(size);
    for (std::size_t i = 0; i < size; ++i) data[i] = static_cast<unsigned char>(seed + i * 7);
    return data;
}

TEST(ProgramCacheIntegrity, DamagedBinaryIsAMissAndTheFileIsGone) {
    const ProgramCacheSettings settings{true, freshCacheDir("damaged")};
    ProgramCache cache(settings);
    const auto binary = bytes(4096, 3);
    cache.store("key", binary);
    ASSERT_EQ(cache.load("key"), binary);
    const auto stored = entries(settings.directory);
    ASSERT_EQ(stored.size(), 1u);
    damage(stored.front(), 1000, 1);
    EXPECT_EQ(cache.load("key"), std::nullopt) << "a damaged binary must never reach the driver";
    EXPECT_TRUE(entries(settings.directory).empty()) << "the damaged entry is removed";
    EXPECT_EQ(cache.stats().hits, 1u);
    EXPECT_EQ(cache.stats().misses, 1u);
    // A truncated entry is damaged too.
    cache.store("key", binary);
    fs::resize_file(entries(settings.directory).front(),
                    fs::file_size(entries(settings.directory).front()) - 1);
    EXPECT_EQ(cache.load("key"), std::nullopt);
    fs::remove_all(settings.directory);
}

const char* kTinyKernel = "__kernel void add_one(__global int* v) { v[get_global_id(0)] += 1; }";

int addOneTwice(DeviceContext& device, const cl::Program& program) {
    cl::Buffer buffer(device.context(), CL_MEM_READ_WRITE, sizeof(int) * 4);
    const int start[4] = {40, 40, 40, 40};
    device.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, sizeof start, start);
    cl::Kernel kernel(program, "add_one");
    kernel.setArg(0, buffer);
    device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(4));
    device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(4));
    int out[4] = {};
    device.queue().enqueueReadBuffer(buffer, CL_TRUE, 0, sizeof out, out);
    return out[2];
}

TEST(ProgramCacheIntegrity, DamagedProgramIsRebuiltAndRewritten) {
    const ProgramCacheSettings settings{true, freshCacheDir("rebuild")};
    {
        Runtime first(settings);
        first.open("0:0").programFromText("tiny", kTinyKernel, "");
    }
    const auto stored = entries(settings.directory);
    ASSERT_EQ(stored.size(), 1u);
    // Bytes in the middle of the driver's binary, where a loader without checks crashed.
    damage(stored.front(), fs::file_size(stored.front()) / 2, 64);
    {
        Runtime second(settings);
        auto& device = second.open("0:0");
        const auto program = device.programFromText("tiny", kTinyKernel, "");
        EXPECT_EQ(device.sourceBuilds(), 1u) << "the damaged entry must be rebuilt from source";
        EXPECT_EQ(addOneTwice(device, program), 42);
    }
    {
        Runtime third(settings);
        auto& device = third.open("0:0");
        const auto program = device.programFromText("tiny", kTinyKernel, "");
        EXPECT_EQ(device.sourceBuilds(), 0u) << "the rebuilt binary was written back";
        EXPECT_EQ(addOneTwice(device, program), 42);
    }
    fs::remove_all(settings.directory);
}

TEST(ProgramCacheIntegrity, EntriesAndFoldersAreOwnerOnly) {
    const ProgramCacheSettings settings{true, freshCacheDir("private")};
    const mode_t previous = umask(022);  // the usual umask, which leaves new files readable by all
    ProgramCache cache(settings);
    cache.store("key", bytes(100, 1));
    umask(previous);
    const auto stored = entries(settings.directory);
    ASSERT_EQ(stored.size(), 1u);
    EXPECT_EQ(fs::status(stored.front()).permissions(), fs::perms::owner_read | fs::perms::owner_write);
    EXPECT_EQ(fs::status(settings.directory / "programs").permissions(), fs::perms::owner_all);
    EXPECT_EQ(fs::status(settings.directory).permissions(), fs::perms::owner_all);
    fs::remove_all(settings.directory);
}

TEST(ProgramCacheIntegrity, CapEvictsTheLeastRecentlyUsedEntry) {
    ProgramCacheSettings settings{true, freshCacheDir("cap")};
    ProgramCache probe(settings);
    probe.store("probe", bytes(10'000, 0));
    const auto entryBytes = fs::file_size(entries(settings.directory).front());
    fs::remove_all(settings.directory);
    // Room for two entries of this size, not three.
    settings.maxBytes = 2 * entryBytes + entryBytes / 2;
    ProgramCache cache(settings);
    const auto path = [&](const std::string& key) {
        for (const auto& entry : entries(settings.directory)) {
            std::ifstream in(entry, std::ios::binary);
            std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
            if (text.find(key + '\0') != std::string::npos) return entry;
        }
        return fs::path();
    };
    cache.store("old", bytes(10'000, 1));
    cache.store("older", bytes(10'000, 2));
    ASSERT_EQ(entries(settings.directory).size(), 2u);
    // Ages set by hand: "older" was used an hour before "old".
    const auto now = fs::file_time_type::clock::now();
    fs::last_write_time(path("old"), now - std::chrono::hours(1));
    fs::last_write_time(path("older"), now - std::chrono::hours(2));
    // A hit makes "older" the most recently used, so "old" goes when a third entry arrives.
    ASSERT_TRUE(cache.load("older"));
    cache.store("new", bytes(10'000, 3));
    EXPECT_EQ(entries(settings.directory).size(), 2u);
    EXPECT_TRUE(cache.load("older"));
    EXPECT_TRUE(cache.load("new"));
    EXPECT_FALSE(cache.load("old")) << "the least recently used entry is evicted";
    fs::remove_all(settings.directory);
}

TEST(ProgramCacheIntegrity, CapComesFromTheEnvironment) {
    ASSERT_EQ(setenv("HISTOSCOPE_PROGRAM_CACHE_MAX", "12345", 1), 0);
    EXPECT_EQ(ProgramCacheSettings::fromEnvironment().maxBytes, 12345u);
    ASSERT_EQ(setenv("HISTOSCOPE_PROGRAM_CACHE_MAX", "3M", 1), 0);
    EXPECT_EQ(ProgramCacheSettings::fromEnvironment().maxBytes, 3u * 1024 * 1024);
    unsetenv("HISTOSCOPE_PROGRAM_CACHE_MAX");
    EXPECT_EQ(ProgramCacheSettings::fromEnvironment().maxBytes, 64u * 1024 * 1024);
}

}  // namespace
}  // namespace hs
