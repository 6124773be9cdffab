#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/atomic_file.hpp"

namespace hs {
namespace {

class AtomicFile : public ::testing::Test {
  protected:
    void SetUp() override {
        directory_ = std::filesystem::temp_directory_path() /
                     ("histoscope-atomic-" + std::to_string(std::random_device{}()));
        std::filesystem::create_directories(directory_);
    }
    void TearDown() override { std::filesystem::remove_all(directory_); }

    static std::string contents(const std::filesystem::path& path) {
        std::ifstream in(path, std::ios::binary);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }
    // Every name in the folder: a leftover temporary file would show here.
    std::vector<std::string> names() const {
        std::vector<std::string> found;
        for (const auto& entry : std::filesystem::directory_iterator(directory_))
            found.push_back(entry.path().filename().string());
        std::sort(found.begin(), found.end());
        return found;
    }
    static auto writing(std::string text) {
        return [text = std::move(text)](std::ostream& out) { out << text; };
    }

    std::filesystem::path directory_;
};

TEST_F(AtomicFile, CreatesAndThenReplacesTheWholeFile) {
    const auto path = directory_ / "state.txt";
    EXPECT_EQ(replaceCacheFile(path, writing("first version, longer than the second\n")), "");
    EXPECT_EQ(contents(path), "first version, longer than the second\n");
    EXPECT_EQ(replaceCacheFile(path, writing(std::string("second\0binary", 13))), "");
    EXPECT_EQ(contents(path), std::string("second\0binary", 13));
    EXPECT_EQ(names(), std::vector<std::string>{"state.txt"});
}

TEST_F(AtomicFile, AMissingFolderIsAReasonNotAnException) {
    const auto path = directory_ / "missing" / "state.txt";
    const std::string reason = replaceCacheFile(path, writing("text"));
    EXPECT_EQ(reason, path.string() + ": cannot write: No such file or directory");
    EXPECT_TRUE(names().empty());
}

TEST_F(AtomicFile, WhatCannotBeReplacedStaysAsItWas) {
    const auto path = directory_ / "occupied";
    std::filesystem::create_directories(path / "inside");
    const std::string reason = replaceCacheFile(path, writing("text"));
    EXPECT_EQ(reason, path.string() + ": is a folder, not a regular file; it is left as it is");
    EXPECT_TRUE(std::filesystem::is_directory(path / "inside"));
    EXPECT_EQ(names(), std::vector<std::string>{"occupied"});
}

TEST_F(AtomicFile, AFailingWriterLeavesTheOldFileAndNoTemporary) {
    const auto path = directory_ / "state.txt";
    ASSERT_EQ(replaceCacheFile(path, writing("old")), "");
    EXPECT_THROW(replaceCacheFile(path,
                                  [](std::ostream& out) {
                                      out << "half of the new";
                                      throw std::runtime_error("the writer gave up");
                                  }),
                 std::runtime_error);
    EXPECT_EQ(contents(path), "old");
    EXPECT_EQ(names(), std::vector<std::string>{"state.txt"});
}

}  // namespace
}  // namespace hs
