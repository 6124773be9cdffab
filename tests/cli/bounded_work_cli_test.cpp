// Issue 21, item 12: work bounded before it starts. Requests that cannot fit the machine are refused with
// their estimate before any of the work runs; histogram --repeat streams its runs' JSON instead of holding
// them; a device whose largest allocation is below the smallest band is refused rather than counted a few
// pixels at a time.
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QImageWriter>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>

#include "cli_runner.hpp"
#include "ops/bow/bow.hpp"
#include "runtime/device_info.hpp"

namespace hs {
namespace {

class BoundedWorkCli : public ::testing::Test {
  protected:
    QString image(int width, int height) {
        const QString path = directory_.filePath(QString("noise-%1x%2.png").arg(width).arg(height));
        if (QFile::exists(path)) return path;
        QImage noise(width, height, QImage::Format_RGBA8888);
        std::uint32_t state = 7;
        for (int y = 0; y < height; ++y) {
            auto* row = noise.scanLine(y);
            for (int x = 0; x < width * 4; ++x)
                row[x] = static_cast<uchar>((state = state * 1664525u + 1013904223u) >> 24);
        }
        EXPECT_TRUE(QImageWriter(path, "png").write(noise));
        return path;
    }
    QString path(const QString& name) const { return directory_.filePath(name); }

  private:
    QTemporaryDir directory_;
};

TEST_F(BoundedWorkCli, ASweepBeyondTheMachineIsRefusedWithItsEstimate) {
    // 16777216 descriptors and as many centroids: the matrices alone, each with its transposed copy, are
    // 2 (D + K) 64 floats, plus a membership per descriptor: 16.1 GiB; the multiply-adds D K 64 of 21 runs
    // take days at any device's peak. Before the bound, the sweep started and grew past 8 GB.
    constexpr double kCount = 16777216;
    const double bytes = 2 * (kCount + kCount) * bow::kDimensions * 4 + kCount * 4;
    const Outcome refused = runCli({"bow-sweep", "--descriptors", "16777216", "--centroids", "16777216",
                                    "--strategy", "bow-serial", "--json"});
    expectOneErrorLine(refused, 2, "--force");
    EXPECT_TRUE(refused.err.contains(QString::number(bytes / (1 << 30), 'f', 1).toUtf8() + " GiB"))
        << refused.err.toStdString();
    EXPECT_TRUE(refused.err.contains("16777216 descriptors x 16777216 centroids"))
        << refused.err.toStdString();
    // A sweep that fits runs as before.
    const Outcome small = runCli({"bow-sweep", "--descriptors", "64", "--centroids", "4", "--strategy",
                                  "bow-serial", "--repeat", "1", "--json"});
    ASSERT_EQ(small.exitCode, 0) << small.err.toStdString();
    EXPECT_EQ(small.json()["rows"].toArray().size(), 1);
}

TEST_F(BoundedWorkCli, AVocabularyBeyondAnHourIsRefusedBeforeItsDescriptorsAreComputed) {
    const auto devices = enumerateDevices();
    ASSERT_FALSE(devices.empty());
    // The estimate takes the device's peak rate: this case is beyond an hour on CPU devices of up to about
    // 100 cores, and not on a GPU, which might finish it.
    if (selectDevice(devices, "").type == DeviceType::Gpu) GTEST_SKIP() << "the default device is a GPU";
    // About 3.7 million windows at stride 1 and a million words: k-means++ and up to 100 assignments of
    // 3.7e6 x 1048576 x 64 multiply-adds.
    const QString out = path("words.npy");
    const Outcome refused =
        runCli({"vocabulary", image(2400, 1600), "--k", "1048576", "--stride", "1", "--out", out});
    expectOneErrorLine(refused, 2, "--force");
    EXPECT_TRUE(refused.err.contains("into 1048576 words")) << refused.err.toStdString();
    EXPECT_FALSE(QFile::exists(out));
}

TEST_F(BoundedWorkCli, HistogramRepeatStreamsItsRunsAsTheyEnd) {
    // A million runs on the device (each a launch and a readback, well over a minute in all): their JSON
    // (over a gigabyte) was held until the last one ended. Now each run's records reach stdout as the run
    // ends: the test reads run 2's and stops the rest.
    QProcess process;
    process.start(HISTOSCOPE_CLI, {"histogram", image(16, 16), "--repeat", "1000000", "--strategy",
                                   "local-atomic", "--json"});
    ASSERT_TRUE(process.waitForStarted());
    QByteArray out;
    while (!out.contains("\"run\": 2") && process.state() == QProcess::Running &&
           process.waitForReadyRead(20'000))
        out += process.readAllStandardOutput();
    EXPECT_TRUE(out.contains("\"run\": 2")) << out.left(2000).toStdString();
    EXPECT_TRUE(out.contains("\"histograms\"")) << "the head comes first, from the first run";
    process.kill();
    process.waitForFinished();

    // A whole streamed document: every run numbered, in order, and summarized.
    const Outcome whole =
        runCli({"histogram", image(16, 16), "--repeat", "5", "--strategy", "serial", "--json"});
    ASSERT_EQ(whole.exitCode, 0) << whole.err.toStdString();
    const QJsonObject json = whole.json();
    EXPECT_EQ(json["summary"].toObject()["runs"].toInt(), 5);
    int last = 0;
    for (const auto& timing : json["timings"].toArray()) {
        const int run = timing.toObject()["run"].toInt();
        EXPECT_TRUE(run == last || run == last + 1) << run;
        last = run;
    }
    EXPECT_EQ(last, 5);
    qint64 counted = 0;
    for (const auto& count : json["histograms"].toObject()["a"].toArray()) counted += count.toInteger();
    EXPECT_EQ(counted, 16 * 16);
}

TEST_F(BoundedWorkCli, ADeviceBelowTheSmallestBandIsRefusedNotCountedFourPixelsABand) {
    // 1 byte of largest allocation made 98304 bands of 4 pixels for a 768 x 512 image.
    const Outcome refused = runCli({"histogram", image(768, 512), "--strategy", "local-atomic", "--json"},
                                   {{"HISTOSCOPE_MAX_ALLOC_BYTES", "1"}});
    expectOneErrorLine(refused, 4, "smallest band (1024 bytes)");
    EXPECT_TRUE(refused.err.contains("largest allocation (1 bytes)")) << refused.err.toStdString();
    // At the smallest band the image is counted, in as many bands as it takes.
    const Outcome banded = runCli({"histogram", image(768, 512), "--strategy", "local-atomic", "--json"},
                                  {{"HISTOSCOPE_MAX_ALLOC_BYTES", "1024"}});
    ASSERT_EQ(banded.exitCode, 0) << banded.err.toStdString();
    EXPECT_TRUE(banded.json()["note"].toString().startsWith("counted in 1536 bands of at most 256 pixels"))
        << banded.json()["note"].toString().toStdString();
    const Outcome whole = runCli({"histogram", image(768, 512), "--strategy", "serial", "--json"});
    EXPECT_EQ(banded.json()["histograms"], whole.json()["histograms"]);
}

}  // namespace
}  // namespace hs
