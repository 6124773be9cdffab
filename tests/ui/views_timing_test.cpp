// TimingView: the rolling window of runs, min / median / max per command against a hand computation, the
// last-run table, and the Run ×N controls.

#include <qcustomplot.h>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest/QtTest>

#include "ui/timing_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr std::uint64_t kMs = 1'000'000;

// One run: upload, two kernels (the second issued twice), readback; `kernelMs` is the first kernel's time.
std::vector<Timing> run(std::uint64_t kernelMs, std::uint64_t base = 5'000'000'000) {
    std::uint64_t t = base;
    const auto command = [&t](Stage stage, const char* name, std::uint64_t durationNs) {
        Timing timing{stage, name, t, t + 1000, t + 3000, t + 3000 + durationNs};
        t = timing.endNs;
        return timing;
    };
    return {command(Stage::Upload, "upload image", kMs / 2),
            command(Stage::Kernel, "histogram", kernelMs * kMs), command(Stage::Kernel, "merge", kMs),
            command(Stage::Kernel, "merge", 2 * kMs), command(Stage::Readback, "read counts", kMs / 4)};
}

}  // namespace

class TimingViewTest : public QObject {
    Q_OBJECT

  private slots:
    void keepsOnlyTheLastRuns() {
        TimingView view;
        QCOMPARE(view.maxRuns(), 50);
        view.setMaxRuns(3);
        QSignalSpy changed(&view, &TimingView::runsChanged);
        for (std::uint64_t ms = 1; ms <= 5; ++ms) view.addRun(run(ms), QStringLiteral("s%1").arg(ms));
        QCOMPARE(changed.count(), 5);
        QCOMPARE(view.runs().size(), std::size_t{3});
        // The runs kept are the last three: kernel times 3, 4 and 5 ms.
        QCOMPARE(view.runs().front()[1].durationNs(), 3 * kMs);
        QCOMPARE(view.runs().back()[1].durationNs(), 5 * kMs);
        QCOMPARE(view.runStrategies().front(), QStringLiteral("s3"));
        view.setMaxRuns(2);
        QCOMPARE(view.runs().size(), std::size_t{2});
        QCOMPARE(view.runs().front()[1].durationNs(), 4 * kMs);
        // The plot shows one point per kept run.
        QCOMPARE(view.plot()->graph(0)->data()->size(), 2);
        view.clear();
        QVERIFY(view.runs().empty());
        QVERIFY(view.summaries().empty());
    }

    void minMedianMaxMatchHandComputation() {
        TimingView view;
        for (const std::uint64_t ms : {7, 2, 9, 4}) view.addRun(run(ms), QStringLiteral("global-atomic"));
        const auto summaries = view.summaries();
        QCOMPARE(summaries.size(), std::size_t{4});  // upload, histogram, merge, read counts
        const auto& histogram = summaries[1];
        QCOMPARE(histogram.stage, Stage::Kernel);
        QCOMPARE(histogram.name, QStringLiteral("histogram"));
        QCOMPARE(histogram.runs, 4);
        QCOMPARE(histogram.minMs, 2.0);
        QCOMPARE(histogram.medianMs, 5.5);  // sorted 2, 4, 7, 9: the mean of the middle two
        QCOMPARE(histogram.maxMs, 9.0);
        // "merge" runs twice per run (1 ms + 2 ms): its per-run time is the sum.
        const auto& merge = summaries[2];
        QCOMPARE(merge.name, QStringLiteral("merge"));
        QCOMPARE(merge.runs, 4);
        QCOMPARE(merge.minMs, 3.0);
        QCOMPARE(merge.maxMs, 3.0);
        QCOMPARE(summaries[0].stage, Stage::Upload);
        QCOMPARE(summaries[0].medianMs, 0.5);
        QCOMPARE(summaries[3].stage, Stage::Readback);

        view.addRun(run(3), QStringLiteral("global-atomic"));  // 2, 3, 4, 7, 9: the middle one
        QCOMPARE(view.summaries()[1].medianMs, 4.0);

        const auto* table = view.findChild<QTableWidget*>("summaryTable");
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 4);
        QCOMPARE(table->item(1, 4)->text(), QStringLiteral("4.000"));
    }

    void lastRunTableListsEveryCommandRelativeToTheFirst() {
        TimingView view;
        view.addRun(run(2), QStringLiteral("local-atomic"));
        const auto* table = view.findChild<QTableWidget*>("lastRunTable");
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 5);
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("upload"));
        QCOMPARE(table->item(0, 2)->text(), QStringLiteral("0.0"));    // queued, relative to itself
        QCOMPARE(table->item(0, 3)->text(), QStringLiteral("1.0"));    // submit 1 µs later
        QCOMPARE(table->item(0, 4)->text(), QStringLiteral("3.0"));    // start
        QCOMPARE(table->item(0, 7)->text(), QStringLiteral("500.0"));  // duration 0.5 ms
        QCOMPARE(table->item(1, 1)->text(), QStringLiteral("histogram"));
        QCOMPARE(table->item(1, 2)->text(), QStringLiteral("503.0"));  // queued when the upload ended
        QCOMPARE(table->item(4, 0)->text(), QStringLiteral("readback"));
        const auto* totals = view.findChild<QLabel*>("stageTotals");
        QVERIFY(totals->text().contains(QStringLiteral("upload</span> 0.500 ms")));
        QVERIFY(totals->text().contains(QStringLiteral("kernel</span> 5.000 ms")));  // 2 + 1 + 2
        QVERIFY(totals->text().contains(QStringLiteral("readback</span> 0.250 ms")));
    }

    void runRepeatedControlsReportIntentAndProgress() {
        TimingView view;
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy repeat(&view, &TimingView::runRepeatedRequested);
        QSignalSpy cancel(&view, &TimingView::cancelRequested);
        auto* count = view.findChild<QSpinBox*>("repeatCount");
        count->setValue(7);
        auto* button = view.findChild<QPushButton*>("runRepeated");
        QTest::mouseClick(button, Qt::LeftButton);
        QCOMPARE(repeat.count(), 1);
        QCOMPARE(repeat.first().at(0).toInt(), 7);

        auto* progress = view.findChild<QProgressBar*>();
        QVERIFY(!progress->isVisible());
        view.setProgress(3, 7);
        QVERIFY(progress->isVisible());
        QCOMPARE(progress->value(), 3);
        QCOMPARE(progress->maximum(), 7);
        QVERIFY(!button->isEnabled());
        auto* cancelButton = view.findChild<QPushButton*>("cancelRepeated");
        QVERIFY(cancelButton->isVisible());
        QTest::mouseClick(cancelButton, Qt::LeftButton);
        QCOMPARE(cancel.count(), 1);
        view.setProgress(0, 0);
        QVERIFY(!progress->isVisible());
        QVERIFY(!cancelButton->isVisible());
        QVERIFY(button->isEnabled());
    }

    // Not an assertion: the cost of adding a run when 50 are kept (plot, both tables), printed as
    // min / median / max over 21 runs, for the responsiveness budget of Run ×N.
    void printsTheCostOfAddingARun() {
        TimingView view;
        QVERIFY(test::showExposed(view, {1100, 640}));
        for (int i = 0; i < 50; ++i) view.addRun(run(3), QStringLiteral("local-atomic"));
        std::vector<double> ms;
        for (int i = 0; i < 21; ++i) {
            QElapsedTimer timer;
            timer.start();
            view.addRun(run(2 + static_cast<std::uint64_t>(i % 3)), QStringLiteral("local-atomic"));
            view.plot()->replot(QCustomPlot::rpImmediateRefresh);
            ms.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        }
        std::sort(ms.begin(), ms.end());
        qInfo("TimingView addRun with 50 runs kept: min %.2f ms, median %.2f ms, max %.2f ms", ms.front(),
              ms[ms.size() / 2], ms.back());
    }

    void rendersForPeopleToLookAt() {
        TimingView view;
        QVERIFY(test::showExposed(view, {1100, 640}));
        for (int i = 0; i < 40; ++i) {
            const std::uint64_t ms = 3 + static_cast<std::uint64_t>((i * 7) % 5);
            view.addRun(run(ms, 1'000'000'000ull * static_cast<std::uint64_t>(i + 1)),
                        QStringLiteral("local-atomic"));
        }
        view.setProgress(12, 40);
        view.plot()->replot();
        QVERIFY(view.grab().save(test::artifactPath(QStringLiteral("views_timing.png"))));
    }
};

QTEST_MAIN(TimingViewTest)
#include "views_timing_test.moc"
