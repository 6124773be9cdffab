// Issue 21, item 13: a write interrupted by SIGINT or SIGTERM leaves no hidden full-size temporary beside
// its target, and what the writer does with symbolic links (a user's output is written through, a dangling
// link's target created; a cache file's link is replaced, its target untouched).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "runtime/atomic_file.hpp"

namespace {

// The signal the next fdatasync() of this process raises before it syncs: the writer's temporary is then
// complete on disk and not yet renamed, the moment an interrupted write of a large file most likely meets.
volatile sig_atomic_t signalDuringSync = 0;

}  // namespace

// This test program's own fdatasync, which the writer (linked in statically) calls instead of the C
// library's.
extern "C" int fdatasync(int fd) {
    if (signalDuringSync != 0) ::raise(signalDuringSync);
    return static_cast<int>(::syscall(SYS_fdatasync, fd));
}

namespace hs {
namespace {

namespace fs = std::filesystem;

class AtomicFileInterrupt : public ::testing::Test {
  protected:
    void SetUp() override {
        directory_ =
            fs::temp_directory_path() / ("histoscope-interrupt-" + std::to_string(std::random_device{}()));
        fs::create_directories(directory_);
    }
    void TearDown() override { fs::remove_all(directory_); }

    std::vector<std::string> names() const {
        std::vector<std::string> found;
        for (const auto& entry : fs::directory_iterator(directory_))
            found.push_back(entry.path().filename().string());
        std::sort(found.begin(), found.end());
        return found;
    }
    static std::string contents(const fs::path& path) {
        std::ifstream in(path, std::ios::binary);
        return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    }

    fs::path directory_;
};

TEST_F(AtomicFileInterrupt, ASignalDuringAWriteRemovesTheTemporary) {
    const fs::path target = directory_ / "out.png";
    std::ofstream(target) << "previous";
    for (const int signal : {SIGINT, SIGTERM}) {
        SCOPED_TRACE(signal);
        const pid_t child = ::fork();
        if (child == 0) {
            // The child as a user's process: default actions, a write of 4 MiB interrupted.
            ::signal(signal, SIG_DFL);
            signalDuringSync = signal;
            try {
                writeFileAtomically(target, std::string(4 << 20, 'x'));
            } catch (...) {
            }
            ::_exit(0);
        }
        int status = 0;
        ASSERT_EQ(::waitpid(child, &status, 0), child);
        ASSERT_TRUE(WIFSIGNALED(status)) << "the signal ends the writer, as it would without the handler";
        EXPECT_EQ(WTERMSIG(status), signal);
        EXPECT_EQ(names(), std::vector<std::string>{"out.png"}) << "no temporary is left beside the target";
        EXPECT_EQ(contents(target), "previous");
    }
}

TEST_F(AtomicFileInterrupt, AnIgnoredSignalStaysIgnored) {
    const fs::path target = directory_ / "out.txt";
    const pid_t child = ::fork();
    if (child == 0) {
        ::signal(SIGTERM, SIG_IGN);
        signalDuringSync = SIGTERM;
        try {
            writeFileAtomically(target, "written");
        } catch (...) {
            ::_exit(1);
        }
        ::_exit(0);
    }
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0);
    EXPECT_EQ(contents(target), "written");
}

TEST_F(AtomicFileInterrupt, AnOutputLinkIsWrittenThroughEvenWhenItDangles) {
    const fs::path link = directory_ / "link.png";
    const fs::path target = directory_ / "target.png";
    fs::create_symlink("target.png", link);  // relative, as `ln -s target.png link.png` makes it
    writeFileAtomically(link, "first");
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(contents(target), "first");
    writeFileAtomically(link, "second");
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(contents(target), "second");
}

TEST_F(AtomicFileInterrupt, ACacheFileLinkIsReplacedNotFollowed) {
    const fs::path link = directory_ / "entry.bin";
    const fs::path target = directory_ / "elsewhere.txt";
    std::ofstream(target) << "keep";
    fs::create_symlink(target, link);
    EXPECT_EQ(replaceCacheFile(link, [](std::ostream& out) { out << "entry"; }), "");
    EXPECT_FALSE(fs::is_symlink(link));
    EXPECT_EQ(contents(link), "entry");
    EXPECT_EQ(contents(target), "keep");
}

}  // namespace
}  // namespace hs
