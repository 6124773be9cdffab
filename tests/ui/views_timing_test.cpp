// TimingView: the rolling window of runs, min / median / max per command against a hand computation, the
// last-run table, and the Run ×N controls.

#include <qcustomplot.h>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QtTest/QtTest>
#include <map>

#include "ui/views/timing_view.hpp"
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
        RunModel model;
        TimingView view(model);
        QCOMPARE(view.maxRuns(), 50);
        view.setMaxRuns(3);
        QSignalSpy changed(&model, &RunModel::keptRunsChanged);
        for (std::uint64_t ms = 1; ms <= 5; ++ms)
            model.keep(test::oneDeviceRun(run(ms), QStringLiteral("s%1").arg(ms)));
        QCOMPARE(changed.count(), 5);
        QCOMPARE(view.runs().size(), std::size_t{3});
        // The runs kept are the last three: kernel times 3, 4 and 5 ms.
        QCOMPARE(view.runs().front()[1].durationNs(), 3 * kMs);
        QCOMPARE(view.runs().back()[1].durationNs(), 5 * kMs);
        QCOMPARE(view.runInfo().front().strategy, QStringLiteral("s3"));
        QCOMPARE(view.runInfo().front().number, 3);  // runs are numbered from 1 and keep their numbers
        view.setMaxRuns(2);
        QCOMPARE(view.runs().size(), std::size_t{2});
        QCOMPARE(view.runs().front()[1].durationNs(), 4 * kMs);
        // The plot shows one point per kept run: runs 4 and 5, each a group of its own (their strategies
        // differ).
        std::vector<double> histogramRuns;
        for (int i = 0; i < view.plot()->graphCount(); ++i) {
            const QCPGraph* graph = view.plot()->graph(i);
            if (!graph->name().startsWith(QStringLiteral("histogram — "))) continue;
            for (auto point = graph->data()->constBegin(); point != graph->data()->constEnd(); ++point)
                histogramRuns.push_back(point->key);
        }
        QCOMPARE(histogramRuns, (std::vector<double>{4.0, 5.0}));
        model.clearKeptRuns();
        QVERIFY(view.runs().empty());
        QVERIFY(view.summaries().empty());
    }

    void minMedianMaxMatchHandComputation() {
        RunModel model;
        TimingView view(model);
        for (const std::uint64_t ms : {7, 2, 9, 4})
            model.keep(test::oneDeviceRun(run(ms), QStringLiteral("global-atomic")));
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

        model.keep(
            test::oneDeviceRun(run(3), QStringLiteral("global-atomic")));  // 2, 3, 4, 7, 9: the middle one
        QCOMPARE(view.summaries()[1].medianMs, 4.0);

        const auto* table = view.findChild<QTableWidget*>("summaryTable");
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 5);  // the group's heading, then its four commands
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("global-atomic"));
        QCOMPARE(table->item(2, 4)->text(), QStringLiteral("4.000"));
    }

    // After a device switch, "upload image" was run on two devices: two groups, each summarised apart, and
    // the plot marks each point with its group's shape.
    void keptRunsAreGroupedByDeviceAndStrategy() {
        RunModel model;
        TimingView view(model);
        const QString first = QStringLiteral("dev A (0:0)");
        const QString second = QStringLiteral("dev B (0:1)");
        model.keep(test::oneDeviceRun(run(2), QStringLiteral("private-uchar"), first));
        model.keep(test::oneDeviceRun(run(4), QStringLiteral("private-uchar"), second));
        model.keep(test::oneDeviceRun(run(6), QStringLiteral("private-uchar"), first));
        model.keep(test::oneDeviceRun(run(8), QStringLiteral("local-atomic"), first));
        const auto summaries = view.summaries();
        QCOMPARE(summaries.size(), std::size_t{12});  // three groups of four commands
        QCOMPARE(summaries[0].device, first);
        QCOMPARE(summaries[0].strategy, QStringLiteral("private-uchar"));
        QCOMPARE(summaries[0].name, QStringLiteral("upload image"));
        QCOMPARE(summaries[0].runs, 2);
        QCOMPARE(summaries[1].name, QStringLiteral("histogram"));
        QCOMPARE(summaries[1].minMs, 2.0);
        QCOMPARE(summaries[1].maxMs, 6.0);
        QCOMPARE(summaries[4].device, second);
        QCOMPARE(summaries[4].runs, 1);
        QCOMPARE(summaries[5].medianMs, 4.0);
        QCOMPARE(summaries[8].strategy, QStringLiteral("local-atomic"));
        QCOMPARE(summaries[9].medianMs, 8.0);

        const auto* table = view.findChild<QTableWidget*>("summaryTable");
        QCOMPARE(table->rowCount(), 15);  // a heading per group
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("dev A (0:0) · private-uchar"));
        QCOMPARE(table->columnSpan(0, 0), table->columnCount());
        QCOMPARE(table->item(5, 0)->text(), QStringLiteral("dev B (0:1) · private-uchar"));
        QCOMPARE(table->item(10, 0)->text(), QStringLiteral("dev A (0:0) · local-atomic"));
        QCOMPARE(table->item(7, 3)->text(), QStringLiteral("4.000"));  // dev B's histogram

        // Kernels "histogram" and "merge" in three groups: six graphs of points. A kernel keeps its colour, a
        // group its shape, and each graph holds only its group's runs.
        QCustomPlot* plot = view.plot();
        std::map<QString, QCPGraph*> graphs;
        for (int i = 0; i < plot->graphCount(); ++i)
            if (!plot->graph(i)->data()->isEmpty()) graphs[plot->graph(i)->name()] = plot->graph(i);
        QCOMPARE(graphs.size(), std::size_t{6});
        QCPGraph* histogramA = graphs[QStringLiteral("histogram — dev A (0:0) · private-uchar")];
        QCPGraph* histogramB = graphs[QStringLiteral("histogram — dev B (0:1) · private-uchar")];
        QCPGraph* mergeB = graphs[QStringLiteral("merge — dev B (0:1) · private-uchar")];
        QCPGraph* histogramLocal = graphs[QStringLiteral("histogram — dev A (0:0) · local-atomic")];
        QVERIFY(histogramA && histogramB && mergeB && histogramLocal);
        QCOMPARE(histogramA->data()->size(), 2);
        QCOMPARE(histogramA->data()->at(0)->key, 1.0);
        QCOMPARE(histogramA->data()->at(1)->key, 3.0);
        QCOMPARE(histogramA->data()->at(1)->value, 6.0);
        QCOMPARE(histogramB->data()->size(), 1);
        QCOMPARE(histogramB->data()->at(0)->key, 2.0);
        QCOMPARE(histogramA->pen().color(), histogramB->pen().color());
        QVERIFY(histogramB->pen().color() != mergeB->pen().color());
        QCOMPARE(histogramB->scatterStyle().shape(), mergeB->scatterStyle().shape());
        QVERIFY(histogramA->scatterStyle().shape() != histogramB->scatterStyle().shape());
        QVERIFY(histogramA->scatterStyle().shape() != histogramLocal->scatterStyle().shape());
        QVERIFY(histogramB->scatterStyle().shape() != histogramLocal->scatterStyle().shape());
        // The legend: the two kernels by colour, then the three groups by their points' shape.
        const auto* legend = view.findChild<QListWidget*>("timingLegend");
        QCOMPARE(legend->count(), 5);
        const auto color = [legend](int row) {
            return legend->item(row)->data(TimingView::kLegendColorRole).value<QColor>();
        };
        const auto shape = [legend](int row) {
            return legend->item(row)->data(TimingView::kLegendShapeRole).toInt();
        };
        QCOMPARE(legend->item(0)->text(), QStringLiteral("histogram"));
        QCOMPARE(color(0), histogramA->pen().color());
        QCOMPARE(legend->item(1)->text(), QStringLiteral("merge"));
        QCOMPARE(color(1), mergeB->pen().color());
        QCOMPARE(legend->item(3)->text(), QStringLiteral("dev B (0:1) · private-uchar"));
        QCOMPARE(shape(3), static_cast<int>(histogramB->scatterStyle().shape()));
        QCOMPARE(legend->item(4)->text(), QStringLiteral("dev A (0:0) · local-atomic"));
        QCOMPARE(shape(4), static_cast<int>(histogramLocal->scatterStyle().shape()));

        QVERIFY(test::showExposed(view, {1100, 420}));
        auto* tabs = view.findChild<QTabWidget*>("timingTables");
        tabs->setCurrentIndex(1);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(view.grab().save(test::artifactPath(QStringLiteral("views_timing_grouped.png"))));
    }

    // Every cell of every row has the row's whole command as its tooltip, however narrow the column.
    void everyRowTellsItsFullCommand() {
        RunModel model;
        TimingView view(model);
        std::vector<Timing> timings = run(2);
        timings[0].name = "histogram: upload pixels to the device before counting";
        model.keep(
            test::oneDeviceRun(timings, QStringLiteral("private-uchar"), QStringLiteral("dev A (0:0)")));
        const auto* lastRun = view.findChild<QTableWidget*>("lastRunTable");
        for (int row = 0; row < lastRun->rowCount(); ++row)
            for (int column = 0; column < lastRun->columnCount(); ++column)
                QCOMPARE(lastRun->item(row, column)->toolTip(),
                         QString::fromStdString(timings[static_cast<std::size_t>(row)].name));
        const auto* summary = view.findChild<QTableWidget*>("summaryTable");
        QCOMPARE(summary->item(0, 0)->toolTip(), QStringLiteral("dev A (0:0) · private-uchar"));
        for (int column = 0; column < summary->columnCount(); ++column)
            QCOMPARE(summary->item(1, column)->toolTip(),
                     QStringLiteral("histogram: upload pixels to the device before counting\n"
                                    "dev A (0:0) · private-uchar"));
    }

    // In a dock narrower than the table's columns the commands stay whole, in both tables, with and without
    // the Device column; the numbers scroll sideways.
    void commandsStayWholeInANarrowDock() {
        RunModel model;
        TimingView view(model);
        std::vector<Timing> timings = run(2);
        timings[0].name = "histogram: upload pixels";
        timings[1].name = "histogram: reduce_partials";
        model.keep(
            test::oneDeviceRun(timings, QStringLiteral("private-uchar"), QStringLiteral("dev A (0:0)")));
        QVERIFY(test::showExposed(view, {700, 420}));
        auto* tabs = view.findChild<QTabWidget*>("timingTables");
        for (int tab = 0; tab < 2; ++tab) {
            tabs->setCurrentIndex(tab);
            auto* table = view.findChild<QTableWidget*>(tab == 0 ? "lastRunTable" : "summaryTable");
            QTRY_VERIFY(table->isVisible());
            for (int row = 0; row < table->rowCount(); ++row) {
                if (!table->item(row, 1)) continue;  // a group's heading row of the summary
                const QString command = table->item(row, 1)->text();
                QVERIFY2(table->columnWidth(1) >= table->fontMetrics().horizontalAdvance(command),
                         qPrintable(QStringLiteral("%1: '%2' in %3 px")
                                        .arg(table->objectName(), command)
                                        .arg(table->columnWidth(1))));
            }
        }
    }

    // At the window's default size both tables show at least six whole rows.
    void defaultWindowShowsSixWholeRowsOfEachTable() {
        test::PrivateWindow window;
        window.window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window.window));
        TimingView* view = test::part<TimingView>(window.window);
        RunModel& model = window.window.model();
        QTRY_VERIFY(view->isVisible());
        std::vector<Timing> timings;
        for (int i = 0; i < 4; ++i) {
            for (Timing timing : run(2, 1'000'000'000ull * static_cast<std::uint64_t>(i + 1))) {
                timing.name.push_back(static_cast<char>('A' + i));  // a row of its own in the summary too
                timings.push_back(timing);
            }
        }
        model.keep(
            test::oneDeviceRun(timings, QStringLiteral("private-uchar")));  // 20 commands, more than fit
        auto* tabs = view->findChild<QTabWidget*>("timingTables");
        QVERIFY(tabs);
        for (const char* name : {"lastRunTable", "summaryTable"}) {
            auto* table = view->findChild<QTableWidget*>(name);
            tabs->setCurrentWidget(tabs->widget(0)->isAncestorOf(table) ? tabs->widget(0) : table);
            QTRY_VERIFY(table->isVisible());
            QVERIFY(table->rowCount() >= 6);
            table->scrollToTop();
            for (int row = 0; row < 6; ++row) {
                const QRect cell = table->visualRect(table->model()->index(row, 1));
                QVERIFY2(table->viewport()->rect().contains(cell),
                         qPrintable(QStringLiteral("%1 row %2 at %3..%4 of a viewport %5 high")
                                        .arg(name)
                                        .arg(row)
                                        .arg(cell.top())
                                        .arg(cell.bottom())
                                        .arg(table->viewport()->height())));
            }
        }
    }

    void lastRunTableListsEveryCommandRelativeToTheFirst() {
        RunModel model;
        TimingView view(model);
        model.keep(test::oneDeviceRun(run(2), QStringLiteral("local-atomic")));
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
        RunModel model;
        TimingView view(model);
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
        RunModel model;
        TimingView view(model);
        QVERIFY(test::showExposed(view, {1100, 640}));
        for (int i = 0; i < 50; ++i) model.keep(test::oneDeviceRun(run(3), QStringLiteral("local-atomic")));
        std::vector<double> ms;
        for (int i = 0; i < 21; ++i) {
            QElapsedTimer timer;
            timer.start();
            model.keep(test::oneDeviceRun(run(2 + static_cast<std::uint64_t>(i % 3)),
                                          QStringLiteral("local-atomic")));
            view.plot()->replot(QCustomPlot::rpImmediateRefresh);
            ms.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        }
        std::sort(ms.begin(), ms.end());
        qInfo("TimingView addRun with 50 runs kept: min %.2f ms, median %.2f ms, max %.2f ms", ms.front(),
              ms[ms.size() / 2], ms.back());
    }

    void rendersForPeopleToLookAt() {
        RunModel model;
        TimingView view(model);
        QVERIFY(test::showExposed(view, {1100, 640}));
        for (int i = 0; i < 40; ++i) {
            const std::uint64_t ms = 3 + static_cast<std::uint64_t>((i * 7) % 5);
            model.keep(test::oneDeviceRun(run(ms, 1'000'000'000ull * static_cast<std::uint64_t>(i + 1)),
                                          QStringLiteral("local-atomic")));
        }
        view.setProgress(12, 40);
        view.plot()->replot();
        QVERIFY(view.grab().save(test::artifactPath(QStringLiteral("views_timing.png"))));
    }
};

QTEST_MAIN(TimingViewTest)
#include "views_timing_test.moc"
