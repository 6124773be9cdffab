// A layout that stays put: pointing at the histogram shows its read-out without resizing the Histogram dock,
// the image view (and so its fitted zoom) or the statistics beside the plot; and Run ×N has one count, the
// Timings dock's, which the toolbar action runs, names and the settings remember.
#include <qcustomplot.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include "ui/display/image_view.hpp"
#include "ui/shell/app_settings.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/views/histogram_view.hpp"
#include "ui/views/timing_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr int kResultTimeoutMs = 120000;

// Where everything that moved on hover sits, in window coordinates.
struct Layout {
    QRect histogramDock;
    QRect imageView;
    QRect statistics;
    double zoom = 0;

    bool operator==(const Layout&) const = default;
};

QString describe(const Layout& layout) {
    const auto rect = [](const QRect& r) {
        return QStringLiteral("%1,%2 %3×%4").arg(r.x()).arg(r.y()).arg(r.width()).arg(r.height());
    };
    return QStringLiteral("dock %1, image %2, statistics %3, zoom %4 %")
        .arg(rect(layout.histogramDock), rect(layout.imageView), rect(layout.statistics))
        .arg(layout.zoom * 100, 0, 'f', 1);
}

}  // namespace

class LayoutTest : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir dir_;

    Layout layoutOf(MainWindow& window) {
        const auto inWindow = [&window](const QWidget* widget) {
            return QRect(widget->mapTo(&window, QPoint(0, 0)), widget->size());
        };
        const auto* dock = window.findChild<QDockWidget*>(QStringLiteral("histogramDock"));
        const auto* statistics =
            test::part<HistogramView>(window)->findChild<QComboBox*>(QStringLiteral("statisticsChannel"));
        return {inWindow(dock), inWindow(test::part<ImageView>(window)), inWindow(statistics),
                test::part<ImageView>(window)->zoom()};
    }

    // A plot mouse move as the window system delivers it.
    static void hover(QWidget* plot, QPoint position) {
        QMouseEvent move(QEvent::MouseMove, QPointF(position), plot->mapToGlobal(QPointF(position)),
                         Qt::NoButton, Qt::NoButton, Qt::NoModifier);
        QApplication::sendEvent(plot, &move);
    }

  private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void hoveringTheHistogramResizesNothing() {
        test::PrivateWindow app;
        MainWindow& window = app.window;
        QList<ErrorReport> problems;
        QVERIFY(test::showWithDevices(window, problems, kResultTimeoutMs));
        // The first-start layout, a photo-sized image fitted into the view (as the sample is).
        window.showImage(std::make_shared<const ImageRGBA8>(test::randomImage(720, 477, 5)),
                         QStringLiteral("photo"));
        QTRY_VERIFY_WITH_TIMEOUT(!window.controller().busy() && window.lastOutcome() &&
                                     test::part<ImageView>(window)->imageReady() &&
                                     test::part<HistogramView>(window)->hasHistogram(),
                                 kResultTimeoutMs);
        HistogramView& histogram = *test::part<HistogramView>(window);
        // Every channel shown: the longest read-out.
        for (const auto channel : histogram::kChannels) histogram.setChannelVisible(channel, true);
        test::settleLayout();
        const Layout before = layoutOf(window);
        const int hintBefore = histogram.minimumSizeHint().width();

        QCustomPlot* plot = histogram.plot();
        const QRect axes = plot->axisRect()->rect();
        QString longest;
        for (int step = 0; step <= 16; ++step) {
            hover(plot, QPoint(axes.left() + 1 + (axes.width() - 3) * step / 16, axes.center().y()));
            test::settleLayout();
            QVERIFY2(!histogram.readout().isEmpty(), "pointing at the plot shows the read-out");
            if (histogram.readout().size() > longest.size()) longest = histogram.readout();
            const Layout during = layoutOf(window);
            QVERIFY2(during == before,
                     qPrintable(QStringLiteral("at step %1 (%2): %3 instead of %4")
                                    .arg(step)
                                    .arg(histogram.readout(), describe(during), describe(before))));
        }
        QCOMPARE(histogram.minimumSizeHint().width(), hintBefore);
        // The read-out names the bin and every channel's count in full, though it may be shown elided.
        QVERIFY2(longest.contains(QStringLiteral("Luma")) && longest.contains(QStringLiteral("bin ")),
                 qPrintable(longest));

        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(plot, &leave);
        test::settleLayout();
        QVERIFY(histogram.readout().isEmpty());
        QCOMPARE(describe(layoutOf(window)), describe(before));
        QVERIFY2(problems.isEmpty(), test::messagesOf(problems).constData());
    }

    void runRepeatedHasOneCount() {
        const QString file = dir_.filePath(QStringLiteral("repeat.ini"));
        {
            AppSettings settings(file);
            QCOMPARE(settings.repeatCount(), AppSettings::kDefaultRepeatCount);
            MainWindow window(settings);
            QList<ErrorReport> problems;
            QVERIFY(test::showWithDevices(window, problems, kResultTimeoutMs));
            window.showImage(std::make_shared<const ImageRGBA8>(test::randomImage(64, 48, 6)),
                             QStringLiteral("small"));
            QTRY_VERIFY_WITH_TIMEOUT(!window.controller().busy() && window.lastOutcome(), kResultTimeoutMs);

            TimingView& timings = *test::part<TimingView>(window);
            auto* count = timings.findChild<QSpinBox*>(QStringLiteral("repeatCount"));
            QAction* action = window.action(MainWindow::Command::RunRepeated);
            QCOMPARE(action->text(), QStringLiteral("Run ×%1").arg(AppSettings::kDefaultRepeatCount));
            count->setValue(3);
            QCOMPARE(action->text(), QStringLiteral("Run ×3"));

            // The toolbar's action runs the dock's count, without a dialog of its own.
            window.model().clearKeptRuns();
            QSignalSpy progress(&window.controller(), &Controller::progress);
            action->trigger();
            QVERIFY2(!QApplication::activeModalWidget(), "Run ×N asks no count of its own");
            QTRY_VERIFY_WITH_TIMEOUT(!window.controller().busy() && timings.runs().size() == 3,
                                     kResultTimeoutMs);
            QCOMPARE(progress.last().at(1).toInt(), 3);
            QVERIFY2(problems.isEmpty(), test::messagesOf(problems).constData());
            window.close();
        }
        AppSettings reread(file);
        QCOMPARE(reread.repeatCount(), 3);
        MainWindow restored(reread);
        QCOMPARE(test::part<TimingView>(restored)->repeatCount(), 3);
        QCOMPARE(restored.action(MainWindow::Command::RunRepeated)->text(), QStringLiteral("Run ×3"));
    }
};

QTEST_MAIN(LayoutTest)
#include "shell_layout_test.moc"
