// The kernel lab on the command line: pipeline --kernel/--param (the output re-read and compared with the
// template's arithmetic done here), a build failure's exit 4 and FILE:LINE:COL line, check under Oclgrind
// (exit 5 and the line of the write past the end; 0 when clean), and sweep (its grid, and the stored best
// that the strategy then builds with).
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QImageWriter>
#include <QJsonArray>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>

#include "cli_runner.hpp"

namespace hs {
namespace {

const QString kSource = QStringLiteral(HISTOSCOPE_SOURCE_DIR);
const QString kInvert = kSource + "/kernels/templates/invert.cl";
const QString kBroken = kSource + "/tests/data/kernels/error_on_line_12.cl";
const QString kPastTheEnd = kSource + "/tests/data/kernels/one_past_the_end.cl";

QColor inputColor(int x, int y) {
    return QColor(40 * x + y, 200 - 30 * y, 7 * x * y, 255 - 11 * x - 3 * y);
}

class KernelLabCli : public ::testing::Test {
  protected:
    void SetUp() override {
        ASSERT_TRUE(directory_.isValid());
        QImage image(kWidth, kHeight, QImage::Format_RGBA8888);
        for (int y = 0; y < kHeight; ++y)
            for (int x = 0; x < kWidth; ++x) image.setPixelColor(x, y, inputColor(x, y));
        ASSERT_TRUE(QImageWriter(path("in.png"), "png").write(image));
    }
    QString path(const QString& name) const { return directory_.filePath(name); }
    // Each run with a cache folder of the test's own: stored tunings stay there.
    Outcome run(const QStringList& arguments, std::vector<std::pair<QString, QString>> changes = {}) const {
        changes.emplace_back("HISTOSCOPE_CACHE_DIR", path("cache"));
        return runCli(arguments, changes);
    }

    static constexpr int kWidth = 7;
    static constexpr int kHeight = 5;
    QTemporaryDir directory_;
};

// The stage object called `name` in a pipeline's JSON report.
QJsonObject stageNamed(const QJsonObject& report, const QString& name) {
    for (const auto& stage : report["stages"].toArray())
        if (stage.toObject()["stage"].toString() == name) return stage.toObject();
    ADD_FAILURE() << "no stage " << name.toStdString();
    return {};
}

// The stages of a pipeline's JSON report in order, transfers left out.
QStringList stageNames(const QJsonObject& report) {
    QStringList names;
    for (const auto& stage : report["stages"].toArray()) {
        const QString name = stage.toObject()["stage"].toString();
        if (name != "upload" && name != "readback" && name != "display") names += name;
    }
    return names;
}

TEST_F(KernelLabCli, PipelineRunsTheInvertTemplateWithItsParam) {
    const Outcome outcome = run({"pipeline", path("in.png"), "--kernel", kInvert, "--param", "amount=100",
                                 "--kernel-group", "4", "--out", path("out.png")});
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
    const QImage out = QImage(path("out.png")).convertToFormat(QImage::Format_RGBA8888);
    ASSERT_EQ(out.size(), QSize(kWidth, kHeight));
    // invert.cl: v + (255 - 2 v) * amount / 255 on R, G, B (int arithmetic), alpha kept.
    const auto blend = [](int v) { return v + (255 - 2 * v) * 100 / 255; };
    for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) {
            const QColor in = inputColor(x, y);
            ASSERT_EQ(out.pixelColor(x, y),
                      QColor(blend(in.red()), blend(in.green()), blend(in.blue()), in.alpha()))
                << x << ", " << y;
        }
    }
}

TEST_F(KernelLabCli, TheKernelStageRunsWhereItsOptionIsWritten) {
    const Outcome before = run(
        {"pipeline", path("in.png"), "--kernel", kInvert, "--grayscale", "--out", path("a.png"), "--json"});
    ASSERT_EQ(before.exitCode, 0) << before.err.toStdString();
    EXPECT_EQ(stageNames(before.json()), (QStringList{"kernel", "grayscale", "histogram"}));
    const QJsonObject kernel = stageNamed(before.json(), "kernel");
    EXPECT_EQ(kernel["kernel"].toString(), "invert");
    EXPECT_EQ(kernel["params"].toObject()["amount"].toDouble(), 255);
    const Outcome after = run(
        {"pipeline", path("in.png"), "--grayscale", "--kernel", kInvert, "--out", path("b.png"), "--json"});
    ASSERT_EQ(after.exitCode, 0) << after.err.toStdString();
    EXPECT_EQ(stageNames(after.json()), (QStringList{"grayscale", "kernel", "histogram"}));
}

TEST_F(KernelLabCli, ABuildFailureExits4WithFileLineAndColumnOfTheError) {
    const Outcome outcome = run({"pipeline", path("in.png"), "--kernel", kBroken, "--out", path("out.png")});
    expectOneErrorLine(outcome, 4, "error: use of undeclared identifier 'undeclared' (device ");
    EXPECT_TRUE(outcome.err.startsWith(("histoscope-cli: " + kBroken + ":12:5: error:").toUtf8()))
        << outcome.err.toStdString();
    EXPECT_FALSE(QFile::exists(path("out.png")));
    // HISTOSCOPE_VERBOSE=1: the driver's whole log after the line.
    const Outcome verbose = run({"pipeline", path("in.png"), "--kernel", kBroken, "--out", path("out.png")},
                                {{"HISTOSCOPE_VERBOSE", "1"}});
    EXPECT_EQ(verbose.exitCode, 4);
    EXPECT_GT(verbose.err.count("undeclared"), 1) << verbose.err.toStdString();
}

TEST_F(KernelLabCli, BadParamsAndAnnotationsAreOneLine) {
    expectOneErrorLine(run({"pipeline", path("in.png"), "--kernel", kInvert, "--param", "amount=256", "--out",
                            path("out.png")}),
                       2, "--param amount: 256 is outside 0..255");
    expectOneErrorLine(run({"pipeline", path("in.png"), "--kernel", kInvert, "--param", "radius=1", "--out",
                            path("out.png")}),
                       2, "declares no @param radius (it declares: amount)");
    QFile bad(path("bad.cl"));
    ASSERT_TRUE(bad.open(QIODevice::WriteOnly));
    bad.write(
        "kernel void k(global const uchar4* s, global uchar4* d, int w, int h, int n) {}\n// @param int n "
        "0\n");
    bad.close();
    expectOneErrorLine(
        run({"pipeline", path("in.png"), "--kernel", path("bad.cl"), "--out", path("out.png")}), 3,
        path("bad.cl") + ":2: @param: needs 5 fields");
}

TEST_F(KernelLabCli, SweepRunsEveryPointOfTheGridAndTheStoredBestIsWhatTheStrategyBuildsWith) {
    const Outcome sweep =
        run({"sweep", path("in.png"), "--stage", "histogram", "--strategy", "local-atomic", "--tune",
             "WG=8,16", "--tune", "COPIES=1,2", "--repeat", "2", "--store", "--json"});
    ASSERT_EQ(sweep.exitCode, 0) << sweep.err.toStdString();
    const QJsonObject report = sweep.json();
    EXPECT_EQ(report["tunables"].toArray(), (QJsonArray{"WG", "COPIES"}));
    const QJsonArray points = report["points"].toArray();
    // A program build per point (PoCL: about 2 s each on a fresh machine), so 2 x 2; the engine's test
    // covers a 2 x 3 grid's order.
    ASSERT_EQ(points.size(), 4);
    const QJsonObject best = report["best"].toObject();
    double fastest = 0;
    int index = 0;
    for (const int wg : {8, 16}) {
        for (const int copies : {1, 2}) {
            const QJsonObject point = points[index++].toObject();
            EXPECT_EQ(point["values"].toObject(), (QJsonObject{{"WG", wg}, {"COPIES", copies}}));
            // The point ran with its values: its build says so.
            EXPECT_TRUE(
                point["builds"].toString().contains(QString("-D WG=%1 -D COPIES=%2 ").arg(wg).arg(copies)))
                << point["builds"].toString().toStdString();
            const double median = point["median_ns"].toDouble();
            EXPECT_LE(point["min_ns"].toDouble(), median);
            EXPECT_LE(median, point["max_ns"].toDouble());
            if (fastest == 0 || median < fastest) fastest = median;
        }
    }
    // The best is the point of the smallest median.
    int bestPoints = 0;
    for (const auto& point : points) {
        if (point.toObject()["values"].toObject() != best) continue;
        ++bestPoints;
        EXPECT_EQ(point.toObject()["median_ns"].toDouble(), fastest);
    }
    EXPECT_EQ(bestPoints, 1);
    EXPECT_TRUE(report["stored"].toBool());

    // A later run of the strategy on this device builds with the stored values.
    const Outcome later = run({"pipeline", path("in.png"), "--histogram-strategy", "local-atomic", "--out",
                               path("out.png"), "--json"});
    ASSERT_EQ(later.exitCode, 0) << later.err.toStdString();
    const QJsonArray builds = stageNamed(later.json(), "histogram")["builds"].toArray();
    ASSERT_EQ(builds.size(), 1);
    const QString options = builds[0].toObject()["options"].toString();
    EXPECT_TRUE(options.contains(
        QString("-D WG=%1 -D COPIES=%2 ").arg(best["WG"].toInt()).arg(best["COPIES"].toInt())))
        << options.toStdString();
}

TEST_F(KernelLabCli, SweepOfAUserKernelAndItsCsvAndItsMistakes) {
    const Outcome csv = run({"sweep", path("in.png"), "--kernel", kInvert, "--tune", "group=0,4", "--tune",
                             "amount=0,255", "--repeat", "1", "--csv"});
    ASSERT_EQ(csv.exitCode, 0) << csv.err.toStdString();
    const QStringList lines = QString::fromUtf8(csv.out).trimmed().split('\n');
    ASSERT_EQ(lines.size(), 5) << csv.out.toStdString();
    EXPECT_EQ(lines[0], "group,amount,min_ns,median_ns,max_ns,gbps");
    EXPECT_TRUE(lines[1].startsWith("0,0,"));
    EXPECT_TRUE(lines[4].startsWith("4,255,"));
    expectOneErrorLine(run({"sweep", path("in.png"), "--kernel", kInvert, "--tune", "radius=1"}), 2,
                       "declares no @param radius");
    expectOneErrorLine(run({"sweep", path("in.png"), "--strategy", "local-atomic", "--tune", "COPIES=3"}), 2,
                       "--tune COPIES: 3 is not a power of two");
    expectOneErrorLine(run({"sweep", path("in.png"), "--strategy", "global-atomic", "--tune", "WG=8"}), 2,
                       "global-atomic has no tunable WG (it has: none)");
}

TEST_F(KernelLabCli, StrategiesListWhatASweepMayTune) {
    const Outcome outcome = run({"strategies", "--json"});
    ASSERT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
    QStringList localAtomic;
    for (const auto& entry : outcome.json()["strategies"].toArray()) {
        const QJsonObject strategy = entry.toObject();
        if (strategy["name"].toString() == "global-atomic") {
            EXPECT_TRUE(strategy["tunables"].toArray().isEmpty());
        }
        if (strategy["name"].toString() != "local-atomic") continue;
        for (const auto& tunable : strategy["tunables"].toArray())
            localAtomic += tunable.toObject()["name"].toString();
    }
    EXPECT_EQ(localAtomic, (QStringList{"WG", "COPIES", "CHUNK_QUADS"}));
}

// Under Oclgrind: slow beside the others (label oclgrind), so on a 7x5 image.
class KernelCheckCli : public KernelLabCli {
  protected:
    void SetUp() override {
        if (QStandardPaths::findExecutable("oclgrind").isEmpty()) GTEST_SKIP() << "oclgrind is not installed";
        KernelLabCli::SetUp();
    }
};

TEST_F(KernelCheckCli, AWriteOnePixelPastTheEndIsAFindingOnItsLine) {
    const Outcome outcome = run({"check", path("in.png"), "--kernel", kPastTheEnd});
    EXPECT_EQ(outcome.exitCode, 5) << outcome.err.toStdString();
    const QStringList lines = QString::fromUtf8(outcome.out).trimmed().split('\n');
    ASSERT_EQ(lines.size(), 1) << outcome.out.toStdString();
    EXPECT_TRUE(lines[0].startsWith(kPastTheEnd + ":9: Invalid write of size 4 in global memory"))
        << lines[0].toStdString();
    EXPECT_TRUE(outcome.err.isEmpty()) << outcome.err.toStdString();
}

TEST_F(KernelCheckCli, ACleanKernelExits0AndABrokenOneSaysWhyOnItsLine) {
    const Outcome clean = run({"check", path("in.png"), "--kernel", kInvert, "--param", "amount=7"});
    EXPECT_EQ(clean.exitCode, 0) << clean.err.toStdString();
    EXPECT_TRUE(clean.out.isEmpty()) << clean.out.toStdString();
    expectOneErrorLine(run({"check", path("in.png"), "--kernel", kBroken}), 4, kBroken + ":12:5: error:");
}

TEST_F(KernelCheckCli, AKernelThatNeverEndsIsAbandonedAfterTheTimeoutAsAFinding) {
    QFile endless(path("endless.cl"));
    ASSERT_TRUE(endless.open(QIODevice::WriteOnly));
    endless.write(
        "kernel void spin(global const uchar4* src, global uchar4* dst, int width, int height) {\n"
        "    for (;;) dst[0] = src[0];\n"
        "}\n");
    endless.close();
    const Outcome outcome = run({"check", path("in.png"), "--kernel", path("endless.cl"), "--timeout", "2"});
    EXPECT_EQ(outcome.exitCode, 5) << outcome.err.toStdString();
    EXPECT_EQ(QString::fromUtf8(outcome.out),
              path("endless.cl") + ": the kernel did not finish within 2 s under Oclgrind (abandoned)\n");
}

}  // namespace
}  // namespace hs
