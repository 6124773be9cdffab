// The window fits small screens (issue 23): the scripted mode, run as a user starts it on a 1280 × 800 and a
// 1366 × 768 screen with fresh settings, draws a window no larger than the screen, and the window's minimum
// size is no larger either; kept runs of many strategies × devices add legend entries that scroll under the
// Timings chart, never minimum size to the window nor height taken from the chart; View ▸ Reset Layout gives
// back every dock.
#include <qcustomplot.h>

#include <QAction>
#include <QDockWidget>
#include <QImageReader>
#include <QListWidget>
#include <QMenuBar>
#include <QProcess>
#include <QProcessEnvironment>
#include <QScreen>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include "ui/shell/main_window.hpp"
#include "ui/views/timing_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr int kResultTimeoutMs = 120000;

// The small screens of issue 23.
const QList<QSize> kSmallScreens{{1280, 800}, {1366, 768}};

QString sizeText(QSize size) {
    return QStringLiteral("%1×%2").arg(size.width()).arg(size.height());
}

// A few milliseconds of kernel time: one kernel record named `kernel`.
std::vector<Timing> kernelRun(const char* kernel, double ms) {
    Timing timing;
    timing.name = kernel;
    timing.stage = Stage::Kernel;
    timing.queuedNs = 1000;
    timing.submitNs = 2000;
    timing.startNs = 3000;
    timing.endNs = 3000 + static_cast<std::uint64_t>(ms * 1e6);
    return {timing};
}

}  // namespace

class ScreenFitTest : public QObject {
    Q_OBJECT

  private slots:
    // The scripted mode's window, as its screenshot shows it, on a screen of its own size (the X server of
    // xvfb-run, as tests/ui runs every test, with the size under test).
    void scriptedModeFitsTheScreen_data() {
        QTest::addColumn<QSize>("screen");
        for (const QSize screen : kSmallScreens) QTest::newRow(qPrintable(sizeText(screen))) << screen;
    }
    void scriptedModeFitsTheScreen() {
        QFETCH(QSize, screen);
        QTemporaryDir folder;
        QVERIFY(folder.isValid());
        const QString shot =
            test::artifactPath(QStringLiteral("shell_screen_fit_%1.png").arg(sizeText(screen)));
        QFile::remove(shot);
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("XDG_CONFIG_HOME"), folder.path());  // a first start
        QProcess process;
        process.setProcessEnvironment(environment);
        process.setProcessChannelMode(QProcess::ForwardedChannels);
        process.start(QStringLiteral("xvfb-run"),
                      {QStringLiteral("-a"), QStringLiteral("-s"),
                       QStringLiteral("-screen 0 %1x%2x24").arg(screen.width()).arg(screen.height()),
                       QStringLiteral(HISTOSCOPE_GUI_EXECUTABLE), QStringLiteral("--angle"),
                       QStringLiteral("30"), QStringLiteral("--filter"), QStringLiteral("box:3"),
                       QStringLiteral("--screenshot"), shot, QStringLiteral("--quit")});
        QVERIFY(process.waitForFinished(kResultTimeoutMs));
        QCOMPARE(process.exitCode(), 0);
        const QSize window = QImageReader(shot).size();
        QVERIFY2(window.isValid(), qPrintable(shot));
        QVERIFY2(
            window.width() <= screen.width() && window.height() <= screen.height(),
            qPrintable(QStringLiteral("a %1 window on a %2 screen").arg(sizeText(window), sizeText(screen))));
    }

    // The window can be made as small as the smallest screen, whatever its docks hold, and it keeps every
    // dock's view visible at that size.
    void minimumSizeFitsSmallScreens() {
        test::PrivateWindow app;
        MainWindow& window = app.window;
        QList<ErrorReport> problems;
        QVERIFY(test::showWithDevices(window, problems, kResultTimeoutMs));
        window.showImage(std::make_shared<const ImageRGBA8>(test::randomImage(768, 512, 3)),
                         QStringLiteral("photo"));
        window.setRotation(30, rotate::FilterMode::Linear, false);
        window.setFilter(QStringLiteral("box:3"));
        QTRY_VERIFY_WITH_TIMEOUT(!window.controller().busy() && window.lastOutcome(), kResultTimeoutMs);
        test::settleLayout();
        const QSize minimum = window.minimumSizeHint().expandedTo(window.minimumSize());
        for (const QSize screen : kSmallScreens)
            QVERIFY2(
                minimum.width() <= screen.width() && minimum.height() <= screen.height(),
                qPrintable(
                    QStringLiteral("minimum %1 on a %2 screen").arg(sizeText(minimum), sizeText(screen))));
        QVERIFY2(problems.isEmpty(), test::messagesOf(problems).constData());
    }

    // Kept runs of 7 strategies on 2 devices and 2 pipelines: 28 groups in the legend. The window's minimum
    // size stays, the chart keeps its height and its axis title, and the legend scrolls.
    void legendEntriesNeverGrowTheWindow() {
        test::PrivateWindow app;
        MainWindow& window = app.window;
        QList<ErrorReport> problems;
        QVERIFY(test::showWithDevices(window, problems, kResultTimeoutMs));
        window.resize(1280, 800);
        test::settleLayout();
        TimingView& timings = *test::part<TimingView>(window);
        window.findChild<QDockWidget*>(QStringLiteral("timingDock"))->raise();
        window.model().setMaxKeptRuns(100);
        window.model().keep(test::oneDeviceRun(kernelRun("histogram", 1), QStringLiteral("serial"),
                                               QStringLiteral("dev A (0:0)")));
        test::settleLayout();
        QCustomPlot* plot = timings.plot();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const QSize minimumBefore = window.minimumSizeHint();
        const QSize sizeBefore = window.size();
        const int axisHeightBefore = plot->axisRect()->height();
        QVERIFY2(axisHeightBefore >= 60, qPrintable(QString::number(axisHeightBefore)));

        const QStringList strategies{"serial",        "cpu-parallel",   "global-atomic", "local-atomic",
                                     "private-uchar", "partial-reduce", "auto"};
        int run = 0;
        for (const QString& device : {QStringLiteral("pthread-skylake-avx512-AMD EPYC (0:0)"),
                                      QStringLiteral("pthread-skylake-avx512-AMD EPYC (0:1)")})
            for (const QString& strategy : strategies)
                for (const char* kernel : {"histogram", "rotate_image"})
                    window.model().keep(
                        test::oneDeviceRun(kernelRun(kernel, 1 + ++run % 5),
                                           QStringLiteral("%1 with a long pipeline").arg(strategy), device));
        test::settleLayout();
        plot->replot(QCustomPlot::rpImmediateRefresh);
        const auto* legend = timings.findChild<QListWidget*>(QStringLiteral("timingLegend"));
        QCOMPARE(legend->count(),
                 2 + 1 + 14);  // the kernels by colour, the device × strategy groups by shape
        QCOMPARE(window.minimumSizeHint(), minimumBefore);
        QCOMPARE(window.size(), sizeBefore);
        QCOMPARE(plot->axisRect()->height(), axisHeightBefore);
        QVERIFY(plot->yAxis->label().startsWith(QStringLiteral("kernel time")));
        // Every entry can be reached: the legend scrolls to its last one.
        QVERIFY(legend->verticalScrollBar()->maximum() > 0);
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(window.grab().save(test::artifactPath(QStringLiteral("shell_screen_fit_legend.png"))));
        QVERIFY2(problems.isEmpty(), test::messagesOf(problems).constData());
    }

    // View ▸ Reset Layout: a closed and a floating dock come back into the window, which fits its screen.
    void resetLayoutBringsEveryDockBack() {
        test::PrivateWindow app;
        MainWindow& window = app.window;
        QList<ErrorReport> problems;
        QVERIFY(test::showWithDevices(window, problems, kResultTimeoutMs));
        auto* histogram = window.findChild<QDockWidget*>(QStringLiteral("histogramDock"));
        auto* timeline = window.findChild<QDockWidget*>(QStringLiteral("timelineDock"));
        const QRect histogramPlace = histogram->geometry();
        histogram->close();
        timeline->setFloating(true);
        QAction* reset = nullptr;
        for (QAction* menu : window.menuBar()->actions())
            for (QAction* item : menu->menu()->actions())
                if (item->text().remove(QLatin1Char('&')) == QStringLiteral("Reset Layout")) reset = item;
        QVERIFY(reset);
        reset->trigger();
        test::settleLayout();
        QVERIFY(histogram->isVisible() && !histogram->isFloating());
        QVERIFY(!timeline->isFloating());
        QCOMPARE(window.dockWidgetArea(histogram), Qt::RightDockWidgetArea);
        QCOMPARE(histogram->geometry().topLeft().y(), histogramPlace.topLeft().y());
        const QRect available = window.screen()->availableGeometry();
        QVERIFY(window.frameGeometry().width() <= available.width() &&
                window.frameGeometry().height() <= available.height());
        QVERIFY2(problems.isEmpty(), test::messagesOf(problems).constData());
    }
};

QTEST_MAIN(ScreenFitTest)
#include "shell_screen_fit_test.moc"
