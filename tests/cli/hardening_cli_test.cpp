// The CLI under hostile arguments and outputs: no crash, one line naming what is wrong, nothing replaced that
// should not be (the process's own fatal messages on stderr: fatal_messages_cli_test.cpp).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QImageWriter>
#include <QTemporaryDir>

#include "cli_runner.hpp"

namespace hs {
namespace {

class HardenedCli : public ::testing::Test {
  protected:
    void SetUp() override {
        QImage image(16, 8, QImage::Format_RGBA8888);
        image.fill(QColor(10, 200, 30, 255));
        imagePath_ = directory_.filePath("green.png");
        ASSERT_TRUE(QImageWriter(imagePath_, "png").write(image));
    }
    QString path(const QString& name) const { return directory_.filePath(name); }
    const QString& imagePath() const { return imagePath_; }

  private:
    QTemporaryDir directory_;
    QString imagePath_;
};

TEST_F(HardenedCli, DeviceIndicesBeyondIntExitWithFourAndNameTheSelector) {
    for (const QString selector : {"0:99999999999999999999", "2147483648:0"}) {
        SCOPED_TRACE(selector.toStdString());
        expectOneErrorLine(runCli({"histogram", imagePath(), "--device", selector}), 4, selector);
        expectOneErrorLine(runCli({"histogram", imagePath()}, {{"HISTOSCOPE_DEVICE", selector}}), 4,
                           selector);
        expectOneErrorLine(runCli({"strategies", "--device", selector}), 4, selector);
        expectOneErrorLine(
            runCli({"rotate", imagePath(), "--angle", "5", "--out", path("r.png"), "--device", selector}), 4,
            selector);
    }
}

TEST_F(HardenedCli, UnwritableOutputFormatIsAUsageErrorBeforeAnyWork) {
    // The input does not exist: only a check made before reading it reports the output instead.
    const QString missing = path("missing.png");
    for (const QString command : {"rotate", "pipeline"}) {
        SCOPED_TRACE(command.toStdString());
        expectOneErrorLine(runCli({command, missing, "--angle", "5", "--out", path("x.xyz")}), 2, "xyz");
    }
    expectOneErrorLine(runCli({"convolve", missing, "--filter", "box", "--out", path("x.xyz")}), 2, "xyz");
}

// Failure 3 at the command line: the sigma that overflowed into a 1x1 filter (exit 0) is a usage error naming
// the limit, before the image is read (it does not exist here) or anything is written.
TEST_F(HardenedCli, HugeGaussianIsAUsageErrorBeforeAnyWork) {
    for (const QString spec : {"gaussian:1e9", "gaussian:7e8"}) {
        SCOPED_TRACE(spec.toStdString());
        expectOneErrorLine(
            runCli({"convolve", path("missing.png"), "--filter", spec, "--out", path("f.png")}), 2, "sigma");
        EXPECT_FALSE(QFileInfo::exists(path("f.png")));
    }
}

TEST_F(HardenedCli, SpecialFileAtOutIsRefusedAndLeftAlone) {
    const QString fifo = path("out.png");
    ASSERT_EQ(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    expectOneErrorLine(runCli({"rotate", imagePath(), "--angle", "5", "--out", fifo}), 3, "FIFO");
    struct stat status;
    ASSERT_EQ(stat(QFile::encodeName(fifo).constData(), &status), 0);
    EXPECT_TRUE(S_ISFIFO(status.st_mode)) << "the FIFO was replaced";
    // The vocabulary's output too, checked before any image is read: the missing one is not what it reports.
    expectOneErrorLine(runCli({"vocabulary", path("missing.png"), "--k", "2", "--out", fifo}), 3, "FIFO");
    // A device node is refused like a FIFO: an image name that leads to /dev/null, which stays as it is.
    const QString node = path("null.png");
    ASSERT_EQ(symlink("/dev/null", QFile::encodeName(node).constData()), 0);
    expectOneErrorLine(runCli({"rotate", imagePath(), "--angle", "5", "--out", node}), 3, "a device node");
    ASSERT_EQ(stat("/dev/null", &status), 0);
    EXPECT_TRUE(S_ISCHR(status.st_mode));
}

TEST_F(HardenedCli, EmptyPathAndControlCharactersReadSafely) {
    const Outcome empty = runCli({"histogram", ""});
    expectOneErrorLine(empty, 3, "empty path");
    const Outcome control = runCli({"histogram", path("bell\x07"
                                                      "and\x1b[31mred.png")});
    expectOneErrorLine(control, 3, "no such file");
    EXPECT_FALSE(control.err.contains('\x1b')) << "a terminal escape reached stderr";
    EXPECT_FALSE(control.err.contains('\x07'));
    EXPECT_TRUE(control.err.contains("bell\\x07and\\x1b[31mred.png")) << control.err.toStdString();
}

}  // namespace
}  // namespace hs
