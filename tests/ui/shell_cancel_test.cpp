// Cancel abandons the run in flight (issue 23): a run the device cannot interrupt is discarded when it ends —
// never shown as the current result, recorded as cancelled, and the window says so; Cancel (Esc) before a
// Run ×N starts runs nothing; a cancelled Compare keeps the strategies it measured. The worker is held at its
// probe point (test::WorkerProbe) until the test has cancelled, so the device's speed decides nothing.
#include <QAction>
#include <QLabel>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QtTest/QtTest>

#include "engine/measure/compare.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/views/compare_view.hpp"
#include "ui/views/histogram_view.hpp"
#include "ui/views/timing_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr int kResultTimeoutMs = 120000;

}  // namespace

class CancelTest : public QObject {
    Q_OBJECT

  private:
    std::unique_ptr<test::PrivateWindow> app_;
    QList<ErrorReport> problems_;

    MainWindow& window() { return app_->window; }
    Controller& controller() { return window().controller(); }
    QAction* cancel() { return window().action(MainWindow::Command::Cancel); }
    QString busyText() { return test::part<QLabel>(window(), "busyLabel")->text(); }

    void waitIdle() {
        QTRY_VERIFY_WITH_TIMEOUT(!controller().busy() && window().lastOutcome(), kResultTimeoutMs);
    }

  private slots:
    void init() {
        app_ = std::make_unique<test::PrivateWindow>();
        problems_.clear();
        QVERIFY(test::showWithDevices(window(), problems_, kResultTimeoutMs));
        window().showImage(std::make_shared<const ImageRGBA8>(test::randomImage(64, 48, 4)),
                           QStringLiteral("small"));
        waitIdle();
    }
    void cleanup() {
        QVERIFY2(problems_.isEmpty(), test::messagesOf(problems_).constData());
        app_.reset();
    }

    // The worker has started the run (it waits at its probe point, inside the request) when Cancel comes:
    // the run completes on the device, and its result is discarded, not shown, not kept.
    void theRunInFlightIsDiscarded() {
        const quint64 shownBefore = window().lastOutcome()->requestId;
        const auto histogramBefore = window().model().histogram();
        const std::size_t keptBefore = window().model().keptRuns().size();
        test::WorkerProbe probe(controller());
        probe.hold();
        QSignalSpy shown(&controller(), &Controller::histogramReady);
        QSignalSpy discarded(&controller(), &Controller::discarded);
        QSignalSpy requested(&window(), &MainWindow::runRequested);
        window().setBins(16);
        QCOMPARE(requested.count(), 1);
        const quint64 id = requested.first().first().toULongLong();
        QTRY_VERIFY_WITH_TIMEOUT(probe.waiting(), kResultTimeoutMs);
        QVERIFY(cancel()->isEnabled());
        cancel()->trigger();
        // Said at once, while the device still has the run.
        QVERIFY(!cancel()->isEnabled());
        QVERIFY2(busyText().contains(QStringLiteral("discarded")), qPrintable(busyText()));
        QVERIFY(controller().busy());

        probe.release();
        QTRY_VERIFY_WITH_TIMEOUT(!controller().busy(), kResultTimeoutMs);
        QCOMPARE(discarded.count(), 1);
        QCOMPARE(discarded.first().first().value<RunOutcome>().requestId, id);
        QCOMPARE(shown.count(), 0);
        QCOMPARE(window().lastOutcome()->requestId, shownBefore);
        QCOMPARE(window().model().histogram(), histogramBefore);  // still 256 bins, not the 16 cancelled
        QCOMPARE(window().model().keptRuns().size(), keptBefore);
        QCOMPARE(window().model().discardedRequests(), std::vector<quint64>{id});
        const QString status = window().statusBar()->currentMessage();
        QVERIFY2(status.contains(QStringLiteral("cancelled")) && status.contains(QStringLiteral("discarded")),
                 qPrintable(status));

        // The next run is shown as usual.
        window().runHistogram();
        waitIdle();
        QVERIFY(window().lastOutcome()->requestId > id);
        QCOMPARE(window().model().histogram().bins, 16);
    }

    // Esc is Cancel; a Run ×N cancelled before the worker reached it runs not once.
    void escapeCancelsRunRepeatedBeforeItRuns() {
        QVERIFY(cancel()->shortcuts().contains(QKeySequence(Qt::Key_Escape)));
        const std::size_t keptBefore = window().model().keptRuns().size();
        test::WorkerProbe probe(controller());
        probe.hold();
        // A run first, which the worker takes and holds; the Run ×N waits behind it.
        window().runHistogram();
        QTRY_VERIFY_WITH_TIMEOUT(probe.waiting(), kResultTimeoutMs);
        const int startedBefore = controller().startedRequests();
        QSignalSpy progress(&controller(), &Controller::progress);
        QVERIFY(window().runRepeated(5) > 0);
        cancel()->trigger();
        probe.release();
        QTRY_VERIFY_WITH_TIMEOUT(!controller().busy(), kResultTimeoutMs);
        QCOMPARE(controller().startedRequests(), startedBefore);
        QCOMPARE(progress.count(), 0);
        QCOMPARE(window().model().keptRuns().size(), keptBefore);
        QVERIFY(window().statusBar()->currentMessage().startsWith(QStringLiteral("Run ×N cancelled")));
    }

    // Cancelled once its first strategy is measured, Compare shows the figures of the strategies measured
    // before the cancel reached it and says of the others that they were not measured.
    void compareKeepsTheStrategiesItMeasured() {
        constexpr int kRepetitions = 2000;  // per strategy: the others are still to run when Cancel comes
        QSignalSpy compared(&controller(), &Controller::compareReady);
        connect(&controller(), &Controller::progress, this, [this](int done, int) {
            if (done == kRepetitions) cancel()->trigger();
        });
        window().runCompare(kRepetitions);
        QVERIFY(compared.wait(kResultTimeoutMs));
        const auto comparison = compared.first().first().value<measure::Comparison>();
        QVERIFY(comparison.stopped);
        const auto entries = test::part<CompareView>(window())->entries();
        int measured = 0;
        int notMeasured = 0;
        for (const auto& entry : entries) {
            if (entry.unsupportedReason.isEmpty()) {
                QCOMPARE(notMeasured, 0);  // nothing is measured after the stop
                ++measured;
                QVERIFY(entry.medianMs > 0);
            } else if (entry.unsupportedReason ==
                       QString::fromUtf8(measure::kNotMeasured.data(), measure::kNotMeasured.size())) {
                ++notMeasured;
            }
        }
        // At least the first; more where the window took its time to hear of the first's end (2000 progress
        // signals queue up before that one), never all of them.
        QVERIFY(measured >= 1);
        QVERIFY(notMeasured >= 1);
        QTRY_VERIFY_WITH_TIMEOUT(!controller().busy(), kResultTimeoutMs);
        QVERIFY(window().statusBar()->currentMessage().startsWith(QStringLiteral("Compare cancelled")));
    }
};

QTEST_MAIN(CancelTest)
#include "shell_cancel_test.moc"
