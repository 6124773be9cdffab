// Issue 21, items 5 to 13 at the command line: a program cache that trusts nothing it did not make, inputs
// that must be regular files, produce-consume beyond the allocation limit, names that are not UTF-8, running
// out of descriptors or address space, and the errors that said too little. The CLI runs as a user starts it:
// with raw bytes for arguments (QProcess would re-encode them as UTF-8) and, where asked, resource limits.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QImage>
#include <QImageWriter>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <algorithm>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "io/npy.hpp"

namespace hs {
namespace {

namespace fs = std::filesystem;

struct RawRun {
    int exitCode = -1;  // -1: ended by a signal
    int signal = 0;
    std::string out;
    std::string err;

    int lines() const { return static_cast<int>(std::count(err.begin(), err.end(), '\n')); }
};

struct Limit {
    int resource;
    rlim_t value;
};

// histoscope-cli with `arguments` as bytes, the test's environment plus `environment` ("NAME=value"), and
// `limits` applied to the child alone. A run that outlives 120 s is killed (and fails the test).
RawRun runRaw(const std::vector<std::string>& arguments, const std::vector<std::string>& environment = {},
              const std::vector<Limit>& limits = {}) {
    int out[2], err[2];
    if (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0) return {};
    std::vector<std::string> argv{HISTOSCOPE_CLI};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    std::vector<char*> argvPointers;
    for (auto& argument : argv) argvPointers.push_back(argument.data());
    argvPointers.push_back(nullptr);
    std::vector<std::string> env;
    for (char** variable = environ; *variable != nullptr; ++variable) {
        const std::string entry(*variable);
        if (entry.starts_with("HISTOSCOPE_DEVICE=")) continue;
        bool replaced = false;
        for (const auto& change : environment)
            replaced =
                replaced || entry.substr(0, entry.find('=') + 1) == change.substr(0, change.find('=') + 1);
        if (!replaced) env.push_back(entry);
    }
    env.insert(env.end(), environment.begin(), environment.end());
    std::vector<char*> envPointers;
    for (auto& entry : env) envPointers.push_back(entry.data());
    envPointers.push_back(nullptr);

    const pid_t child = ::fork();
    if (child == 0) {
        ::dup2(out[1], STDOUT_FILENO);
        ::dup2(err[1], STDERR_FILENO);
        for (const auto& limit : limits) {
            const rlimit value{limit.value, limit.value};
            ::setrlimit(limit.resource, &value);
        }
        ::execve(argvPointers[0], argvPointers.data(), envPointers.data());
        ::_exit(127);
    }
    ::close(out[1]);
    ::close(err[1]);
    RawRun run;
    pollfd fds[2] = {{out[0], POLLIN, 0}, {err[0], POLLIN, 0}};
    std::string* into[2] = {&run.out, &run.err};
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    for (int open = 2; open > 0;) {
        if (std::chrono::steady_clock::now() > deadline) {
            ::kill(child, SIGKILL);
            ADD_FAILURE() << "histoscope-cli did not end within 120 s";
            break;
        }
        if (::poll(fds, 2, 1000) <= 0) continue;
        for (int i = 0; i < 2; ++i) {
            if (fds[i].fd < 0 || fds[i].revents == 0) continue;
            char buffer[4096];
            const ssize_t count = ::read(fds[i].fd, buffer, sizeof buffer);
            if (count > 0) {
                into[i]->append(buffer, static_cast<std::size_t>(count));
            } else {
                ::close(fds[i].fd);
                fds[i].fd = -1;
                --open;
            }
        }
    }
    for (const auto& fd : fds)
        if (fd.fd >= 0) ::close(fd.fd);
    int status = 0;
    ::waitpid(child, &status, 0);
    if (WIFEXITED(status)) run.exitCode = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) run.signal = WTERMSIG(status);
    return run;
}

// The failure contract: `exitCode`, exactly one line on stderr, holding every one of `mentioned`.
void expectOneLine(const RawRun& run, int exitCode, const std::vector<std::string>& mentioned) {
    EXPECT_EQ(run.exitCode, exitCode) << run.err;
    EXPECT_EQ(run.lines(), 1) << run.err;
    for (const auto& text : mentioned)
        EXPECT_NE(run.err.find(text), std::string::npos) << run.err << " lacks " << text;
}

std::string contents(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class HardenedCliRound3 : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(directory_.isValid());
        QImage image(96, 64, QImage::Format_RGBA8888);
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                image.setPixelColor(x, y, QColor((x * 7 + y) % 256, (y * 5) % 256, (x * y) % 256, 255));
        ASSERT_TRUE(QImageWriter(QString::fromStdString(path("in.png")), "png").write(image));
    }
    // QTemporaryDir cannot remove what Qt cannot name (bytes that are not UTF-8): std::filesystem can.
    void TearDown() override {
        for (const auto& entry : fs::directory_iterator(folder())) fs::remove_all(entry.path());
    }
    std::string path(const std::string& name) const { return (folder() / name).string(); }
    fs::path folder() const { return fs::path(directory_.path().toStdString()); }
    // A private program cache for the run, so that what a test plants there is all it holds.
    std::string cacheVariable(const std::string& name) const { return "HISTOSCOPE_CACHE_DIR=" + path(name); }

  private:
    QTemporaryDir directory_;
};

// ---- item 5: the program cache ----

TEST_F(HardenedCliRound3, AFolderWritableByOthersIsSaidOnceAndNotUsed) {
    const std::string cache = path("cache");
    fs::create_directories(cache);
    ::chmod(cache.c_str(), 0777);
    const RawRun run = runRaw({"histogram", path("in.png"), "--json", "--strategy", "global-atomic"},
                              {cacheVariable("cache")});
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_EQ(run.lines(), 1) << run.err;
    EXPECT_NE(run.err.find(cache + ": is writable by"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("not used"), std::string::npos) << run.err;
    EXPECT_FALSE(fs::exists(fs::path(cache) / "programs"))
        << "nothing is written into a folder others can write";
}

TEST_F(HardenedCliRound3, SymbolicLinksInTheCacheAreNeverWrittenThrough) {
    const std::string cache = path("cache");
    // A first run fills the cache with its entries.
    const std::vector<std::string> histogram{"histogram", path("in.png"), "--strategy", "global-atomic"};
    ASSERT_EQ(runRaw(histogram, {cacheVariable("cache")}).exitCode, 0);
    std::vector<fs::path> entries;
    for (const auto& entry : fs::directory_iterator(fs::path(cache) / "programs"))
        entries.push_back(entry.path());
    ASSERT_FALSE(entries.empty());
    // Each entry becomes a link to a file outside the cache.
    const std::string outside = path("outside.txt");
    std::ofstream(outside) << "not a program binary\n";
    for (const auto& entry : entries) {
        fs::remove(entry);
        fs::create_symlink(outside, entry);
    }
    const RawRun run = runRaw(histogram, {cacheVariable("cache")});
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_EQ(run.lines(), 1) << run.err;
    EXPECT_NE(run.err.find("is a symbolic link"), std::string::npos) << run.err;
    EXPECT_EQ(contents(outside), "not a program binary\n");
    for (const auto& entry : entries) EXPECT_TRUE(fs::is_symlink(entry)) << entry;
}

TEST_F(HardenedCliRound3, AFifoEntryDoesNotHang) {
    const std::string cache = path("cache");
    const std::vector<std::string> histogram{"histogram", path("in.png"), "--strategy", "global-atomic"};
    ASSERT_EQ(runRaw(histogram, {cacheVariable("cache")}).exitCode, 0);
    for (const auto& entry : fs::directory_iterator(fs::path(cache) / "programs")) {
        fs::remove(entry.path());
        ASSERT_EQ(::mkfifo(entry.path().c_str(), 0600), 0);
    }
    const RawRun run = runRaw(histogram, {cacheVariable("cache")});
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_NE(run.err.find("is a FIFO, not a regular file"), std::string::npos) << run.err;
}

// ---- item 6: inputs that must be regular files ----

TEST_F(HardenedCliRound3, DevicesAndFifosAreRefusedAsInputs) {
    const std::string vocabulary = path("vocabulary.npy");
    io::writeDescriptorArray(QString::fromStdString(vocabulary), bow::Matrix(std::vector<float>(64, 0.5f)));
    const std::string fifo = path("fifo.npy");
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
    for (const std::string& special : {std::string("/dev/zero"), std::string("/dev/urandom"), fifo}) {
        SCOPED_TRACE(special);
        expectOneLine(
            runRaw({"bow", "--descriptors", special, "--centroids", vocabulary, "--strategy", "bow-serial"}),
            3, {special + ": not a regular file"});
        expectOneLine(
            runRaw({"bow", "--descriptors", vocabulary, "--centroids", special, "--strategy", "bow-serial"}),
            3, {special + ": not a regular file"});
    }
    // A filter file, named by its path.
    expectOneLine(runRaw({"convolve", path("in.png"), "--filter", fifo, "--out", path("out.png")}), 3,
                  {fifo + ": not a regular file"});
    EXPECT_FALSE(fs::exists(path("out.png")));
}

// ---- item 7: produce-consume beyond the device's largest allocation ----

TEST_F(HardenedCliRound3, ProduceConsumeRunsInSmallerChunksBeyondTheAllocationLimit) {
    const RawRun whole =
        runRaw({"pipeline", path("in.png"), "--filter", "box:3", "--json", "--out", path("p.png")});
    ASSERT_EQ(whole.exitCode, 0) << whole.err;
    const auto expected =
        QJsonDocument::fromJson(QByteArray::fromStdString(whole.out)).object()["histograms"].toObject();
    for (const std::string chunks : {"4", "8"}) {
        SCOPED_TRACE(chunks + " chunks");
        // 96 x 64 RGBA is 24 KiB: 4 chunks of 16 rows and their halo need 4.5 KiB each.
        const RawRun run = runRaw({"produce-consume", path("in.png"), "--filter", "box:3", "--devices",
                                   "0:0,0:1", "--chunks", chunks, "--json"},
                                  {"HISTOSCOPE_MAX_ALLOC_BYTES=2048"});
        ASSERT_EQ(run.exitCode, 0) << run.err;
        const QJsonObject result = QJsonDocument::fromJson(QByteArray::fromStdString(run.out)).object();
        EXPECT_EQ(result["histograms"].toObject(), expected);
        EXPECT_GT(result["chunks"].toArray().size(), std::stoi(chunks));
        EXPECT_TRUE(QJsonDocument(result["notes"].toArray()).toJson().contains("largest allocation"));
    }
    // Not even a row fits: refused with the device and the sizes, not an invalid event.
    expectOneLine(runRaw({"produce-consume", path("in.png"), "--filter", "box:3", "--devices", "0:0,0:1"},
                         {"HISTOSCOPE_MAX_ALLOC_BYTES=512"}),
                  4, {"0:", "largest allocation (512 bytes)"});
}

// ---- item 8: names that are not UTF-8 ----

TEST_F(HardenedCliRound3, NamesThatAreNotUtf8AreFoundAndWritten) {
    const std::string input = path("in\xff\xfe.png");
    fs::copy_file(path("in.png"), input);
    const std::string filter = path("ridge\xe9.txt");
    std::ofstream(filter) << "0 1 0\n1 1 1\n0 1 0\n/ 5\n";
    for (const char* locale : {"C", "C.UTF-8"}) {
        SCOPED_TRACE(locale);
        const std::vector<std::string> environment{std::string("LC_ALL=") + locale};
        const RawRun histogram = runRaw({"histogram", input, "--json"}, environment);
        EXPECT_EQ(histogram.exitCode, 0) << histogram.err;
        const std::string output = path(std::string("out\xe9-") + locale + ".png");
        const RawRun convolve = runRaw({"convolve", input, "--filter", filter, "--out", output}, environment);
        EXPECT_EQ(convolve.exitCode, 0) << convolve.err;
        EXPECT_TRUE(fs::is_regular_file(output));
    }
    // A missing one is still named as missing.
    expectOneLine(runRaw({"histogram", path("gone\xff.png")}), 3, {"no such file"});
}

// ---- item 9: out of descriptors or address space ----

TEST_F(HardenedCliRound3, RunningOutOfDescriptorsIsNotANoDeviceMachine) {
#if defined(__SANITIZE_ADDRESS__)
    // The sanitizers' runtime needs descriptors of its own: with none left its check of whether memory is
    // readable (a pipe) fails, and UBSan's vptr check reports every exception object as "invalid vptr".
    GTEST_SKIP() << "the sanitizers' runtime itself needs file descriptors";
#endif
    // The fewest descriptors with which the CLI lists the devices, and every smaller limit that lets it start
    // at all (below some, Qt's event loop aborts before the CLI runs: not this item).
    bool saidSo = false;
    for (rlim_t limit = 12; limit >= 5; --limit) {
        SCOPED_TRACE(limit);
        const RawRun run = runRaw({"devices", "--json"}, {}, {{RLIMIT_NOFILE, limit}});
        if (run.exitCode == 0 || run.signal != 0) continue;
        EXPECT_EQ(run.err.find("no OpenCL device"), std::string::npos) << run.err;
        EXPECT_EQ(run.lines(), 1) << run.err;
        EXPECT_TRUE(run.exitCode == 3 || run.exitCode == 4) << run.err;
        if (run.err.find("out of file descriptors") != std::string::npos) saidSo = true;
    }
    EXPECT_TRUE(saidSo);
}

TEST_F(HardenedCliRound3, RunningOutOfAddressSpaceSaysOutOfMemory) {
#if defined(__SANITIZE_ADDRESS__)
    GTEST_SKIP() << "AddressSanitizer's shadow memory alone is beyond any such limit";
#endif
    const RawRun run = runRaw({"histogram", path("in.png")}, {}, {{RLIMIT_AS, 200'000'000}});
    if (run.exitCode == 0) GTEST_SKIP() << "the OpenCL driver fits in 200 MB of address space here";
    expectOneLine(run, 4, {"out of memory"});
    EXPECT_EQ(run.err.find("no OpenCL device"), std::string::npos) << run.err;
}

// ---- item 13: errors that say what is wrong ----

TEST_F(HardenedCliRound3, ATinyGaussianSaysItsSigmaIsTooSmall) {
    expectOneLine(runRaw({"convolve", path("in.png"), "--filter", "gaussian:1e-300", "--out", path("g.png")}),
                  2, {"sigma", "too small"});
    EXPECT_EQ(
        runRaw({"convolve", path("in.png"), "--filter", "gaussian:0.05", "--out", path("g.png")}).exitCode,
        0);
}

TEST_F(HardenedCliRound3, AnEmptyVocabularyNamesItsFile) {
    const std::string empty = path("empty.npy");
    io::writeDescriptorArray(QString::fromStdString(empty), bow::Matrix{});
    expectOneLine(runRaw({"bow", "--descriptors", empty, "--centroids", empty, "--strategy", "bow-serial"}),
                  3, {empty + ": ", "no centroids"});
}

TEST_F(HardenedCliRound3, FilterFilesFromOtherSystemsRead) {
    const std::string reference = path("unix.txt"), mac = path("mac.txt"), bom = path("bom.txt");
    std::ofstream(reference) << "1 2 1\n2 4 2\n1 2 1\n/ 16\n";
    std::ofstream(mac) << "1 2 1\r2 4 2\r1 2 1\r/ 16\r";
    std::ofstream(bom) << "\xEF\xBB\xBF"
                       << "1 2 1\r\n2 4 2\r\n1 2 1\r\n/ 16\r\n";
    const RawRun expected =
        runRaw({"convolve", path("in.png"), "--filter", reference, "--out", path("u.png"), "--json"});
    ASSERT_EQ(expected.exitCode, 0) << expected.err;
    for (const auto& [file, out] : {std::pair{mac, path("m.png")}, std::pair{bom, path("b.png")}}) {
        SCOPED_TRACE(file);
        const RawRun run = runRaw({"convolve", path("in.png"), "--filter", file, "--out", out});
        EXPECT_EQ(run.exitCode, 0) << run.err;
        EXPECT_EQ(contents(out), contents(path("u.png")));
    }
}

TEST_F(HardenedCliRound3, AnOutThroughADanglingLinkCreatesItsTarget) {
    const std::string link = path("link.png"), target = path("made-by-the-write.png");
    fs::create_symlink(target, link);
    const RawRun run = runRaw({"convolve", path("in.png"), "--filter", "box:3", "--out", link});
    EXPECT_EQ(run.exitCode, 0) << run.err;
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_TRUE(fs::is_regular_file(target));
}

}  // namespace
}  // namespace hs
