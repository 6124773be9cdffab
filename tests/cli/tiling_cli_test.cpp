// End to end: HISTOSCOPE_MAX_ALLOC_BYTES makes an ordinary image too big for the device; the CLI then runs in
// tiles, writes what the untiled run writes, and its JSON says that it tiled.
#include <gtest/gtest.h>

#include <QImage>
#include <QImageWriter>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <random>

#include "cli_runner.hpp"

namespace hs {
namespace {

class TilingCli : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(directory_.isValid());
        QImage image(53, 41, QImage::Format_RGBA8888);
        std::mt19937 random(8);
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x)
                image.setPixelColor(x, y, QColor::fromRgb(random() & 255, random() & 255, random() & 255));
        }
        ASSERT_TRUE(QImageWriter(path("in.png"), "png").write(image));
    }
    QString path(const QString& name) const { return directory_.filePath(name); }

    // 2000 bytes: 500 pixels of the 2173.
    static inline const std::vector<std::pair<QString, QString>> kSmallDevice{
        {"HISTOSCOPE_MAX_ALLOC_BYTES", "2000"}};
    QTemporaryDir directory_;
};

TEST_F(TilingCli, APipelineBeyondTheDeviceRunsInTilesAndWritesTheUntiledImage) {
    const QStringList arguments{
        "pipeline", path("in.png"),         "--angle",      "90",     "--sampling", "nearest", "--filter",
        "box:3",    "--histogram-strategy", "local-atomic", "--json", "--out"};
    const Outcome whole = runCli(arguments + QStringList{path("whole.png")});
    ASSERT_EQ(whole.exitCode, 0) << whole.err.toStdString();
    const Outcome tiled = runCli(arguments + QStringList{path("tiled.png")}, kSmallDevice);
    ASSERT_EQ(tiled.exitCode, 0) << tiled.err.toStdString();

    // A quarter turn about the centre of a 53x41 image moves whole pixels: nothing to round differently.
    EXPECT_EQ(QImage(path("tiled.png")), QImage(path("whole.png")));
    EXPECT_EQ(tiled.json()["histograms"], whole.json()["histograms"]);
    for (const auto& value : whole.json()["stages"].toArray())
        EXPECT_FALSE(value.toObject().contains("note")) << value.toObject()["stage"].toString().toStdString();
    const QJsonArray stages = tiled.json()["stages"].toArray();
    ASSERT_GE(stages.size(), 3);
    for (int i = 0; i < 3; ++i) {
        const QString note = stages[i].toObject()["note"].toString();
        EXPECT_TRUE(note.contains("largest allocation (2000 bytes)")) << note.toStdString();
        EXPECT_TRUE(note.contains(i < 2 ? " tiles of at most " : " bands of at most ")) << note.toStdString();
    }
}

TEST_F(TilingCli, TheHistogramCommandCountsInBandsAndSaysSo) {
    const QStringList arguments{"histogram", path("in.png"), "--strategy", "partial-reduce", "--json"};
    const Outcome whole = runCli(arguments);
    ASSERT_EQ(whole.exitCode, 0) << whole.err.toStdString();
    const Outcome banded = runCli(arguments, kSmallDevice);
    ASSERT_EQ(banded.exitCode, 0) << banded.err.toStdString();
    EXPECT_EQ(banded.json()["histograms"], whole.json()["histograms"]);
    EXPECT_FALSE(whole.json().contains("note"));
    // 500 pixels a band: 2173 pixels take 5.
    EXPECT_TRUE(banded.json()["note"].toString().startsWith("counted in 5 bands of at most 500 pixels"))
        << banded.json()["note"].toString().toStdString();
}

TEST_F(TilingCli, ALimitThatIsNotANumberIsAUsageError) {
    const Outcome outcome =
        runCli({"histogram", path("in.png"), "--json"}, {{"HISTOSCOPE_MAX_ALLOC_BYTES", "lots"}});
    expectOneErrorLine(outcome, 2, "HISTOSCOPE_MAX_ALLOC_BYTES='lots'");
}

}  // namespace
}  // namespace hs
