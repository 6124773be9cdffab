// End-to-end tests of bow and bow-sweep: the built histoscope-cli on .npy files written here, memberships
// checked against nearest centroids computed by hand in this file.
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <limits>

#include "cli_runner.hpp"
#include "engine/ops/bow/bow.hpp"
#include "engine/ops/bow/descriptors.hpp"
#include "engine/runtime/device_info.hpp"
#include "io/image_io.hpp"
#include "io/npy.hpp"

namespace hs {
namespace {

constexpr std::size_t kDimensions = bow::kDimensions;

// k centroids whose values differ by row and column, far apart compared with the perturbations below.
bow::Matrix centroidsOf(std::size_t k) {
    std::vector<float> values(k * kDimensions);
    for (std::size_t c = 0; c < k; ++c) {
        for (std::size_t d = 0; d < kDimensions; ++d)
            values[c * kDimensions + d] = 0.3f * static_cast<float>((c * 13 + d * 5) % 17);
    }
    return bow::Matrix(std::move(values));
}

// Descriptor i: centroid (5 i mod k) moved by at most 0.15 per value, so every descriptor has one clear
// nearest centroid (no near tie a strategy may break either way).
bow::Matrix descriptorsNear(const bow::Matrix& centroids, std::size_t count) {
    std::vector<float> values(count * kDimensions);
    for (std::size_t i = 0; i < count; ++i) {
        const float* centre = centroids.row(i * 5 % centroids.rows());
        for (std::size_t d = 0; d < kDimensions; ++d)
            values[i * kDimensions + d] = centre[d] + 0.05f * (static_cast<float>((i + d) % 7) - 3.0f);
    }
    return bow::Matrix(std::move(values));
}

std::uint32_t nearest(const bow::Matrix& descriptors, std::size_t row, const bow::Matrix& centroids) {
    double best = std::numeric_limits<double>::infinity();
    std::uint32_t index = 0;
    for (std::size_t c = 0; c < centroids.rows(); ++c) {
        double distance = 0;
        for (std::size_t d = 0; d < kDimensions; ++d) {
            const double diff = double(descriptors.row(row)[d]) - double(centroids.row(c)[d]);
            distance += diff * diff;
        }
        if (distance < best) best = distance, index = static_cast<std::uint32_t>(c);
    }
    return index;
}

class BowCli : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(directory_.isValid());
        io::writeDescriptorArray(descriptorsPath(), descriptors_);
        io::writeDescriptorArray(centroidsPath(), centroids_);
    }
    QString descriptorsPath() const { return directory_.filePath("d.npy"); }
    QString centroidsPath() const { return directory_.filePath("c.npy"); }

    QTemporaryDir directory_;
    const bow::Matrix centroids_ = centroidsOf(9);
    const bow::Matrix descriptors_ = descriptorsNear(centroids_, 150);
};

TEST_F(BowCli, JsonHasTheMembershipsOfTheNearestCentroidsAndTheirHistogram) {
    for (const QString strategy : {"bow-serial", "bow-gpu1-baseline", "bow-tiled"}) {
        SCOPED_TRACE(strategy.toStdString());
        const Outcome outcome = runCli({"bow", "--descriptors", descriptorsPath(), "--centroids",
                                        centroidsPath(), "--strategy", strategy, "--json"});
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
        const QJsonObject json = outcome.json();
        EXPECT_EQ(json["strategy"].toString(), strategy);
        EXPECT_EQ(json["descriptor_count"].toInt(), 150);
        EXPECT_EQ(json["centroid_count"].toInt(), 9);
        EXPECT_EQ(json["device"].isObject(), strategy != "bow-serial");
        const QJsonArray memberships = json["memberships"].toArray();
        ASSERT_EQ(memberships.size(), 150);
        std::vector<int> expectedHistogram(9, 0);
        for (std::size_t i = 0; i < descriptors_.rows(); ++i) {
            const auto expected = nearest(descriptors_, i, centroids_);
            EXPECT_EQ(memberships.at(static_cast<qsizetype>(i)).toInt(), static_cast<int>(expected)) << i;
            ++expectedHistogram[expected];
        }
        const QJsonArray histogram = json["histogram"].toArray();
        ASSERT_EQ(histogram.size(), 9);
        for (int c = 0; c < 9; ++c) EXPECT_EQ(histogram.at(c).toInt(), expectedHistogram[std::size_t(c)]);
        EXPECT_FALSE(json["timings"].toArray().isEmpty());
    }
}

TEST_F(BowCli, BadArraysExitThreeNamingTheFile) {
    const QString bad = directory_.filePath("bad.npy");
    QFile file(bad);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write("\x93NUMPY not really");
    file.close();
    expectOneErrorLine(
        runCli({"bow", "--descriptors", bad, "--centroids", centroidsPath(), "--strategy", "bow-serial"}), 3,
        bad);
    const QString missing = directory_.filePath("missing.npy");
    expectOneErrorLine(runCli({"bow", "--descriptors", descriptorsPath(), "--centroids", missing}), 3,
                       missing);
}

TEST_F(BowCli, UsageMistakesExitTwo) {
    expectOneErrorLine(runCli({"bow", "--descriptors", descriptorsPath(), "--centroids", centroidsPath(),
                               "--strategy", "bow-gpu9"}),
                       2, "bow-gpu9");
    expectOneErrorLine(runCli({"bow", "--descriptors", descriptorsPath()}), 2, "--centroids");
    expectOneErrorLine(runCli({"bow-sweep", "--strategy", "bow-gpu9"}), 2, "bow-gpu9");
    expectOneErrorLine(runCli({"bow-sweep", "--descriptors", "0"}), 2, "1..16777216");
    expectOneErrorLine(runCli({"bow-sweep", "--centroids", "8,x"}), 2, "--centroids");
}

// `strategies` lists the builders with their support on the selected device for a vocabulary of K words: with
// one word more than the device's constant buffer holds, bow-gpu5-constant alone is refused, with the reason.
TEST(BowStrategiesCli, ListsTheBuildersWithGpu5RefusedPastTheConstantBuffer) {
    const DeviceInfo device = selectDevice(enumerateDevices(), "0:0");
    const std::uint64_t fitting = device.constantMemBytes / (kDimensions * sizeof(float));
    ASSERT_LT(fitting, std::uint64_t{1} << 20) << "a constant buffer beyond --centroids' range";
    for (const std::uint64_t k : {fitting, fitting + 1}) {
        SCOPED_TRACE(k);
        const Outcome outcome =
            runCli({"strategies", "--json", "--device", "0:0", "--centroids", QString::number(k)});
        ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
        const QJsonObject bowJson = outcome.json()["bow"].toObject();
        EXPECT_EQ(bowJson["centroids"].toInteger(), static_cast<qint64>(k));
        const QJsonArray listed = bowJson["strategies"].toArray();
        ASSERT_EQ(listed.size(), static_cast<qsizetype>(bow::strategies().size()));
        for (qsizetype i = 0; i < listed.size(); ++i) {
            const QJsonObject entry = listed[i].toObject();
            const auto& strategy = *bow::strategies()[static_cast<std::size_t>(i)];
            EXPECT_EQ(entry["name"].toString().toStdString(), std::string(strategy.name()));
            EXPECT_EQ(entry["runs_on"].toString(), strategy.runsOnDevice() ? "device" : "host");
            // bow-tensor runs on NVIDIA tensor cores only.
            if (strategy.name() == "bow-tensor" && device.nvidiaComputeCapability < 80) {
                EXPECT_FALSE(entry["supported"].toBool());
                EXPECT_TRUE(entry["reason"].toString().contains("tensor cores"));
                continue;
            }
            const bool refused = k > fitting && strategy.name() == "bow-gpu5-constant";
            EXPECT_EQ(entry["supported"].toBool(), !refused) << entry["reason"].toString().toStdString();
            if (refused) {
                EXPECT_TRUE(entry["reason"].toString().contains("CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE"));
            }
        }
    }
    const Outcome table = runCli({"strategies", "--device", "0:0"});
    ASSERT_EQ(table.exitCode, 0);
    for (const auto* strategy : bow::strategies()) EXPECT_TRUE(table.out.contains(strategy->name().data()));
}

// A vocabulary built from an image, then the image's words over it: the vocabulary file re-read has K rows,
// and the memberships are the nearest words of the reference descriptors (ops/bow/descriptors.hpp).
TEST(BowImageCli, VocabularyThenWordsOfTheImage) {
    QTemporaryDir directory;
    ASSERT_TRUE(directory.isValid());
    const QString imagePath = directory.filePath("texture.png");
    QImage picture(100, 90, QImage::Format_RGBA8888);
    for (int y = 0; y < picture.height(); ++y) {
        for (int x = 0; x < picture.width(); ++x) {
            const int v = x < 50 ? (x * 9) % 256 : (y * y * 3 + x) % 256;
            picture.setPixelColor(x, y, QColor(v, (v + y * 5) % 256, (x * y) % 256, 255));
        }
    }
    ASSERT_TRUE(picture.save(imagePath));
    const QString vocabularyPath = directory.filePath("words.npy");
    const Outcome built = runCli({"vocabulary", imagePath, imagePath, "--k", "3", "--out", vocabularyPath,
                                  "--window", "20", "--stride", "10"});
    ASSERT_EQ(built.exitCode, 0) << built.err.toStdString();
    const bow::Matrix vocabulary = io::readDescriptorArray(vocabularyPath);
    ASSERT_EQ(vocabulary.rows(), 3u);

    const Outcome words = runCli({"bow", imagePath, "--vocabulary", vocabularyPath, "--window", "20",
                                  "--stride", "10", "--strategy", "bow-serial", "--json"});
    ASSERT_EQ(words.exitCode, 0) << words.err.toStdString();
    const bow::Matrix reference = bow::referenceDescriptors(io::loadImage(imagePath), {20, 10});
    const QJsonArray memberships = words.json()["memberships"].toArray();
    ASSERT_EQ(static_cast<std::size_t>(memberships.size()), reference.rows());
    for (std::size_t i = 0; i < reference.rows(); ++i)
        EXPECT_EQ(memberships.at(static_cast<qsizetype>(i)).toInt(),
                  static_cast<int>(nearest(reference, i, vocabulary)))
            << i;

    expectOneErrorLine(runCli({"vocabulary", imagePath, "--k", "3"}), 2, "--out");
    expectOneErrorLine(runCli({"bow", imagePath, "--vocabulary", vocabularyPath, "--window", "30"}), 2,
                       "--window");
    expectOneErrorLine(
        runCli({"vocabulary", directory.filePath("none.png"), "--k", "3", "--out", vocabularyPath}), 3,
        "none.png");
}

TEST(BowSweepCli, OneRowPerSizeAndStrategyWithTheTransposeApart) {
    const Outcome outcome =
        runCli({"bow-sweep", "--descriptors", "64,100", "--centroids", "5", "--strategy",
                "bow-serial,bow-gpu1-baseline,bow-gpu2-coalesced", "--repeat", "2", "--json"});
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
    const QJsonArray rows = outcome.json()["rows"].toArray();
    ASSERT_EQ(rows.size(), 2 * 3);
    for (const auto& value : rows) {
        const QJsonObject row = value.toObject();
        SCOPED_TRACE(row["strategy"].toString().toStdString());
        EXPECT_EQ(row["centroids"].toInt(), 5);
        EXPECT_EQ(row["misassigned"].toInt(), 0);
        const QJsonObject kernel = row["kernel_ns"].toObject();
        EXPECT_LE(kernel["min"].toDouble(), kernel["median"].toDouble());
        EXPECT_LE(kernel["median"].toDouble(), kernel["max"].toDouble());
        EXPECT_EQ(row["transpose_ns"].isObject(), row["strategy"].toString() == "bow-gpu2-coalesced");
        if (row["strategy"].toString() == "bow-gpu1-baseline") {
            EXPECT_DOUBLE_EQ(row["speedup_over_gpu1"].toDouble(), 1.0);
        }
    }
    EXPECT_EQ(rows.at(0).toObject()["descriptors"].toInt(), 64);
    EXPECT_EQ(rows.at(5).toObject()["descriptors"].toInt(), 100);
}

}  // namespace
}  // namespace hs
