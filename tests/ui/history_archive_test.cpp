// The app's side of the run archive (issue 26): a Run ×N made in the window is recorded and listed in the
// History dock (and not while Record Runs is off); the Diff view of two archived runs shows the verdicts of
// the archive's own diff; its exports re-read as what they claim.
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <array>
#include <random>

#include "archive/archive.hpp"
#include "archive/diff.hpp"
#include "ui/shell/run_history.hpp"
#include "ui/views/diff_view.hpp"
#include "ui/views/history_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr int kWaitMs = 120000;

// A run of one strategy whose one kernel takes `kernelNs` give or take 3 %, seeded noise, over `repetitions`.
archive::Record syntheticRun(const std::string& strategy, double kernelNs, int repetitions,
                             std::uint32_t seed) {
    static int made = 0;
    archive::Record run;
    run.uid = "history-test-" + std::to_string(++made) + "-" + std::to_string(seed);
    run.recordedAt = "2026-11-27T05:0" + std::to_string(made % 10) + ":00Z";
    run.version = "test";
    run.command = "history_archive_test";
    run.device = "pthread-cpu";
    run.driver = "5.0";
    run.image = {"/images/sample.png", 64, 32, "0011223344556677"};
    run.stages = {
        {"histogram", strategy, strategy, "", {{"bins", "256"}}, {{"histogram", "-D BINS=256", "ab"}}}};
    run.repetitions = repetitions;
    std::mt19937 noise(seed);
    std::uniform_real_distribution<double> factor(0.97, 1.03);
    for (int repetition = 1; repetition <= repetitions; ++repetition) {
        run.timings.push_back({repetition, "histogram", "histogram: count", "kernel", "pthread-cpu",
                               static_cast<std::uint64_t>(kernelNs * factor(noise))});
        run.timings.push_back({repetition, "histogram", "histogram: read", "readback", "pthread-cpu", 500});
    }
    return run;
}

QTableWidget* table(QWidget& widget, const char* name) {
    return widget.findChild<QTableWidget*>(QLatin1String(name));
}

}  // namespace

class HistoryArchiveTest : public QObject {
    Q_OBJECT

    QTemporaryDir folder_;

    // Each test function its own archive, read by the window it makes.
    archive::Settings freshArchive(const QString& name) {
        const QString path = folder_.filePath(name + QStringLiteral(".sqlite"));
        qputenv("HISTOSCOPE_ARCHIVE", path.toUtf8());
        return archive::Settings::fromEnvironment();
    }

  private slots:
    void runMadeInTheAppIsRecordedAndListed() {
        const archive::Settings settings = freshArchive(QStringLiteral("app"));
        const ImageRGBA8 image = test::opaqueRandomImage(48, 40, 7);
        const QString imagePath = folder_.filePath(QStringLiteral("recorded.png"));
        QVERIFY(
            QImage(image.pixels.data(), image.width, image.height, QImage::Format_RGBA8888).save(imagePath));

        test::PrivateWindow w;
        QList<ErrorReport> reports;
        QVERIFY(test::showWithDevices(w.window, reports, kWaitMs));
        w.window.openImage(imagePath);
        QTRY_VERIFY_WITH_TIMEOUT(w.window.lastOutcome().has_value(), kWaitMs);
        QSignalSpy recorded(&w.window.controller(), &Controller::runRecorded);
        w.window.runRepeated(3);
        QTRY_COMPARE_WITH_TIMEOUT(recorded.size(), 1, kWaitMs);
        QCOMPARE(recorded[0][1].toString(), QString());
        const qint64 id = recorded[0][0].toLongLong();
        QVERIFY(id > 0);

        // The archive, read on its own, holds the run as it ran.
        const archive::Archive archive(settings);
        const auto listed = archive.list();
        QCOMPARE(listed.size(), std::size_t{1});
        const archive::Record run = archive.load(id);
        QCOMPARE(run.repetitions, 3);
        QCOMPARE(QString::fromStdString(run.image.path), QFileInfo(imagePath).absoluteFilePath());
        QCOMPARE(run.image.hash, archive::contentHash(image));
        QCOMPARE(QString::fromStdString(run.device), QString::fromStdString(w.window.currentDevice()->name));
        QCOMPARE(run.strategies(), std::string(w.window.lastOutcome()->result.strategy->name()));
        std::set<int> repetitions;
        for (const auto& timing : run.timings) repetitions.insert(timing.repetition);
        QCOMPARE(repetitions, (std::set<int>{1, 2, 3}));
        // The counts of the last repetition are the histogram on screen.
        const auto& shown = w.window.lastOutcome()->result.histogram;
        QCOMPARE(run.bins, shown.bins);
        QCOMPARE(run.histogram.at("r").at(0), shown.counts[0][0]);

        // The History dock lists it, without a Refresh.
        HistoryView& history = w.window.history().history();
        QTRY_COMPARE(history.listedIds(), (std::vector<std::int64_t>{id}));
        QTableWidget* rows = table(history, "historyTable");
        QVERIFY(rows);
        QCOMPARE(rows->item(0, 2)->text(), QStringLiteral("recorded.png"));
        QCOMPARE(rows->item(0, 5)->text(), QStringLiteral("3"));

        // Record Runs off: a Run ×N is not recorded, and the setting is remembered.
        w.window.history().recordAction()->trigger();
        QVERIFY(!w.settings.recordRuns());
        w.window.runRepeated(2);
        QTRY_VERIFY_WITH_TIMEOUT(!w.window.controller().busy(), kWaitMs);
        QCoreApplication::processEvents();
        QCOMPARE(recorded.size(), 1);
        QCOMPARE(archive.list().size(), std::size_t{1});

        // A Run ×N that makes an image keeps the first run's pixels, as the CLI does: here a half turn,
        // nearest sampling, which moves each pixel to the point-mirrored place.
        w.window.history().recordAction()->trigger();
        w.window.setRotation(180, rotate::FilterMode::Nearest, false);
        QTRY_VERIFY_WITH_TIMEOUT(!w.window.controller().busy(), kWaitMs);
        w.window.runRepeated(2);
        QTRY_COMPARE_WITH_TIMEOUT(recorded.size(), 2, kWaitMs);
        const archive::Record rotated = archive.load(recorded[1][0].toLongLong());
        QVERIFY(!rotated.outputHash.empty());
        const ImageRGBA8 kept = archive::keptOutput(rotated);
        QCOMPARE(kept.width, image.width);
        QCOMPARE(kept.height, image.height);
        for (int y = 0; y < image.height; ++y) {
            for (int x = 0; x < image.width; ++x) {
                const auto at = [](const ImageRGBA8& picture, int px, int py) {
                    const std::uint8_t* p =
                        &picture.pixels[(static_cast<std::size_t>(py) * picture.width + px) * 4];
                    return std::array<std::uint8_t, 4>{p[0], p[1], p[2], p[3]};
                };
                QCOMPARE(at(kept, x, y), at(image, image.width - 1 - x, image.height - 1 - y));
            }
        }
        QVERIFY2(reports.isEmpty(), test::messagesOf(reports).constData());
    }

    void diffOfArchivedRunsShowsTheArchivesVerdicts() {
        const archive::Settings settings = freshArchive(QStringLiteral("diff"));
        std::int64_t a1 = 0;
        std::int64_t a2 = 0;
        std::int64_t b = 0;
        {
            archive::Archive archive(settings);
            a1 = archive.add(syntheticRun("local-atomic", 1e6, 8, 1));
            a2 = archive.add(syntheticRun("local-atomic", 1e6, 8, 2));
            b = archive.add(syntheticRun("private-uchar", 2e6, 8, 3));
        }
        test::PrivateWindow w;
        w.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w.window));
        HistoryView& history = w.window.history().history();
        QCOMPARE(history.listedIds(), (std::vector<std::int64_t>{b, a2, a1}));

        // Two rows selected, Diff: the older is A.
        history.selectIds({a1, b});
        auto* diffButton = history.findChild<QPushButton*>(QStringLiteral("historyDiff"));
        QVERIFY(diffButton);
        QTest::mouseClick(diffButton, Qt::LeftButton);
        DiffView& view = w.window.history().diffView();
        QVERIFY(view.diff().has_value());
        const archive::Archive archive(settings);
        const archive::Diff expected = archive::diff({archive.load(a1)}, {archive.load(b)});
        QCOMPARE(view.diff()->idsA, (std::vector<std::int64_t>{a1}));
        QCOMPARE(view.diff()->idsB, (std::vector<std::int64_t>{b}));
        QTableWidget* verdicts = table(view, "diffVerdicts");
        QCOMPARE(verdicts->rowCount(), static_cast<int>(expected.times.size()));
        bool sawTotal = false;
        for (int row = 0; row < verdicts->rowCount(); ++row) {
            const auto& time = expected.times[static_cast<std::size_t>(row)];
            QCOMPARE(verdicts->item(row, 1)->text(), QString::fromStdString(time.name));
            QCOMPARE(verdicts->item(row, 4)->text(), QString::number(time.ratio, 'f', 3));
            QCOMPARE(verdicts->item(row, 6)->text(), QString::fromUtf8(archive::verdictText(time.verdict)));
            if (time.scope == "total") {
                sawTotal = true;
                // Independently of the engine: twice the time, beyond any 3 % noise.
                QCOMPARE(time.verdict, archive::Verdict::Slower);
                QVERIFY(time.interval.low > 1.8 && time.interval.high < 2.2);
            }
        }
        QVERIFY(sawTotal);
        QCOMPARE(view.plottedNames().size(), 2);  // the kernel and the total
        // The strategies differ, and the table says so.
        QTableWidget* differences = table(view, "diffDifferences");
        bool strategyRow = false;
        for (int row = 0; row < differences->rowCount(); ++row)
            strategyRow |= differences->item(row, 1)->text() == QLatin1String("local-atomic") &&
                           differences->item(row, 2)->text() == QLatin1String("private-uchar");
        QVERIFY(strategyRow);

        // Exports, re-read.
        const QString json = folder_.filePath(QStringLiteral("diff.json"));
        w.window.history().exportDiffTable(json);
        QFile jsonFile(json);
        QVERIFY(jsonFile.open(QIODevice::ReadOnly));
        const QJsonObject document = QJsonDocument::fromJson(jsonFile.readAll()).object();
        const QJsonArray times = document.value(QStringLiteral("times")).toArray();
        QCOMPARE(times.size(), static_cast<qsizetype>(expected.times.size()));
        for (qsizetype i = 0; i < times.size(); ++i) {
            const auto& time = expected.times[static_cast<std::size_t>(i)];
            const QJsonObject entry = times[i].toObject();
            QCOMPARE(entry.value(QStringLiteral("verdict")).toString(),
                     QString::fromUtf8(archive::verdictText(time.verdict)));
            QCOMPARE(entry.value(QStringLiteral("ratio")).toDouble(), time.ratio);
            QCOMPARE(entry.value(QStringLiteral("b_ns")).toArray().size(),
                     static_cast<qsizetype>(time.b.size()));
        }
        const QString csv = folder_.filePath(QStringLiteral("diff.csv"));
        w.window.history().exportDiffTable(csv);
        QFile csvFile(csv);
        QVERIFY(csvFile.open(QIODevice::ReadOnly | QIODevice::Text));
        // A header and one line per timing record of both runs: 8 repetitions of 2 records each.
        QCOMPARE(csvFile.readAll().trimmed().split('\n').size(), 1 + 2 * 2 * 8);
        const QString png = folder_.filePath(QStringLiteral("diff.png"));
        w.window.history().exportDiffPlot(png);
        const QImage picture(png);
        QCOMPARE(picture.size(),
                 QSize(w.settings.plotExportSize().width, w.settings.plotExportSize().height));
        QVERIFY_THROWS_EXCEPTION(InputError,
                                 w.window.history().exportDiffTable(folder_.filePath("diff.xls")));
        QVERIFY(!QFileInfo::exists(folder_.filePath("diff.xls")));

        // Two groups: A = both local-atomic runs, B = the private-uchar one.
        history.selectIds({a1, a2});
        history.setSideA();
        history.selectIds({b});
        history.setSideB();
        QVERIFY(history.requestDiff());
        QCOMPARE(view.diff()->idsA, (std::vector<std::int64_t>{a1, a2}));
        const archive::Diff grouped = archive::diff({archive.load(a1), archive.load(a2)}, {archive.load(b)});
        QCOMPARE(view.diff()->times.back().a.size(), std::size_t{16});
        QCOMPARE(view.diff()->times.back().ratio, grouped.times.back().ratio);

        // The image filter keeps only what matches.
        auto* device = history.findChild<QLineEdit*>(QStringLiteral("historyStrategy"));
        device->setText(QStringLiteral("private-uchar"));
        w.window.history().refresh();
        QCOMPARE(history.listedIds(), (std::vector<std::int64_t>{b}));
        test::replotNow(view);
        view.grab().save(test::artifactPath(QStringLiteral("history_diff_view.png")));
    }
};

QTEST_MAIN(HistoryArchiveTest)
#include "history_archive_test.moc"
