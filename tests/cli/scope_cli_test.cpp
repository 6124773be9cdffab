// histoscope-cli scope (waveform, parade, vectorscope) and histogram --roi, end to end: the JSON's nested
// counts against a hand count, the .npy's header and data against the JSON, a region outside the image
// refused with the image's size, and a region's histogram against the histogram of the image cropped by Qt.
// (scope_numpy_test.py checks the counts against numpy on images made elsewhere.)
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QImageWriter>
#include <QJsonArray>
#include <QTemporaryDir>
#include <cstring>
#include <random>

#include "cli_runner.hpp"

namespace hs::cli {
namespace {

constexpr int kUsageExit = 2;

class ScopeCli : public ::testing::Test {
  protected:
    QString write(const QImage& image, const QString& name) {
        const QString path = dir_.filePath(name);
        EXPECT_TRUE(QImageWriter(path, "png").write(image)) << path.toStdString();
        return path;
    }
    QString path(const QString& name) const { return dir_.filePath(name); }

    // Noise, with alpha, reproducible.
    static QImage noise(int width, int height) {
        QImage image(width, height, QImage::Format_RGBA8888);
        std::mt19937 random(25);
        for (int y = 0; y < height; ++y) {
            auto* line = image.scanLine(y);
            for (int i = 0; i < width * 4; ++i) line[i] = static_cast<uchar>(random());
        }
        return image;
    }

  private:
    QTemporaryDir dir_;
};

TEST_F(ScopeCli, JsonHoldsTheCountsAsNestedArraysWithTheirContext) {
    // Three columns, two rows; two column bins: x * 2 / 3 puts columns 0 and 1 in bin 0, column 2 in bin 1.
    // Lumas: (200,100,50) -> (59800+58700+5700+500)/1000 = 124; (10,20,30) -> 18; white 255; black 0.
    QImage image(3, 2, QImage::Format_RGBA8888);
    image.setPixelColor(0, 0, QColor(200, 100, 50));
    image.setPixelColor(1, 0, QColor(10, 20, 30));
    image.setPixelColor(2, 0, QColor(255, 255, 255));
    image.setPixelColor(0, 1, QColor(200, 100, 50));
    image.setPixelColor(1, 1, QColor(0, 0, 0));
    image.setPixelColor(2, 1, QColor(0, 0, 0));
    const QString file = write(image, "two-bins.png");
    for (const char* strategy : {"serial", "global-atomic", "local-atomic"}) {
        SCOPED_TRACE(strategy);
        const Outcome outcome =
            runCli({"scope", file, "--kind", "waveform", "--columns", "2", "--strategy", strategy, "--json"});
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
        const QJsonObject json = outcome.json();
        EXPECT_EQ(json["kind"].toString(), "waveform");
        EXPECT_EQ(json["channel"].toString(), "luma");
        EXPECT_EQ(json["strategy"].toString(), strategy);
        EXPECT_EQ(json["shape"].toArray(), (QJsonArray{256, 2}));
        EXPECT_EQ(json["region"].toObject(), (QJsonObject{{"x", 0}, {"y", 0}, {"width", 3}, {"height", 2}}));
        const QJsonArray counts = json["counts"].toArray();
        ASSERT_EQ(counts.size(), 256);
        for (int value = 0; value < 256; ++value) {
            const int bin0 = value == 124 ? 2 : value == 18 || value == 0 ? 1 : 0;
            const int bin1 = value == 255 || value == 0 ? 1 : 0;
            ASSERT_EQ(counts[value].toArray(), (QJsonArray{bin0, bin1})) << "value " << value;
        }
        const QJsonObject context = json["context"].toObject();
        EXPECT_EQ(context["image"].toObject()["path"].toString(), file);
        EXPECT_EQ(context["strategy"].toString(), strategy);
        EXPECT_EQ(context["ignore_transparent"], QJsonValue(false));
        EXPECT_FALSE(context.contains("roi")) << "the whole image";
        EXPECT_FALSE(json["timings"].toArray().isEmpty());
    }
}

TEST_F(ScopeCli, NpyIsUint32InTheDocumentedShapeHoldingTheJsonsCounts) {
    const QString file = write(noise(37, 21), "noise.png");
    const struct {
        QStringList options;
        QString shape;
        qsizetype values;
    } cases[] = {{{"--kind", "waveform", "--channel", "g"}, "(256, 37)", 256 * 37},
                 {{"--kind", "parade", "--columns", "5", "--roi", "30,10,7,11"}, "(3, 256, 5)", 3 * 256 * 5},
                 {{"--kind", "vectorscope", "--ignore-transparent"}, "(256, 256)", 256 * 256}};
    for (const auto& [options, shape, values] : cases) {
        SCOPED_TRACE(options.join(' ').toStdString());
        const QString npy = path("counts.npy");
        const Outcome written = runCli(QStringList{"scope", file, "--npy", npy} + options);
        ASSERT_EQ(written.exitCode, 0) << written.err.toStdString();
        EXPECT_TRUE(written.out.contains("shape " + shape.toUtf8())) << written.out.toStdString();
        QFile in(npy);
        ASSERT_TRUE(in.open(QIODevice::ReadOnly));
        const QByteArray bytes = in.readAll();
        ASSERT_TRUE(bytes.startsWith("\x93NUMPY\x01\x00"));
        const qsizetype headerLength = static_cast<uchar>(bytes[8]) | (static_cast<uchar>(bytes[9]) << 8);
        const QByteArray header = bytes.mid(10, headerLength);
        EXPECT_TRUE(header.contains("'descr': '<u4'")) << header.toStdString();
        EXPECT_TRUE(header.contains("'fortran_order': False")) << header.toStdString();
        EXPECT_TRUE(header.contains("'shape': " + shape.toUtf8())) << header.toStdString();
        EXPECT_EQ((10 + headerLength) % 64, 0) << "numpy aligns the data";
        ASSERT_EQ(bytes.size() - 10 - headerLength, values * 4);
        std::vector<std::uint32_t> data(static_cast<std::size_t>(values));
        std::memcpy(data.data(), bytes.constData() + 10 + headerLength, data.size() * 4);

        const Outcome json = runCli(QStringList{"scope", file, "--json"} + options);
        ASSERT_EQ(json.exitCode, 0) << json.err.toStdString();
        // The nested arrays, flattened in C order.
        std::vector<std::uint32_t> flat;
        const std::function<void(const QJsonValue&)> flatten = [&](const QJsonValue& value) {
            if (value.isArray()) {
                for (const auto& inner : value.toArray()) flatten(inner);
            } else {
                flat.push_back(static_cast<std::uint32_t>(value.toInteger()));
            }
        };
        flatten(json.json()["counts"]);
        EXPECT_EQ(flat, data);
    }
}

TEST_F(ScopeCli, ARegionOutsideTheImageIsAUsageErrorNamingTheImagesSize) {
    const QString file = write(noise(97, 61), "noise.png");
    for (const QStringList& command :
         {QStringList{"scope", file, "--roi", "90,0,10,10"},
          QStringList{"scope", file, "--kind", "vectorscope", "--roi", "0,61,1,1"},
          QStringList{"histogram", file, "--roi", "90,0,10,10"}}) {
        SCOPED_TRACE(command.join(' ').toStdString());
        const Outcome outcome = runCli(command);
        expectOneErrorLine(outcome, kUsageExit, "lies outside the 97x61 image");
    }
    expectOneErrorLine(runCli({"scope", file, "--roi", "1,2,3"}), kUsageExit, "--roi expects X,Y,W,H");
    expectOneErrorLine(runCli({"scope", file, "--kind", "histogram"}), kUsageExit,
                       "--kind expects one of waveform, parade, vectorscope");
    expectOneErrorLine(runCli({"scope", file, "--kind", "vectorscope", "--columns", "9"}), kUsageExit,
                       "the vectorscope has 256 Cb columns");
}

TEST_F(ScopeCli, AHistogramOfARegionIsTheHistogramOfTheCroppedImage) {
    const QImage image = noise(97, 61);
    const QString file = write(image, "noise.png");
    for (const QRect region : {QRect(0, 0, 1, 1), QRect(80, 40, 17, 21), QRect(10, 5, 50, 30)}) {
        const QString cropped = write(image.copy(region), "cropped.png");
        const QString roi =
            QString("%1,%2,%3,%4").arg(region.x()).arg(region.y()).arg(region.width()).arg(region.height());
        SCOPED_TRACE(roi.toStdString());
        for (const char* strategy : {"serial", "local-atomic"}) {
            const Outcome whole = runCli({"histogram", cropped, "--json", "--strategy", strategy});
            const Outcome part = runCli(
                {"histogram", file, "--roi", roi, "--json", "--strategy", strategy, "--ignore-transparent"});
            const Outcome partAll =
                runCli({"histogram", file, "--roi", roi, "--json", "--strategy", strategy});
            ASSERT_EQ(whole.exitCode, 0) << whole.err.toStdString();
            ASSERT_EQ(part.exitCode, 0) << part.err.toStdString();
            ASSERT_EQ(partAll.exitCode, 0) << partAll.err.toStdString();
            EXPECT_EQ(partAll.json()["histograms"], whole.json()["histograms"]) << strategy;
            EXPECT_EQ(part.json()["histograms"],
                      runCli({"histogram", cropped, "--json", "--strategy", strategy, "--ignore-transparent"})
                          .json()["histograms"])
                << strategy;
            EXPECT_EQ(partAll.json()["roi"].toString(), roi);
            EXPECT_EQ(partAll.json()["context"].toObject()["roi"].toString(), roi);
        }
    }
}

TEST_F(ScopeCli, ADeviceStrategyThatCannotHoldTheImageFallsBackToTheHostSayingWhy) {
    const QString file = write(noise(64, 48), "noise.png");
    const QStringList command{"scope", file, "--kind", "vectorscope", "--strategy", "local-atomic", "--json"};
    const Outcome onDevice = runCli(command);
    ASSERT_EQ(onDevice.exitCode, 0) << onDevice.err.toStdString();
    // 64 x 48 x 4 bytes do not fit a largest allocation of 4096 bytes.
    const Outcome fellBack = runCli(command, {{"HISTOSCOPE_MAX_ALLOC_BYTES", "4096"}});
    ASSERT_EQ(fellBack.exitCode, 0) << fellBack.err.toStdString();
    const QJsonObject json = fellBack.json();
    EXPECT_EQ(json["strategy"].toString(), "serial");
    EXPECT_EQ(json["requested_strategy"].toString(), "local-atomic");
    EXPECT_TRUE(json["note"].toString().contains("used serial")) << json["note"].toString().toStdString();
    EXPECT_EQ(json["counts"], onDevice.json()["counts"]);
}

TEST(ScopeStrategiesCli, StrategiesListsTheScopesWithTheirSupport) {
    const Outcome outcome = runCli({"strategies", "--json", "--device", "0:0"});
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
    QStringList names;
    for (const auto& entry : outcome.json()["scope"].toObject()["strategies"].toArray()) {
        names << entry.toObject()["name"].toString();
        EXPECT_TRUE(entry.toObject()["supported"].toBool()) << names.back().toStdString();
    }
    EXPECT_EQ(names, (QStringList{"serial", "global-atomic", "local-atomic"}));
}

}  // namespace
}  // namespace hs::cli
