// The kernel lab on the command line: pipeline --kernel/--param (the output re-read and compared with the
// template's arithmetic done here), a build failure's exit 4 and FILE:LINE:COL line, check under Oclgrind
// (exit 5 and the line of the write past the end; 0 when clean), and sweep (its grid, and the stored best
// that the strategy then builds with).
#include <gtest/gtest.h>
#include <sys/types.h>

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QImageWriter>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <csignal>
#include <vector>

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
    EXPECT_EQ(lines[0],
              "group,amount,built_group,built_amount,min_ns,median_ns,max_ns,gbps,x_read,"
              "max_difference,same_build_as,error");
    // A user kernel's values are arguments: built as asked.
    EXPECT_TRUE(lines[1].startsWith("0,0,0,0,"));
    EXPECT_TRUE(lines[4].startsWith("4,255,4,255,"));
    expectOneErrorLine(run({"sweep", path("in.png"), "--kernel", kInvert, "--tune", "radius=1"}), 2,
                       "declares no @param radius");
    expectOneErrorLine(run({"sweep", path("in.png"), "--strategy", "local-atomic", "--tune", "COPIES=3"}), 2,
                       "--tune COPIES: 3 is not a power of two");
    expectOneErrorLine(run({"sweep", path("in.png"), "--strategy", "global-atomic", "--tune", "WG=8"}), 2,
                       "global-atomic has no tunable WG (it has: none)");
}

// The -D value NAME=... of build options, as an independent reading of what was built.
int definedValue(const QString& options, const QString& name) {
    const QRegularExpression define("-D " + name + "=(\\d+)");
    const auto match = define.match(options);
    EXPECT_TRUE(match.hasMatch()) << options.toStdString();
    return match.captured(1).toInt();
}

TEST_F(KernelLabCli, ASweepPointIsLabelledByTheValueItBuiltAndTheStoredBestIsThatValue) {
    // private-uchar keeps a work-item's 4 rows of uchar counters in local memory: 1024 work-items do not fit
    // PoCL's, so the strategy lowers the group, to the same size for 512 and 1024.
    const Outcome sweep = run({"sweep", path("in.png"), "--strategy", "private-uchar", "--tune",
                               "WG=4,512,1024", "--repeat", "1", "--store", "--json"});
    ASSERT_EQ(sweep.exitCode, 0) << sweep.err.toStdString();
    const QJsonArray points = sweep.json()["points"].toArray();
    ASSERT_EQ(points.size(), 3);
    QList<int> built;
    for (int p = 0; p < 3; ++p) {
        const QJsonObject point = points[p].toObject();
        built += point["built"].toObject()["WG"].toInt();
        EXPECT_EQ(built.last(), definedValue(point["builds"].toString(), "WG"));
        EXPECT_EQ(point["max_difference"].toInt(-1), 0) << "the counts equal the CPU reference's";
    }
    EXPECT_EQ(points[0].toObject()["values"].toObject()["WG"].toInt(), 4);
    EXPECT_EQ(built[0], 4);
    EXPECT_LT(built[2], 1024);
    EXPECT_EQ(built[1], built[2]);
    EXPECT_EQ(points[2].toObject()["same_build_as"].toInt(-1), 1);
    EXPECT_FALSE(points[1].toObject().contains("same_build_as"));
    // The best is named by what it built; a marked point is never the best.
    const int bestWg = sweep.json()["best"].toObject()["WG"].toInt();
    EXPECT_TRUE(bestWg == built[0] || bestWg == built[1]) << bestWg;

    const Outcome table =
        run({"sweep", path("in.png"), "--strategy", "private-uchar", "--tune", "WG=1024", "--repeat", "1"});
    ASSERT_EQ(table.exitCode, 0) << table.err.toStdString();
    EXPECT_TRUE(QString::fromUtf8(table.out).contains(QString("WG=%1 (WG=1024)").arg(built[2])))
        << table.out.toStdString();

    const Outcome later = run({"pipeline", path("in.png"), "--histogram-strategy", "private-uchar", "--out",
                               path("out.png"), "--json"});
    ASSERT_EQ(later.exitCode, 0) << later.err.toStdString();
    const QJsonArray builds = stageNamed(later.json(), "histogram")["builds"].toArray();
    ASSERT_EQ(builds.size(), 1);
    EXPECT_EQ(definedValue(builds[0].toObject()["options"].toString(), "WG"), bestWg);
}

// A sweep of a rotation or convolution strategy: every point's result equals the CPU reference (a quarter
// turn with nearest sampling and an integer filter: bit for bit), is labelled by its build, and the stored
// best is what the strategy, named in a pipeline, then builds with. Two points each: a PoCL build takes a
// second or two.
struct TransformSweep {
    QStringList stage;  // --stage KIND and the stage's options
    QString strategyOption;
    QString strategy;
    QString tune;
    QString name;
};

// How a case is named in test listings.
void PrintTo(const TransformSweep& sweep, std::ostream* out) {
    *out << sweep.strategy.toStdString();
}

class TransformSweepCli : public KernelLabCli, public ::testing::WithParamInterface<TransformSweep> {};

TEST_P(TransformSweepCli, MatchesTheReferenceAtEveryPointAndStoresItsBest) {
    const TransformSweep& c = GetParam();
    QStringList arguments{"sweep", path("in.png")};
    arguments << c.stage << "--strategy" << c.strategy << "--tune" << c.tune << "--repeat"
              << "1"
              << "--store"
              << "--json";
    const Outcome sweep = run(arguments);
    ASSERT_EQ(sweep.exitCode, 0) << sweep.err.toStdString();
    const QJsonArray points = sweep.json()["points"].toArray();
    ASSERT_EQ(points.size(), 2);
    for (const auto& entry : points) {
        const QJsonObject point = entry.toObject();
        EXPECT_EQ(point["max_difference"].toInt(-1), 0) << point["builds"].toString().toStdString();
        EXPECT_EQ(point["built"].toObject()[c.name].toInt(),
                  definedValue(point["builds"].toString(), c.name));
    }
    const int best = sweep.json()["best"].toObject()[c.name].toInt();
    QStringList pipeline{"pipeline", path("in.png")};
    pipeline << c.stage.mid(2) << c.strategyOption << c.strategy << "--out" << path("out.png") << "--json";
    const Outcome later = run(pipeline);
    ASSERT_EQ(later.exitCode, 0) << later.err.toStdString();
    const QString options =
        stageNamed(later.json(), c.stage[1])["builds"].toArray()[0].toObject()["options"].toString();
    EXPECT_EQ(definedValue(options, c.name), best) << options.toStdString();

    // A convolution's values are stored for its filter's size: a 5x5 filter builds with the strategy's own
    // choice, which no point of the grid asked for.
    if (c.stage[1] == "convolve") {
        const Outcome five = run({"pipeline", path("in.png"), "--filter", "box:5", c.strategyOption,
                                  c.strategy, "--out", path("out5.png"), "--json"});
        ASSERT_EQ(five.exitCode, 0) << five.err.toStdString();
        const QString fiveOptions =
            stageNamed(five.json(), "convolve")["builds"].toArray()[0].toObject()["options"].toString();
        EXPECT_FALSE(fiveOptions.contains(QRegularExpression(QString("-D %1=%2\\b").arg(c.name).arg(best))))
            << fiveOptions.toStdString();
    }
}

INSTANTIATE_TEST_SUITE_P(Every, TransformSweepCli,
                         ::testing::Values(TransformSweep{{"--stage", "rotate", "--angle", "90", "--sampling",
                                                           "nearest"},
                                                          "--rotate-strategy",
                                                          "buffer",
                                                          "PIXELS_X=1,8",
                                                          "PIXELS_X"},
                                           TransformSweep{{"--stage", "convolve", "--filter", "box:3"},
                                                          "--convolve-strategy",
                                                          "buffer-naive",
                                                          "LOCAL_X=1,4",
                                                          "LOCAL_X"},
                                           TransformSweep{{"--stage", "convolve", "--filter", "box:3"},
                                                          "--convolve-strategy",
                                                          "local-tiled",
                                                          "TILE_X=4,8",
                                                          "TILE_X"},
                                           TransformSweep{{"--stage", "convolve", "--filter", "box:3"},
                                                          "--convolve-strategy",
                                                          "separable",
                                                          "ROWS=2,4",
                                                          "ROWS"}),
                         [](const ::testing::TestParamInfo<TransformSweep>& param) {
                             return QString(param.param.strategy).replace('-', '_').toStdString();
                         });

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

// kernels/histogram.cl with local_atomic's addition of counter `skipped` left out (counter i < 256: value i
// of r), written as the user's edited copy.
QString histogramSkipping(const QString& file, int skipped) {
    QFile source(kSource + "/kernels/histogram.cl");
    EXPECT_TRUE(source.open(QIODevice::ReadOnly));
    QString text = QString::fromUtf8(source.readAll());
    const QString add = "if (sum != 0) atomic_add(&hist[i], sum);";
    EXPECT_TRUE(text.contains(add));
    if (skipped >= 0)
        text.replace(add, QString("if (sum != 0 && i != %1) atomic_add(&hist[i], sum);").arg(skipped));
    QFile edited(file);
    EXPECT_TRUE(edited.open(QIODevice::WriteOnly));
    edited.write(text.toUtf8());
    return file;
}

TEST_F(KernelLabCli, AnEditedLocalAtomicRunsInItsPlaceAndTheReferenceCheckNamesTheBinItBroke) {
    // r = 40 x + y: value 41 is the one pixel (1, 1).
    const QString broken = histogramSkipping(path("broken.cl"), 41);
    const QStringList arguments = {"pipeline",     path("in.png"),      "--histogram-strategy",
                                   "local-atomic", "--strategy-source", "local-atomic=" + broken,
                                   "--out",        path("out.png")};
    const Outcome text = run(arguments);
    ASSERT_EQ(text.exitCode, 0) << text.err.toStdString();
    EXPECT_TRUE(text.out.contains("check     bin 41 of r: expected 1, got 0 (largest difference 1)\n"))
        << text.out.toStdString();
    const Outcome json = run(arguments + QStringList{"--json"});
    ASSERT_EQ(json.exitCode, 0) << json.err.toStdString();
    const QJsonObject histogram = stageNamed(json.json(), "histogram");
    EXPECT_EQ(histogram["strategy"].toString(), "local-atomic");
    EXPECT_EQ(histogram["edited_source"].toString(), broken);
    EXPECT_EQ(histogram["builds"].toArray()[0].toObject()["source"].toString(), broken);
    const QJsonObject check = histogram["reference_check"].toObject();
    EXPECT_FALSE(check["matches"].toBool());
    EXPECT_EQ(check["max_difference"].toInt(), 1);
    const QJsonObject bin = check["first_bin"].toObject();
    EXPECT_EQ(bin["channel"].toString(), "r");
    EXPECT_EQ(bin["bin"].toInt(), 41);
    EXPECT_EQ(bin["expected"].toInt(), 1);
    EXPECT_EQ(bin["got"].toInt(), 0);
    // The histogram it reports is the edited kernel's: value 41 of r went uncounted.
    EXPECT_EQ(json.json()["histograms"].toObject()["r"].toArray()[41].toInt(), 0);

    const Outcome same =
        run({"pipeline", path("in.png"), "--histogram-strategy", "local-atomic", "--strategy-source",
             "local-atomic=" + histogramSkipping(path("same.cl"), -1), "--out", path("out.png")});
    ASSERT_EQ(same.exitCode, 0) << same.err.toStdString();
    EXPECT_TRUE(same.out.contains("check     matches the CPU reference\n")) << same.out.toStdString();
}

TEST_F(KernelLabCli, AStrategySourceForAStrategyTheRunDoesNotUseIsAUsageError) {
    const QString edited = histogramSkipping(path("e.cl"), -1);
    expectOneErrorLine(
        run({"pipeline", path("in.png"), "--histogram-strategy", "global-atomic", "--strategy-source",
             "local-atomic=" + edited, "--out", path("out.png")}),
        2,
        "histoscope-cli: --strategy-source local-atomic: no stage of this run uses that strategy (choose it "
        "with --histogram-strategy local-atomic)");
    expectOneErrorLine(
        run({"pipeline", path("in.png"), "--strategy-source", "local-atomic", "--out", path("out.png")}), 2,
        "histoscope-cli: --strategy-source: 'local-atomic' is not STRATEGY=FILE.cl");
}

// Under Oclgrind: slow beside the others (label oclgrind), so on a 7x5 image.
class KernelCheckCli : public KernelLabCli {
  protected:
    void SetUp() override {
        if (QStandardPaths::findExecutable("oclgrind").isEmpty()) GTEST_SKIP() << "oclgrind is not installed";
        KernelLabCli::SetUp();
    }
    // A kernel that never ends, as the file `name` in the test's folder; its path.
    QString endlessKernel(const QString& name) const {
        QFile endless(path(name));
        EXPECT_TRUE(endless.open(QIODevice::WriteOnly));
        endless.write(
            "kernel void spin(global const uchar4* src, global uchar4* dst, int width, int height) {\n"
            "    for (;;) dst[0] = src[0];\n"
            "}\n");
        return path(name);
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
    const Outcome outcome =
        run({"check", path("in.png"), "--kernel", endlessKernel("endless.cl"), "--timeout", "2"});
    EXPECT_EQ(outcome.exitCode, 5) << outcome.err.toStdString();
    EXPECT_EQ(QString::fromUtf8(outcome.out),
              path("endless.cl") + ": the kernel did not finish within 2 s under Oclgrind (abandoned)\n");
}

// The processes whose command line mentions `text`.
std::vector<pid_t> processesMentioning(const QString& text) {
    std::vector<pid_t> found;
    for (const QString& entry : QDir("/proc").entryList(QDir::Dirs)) {
        bool number = false;
        const pid_t pid = entry.toInt(&number);
        if (!number) continue;
        QFile cmdline("/proc/" + entry + "/cmdline");
        if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().replace('\0', ' ').contains(text.toUtf8()))
            found.push_back(pid);
    }
    return found;
}

// A check killed from outside (the Lab's Stop kills it, and so does the app as it closes) takes its Oclgrind
// child with it: no endless kernel goes on running on its own.
TEST_F(KernelCheckCli, AKilledCheckTakesItsOclgrindChildWithIt) {
    QProcess check;
    check.start(HISTOSCOPE_CLI,
                {"check", path("in.png"), "--kernel", endlessKernel("endless-orphan.cl"), "--timeout", "50"});
    ASSERT_TRUE(check.waitForStarted());
    // The pipeline under Oclgrind mentions the kernel file; the check itself too, so wait for two.
    QDeadlineTimer started(30000);
    while (processesMentioning(path("endless-orphan.cl")).size() < 2 && !started.hasExpired())
        QThread::msleep(50);
    ASSERT_EQ(processesMentioning(path("endless-orphan.cl")).size(), 2u) << "the check and its child";
    check.kill();
    check.waitForFinished();
    QDeadlineTimer gone(10000);
    while (!processesMentioning(path("endless-orphan.cl")).empty() && !gone.hasExpired()) QThread::msleep(50);
    const std::vector<pid_t> left = processesMentioning(path("endless-orphan.cl"));
    for (const pid_t pid : left) ::kill(pid, SIGKILL);  // not left to spin after the test
    EXPECT_TRUE(left.empty()) << "the pipeline under Oclgrind outlived the check";
}

}  // namespace
}  // namespace hs
