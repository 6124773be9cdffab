// Outputs: special files are refused and left as they are, failures say why in the system's words, and the
// previous file survives both a failed write and a writer killed in the middle of one.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <csignal>
#include <functional>

#include "engine/runtime/error.hpp"
#include "expect_error.hpp"
#include "io/export.hpp"
#include "io/image_io.hpp"

namespace hs {
namespace {

QByteArray contentsOf(const QString& path) {
    QFile file(path);
    EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << path.toStdString();
    return file.readAll();
}

using test::messageOf;

using test::mentions;

QStringList everyEntry(const QTemporaryDir& directory) {
    return QDir(directory.path()).entryList(QDir::Files | QDir::Hidden | QDir::System, QDir::Name);
}

TEST(OutputFiles, FifoAtThePathIsRefusedAndKept) {
    QTemporaryDir directory;
    const QString fifo = directory.filePath("histogram.csv");
    ASSERT_EQ(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const std::string message = messageOf<InputError>([&] { io::writeFileAtomically(fifo, "data\n"); });
    EXPECT_EQ(message.rfind(fifo.toStdString() + ": ", 0), 0u) << message;
    EXPECT_TRUE(mentions(message, "FIFO")) << message;
    struct stat status;
    ASSERT_EQ(stat(QFile::encodeName(fifo).constData(), &status), 0);
    EXPECT_TRUE(S_ISFIFO(status.st_mode));
    EXPECT_TRUE(
        mentions(messageOf<InputError>([] { io::writeFileAtomically("/dev/null", "x"); }), "device node"));
    EXPECT_TRUE(
        mentions(messageOf<InputError>([&] { io::writeFileAtomically(directory.path(), "x"); }), "folder"));
    EXPECT_EQ(everyEntry(directory), QStringList{"histogram.csv"}) << "no temporary file left";
}

TEST(OutputFiles, ImageOutputIsCheckedBeforeWork) {
    QTemporaryDir directory;
    EXPECT_TRUE(mentions(messageOf<UsageError>([&] { io::checkImageOutput(directory.filePath("x.xyz")); }),
                         "cannot write 'xyz' images"));
    EXPECT_NO_THROW(io::checkImageOutput(directory.filePath("new.png")));
    const QString fifo = directory.filePath("out.png");
    ASSERT_EQ(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    EXPECT_TRUE(mentions(messageOf<InputError>([&] { io::checkImageOutput(fifo); }), "FIFO"));
}

TEST(OutputFiles, WriteFailureSaysWhyInWords) {
    QTemporaryDir directory;
    const QString path = directory.filePath("trace.json");
    io::writeFileAtomically(path, "previous\n");
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit saved{};
    getrlimit(RLIMIT_FSIZE, &saved);
    rlimit limited = saved;
    limited.rlim_cur = 4096;
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limited), 0);
    const std::string message =
        messageOf<InputError>([&] { io::writeFileAtomically(path, QByteArray(1 << 20, 'x')); });
    setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, SIG_DFL);
    EXPECT_TRUE(mentions(message, "cannot write: File too large")) << message;
    EXPECT_EQ(contentsOf(path), "previous\n");
    EXPECT_EQ(everyEntry(directory), QStringList{"trace.json"});
}

TEST(OutputFiles, WriterKilledMidWayLeavesThePreviousFileAndItsTemporaryIsCleanedLater) {
    QTemporaryDir directory;
    const QString path = directory.filePath("result.csv");
    io::writeFileAtomically(path, "previous\n");
    // The kernel kills the child in the middle of its write: with SIGXFSZ at its default action, crossing
    // RLIMIT_FSIZE ends the process there and then, like kill -9, with no chance to clean up.
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        std::signal(SIGXFSZ, SIG_DFL);
        const rlimit noCore{0, 0};
        setrlimit(RLIMIT_CORE, &noCore);
        rlimit limited{};
        getrlimit(RLIMIT_FSIZE, &limited);
        limited.rlim_cur = 64 * 1024;
        setrlimit(RLIMIT_FSIZE, &limited);
        try {
            io::writeFileAtomically(path, QByteArray(8 << 20, 'n'));
        } catch (...) {
        }
        _exit(0);  // reached only if the write was not killed
    }
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the writer was to be killed mid-way";
    EXPECT_EQ(WTERMSIG(status), SIGXFSZ);
    EXPECT_EQ(contentsOf(path), "previous\n") << "the killed writer must not touch the file";
    const QStringList left = everyEntry(directory);
    ASSERT_EQ(left.size(), 2) << left.join(", ").toStdString();
    const QString temporary = left.front() == "result.csv" ? left.back() : left.front();
    EXPECT_EQ(QFileInfo(directory.filePath(temporary)).size(), 64 * 1024) << "killed at the limit";
    // The next write to the same file removes what the dead writer left.
    io::writeFileAtomically(path, "next\n");
    EXPECT_EQ(contentsOf(path), "next\n");
    EXPECT_EQ(everyEntry(directory), QStringList{"result.csv"});
}

TEST(OutputFiles, ReplacedFileKeepsItsPermissions) {
    QTemporaryDir directory;
    const QString path = directory.filePath("private.json");
    io::writeFileAtomically(path, "first\n");
    ASSERT_TRUE(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner));
    io::writeFileAtomically(path, "second\n");
    struct stat status;
    ASSERT_EQ(stat(QFile::encodeName(path).constData(), &status), 0);
    EXPECT_EQ(status.st_mode & 0777, 0600u);
    EXPECT_EQ(contentsOf(path), "second\n");
}

TEST(OutputFiles, SymbolicLinkStaysALinkAndItsTargetIsReplaced) {
    QTemporaryDir directory;
    const QString real = directory.filePath("real.json");
    const QString link = directory.filePath("link.json");
    io::writeFileAtomically(real, "old\n");
    ASSERT_TRUE(QFile::link(real, link));
    io::writeFileAtomically(link, "new\n");
    EXPECT_TRUE(QFileInfo(link).isSymLink());
    EXPECT_EQ(contentsOf(real), "new\n");
}

}  // namespace
}  // namespace hs
