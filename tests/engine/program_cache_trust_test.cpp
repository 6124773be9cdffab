// The program cache trusts nothing it did not make (issue 21, item 5): a symbolic link inside it is never
// followed, a folder or entry others can write (or that is another user's) is not used, a FIFO entry does not
// hang, and `auto`'s remembered choices, which live in the same folder, are held to the same rule.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "engine/runtime/program_cache.hpp"

namespace hs {
namespace {

namespace fs = std::filesystem;

std::string contents(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class ProgramCacheTrust : public ::testing::Test {
  protected:
    void SetUp() override {
        root_ =
            fs::temp_directory_path() / ("histoscope-cache-trust-" + std::to_string(std::random_device{}()));
        fs::create_directories(root_);
        ::chmod(root_.c_str(), 0700);
    }
    void TearDown() override {
        std::error_code ignored;
        fs::permissions(directory(), fs::perms::owner_all, ignored);
        fs::remove_all(root_);
    }

    fs::path directory() const { return root_ / "cache"; }
    ProgramCacheSettings settings() const { return {true, directory()}; }
    // The one entry a fresh cache wrote for `key`.
    fs::path storedEntry(const std::string& key) {
        ProgramCache(settings()).store(key, binary_);
        std::vector<fs::path> found;
        for (const auto& entry : fs::directory_iterator(directory() / "programs"))
            found.push_back(entry.path());
        EXPECT_EQ(found.size(), 1u);
        return found.empty() ? fs::path() : found.front();
    }
    fs::path outside(const std::string& text) {
        const fs::path path = root_ / "outside.txt";
        std::ofstream(path) << text;
        return path;
    }

    const std::vector<unsigned char> binary_ = std::vector<unsigned char>(4096, 7);

  private:
    fs::path root_;
};

TEST_F(ProgramCacheTrust, ASymbolicLinkEntryIsNeitherReadNorWrittenThrough) {
    const fs::path entry = storedEntry("key");
    // The planted link leads to a valid entry outside the cache, and to a file the next store would
    // overwrite.
    const fs::path planted = outside(contents(entry));
    fs::remove(entry);
    fs::create_symlink(planted, entry);
    const std::string before = contents(planted);
    ProgramCache cache(settings());
    EXPECT_EQ(cache.load("key"), std::nullopt);
    cache.store("key", std::vector<unsigned char>(100, 1));
    EXPECT_EQ(contents(planted), before);
    EXPECT_TRUE(fs::is_symlink(entry));
    // The cache is then not used at all, `auto`'s records included.
    EXPECT_EQ(cache.stateDirectory(), std::nullopt);
}

TEST_F(ProgramCacheTrust, FoldersOthersCanWriteAreNotUsed) {
    for (const bool inner : {false, true}) {
        SCOPED_TRACE(inner ? "programs/" : "the cache's folder");
        storedEntry("key");
        const fs::path folder = inner ? directory() / "programs" : directory();
        fs::permissions(folder, fs::perms::all);
        ProgramCache cache(settings());
        EXPECT_EQ(cache.load("key"), std::nullopt) << "an entry anyone could have planted is not loaded";
        EXPECT_EQ(cache.stats().hits, 0u);
        EXPECT_EQ(cache.stateDirectory(), std::nullopt);
        fs::permissions(folder, fs::perms::owner_all);
        fs::remove_all(directory());
    }
}

TEST_F(ProgramCacheTrust, AnEntryOthersCanWriteIsNotLoaded) {
    const fs::path entry = storedEntry("key");
    ASSERT_EQ(ProgramCache(settings()).load("key"), binary_);
    fs::permissions(entry, fs::perms::owner_read | fs::perms::owner_write | fs::perms::others_write);
    EXPECT_EQ(ProgramCache(settings()).load("key"), std::nullopt);
    fs::permissions(entry, fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_write);
    EXPECT_EQ(ProgramCache(settings()).load("key"), std::nullopt);
}

TEST_F(ProgramCacheTrust, AFifoEntryIsAMissNotAHang) {
    const fs::path entry = storedEntry("key");
    fs::remove(entry);
    ASSERT_EQ(::mkfifo(entry.c_str(), 0600), 0);
    ProgramCache cache(settings());
    EXPECT_EQ(cache.load("key"), std::nullopt);
    cache.store("key", binary_);
    EXPECT_TRUE(fs::is_fifo(entry)) << "what the cache did not make, it leaves as it is";
}

TEST_F(ProgramCacheTrust, AnotherUsersFolderIsNotUsed) {
    if (::geteuid() != 0) GTEST_SKIP() << "giving a folder to another user takes root";
    storedEntry("key");
    ASSERT_EQ(::chown((directory() / "programs").c_str(), 65534, 65534), 0);  // nobody
    ProgramCache cache(settings());
    EXPECT_EQ(cache.load("key"), std::nullopt);
    EXPECT_EQ(cache.stateDirectory(), std::nullopt);
}

TEST_F(ProgramCacheTrust, RecordsAreHeldToTheSameRule) {
    ProgramCache writer(settings());
    writer.writeState("record.txt", "device\t20\tlocal-atomic\n");
    EXPECT_EQ(ProgramCache(settings()).readState("record.txt"), "device\t20\tlocal-atomic\n");
    EXPECT_EQ(fs::status(directory() / "record.txt").permissions() & fs::perms::all,
              fs::perms::owner_read | fs::perms::owner_write)
        << "owner-only whatever the umask, or it would not be trusted when read back";

    const fs::path planted = outside("someone else's\n");
    fs::remove(directory() / "record.txt");
    fs::create_symlink(planted, directory() / "record.txt");
    ProgramCache cache(settings());
    EXPECT_EQ(cache.readState("record.txt"), std::nullopt);
    cache.writeState("record.txt", "overwritten\n");
    EXPECT_EQ(contents(planted), "someone else's\n");

    fs::remove(directory() / "record.txt");
    ASSERT_EQ(::mkfifo((directory() / "record.txt").c_str(), 0600), 0);
    EXPECT_EQ(ProgramCache(settings()).readState("record.txt"), std::nullopt);
}

TEST_F(ProgramCacheTrust, ATrustedCacheStillHits) {
    storedEntry("key");
    ProgramCache cache(settings());
    EXPECT_EQ(cache.load("key"), binary_);
    EXPECT_EQ(cache.stats().hits, 1u);
    EXPECT_EQ(cache.stateDirectory(), directory());
}

}  // namespace
}  // namespace hs
