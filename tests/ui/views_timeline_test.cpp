// TimelineView against a hand-made timing log: lanes, the bars' positions and lengths, the wait segments,
// the hover read-out, zoom, pan, the run selector, a range's busy time, the exports (PNG, SVG, and the
// Chrome trace, whose ts/dur must equal the bars), and the main window showing its runs on it.

#include <qcustomplot.h>
#include <QComboBox>
#include <QDockWidget>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QWheelEvent>
#include <QtTest/QtTest>
#include <map>
#include <optional>

#include "engine/ops/produce_consume/produce_consume.hpp"
#include "io/image_io.hpp"
#include "ui/shell/app_settings.hpp"
#include "ui/shell/export_actions.hpp"
#include "ui/shell/strategy_box.hpp"
#include "ui/views/histogram_view.hpp"
#include "ui/views/kernel_view.hpp"
#include "ui/views/timeline_view.hpp"
#include "ui/views/timing_view.hpp"
#include "ui/views/visual_words_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr std::uint64_t kBase = 7'000'000'000;  // the first queued timestamp of the hand-made run
const QString kDevice = QStringLiteral("GPU A (0:0)");
const QString kOptions = QStringLiteral("-D BINS=64 -D LOCAL_SIZE=256");

// Times in ns after kBase. The kernel is queued with the upload and waits for it: queued 10 ns, submit 20 ns,
// start 600 µs, end 850 µs. Host work (a conversion) runs 520..580 µs beside the device.
std::vector<Timing> handMadeRun(std::uint64_t base = kBase) {
    std::vector<Timing> run{
        {Stage::Upload, "histogram: upload pixels", base, base + 1'000, base + 3'000, base + 503'000},
        {Stage::Kernel, "histogram: count", base + 10, base + 20, base + 600'000, base + 850'000},
        {Stage::Other, "histogram: merge on host", base + 520'000, base + 520'000, base + 520'000,
         base + 580'000, true},
        {Stage::Readback, "histogram: read counts", base + 30, base + 40, base + 900'000, base + 901'500}};
    // Every record of a pipeline run carries its stage (Timing::step), which the build options go by.
    for (auto& timing : run) timing.step = "histogram";
    return run;
}

io::RunTimings handMadeRunTimings(int number = 1) {
    return {number,
            QStringLiteral("histogram local-atomic"),
            {{kDevice, handMadeRun()}},
            {{QStringLiteral("histogram"), kOptions}}};
}

// The rectangle item of that name: its left, right, top and bottom in plot coordinates.
struct Rect {
    double left, right, top, bottom;
};
std::optional<Rect> rectNamed(QCustomPlot* plot, const QString& name) {
    for (int i = 0; i < plot->itemCount(); ++i) {
        auto* rect = qobject_cast<QCPItemRect*>(plot->item(i));
        if (rect && rect->objectName() == name)
            return Rect{rect->topLeft->coords().x(), rect->bottomRight->coords().x(),
                        rect->topLeft->coords().y(), rect->bottomRight->coords().y()};
    }
    return std::nullopt;
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace

class TimelineViewTest : public QObject {
    Q_OBJECT

  private slots:
    void lanesBarsAndWaitsFollowTheLog() {
        TimelineView view;
        QVERIFY(test::showExposed(view, {1000, 300}));
        view.setRuns({handMadeRunTimings()});
        QCOMPARE(view.shownRun(), 1);
        QCOMPARE(view.timeline().lanes, (std::vector<QString>{kDevice, QStringLiteral("host")}));

        // The kernel: lane 0, a bar from 600 to 850 µs, its waits 0.01 → 0.02 µs and 0.02 → 600 µs.
        const double bar = TimelineView::kBarHalfHeight;
        const double wait = TimelineView::kWaitHalfHeight;
        const auto kernel = rectNamed(view.plot(), QStringLiteral("bar:1"));
        QVERIFY(kernel);
        QCOMPARE(kernel->left, 600.0);
        QCOMPARE(kernel->right, 850.0);
        QCOMPARE(kernel->top, -bar);
        QCOMPARE(kernel->bottom, bar);
        const auto queued = rectNamed(view.plot(), QStringLiteral("wait-queued:1"));
        QVERIFY(queued);
        QCOMPARE(queued->left, 0.01);
        QCOMPARE(queued->right, 0.02);
        QCOMPARE(queued->top, -wait);
        const auto submitted = rectNamed(view.plot(), QStringLiteral("wait-submit:1"));
        QVERIFY(submitted);
        QCOMPARE(submitted->left, 0.02);
        QCOMPARE(submitted->right, 600.0);
        // The host work in lane 1, 520..580 µs; with no wait, its wait segments have no length.
        const auto host = rectNamed(view.plot(), QStringLiteral("bar:2"));
        QVERIFY(host);
        QCOMPARE(host->left, 520.0);
        QCOMPARE(host->right, 580.0);
        QCOMPARE(host->top, 1 - bar);
        QCOMPARE(host->bottom, 1 + bar);
        const auto hostWait = rectNamed(view.plot(), QStringLiteral("wait-submit:2"));
        QCOMPARE(hostWait->left, hostWait->right);
        // The upload and the readback: 3..503 µs and 900..901.5 µs.
        QCOMPARE(rectNamed(view.plot(), QStringLiteral("bar:0"))->right, 503.0);
        QCOMPARE(rectNamed(view.plot(), QStringLiteral("bar:3"))->left, 900.0);
        QCOMPARE(rectNamed(view.plot(), QStringLiteral("bar:3"))->right, 901.5);
        // The lanes are named on the axis, the first on top; the whole run is in view.
        const auto ticker = qSharedPointerCast<QCPAxisTickerText>(view.plot()->yAxis->ticker());
        QCOMPARE(ticker->ticks().value(0), kDevice);
        QCOMPARE(ticker->ticks().value(1), QStringLiteral("host"));
        QVERIFY(view.plot()->yAxis->rangeReversed());
        QVERIFY(view.plot()->xAxis->range().contains(0) && view.plot()->xAxis->range().contains(901.5));
    }

    void severalDevicesShareOneOrigin() {
        TimelineView view;
        // The second device's commands were queued 200 µs after the first device's first.
        view.setRuns(
            {{3,
              QStringLiteral("two-device pipeline"),
              {{kDevice, handMadeRun()}, {QStringLiteral("GPU B (0:1)"), handMadeRun(kBase + 200'000)}},
              {}}});
        QCOMPARE(view.timeline().lanes,
                 (std::vector<QString>{kDevice, QStringLiteral("GPU B (0:1)"), QStringLiteral("host")}));
        const auto& bars = view.timeline().bars;
        QCOMPARE(bars.size(), std::size_t{8});
        QCOMPARE(bars[5].lane, 1);  // device B's kernel
        QCOMPARE(bars[5].startUs, 800.0);
        QCOMPARE(bars[6].lane, 2);  // host work of both devices shares the host lane
        QCOMPARE(bars[2].lane, 2);
    }

    void twoDevicesOfOneNameGetALaneEachAndTheirOverlapIsShaded() {
        // A produce-consume run on two devices of one name: the producer convolves 0..100 and 150..250 µs,
        // the consumer counts 100..200 µs; they overlap 150..200 µs only (100 is a touch).
        const auto at = [](std::uint64_t us) { return kBase + us * 1000; };
        produce_consume::Result result;
        result.devices.push_back({"producer",
                                  "0:0",
                                  "pthread-cpu",
                                  {{Stage::Kernel, "chunk 1/2: convolve", kBase, kBase, at(0), at(100)},
                                   {Stage::Kernel, "chunk 2/2: convolve", kBase, kBase, at(150), at(250)}}});
        result.devices.push_back({"consumer",
                                  "0:1",
                                  "pthread-cpu",
                                  {{Stage::Kernel, "chunk 1/2: count", kBase, kBase, at(100), at(200)}}});
        TimelineView view;
        QVERIFY(test::showExposed(view, {1000, 300}));
        view.setRuns({io::runTimingsOf(result, 1)});
        QCOMPARE(view.timeline().lanes,
                 (std::vector<QString>{QStringLiteral("producer: pthread-cpu (0:0)"),
                                       QStringLiteral("consumer: pthread-cpu (0:1)")}));
        const auto band = rectNamed(view.plot(), QStringLiteral("overlap:0"));
        QVERIFY(band);
        QCOMPARE(band->left, 150.0);
        QCOMPARE(band->right, 200.0);
        // Across both lanes: from the top of lane 0 to the bottom of lane 1.
        QCOMPARE(band->top, -0.5);
        QCOMPARE(band->bottom, 1.5);
        QVERIFY(!rectNamed(view.plot(), QStringLiteral("overlap:1")));

        // One device alone: no band.
        view.setRuns({handMadeRunTimings()});
        QVERIFY(!rectNamed(view.plot(), QStringLiteral("overlap:0")));
    }

    void hoverShowsEveryTimeAndTheBuildOptions() {
        TimelineView view;
        QVERIFY(test::showExposed(view, {1000, 300}));
        view.setRuns({handMadeRunTimings()});
        const QString kernel = view.hoverTextAt(700, 0.1);
        for (const char* expected : {"histogram: count", "kernel · GPU A (0:0)", "queued 0.010 µs",
                                     "submit 0.020 µs", "start 600.0 µs", "end 850.0 µs", "duration 250.0 µs",
                                     "wait 600.0 µs", "queued → submit 0.010 µs", "submit → start 600.0 µs",
                                     "build options: -D BINS=64 -D LOCAL_SIZE=256"})
            QVERIFY2(kernel.contains(QString::fromUtf8(expected)),
                     qPrintable(expected + QStringLiteral(" in ") + kernel));
        // A transfer has no build options; host work is in its lane.
        const QString upload = view.hoverTextAt(100, 0);
        QVERIFY2(upload.startsWith(QStringLiteral("histogram: upload pixels\n")), qPrintable(upload));
        QVERIFY(!upload.contains(QStringLiteral("build options")));
        QVERIFY(view.hoverTextAt(550, 1.2).startsWith(QStringLiteral("histogram: merge on host\n")));
        // Between the upload's end and the kernel's start the lane shows the kernel waiting, on the wait's
        // height only.
        const QString waiting = view.hoverTextAt(550, 0.05);
        QVERIFY2(waiting.startsWith(QStringLiteral("waiting: histogram: count\n")), qPrintable(waiting));
        QVERIFY(view.hoverTextAt(550, 0.25).isEmpty());
        QVERIFY(view.hoverTextAt(550, 1.45).isEmpty());  // lane 1, beside the host work's bar
        QVERIFY(view.hoverTextAt(700, 5).isEmpty());     // no such lane
    }

    void selectedRangeShowsItsBusyTime() {
        TimelineView view;
        QVERIFY(test::showExposed(view, {1000, 300}));
        view.setRuns({handMadeRunTimings()});
        // 400..700 µs: the device runs the upload until 503 and the kernel from 600 (203 µs), the host
        // 520..580 (60 µs).
        view.selectRange(700, 400);
        QCOMPARE(*view.selection(), std::make_pair(400.0, 700.0));
        const QString text = view.selectionText();
        QVERIFY2(text.contains(QStringLiteral("busy 263.0 µs in total")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("GPU A (0:0) 203.0 µs")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("host 60.0 µs")), qPrintable(text));
        QCOMPARE(view.findChild<QLabel*>("timelineSelection")->text(), text);
        QVERIFY(rectNamed(view.plot(), QStringLiteral("selection")));

        // A shift-drag over the plot selects the same way; a drag without shift pans instead.
        view.clearSelection();
        QCustomPlot* plot = view.plot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const QCPRange before = plot->xAxis->range();
        const int y = static_cast<int>(plot->yAxis->coordToPixel(0.4));
        const QPoint from(static_cast<int>(plot->xAxis->coordToPixel(400)), y);
        const QPoint to(static_cast<int>(plot->xAxis->coordToPixel(700)), y);
        QTest::mousePress(plot, Qt::LeftButton, Qt::ShiftModifier, from);
        QTest::mouseMove(plot, to);
        QTest::mouseRelease(plot, Qt::LeftButton, Qt::ShiftModifier, to);
        QVERIFY(view.selection());
        const double pixelUs = plot->xAxis->range().size() / plot->axisRect()->width();
        QVERIFY(std::abs(view.selection()->first - 400) <= pixelUs);
        QVERIFY(std::abs(view.selection()->second - 700) <= pixelUs);
        QCOMPARE(plot->xAxis->range().lower, before.lower);  // selecting did not pan

        QTest::mousePress(plot, Qt::LeftButton, Qt::NoModifier, to);
        QTest::mouseMove(plot, from);
        QTest::mouseRelease(plot, Qt::LeftButton, Qt::NoModifier, from);
        const QCPRange panned = plot->xAxis->range();
        QVERIFY2(std::abs((panned.lower - before.lower) - 300) <= 2 * pixelUs,
                 qPrintable(QStringLiteral("%1 → %2").arg(before.lower).arg(panned.lower)));
        QVERIFY(std::abs(panned.size() - before.size()) < 1e-9 * before.size());
    }

    void wheelZoomsAlongTimeOnly() {
        TimelineView view;
        QVERIFY(test::showExposed(view, {1000, 300}));
        view.setRuns({handMadeRunTimings()});
        QCustomPlot* plot = view.plot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const QCPRange time = plot->xAxis->range();
        const QCPRange lanes = plot->yAxis->range();
        const QPointF at(plot->xAxis->coordToPixel(600), plot->yAxis->coordToPixel(0));
        QWheelEvent wheel(at, plot->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
                          Qt::NoScrollPhase, false);
        QApplication::sendEvent(plot, &wheel);
        QVERIFY2(plot->xAxis->range().size() < time.size() * 0.95,
                 qPrintable(QStringLiteral("%1 → %2").arg(time.size()).arg(plot->xAxis->range().size())));
        QVERIFY(plot->xAxis->range().contains(600));
        QCOMPARE(plot->yAxis->range().lower, lanes.lower);
        QCOMPARE(plot->yAxis->range().upper, lanes.upper);
        view.fitRun();
        QCOMPARE(plot->xAxis->range().lower, time.lower);
        QCOMPARE(plot->xAxis->range().upper, time.upper);
    }

    void selectorShowsTheLastOrAChosenRun() {
        TimelineView view;
        io::RunTimings second = handMadeRunTimings(2);
        second.devices[0].timings.resize(1);  // the upload only
        view.setRuns({handMadeRunTimings(1), second});
        QCOMPARE(view.shownRun(), 2);
        QCOMPARE(view.timeline().bars.size(), std::size_t{1});
        QComboBox* selector = view.runSelector();
        QCOMPARE(selector->count(), 3);  // last run, #2, #1
        QCOMPARE(selector->itemText(0), QStringLiteral("Last run (#2)"));
        QVERIFY(
            selector->itemText(2).startsWith(QStringLiteral("#1: histogram local-atomic on GPU A (0:0)")));
        selector->setCurrentIndex(2);
        emit selector->activated(2);
        QCOMPARE(view.shownRun(), 1);
        QCOMPARE(view.timeline().bars.size(), std::size_t{4});
        view.selectRange(10, 20);
        // A new run keeps the chosen one shown, zoom and selection included.
        io::RunTimings third = handMadeRunTimings(3);
        view.setRuns({handMadeRunTimings(1), second, third});
        QCOMPARE(view.shownRun(), 1);
        QVERIFY(view.selection());
        QCOMPARE(selector->currentData().toInt(), 1);
        // Once it is no longer kept, the last run is shown.
        view.setRuns({second, third});
        QCOMPARE(view.shownRun(), 3);
        QVERIFY(!view.selection());
        QCOMPARE(selector->currentIndex(), 0);
        // Following the last run again.
        QVERIFY(view.showRun(0));
        view.setRuns({second, third, handMadeRunTimings(4)});
        QCOMPARE(view.shownRun(), 4);
        QVERIFY(!view.showRun(9));
    }

    void exportsAgreeWithTheBarsAndTheTrace() {
        RunModel model;
        HistogramView histogram;
        TimelineView timeline;
        VisualWordsView visualWords;
        QVERIFY(test::showExposed(timeline, {900, 260}));
        QTemporaryDir dir;
        AppSettings settings(dir.filePath(QStringLiteral("export.ini")));
        // The timeline is laid out at the remembered plot export size, as the histogram plot is.
        settings.setPlotExportSize({700, 300, 96});
        ExportActions exports(model, &histogram, &timeline, &visualWords, settings, nullptr);
        const QAction* timelineAction = exports.actions().back();
        QVERIFY(!timelineAction->isEnabled());
        model.keep(test::oneDeviceRun(handMadeRun(), QStringLiteral("histogram local-atomic"), kDevice,
                                      {{QStringLiteral("histogram"), kOptions}}));
        timeline.setRuns(model.keptRuns());
        QVERIFY(timelineAction->isEnabled());
        QCOMPARE(timeline.shownRun(), 1);

        const QString png = dir.filePath(QStringLiteral("timeline.png"));
        exports.exportTimeline(png);
        const QImage image(png);
        QCOMPARE(image.size(), QSize(700, 300));
        const QString svg = dir.filePath(QStringLiteral("timeline.svg"));
        exports.exportTimeline(svg);
        const QByteArray svgText = readAll(svg);
        QVERIFY(svgText.contains("<svg"));
        QVERIFY(svgText.contains(kDevice.toUtf8()));
        QVERIFY(svgText.contains(">host<"));
        const QString pdf = dir.filePath(QStringLiteral("timeline.pdf"));
        exports.exportTimeline(pdf);
        QVERIFY(readAll(pdf).startsWith("%PDF-"));

        const QString tracePath = dir.filePath(QStringLiteral("trace.json"));
        exports.exportTrace(tracePath);
        const QJsonArray events =
            QJsonDocument::fromJson(readAll(tracePath)).object().value("traceEvents").toArray();
        std::map<int, QString> lanes;
        std::vector<QJsonObject> complete;
        for (const QJsonValue value : events) {
            const QJsonObject event = value.toObject();
            if (event.value("name") == QLatin1String("thread_name"))
                lanes[event.value("tid").toInt()] = event.value("args").toObject().value("name").toString();
            if (event.value("ph") == QLatin1String("X")) complete.push_back(event);
        }
        const auto& bars = timeline.timeline().bars;
        QCOMPARE(complete.size(), bars.size());
        for (std::size_t i = 0; i < bars.size(); ++i) {
            QCOMPARE(complete[i].value("name").toString(), bars[i].name);
            QCOMPARE(complete[i].value("ts").toDouble(), bars[i].startUs);
            QCOMPARE(complete[i].value("dur").toDouble(), bars[i].durationUs());
            QCOMPARE(lanes[complete[i].value("tid").toInt()],
                     timeline.timeline().lanes[static_cast<std::size_t>(bars[i].lane)]);
            QCOMPARE(complete[i].value("args").toObject().value("run").toInt(), 1);
        }
        QCOMPARE(complete[1].value("args").toObject().value("build_options").toString(), kOptions);
        timeline.selectRange(400, 700);
        timeline.plot()->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(timeline.grab().save(test::artifactPath(QStringLiteral("views_timeline.png"))));
    }

    // The window end to end: a processed run on PoCL reaches the timeline with its device lane and its
    // kernels' build options; screenshots of the timing and timeline views for people to look at.
    void mainWindowShowsItsRunsOnTheTimeline() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("image.png"));
        io::saveImage(path, test::opaqueRandomImage(320, 200, 5));
        test::PrivateWindow window;
        QList<ErrorReport> reports;
        QVERIFY(test::showWithDevices(window.window, reports, 120000));
        // A device strategy, so that the run has a device lane (auto may choose a host strategy on a CPU).
        QVERIFY(window.window.chooseStrategy(QStringLiteral("private-uchar")));
        QSignalSpy shown(&window.window, &MainWindow::resultShown);
        window.window.openImage(path);
        QTRY_VERIFY_WITH_TIMEOUT(!shown.isEmpty(), 120000);
        QVERIFY2(reports.isEmpty(), test::messagesOf(reports).constData());
        QTRY_COMPARE_WITH_TIMEOUT(window.window.controller().busy(), false, 120000);

        TimingView* timings = test::part<TimingView>(window.window);
        TimelineView* timeline = test::part<TimelineView>(window.window);
        QCOMPARE(timeline->shownRun(), timings->runInfo().back().number);
        const auto& outcome = *window.window.lastOutcome();
        const QString device = QStringLiteral("%1 (%2)").arg(
            QString::fromStdString(outcome.device->name), QString::fromStdString(outcome.device->selector()));
        QCOMPARE(timeline->timeline().lanes.front(), device);
        QCOMPARE(timeline->timeline().bars.size(), outcome.result.timings.size());
        const QString options = test::part<KernelView>(window.window)->buildOptions();
        bool kernelWithOptions = false;
        for (const auto& bar : timeline->timeline().bars)
            if (bar.stage == Stage::Kernel && !bar.buildOptions.isEmpty()) kernelWithOptions = true;
        QCOMPARE(kernelWithOptions, !options.isEmpty());

        QVERIFY(timings->grab().save(test::artifactPath(QStringLiteral("views_timing_window.png"))));
        window.window.findChild<QDockWidget*>(QStringLiteral("timelineDock"))->raise();
        QTRY_VERIFY(timeline->isVisible());
        timeline->plot()->replot(QCustomPlot::rpImmediateRefresh);
        QVERIFY(timeline->grab().save(test::artifactPath(QStringLiteral("views_timeline_window.png"))));
        QVERIFY(
            window.window.grab().save(test::artifactPath(QStringLiteral("views_timeline_main_window.png"))));
    }
};

QTEST_MAIN(TimelineViewTest)
#include "views_timeline_test.moc"
