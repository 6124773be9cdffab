// histoscope-cli --record and runs: runs recorded by the commands as they reported them, listed, shown,
// exported and deleted; ten processes and a thread of this test writing at once; a damaged archive and one
// that loses the run; and a real A/B diff on PoCL of the same strategy on an image with 64 times the pixels.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QImage>
#include <QImageWriter>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <algorithm>
#include <thread>

#include "archive/archive.hpp"
#include "cli_runner.hpp"

namespace hs::cli {
namespace {

class RunsCli : public ::testing::Test {
  protected:
    void SetUp() override { ASSERT_TRUE(directory_.isValid()); }

    QString path(const QString& name) const { return directory_.filePath(name); }
    QString archivePath() const { return path("archive/runs.sqlite"); }
    std::vector<std::pair<QString, QString>> environment() const {
        return {{"HISTOSCOPE_ARCHIVE", archivePath()}};
    }
    Outcome cli(const QStringList& arguments) const { return runCli(arguments, environment()); }

    // A noise image of `width` × `height` pixels.
    QString image(const QString& name, int width, int height) const {
        QImage pixels(width, height, QImage::Format_RGBA8888);
        std::uint32_t state = 12345;
        for (int y = 0; y < height; ++y)
            for (int x = 0; x < width; ++x) {
                state = state * 1664525u + 1013904223u;
                pixels.setPixel(x, y, state | 0xff000000u);
            }
        EXPECT_TRUE(QImageWriter(path(name), "png").write(pixels));
        return path(name);
    }

    QJsonArray listed() const {
        const Outcome outcome = cli({"runs", "list", "--json"});
        EXPECT_EQ(outcome.exitCode, 0) << outcome.err.toStdString();
        return outcome.json()["runs"].toArray();
    }

    QTemporaryDir directory_;
};

TEST_F(RunsCli, AHistogramRunIsRecordedAsTheCommandReportedIt) {
    const QString in = image("in.png", 40, 30);
    const Outcome histogram = cli({"histogram", in, "--strategy", "local-atomic", "--bins", "16", "--repeat",
                                   "3", "--json", "--record"});
    ASSERT_EQ(histogram.exitCode, 0) << histogram.err.toStdString();
    EXPECT_TRUE(histogram.err.isEmpty()) << histogram.err.toStdString();
    const QJsonObject reported = histogram.json();

    const Outcome shown = cli({"runs", "show", "1", "--json"});
    ASSERT_EQ(shown.exitCode, 0) << shown.err.toStdString();
    const QJsonObject run = shown.json();
    EXPECT_EQ(run["command"].toString(), "histoscope-cli histogram");
    EXPECT_EQ(run["device"].toObject()["name"].toString(), reported["device"].toObject()["name"].toString());
    EXPECT_EQ(run["image"].toObject()["path"].toString(), in);
    EXPECT_EQ(run["image"].toObject()["width"].toInt(), 40);
    EXPECT_EQ(run["repetitions"].toInt(), 3);
    const QJsonObject stage = run["stages"].toArray()[0].toObject();
    EXPECT_EQ(stage["strategy"].toString(), "local-atomic");
    EXPECT_EQ(stage["values"].toObject()["bins"].toString(), "16");
    EXPECT_EQ(run["results"].toObject()["bins"].toInt(), 16);
    EXPECT_EQ(run["results"].toObject()["histograms"].toObject(), reported["histograms"].toObject());
    // Every repetition's records, as the command's own JSON lists them run by run.
    const QJsonArray timings = run["timings"].toArray();
    const QJsonArray reportedTimings = reported["timings"].toArray();
    ASSERT_EQ(timings.size(), reportedTimings.size());
    for (qsizetype i = 0; i < timings.size(); ++i) {
        const QJsonObject recorded = timings[i].toObject(), printed = reportedTimings[i].toObject();
        EXPECT_EQ(recorded["repetition"].toInt(), printed["run"].toInt());
        EXPECT_EQ(recorded["kind"].toString(), printed["stage"].toString());
        EXPECT_EQ(recorded["name"].toString(), "histogram: " + printed["name"].toString());
        EXPECT_EQ(recorded["duration_ns"].toInteger(),
                  printed["end_ns"].toInteger() - printed["start_ns"].toInteger());
    }
    EXPECT_EQ(timings.last().toObject()["repetition"].toInt(), 3);

    const Outcome csv = cli({"runs", "export", "--csv"});
    ASSERT_EQ(csv.exitCode, 0) << csv.err.toStdString();
    EXPECT_EQ(csv.out.count('\n'), timings.size() + 1) << "a header and a line per record";
    EXPECT_TRUE(csv.out.startsWith("run,repetition,step,name,kind,device,duration_ns\n"));
    ASSERT_EQ(cli({"runs", "export", "1", "--out", path("runs.json")}).exitCode, 0);
    QFile exported(path("runs.json"));
    ASSERT_TRUE(exported.open(QIODevice::ReadOnly));
    EXPECT_TRUE(exported.readAll().contains("\"duration_ns\""));

    EXPECT_EQ(listed().size(), 1);
    EXPECT_EQ(cli({"runs", "list", "--json", "--strategy", "private-uchar"}).json()["runs"].toArray().size(),
              0);
    const Outcome deleted = cli({"runs", "delete", "1"});
    EXPECT_EQ(deleted.out, "deleted run 1\n");
    EXPECT_EQ(listed().size(), 0);
    expectOneErrorLine(cli({"runs", "show", "1"}), 3, archivePath() + ": no run 1");
    expectOneErrorLine(cli({"runs", "show", "x"}), 2, "'x' is not a run's number");
}

// The output hash is that of the image the command wrote, decoded here by Qt.
TEST_F(RunsCli, APipelineRunRecordsItsStagesAndItsOutputImage) {
    const QString in = image("in.png", 33, 21);
    const Outcome ran =
        cli({"pipeline", in, "--out", path("out.png"), "--angle", "90", "--equalize", "--record"});
    ASSERT_EQ(ran.exitCode, 0) << ran.err.toStdString();
    const QJsonObject run = cli({"runs", "show", "1", "--json"}).json();
    const QJsonArray stages = run["stages"].toArray();
    ASSERT_EQ(stages.size(), 3);
    EXPECT_EQ(stages[0].toObject()["kind"].toString(), "rotate");
    EXPECT_EQ(stages[0].toObject()["values"].toObject()["angle"].toString(), "90");
    EXPECT_EQ(stages[1].toObject()["kind"].toString(), "equalize");
    EXPECT_EQ(stages[2].toObject()["kind"].toString(), "histogram");
    const QImage written = QImage(path("out.png")).convertToFormat(QImage::Format_RGBA8888);
    ASSERT_EQ(written.width(), 33) << "rotated within its canvas";
    EXPECT_EQ(run["results"].toObject()["output_hash"].toString().toStdString(),
              archive::contentHash(written.width(), written.height(), written.constBits()));
}

TEST_F(RunsCli, TenProcessesAndAThreadRecordingAtOnceLoseNoRun) {
    const QString in = image("in.png", 16, 16);
    std::vector<std::unique_ptr<QProcess>> processes;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove("HISTOSCOPE_DEVICE");
    environment.insert("HISTOSCOPE_ARCHIVE", archivePath());
    for (int i = 0; i < 10; ++i) {
        auto process = std::make_unique<QProcess>();
        process->setProcessEnvironment(environment);
        process->start(HISTOSCOPE_CLI,
                       {"histogram", in, "--bins", QString::number(i + 1), "--record", "--json"});
        processes.push_back(std::move(process));
    }
    archive::Settings settings;
    settings.path = archivePath().toStdString();
    std::vector<std::string> problems;
    std::thread writer([&] {
        for (int i = 0; i < 10; ++i) {
            archive::Record run;
            run.uid = std::string("thread-").append(std::to_string(i));
            run.image.path = "thread";
            problems.push_back(archive::record(settings, run).problem);
        }
    });
    for (const auto& process : processes) {
        ASSERT_TRUE(process->waitForFinished(120'000));
        EXPECT_EQ(process->exitCode(), 0) << process->readAllStandardError().toStdString();
        EXPECT_TRUE(process->readAllStandardError().isEmpty());
    }
    writer.join();
    for (const auto& problem : problems) EXPECT_EQ(problem, "");
    const QJsonArray runs = listed();
    ASSERT_EQ(runs.size(), 20);
    std::set<int> bins;
    for (const auto& run : runs) {
        if (run.toObject()["image"].toObject()["path"].toString() == "thread") continue;
        bins.insert(cli({"runs", "show", QString::number(run.toObject()["id"].toInt()), "--json"})
                        .json()["results"]
                        .toObject()["bins"]
                        .toInt());
    }
    EXPECT_EQ(bins.size(), 10u) << "every process's own run";
}

TEST_F(RunsCli, ADamagedArchiveIsOneLineAndTheRunIsWrittenOnceItIsReplaced) {
    const QString in = image("in.png", 8, 8);
    QDir().mkpath(path("archive"));
    QFile garbage(archivePath());
    ASSERT_TRUE(garbage.open(QIODevice::WriteOnly));
    garbage.write(QByteArray(4096, 'Z'));
    garbage.close();
    const Outcome ran = cli({"histogram", in, "--record"});
    EXPECT_EQ(ran.exitCode, 0) << "the run itself went well, and it is kept";
    EXPECT_TRUE(ran.out.contains("bins")) << "the report is there";
    EXPECT_EQ(ran.err.count('\n'), 1) << ran.err.toStdString();
    EXPECT_TRUE(
        ran.err.contains((archivePath() + ": cannot open the run archive: file is not a database").toUtf8()))
        << ran.err.toStdString();
    EXPECT_TRUE(ran.err.contains((archivePath() + ".pending/").toUtf8())) << ran.err.toStdString();
    expectOneErrorLine(cli({"runs", "list"}), 3,
                       archivePath() + ": cannot open the run archive: file is not a database");

    ASSERT_TRUE(QFile::remove(archivePath()));
    ASSERT_EQ(cli({"histogram", in, "--record"}).exitCode, 0);
    EXPECT_EQ(listed().size(), 2) << "the pending run and the new one";
}

TEST_F(RunsCli, ARunThatCannotBeKeptAnywhereIsSaidToBeLost) {
    const QString in = image("in.png", 8, 8);
    QDir().mkpath(archivePath());               // a folder where the database would be
    QFile blocker(archivePath() + ".pending");  // and a file where its pending folder would be
    ASSERT_TRUE(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    const Outcome ran = cli({"histogram", in, "--record"});
    EXPECT_EQ(ran.exitCode, 3);
    EXPECT_EQ(ran.err.count('\n'), 1) << ran.err.toStdString();
    EXPECT_TRUE(ran.err.contains("the run is lost")) << ran.err.toStdString();
}

// A real change on PoCL: the same strategy counting 64 times the pixels (128×128, then 1024×1024). Its kernel
// time grows far beyond the noise of a busy machine, so the verdict is "slower" with the interval above 1.
TEST_F(RunsCli, ADiffOfARealChangeSaysSlowerWithTheIntervalAboveOne) {
    const QString small = image("small.png", 128, 128);
    const QString big = image("big.png", 1024, 1024);
    for (const auto& in : {small, big})
        ASSERT_EQ(cli({"histogram", in, "--strategy", "global-atomic", "--repeat", "5", "--record"}).exitCode,
                  0);
    const Outcome compared = cli({"runs", "diff", "1", "2", "--json"});
    ASSERT_EQ(compared.exitCode, 0) << compared.err.toStdString();
    const QJsonObject diff = compared.json();
    const QJsonObject total = diff["times"].toArray().last().toObject();
    EXPECT_EQ(total["scope"].toString(), "total");
    EXPECT_EQ(total["a_ns"].toArray().size(), 5);
    EXPECT_EQ(total["verdict"].toString(), "slower");
    EXPECT_GT(total["interval"].toArray()[0].toDouble(), 1.0);
    QStringList what;
    for (const auto& difference : diff["differences"].toArray())
        what += difference.toObject()["what"].toString();
    EXPECT_TRUE(what.contains("image size")) << what.join(", ").toStdString();
    EXPECT_FALSE(what.contains("stage 1 strategy"));
    EXPECT_GT(diff["bins"].toArray().size(), 0) << "the counts differ";

    const Outcome text = cli({"runs", "diff", "1", "1,2"});  // a group against a run of its own
    ASSERT_EQ(text.exitCode, 0) << text.err.toStdString();
    EXPECT_TRUE(text.out.contains("A: run 1   B: run 1,2")) << text.out.toStdString();
}

// Two hand-made images that differ in two known pixels, each through a 1 × 1 identity filter (the output is
// the input): the diff counts the pixels that differ, their largest difference and the first in row order.
TEST_F(RunsCli, TheDiffSaysWhichOutputPixelsDiffer) {
    const QString left = image("left.png", 8, 6);
    QImage pixels(left);
    pixels = pixels.convertToFormat(QImage::Format_RGBA8888);
    const auto setChannel = [&](int x, int y, int red, int blue) {
        QColor colour = pixels.pixelColor(x, y);
        colour.setRed(red);
        colour.setBlue(blue);
        pixels.setPixelColor(x, y, colour);
    };
    setChannel(5, 1, 10, 100);
    setChannel(2, 4, 30, 200);
    ASSERT_TRUE(QImageWriter(left, "png").write(pixels));
    setChannel(5, 1, 50, 100);  // r: 10 -> 50, the first differing pixel in row order and the largest change
    setChannel(2, 4, 30, 191);  // b: 200 -> 191
    const QString right = path("right.png");
    ASSERT_TRUE(QImageWriter(right, "png").write(pixels));
    const QString identity = path("identity.txt");
    QFile filter(identity);
    ASSERT_TRUE(filter.open(QIODevice::WriteOnly));
    filter.write("1\n");
    filter.close();
    for (const auto& in : {left, right}) {
        const Outcome ran = cli({"convolve", in, "--filter", identity, "--out", in + ".out.png", "--record"});
        ASSERT_EQ(ran.exitCode, 0) << ran.err.toStdString();
    }

    const Outcome compared = cli({"runs", "diff", "1", "2", "--json"});
    ASSERT_EQ(compared.exitCode, 0) << compared.err.toStdString();
    const QJsonObject found = compared.json()["pixels"].toObject();
    EXPECT_TRUE(found["compared"].toBool()) << found["reason"].toString().toStdString();
    EXPECT_EQ(found["width"].toInt(), 8);
    EXPECT_EQ(found["height"].toInt(), 6);
    EXPECT_EQ(found["differing"].toInt(), 2);
    EXPECT_EQ(found["max_difference"].toInt(), 40);
    const QJsonObject first = found["first"].toObject();
    EXPECT_EQ(first["x"].toInt(), 5);
    EXPECT_EQ(first["y"].toInt(), 1);
    EXPECT_EQ(first["channel"].toString(), "r");

    const Outcome text = cli({"runs", "diff", "1", "2"});
    ASSERT_EQ(text.exitCode, 0) << text.err.toStdString();
    EXPECT_TRUE(
        text.out.contains("output pixels: 2 of 48 differ, max difference 40, first at (5, 1) channel r"))
        << text.out.toStdString();
    EXPECT_TRUE(cli({"runs", "diff", "1", "1"}).out.contains("output pixels: the same"));
    EXPECT_TRUE(cli({"runs", "show", "1"}).out.contains("pixels kept"));
}

// histoscope-bench --record: each measured row is a run in the archive, with every timed repetition's
// timings, whose figures give back the min, median and max the bench itself reported.
TEST_F(RunsCli, ABenchRunIsRecordedWithItsRepetitions) {
    QProcess bench;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove("HISTOSCOPE_DEVICE");
    environment.insert("HISTOSCOPE_ARCHIVE", archivePath());
    bench.setProcessEnvironment(environment);
    const QString report = path("bench.json");
    bench.start(HISTOSCOPE_BENCH,
                {"--suites", "histogram", "--strategies", "local-atomic,private-uchar", "--patterns",
                 "uniform", "--sizes", "0.01", "--repetitions", "4", "--json-out", report, "--record"});
    ASSERT_TRUE(bench.waitForFinished(120000));
    ASSERT_EQ(bench.exitCode(), 0) << bench.readAllStandardError().toStdString();
    EXPECT_TRUE(bench.readAllStandardOutput().contains("recorded 2 run(s) in " + archivePath().toUtf8()));

    const QJsonArray runs = listed();
    ASSERT_EQ(runs.size(), 2);
    QFile reportFile(report);
    ASSERT_TRUE(reportFile.open(QIODevice::ReadOnly));
    const QJsonArray rows = QJsonDocument::fromJson(reportFile.readAll()).object()["results"].toArray();
    for (const auto& entry : runs) {
        const QJsonObject summary = entry.toObject();
        EXPECT_EQ(summary["repetitions"].toInt(), 4);
        const QString strategy = summary["strategies"].toString();
        const Outcome shown = cli({"runs", "show", QString::number(summary["id"].toInt()), "--json"});
        ASSERT_EQ(shown.exitCode, 0) << shown.err.toStdString();
        const QJsonObject run = shown.json();
        EXPECT_EQ(run["command"].toString(), "histoscope-bench histogram");
        EXPECT_EQ(run["image"].toObject()["path"].toString(), "uniform");
        // Each repetition's kernel time, summed from its records.
        std::vector<double> kernelNs(4, 0.0);
        for (const auto& timing : run["timings"].toArray()) {
            const QJsonObject record = timing.toObject();
            const int repetition = record["repetition"].toInt();
            ASSERT_GE(repetition, 1);
            ASSERT_LE(repetition, 4);
            if (record["kind"].toString() == "kernel")
                kernelNs[static_cast<std::size_t>(repetition - 1)] += record["duration_ns"].toDouble();
        }
        std::sort(kernelNs.begin(), kernelNs.end());
        const auto row = std::find_if(rows.begin(), rows.end(), [&](const QJsonValue& value) {
            return value.toObject()["subject"].toString() == strategy;
        });
        ASSERT_NE(row, rows.end()) << strategy.toStdString();
        const QJsonObject figures = row->toObject();
        EXPECT_EQ(kernelNs.front(), figures["min_ns"].toDouble()) << strategy.toStdString();
        EXPECT_EQ(kernelNs.back(), figures["max_ns"].toDouble());
        EXPECT_EQ((kernelNs[1] + kernelNs[2]) / 2, figures["median_ns"].toDouble());
    }
    const Outcome text = cli({"runs", "show", "1"});
    EXPECT_TRUE(text.out.contains("over 4 repetition(s)")) << text.out.toStdString();
    const Outcome compared = cli({"runs", "diff", "1", "2", "--json"});
    ASSERT_EQ(compared.exitCode, 0) << compared.err.toStdString();
    EXPECT_EQ(compared.json()["times"].toArray().last().toObject()["a_ns"].toArray().size(), 4);
}

}  // namespace
}  // namespace hs::cli
