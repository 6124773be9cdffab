// End-to-end tests of histoscope-cli produce-consume on the two PoCL devices: the histograms against counts
// made here by hand and against the one-device pipeline command, the timings' devices, and the refusals.
#include <gtest/gtest.h>

#include <limits>
#include <optional>

#include <QImage>
#include <QImageWriter>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <algorithm>
#include <array>

#include "cli_runner.hpp"

namespace hs {
namespace {

constexpr int kWidth = 13;
constexpr int kHeight = 11;

// Every channel varies over the image, alpha included (and 0 in one column, for --ignore-transparent).
QColor inputColor(int x, int y) {
    return QColor((17 * x + 5 * y) % 256, (200 + 31 * y + x) % 256, (7 * x * y) % 256,
                  x == 4 ? 0 : 255 - 9 * y);
}

class ProduceConsumeCli : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(directory_.isValid());
        QImage image(kWidth, kHeight, QImage::Format_RGBA8888);
        for (int y = 0; y < kHeight; ++y) {
            for (int x = 0; x < kWidth; ++x) image.setPixelColor(x, y, inputColor(x, y));
        }
        ASSERT_TRUE(QImageWriter(path("in.png"), "png").write(image));
        // Tap (1, 2) of a 3x3 correlation reads the pixel below: out(x, y) = in(x, min(y + 1, h - 1)), alpha
        // kept. Every chunk's last row needs the next chunk's first one.
        QFile file(path("down.txt"));
        ASSERT_TRUE(file.open(QIODevice::WriteOnly));
        file.write("0 0 0\n0 0 0\n0 2 0\n/ 2\n");
    }

    QString path(const QString& name) const { return directory_.filePath(name); }

    // The counts of the filtered image, channel by channel, 256 bins.
    static std::array<std::array<qint64, 256>, 5> expectedCounts(bool ignoreTransparent) {
        std::array<std::array<qint64, 256>, 5> counts{};
        for (int y = 0; y < kHeight; ++y) {
            for (int x = 0; x < kWidth; ++x) {
                const QColor below = inputColor(x, std::min(y + 1, kHeight - 1));
                const int alpha = inputColor(x, y).alpha();
                ++counts[3][static_cast<std::size_t>(alpha)];
                if (ignoreTransparent && alpha == 0) continue;
                ++counts[0][static_cast<std::size_t>(below.red())];
                ++counts[1][static_cast<std::size_t>(below.green())];
                ++counts[2][static_cast<std::size_t>(below.blue())];
                const int luma = (299 * below.red() + 587 * below.green() + 114 * below.blue() + 500) / 1000;
                ++counts[4][static_cast<std::size_t>(luma)];
            }
        }
        return counts;
    }

    static void expectHistograms(const QJsonObject& histograms, bool ignoreTransparent) {
        const auto expected = expectedCounts(ignoreTransparent);
        const std::array<QString, 5> channels{"r", "g", "b", "a", "luma"};
        for (std::size_t c = 0; c < channels.size(); ++c) {
            const QJsonArray counts = histograms[channels[c]].toArray();
            ASSERT_EQ(counts.size(), 256) << channels[c].toStdString();
            for (int bin = 0; bin < 256; ++bin)
                ASSERT_EQ(counts[bin].toInteger(), expected[c][static_cast<std::size_t>(bin)])
                    << channels[c].toStdString() << " bin " << bin;
        }
    }

    QTemporaryDir directory_;
};

TEST_F(ProduceConsumeCli, CountsTheFilteredImageOnTwoDevices) {
    for (const QString chunks : {"1", "3", "11"}) {
        SCOPED_TRACE(chunks.toStdString());
        const Outcome outcome =
            runCli({"produce-consume", path("in.png"), "--filter", path("down.txt"), "--devices", "0:0,0:1",
                    "--chunks", chunks, "--histogram-strategy", "global-atomic", "--json"});
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
        const QJsonObject json = outcome.json();
        expectHistograms(json["histograms"].toObject(), false);
        EXPECT_EQ(json["mode"].toString(), "buffer");
        EXPECT_EQ(json["requested_mode"].toString(), "auto");
        EXPECT_EQ(json["chunks"].toArray().size(), chunks.toInt());
        EXPECT_EQ(json["histogram_strategy"].toString(), "global-atomic");
        ASSERT_EQ(json["devices"].toArray().size(), 2);
        EXPECT_EQ(json["devices"].toArray()[1].toObject()["role"].toString(), "consumer");

        // Every record names its device: convolutions on the producer, counting on the consumer.
        int convolutions = 0;
        int countings = 0;
        qint64 firstQueued = std::numeric_limits<qint64>::max();
        std::optional<qint64> runOrigin;
        for (const auto& value : json["timings"].toArray()) {
            const QJsonObject record = value.toObject();
            const QString name = record["name"].toString();
            // The aligned times are the raw ones moved onto the host clock, from the first command of either
            // device: raw + clock_offset_ns - origin, the same origin for every record.
            const qint64 origin = record["queued_ns"].toInteger() + record["clock_offset_ns"].toInteger() -
                                  record["run_queued_ns"].toInteger();
            for (const char* time : {"submit", "start", "end"})
                EXPECT_EQ(record[QStringLiteral("%1_ns").arg(time)].toInteger() +
                              record["clock_offset_ns"].toInteger() -
                              record[QStringLiteral("run_%1_ns").arg(time)].toInteger(),
                          origin)
                    << name.toStdString() << " " << time;
            if (!runOrigin) runOrigin = origin;
            EXPECT_EQ(origin, *runOrigin) << name.toStdString();
            firstQueued = std::min(firstQueued, record["run_queued_ns"].toInteger());
            if (name.contains("convolve_")) {
                EXPECT_EQ(record["device"].toString(), "0:0") << name.toStdString();
                EXPECT_EQ(record["role"].toString(), "producer");
                ++convolutions;
            }
            if (name.contains("global_atomic")) {
                EXPECT_EQ(record["device"].toString(), "0:1") << name.toStdString();
                EXPECT_EQ(record["role"].toString(), "consumer");
                ++countings;
            }
        }
        EXPECT_EQ(convolutions, chunks.toInt());
        EXPECT_EQ(countings, chunks.toInt());
        EXPECT_EQ(firstQueued, 0) << "the run's first command is its origin";
        EXPECT_TRUE(json["overlap_ns"].isDouble());
        EXPECT_LE(json["overlap_ns"].toInteger(), json["span_ns"].toInteger());
        EXPECT_GT(json["sequential"].toObject()["span_ns"].toInteger(), 0);
        EXPECT_GT(json["speed_up"].toDouble(), 0.0);
    }
}

TEST_F(ProduceConsumeCli, EqualsTheOneDevicePipeline) {
    const Outcome two =
        runCli({"produce-consume", path("in.png"), "--filter", "gaussian:1.5", "--devices", "0:0,0:1",
                "--chunks", "4", "--bins", "32", "--ignore-transparent", "--json"});
    ASSERT_EQ(two.exitCode, 0) << two.err.toStdString();
    const Outcome one = runCli({"pipeline", path("in.png"), "--filter", "gaussian:1.5", "--bins", "32",
                                "--ignore-transparent", "--histogram-strategy", "local-atomic", "--device",
                                "0:0", "--out", path("one.png"), "--json"});
    ASSERT_EQ(one.exitCode, 0) << one.err.toStdString();
    EXPECT_EQ(two.json()["histograms"], one.json()["histograms"]);
    EXPECT_EQ(two.json()["bins"].toInt(), 32);
}

TEST_F(ProduceConsumeCli, TransparencyLeftOutAsEverywhere) {
    const Outcome outcome =
        runCli({"produce-consume", path("in.png"), "--filter", path("down.txt"), "--devices", "0:1,0:0",
                "--chunks", "2", "--ignore-transparent", "--json"});
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
    expectHistograms(outcome.json()["histograms"].toObject(), true);
}

TEST_F(ProduceConsumeCli, SameDeviceTwiceIsAllowedAndSaysSo) {
    const Outcome outcome = runCli(
        {"produce-consume", path("in.png"), "--filter", path("down.txt"), "--devices", "0:0,0:0", "--json"});
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
    const QJsonObject json = outcome.json();
    expectHistograms(json["histograms"].toObject(), false);
    EXPECT_TRUE(json["notes"].toArray()[0].toString().contains("same device")) << outcome.out.toStdString();
    EXPECT_EQ(json["overlap_ns"].toInteger(), 0) << "one in-order queue runs one command at a time";

    const Outcome text = runCli(
        {"produce-consume", path("in.png"), "--filter", "box", "--devices", "0:0,0:0", "--chunks", "2"});
    ASSERT_EQ(text.exitCode, 0) << text.err.toStdString();
    EXPECT_TRUE(text.out.contains("same device")) << text.out.toStdString();
    EXPECT_TRUE(text.out.contains("overlap")) << text.out.toStdString();
    EXPECT_TRUE(text.out.contains("speed-up")) << text.out.toStdString();
}

TEST_F(ProduceConsumeCli, PipesAskedForWhereThereAreNone) {
    const Outcome outcome = runCli(
        {"produce-consume", path("in.png"), "--filter", "box", "--devices", "0:0,0:1", "--mode", "pipe"});
    expectOneErrorLine(outcome, 4, "has no pipe support");
    EXPECT_TRUE(outcome.err.contains("0:0")) << outcome.err.toStdString();
}

TEST_F(ProduceConsumeCli, Refusals) {
    const QStringList base{"produce-consume", path("in.png"), "--filter", "box"};
    expectOneErrorLine(runCli(base), 2, "--devices");
    expectOneErrorLine(runCli(base + QStringList{"--devices", "0:0"}), 2, "two device selectors");
    expectOneErrorLine(runCli(base + QStringList{"--devices", "0:0,"}), 2, "two device selectors");
    expectOneErrorLine(runCli(base + QStringList{"--devices", "0:0,0:1", "--mode", "fast"}), 2, "fast");
    expectOneErrorLine(runCli(base + QStringList{"--devices", "0:0,0:1", "--chunks", "0"}), 2, "chunks");
    expectOneErrorLine(runCli(base + QStringList{"--devices", "0:0,0:1", "--chunks", "12"}), 2, "got 12");
    expectOneErrorLine(runCli(base + QStringList{"--devices", "0:0,7:3"}), 4, "7:3");
    expectOneErrorLine(
        runCli({"produce-consume", path("missing.png"), "--filter", "box", "--devices", "0:0,0:1"}), 3,
        "missing.png");
}

}  // namespace
}  // namespace hs
