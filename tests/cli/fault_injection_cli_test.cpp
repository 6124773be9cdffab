// Failure injection through the environment (HISTOSCOPE_FAIL_CL_CALL, runtime/fault_injection.hpp): whichever
// OpenCL call of a histogram or a pipeline run fails, and with whichever error, the CLI exits 4 with one line
// that names the device, the call and the error, and never crashes (nor leaks, in the sanitizer build).
#include <gtest/gtest.h>

#include <QImage>
#include <QImageWriter>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>

#include "cli_runner.hpp"
#include "engine/runtime/device_info.hpp"
#include "engine/runtime/error.hpp"

namespace hs {
namespace {

constexpr int kInjected[] = {CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_OUT_OF_RESOURCES, CL_BUILD_PROGRAM_FAILURE,
                             CL_INVALID_COMMAND_QUEUE};

class FaultInjectionCli : public ::testing::TestWithParam<int> {
  protected:
    void SetUp() override {
        QImage image(21, 13, QImage::Format_RGBA8888);
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                image.setPixelColor(x, y, QColor(x * 12, y * 19, 90, 255));
        imagePath_ = directory_.filePath("input.png");
        ASSERT_TRUE(QImageWriter(imagePath_, "png").write(image));
    }

    // Runs `arguments` failing its 1st, 2nd, ... counted OpenCL call until a run succeeds; returns the calls
    // named by the failing runs.
    QSet<QString> sweep(const QStringList& arguments) {
        const QString error = QString::fromStdString(clErrorName(GetParam()));
        const QString device = QString::fromStdString(enumerateDevices().front().name);
        const QRegularExpression line("^histoscope-cli: .*device " + QRegularExpression::escape(device) +
                                      ".*: (cl[A-Z][A-Za-z]+) failed with " + error + "\n$");
        QSet<QString> calls;
        int successes = 0;
        for (int n = 1; n <= 1000 && successes < 3; ++n) {
            SCOPED_TRACE(QString("HISTOSCOPE_FAIL_CL_CALL=%1:%2").arg(n).arg(error).toStdString());
            // A cache of the sweep's own, empty at first: the program builds are among the calls that fail.
            const Outcome outcome =
                runCli(arguments, {{"HISTOSCOPE_FAIL_CL_CALL", QString("%1:%2").arg(n).arg(error)},
                                   {"HISTOSCOPE_CACHE_DIR", path("cache")}});
            // A run that makes fewer calls than the one to fail succeeds, and so may one that recovers from
            // the failure (a refused cached binary is rebuilt from source): three successes in a row end it.
            if (outcome.exitCode == 0) {
                EXPECT_TRUE(outcome.err.isEmpty()) << outcome.err.toStdString();
                ++successes;
                continue;
            }
            successes = 0;
            expectOneErrorLine(outcome, 4, error);
            const auto match = line.match(QString::fromUtf8(outcome.err));
            EXPECT_TRUE(match.hasMatch()) << outcome.err.toStdString();
            if (match.hasMatch()) calls.insert(match.captured(1));
            if (::testing::Test::HasFailure()) break;
        }
        return calls;
    }

    QString path(const QString& name) const { return directory_.filePath(name); }
    const QString& imagePath() const { return imagePath_; }

  private:
    QTemporaryDir directory_;
    QString imagePath_;
};

TEST_P(FaultInjectionCli, HistogramExitsFourNamingTheDeviceAndTheCall) {
    const QSet<QString> calls = sweep({"histogram", imagePath(), "--strategy", "private-uchar"});
    for (const char* call : {"clCreateContext", "clCreateBuffer", "clBuildProgram", "clEnqueueNDRangeKernel"})
        EXPECT_TRUE(calls.contains(call)) << call;
}

TEST_P(FaultInjectionCli, PipelineExitsFourNamingTheDeviceAndTheCall) {
    // A named histogram strategy: auto's trial of every strategy made five times the calls (about 250 runs of
    // the CLI for each error, a minute on a busy 2-core machine) through the same exits.
    const QSet<QString> calls =
        sweep({"pipeline", imagePath(), "--angle", "30", "--filter", "box:3", "--bins", "32",
               "--histogram-strategy", "local-atomic", "--out", path("out.png")});
    for (const char* call : {"clCreateBuffer", "clBuildProgram", "clSetKernelArg", "clEnqueueNDRangeKernel"})
        EXPECT_TRUE(calls.contains(call)) << call;
}

INSTANTIATE_TEST_SUITE_P(Errors, FaultInjectionCli, ::testing::ValuesIn(kInjected),
                         [](const ::testing::TestParamInfo<int>& error) { return clErrorName(error.param); });

TEST(FaultInjectionCliSetting, AMalformedSettingIsAUsageErrorNamingIt) {
    QTemporaryDir directory;
    const QString image = directory.filePath("white.png");
    QImage white(4, 4, QImage::Format_RGBA8888);
    white.fill(Qt::white);
    ASSERT_TRUE(QImageWriter(image, "png").write(white));
    for (const QString setting : {"3:CL_NO_SUCH_ERROR", "0:CL_OUT_OF_RESOURCES", "x:-5", "3"}) {
        SCOPED_TRACE(setting.toStdString());
        expectOneErrorLine(runCli({"histogram", image}, {{"HISTOSCOPE_FAIL_CL_CALL", setting}}), 2,
                           "HISTOSCOPE_FAIL_CL_CALL=" + setting);
    }
}

}  // namespace
}  // namespace hs
