// Failure injection through the window (issue 12): the hook of runtime/fault_injection.hpp makes one OpenCL
// call of the SECOND run fail, for each of the four errors, call after call of that run: the error k of the
// four fails the calls k, k + 4, k + 8, ..., so that each error fails calls all through the run and every
// counted call of the run fails once (a window per call takes about a second; all four at every call, four).
// The window must put a dialog in front of the user that names the device, the call and the error, keep
// showing the first run's histogram and processed image, release every memory object the failed run made,
// and stay usable: a third run after disarming gives the CPU reference's result.
//
// The first run rotates (nearest, a quarter turn: exact); the second switches the convolution on, so that it
// builds a program of its own (the build calls are among those that fail) and its image differs from the
// first one's. Each failing call gets a fresh window, whose runtime has memoized nothing yet, so that the
// second run makes the same calls every time.
//
// Beside it, failure 1 of issue 12 as the window meets it: device selectors whose indices overflow an int.
#include <QComboBox>
#include <QGroupBox>
#include <QMessageBox>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStatusBar>
#include <QtTest/QtTest>

#include "engine/ops/convolve/filter.hpp"
#include "engine/ops/pipeline/pipeline.hpp"
#include "engine/ops/rotate/rotate.hpp"
#include "engine/runtime/cl.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/fault_injection.hpp"
#include "ui/display/image_view.hpp"
#include "ui/shell/device_panel.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/shell/transform_panel.hpp"
#include "ui/views/histogram_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr int kResultTimeoutMs = 120000;
constexpr int kBins = 64;
const char* const kFilter = "box:3";

// The last counted call a second run can make; a run still failing beyond it means the sweep never ends.
constexpr std::uint64_t kMostCalls = 400;

struct Disarm {
    ~Disarm() { faults::failClCall(0, CL_SUCCESS); }
};

pipeline::Spec firstSpec() {
    pipeline::Spec spec;
    spec.rotation = pipeline::RotateStage{{90.0, rotate::FilterMode::Nearest, true}};
    return spec;
}

pipeline::Spec secondSpec() {
    pipeline::Spec spec = firstSpec();
    spec.convolution = pipeline::ConvolveStage{convolve::boxFilter(3)};
    return spec;
}

// What the window shows: the binned histogram and the processed pixels (the copy path brings them to the
// host with the frame; PoCL shares no GL objects).
struct Shown {
    histogram::Histogram histogram;
    ImageRGBA8 image;
};

Shown shownBy(MainWindow& window) {
    const ImageRGBA8* pixels = test::part<ImageView>(window)->image();
    return {test::part<HistogramView>(window)->histogram(), pixels ? *pixels : ImageRGBA8()};
}

// How a result differs from the CPU reference of `spec` over `image`; empty when it does not.
QString mismatch(const Shown& shown, const ImageRGBA8& image, const pipeline::Spec& spec) {
    const ImageRGBA8 expected = pipeline::referencePipeline(image, spec);
    QStringList wrong;
    if (shown.image.width != expected.width || shown.image.height != expected.height ||
        shown.image.pixels != expected.pixels)
        wrong << QStringLiteral("the image shown is not the reference's");
    if (shown.histogram != test::referenceOf(expected, kBins))
        wrong << QStringLiteral("the histogram shown is not the reference's");
    return wrong.join(QStringLiteral("; "));
}

}  // namespace

class ShellFaultInjectionTest : public QObject {
    Q_OBJECT

  private:
    const ImageRGBA8 image_ = test::opaqueRandomImage(37, 23, 12);

    // How the second run ended.
    enum class SecondRun {
        Failed,     // reported, the first result kept, the third run right
        Recovered,  // the engine got over the failed call (a cached binary refused is built from source)
        Unharmed,   // it made fewer than n calls: the sweep is over
    };

    // One window: first run, the second failing at its `n`-th counted call with `code`, the third run.
    // Results that are not the reference's, a failure not reported or anything left behind are test failures
    // (QTest::currentTestFailed()).
    SecondRun failSecondRunAt(std::uint64_t n, int code) {
        const Disarm disarm;
        const QString context =
            QStringLiteral("call %1 failing with %2: ").arg(n).arg(QString::fromStdString(clErrorName(code)));
        const auto check = [&context](bool condition, const QString& what) {
            if (!condition) QTest::qFail(qPrintable(context + what), __FILE__, __LINE__);
            return condition;
        };
        test::PrivateWindow window;  // its default error reporter: message boxes
        MainWindow& w = window.window;
        w.show();
        if (!check(QTest::qWaitForWindowExposed(&w) &&
                       QTest::qWaitFor([&w] { return w.controller().devicesKnown(); }, kResultTimeoutMs),
                   QStringLiteral("no window or no devices")))
            return SecondRun::Failed;
        // The settings of both runs, made before there is an image to run on.
        if (!check(w.chooseStrategy(QStringLiteral("private-uchar")), QStringLiteral("no private-uchar")))
            return SecondRun::Failed;
        w.setBins(kBins);
        w.setRotation(90.0, rotate::FilterMode::Nearest, true);
        w.setFilter(QString::fromLatin1(kFilter));
        TransformPanel& panel = *test::part<TransformPanel>(w);
        panel.convolutionGroup()->setChecked(false);

        QSignalSpy shown(&w, &MainWindow::resultShown);
        QSignalSpy failed(&w, &MainWindow::runFailed);
        const auto settled = [&] {
            return (!shown.isEmpty() || !failed.isEmpty()) && !w.controller().busy();
        };
        w.showImage(std::make_shared<const ImageRGBA8>(image_), QStringLiteral("fault injection"));
        if (!check(QTest::qWaitFor(settled, kResultTimeoutMs), QStringLiteral("the first run never ended")) ||
            !check(failed.isEmpty(),
                   QStringLiteral("the first run failed: ") + failed.value(0).value(0).toString()))
            return SecondRun::Failed;
        const Shown first = shownBy(w);
        if (!check(mismatch(first, image_, firstSpec()).isEmpty(),
                   QStringLiteral("first run: ") + mismatch(first, image_, firstSpec())))
            return SecondRun::Failed;
        const quint64 firstId = w.lastOutcome()->requestId;
        const int startedBefore = w.controller().startedRequests();
        const std::int64_t referencesAfterFirst = faults::liveMemObjectReferences();

        // The second run: the convolution switched on, as a user ticks its box.
        shown.clear();
        faults::failClCall(n, code);
        panel.convolutionGroup()->setChecked(true);
        if (!check(QTest::qWaitFor(settled, kResultTimeoutMs), QStringLiteral("the second run never ended")))
            return SecondRun::Failed;
        const std::uint64_t callsOfSecondRun = faults::clCallsCounted();
        faults::failClCall(0, CL_SUCCESS);
        // One request, so that the counted calls are the second run's alone.
        if (!check(w.controller().startedRequests() == startedBefore + 1,
                   QStringLiteral("ticking the convolution started %1 runs")
                       .arg(w.controller().startedRequests() - startedBefore)))
            return SecondRun::Failed;
        if (failed.isEmpty()) {
            // The call to fail lay beyond the run, or the run got over it: either way its result is right.
            check(mismatch(shownBy(w), image_, secondSpec()).isEmpty(),
                  QStringLiteral("second run, succeeded: ") + mismatch(shownBy(w), image_, secondSpec()));
            check(faults::liveMemObjectReferences() == referencesAfterFirst,
                  QStringLiteral("%1 memory object references more after the second run")
                      .arg(faults::liveMemObjectReferences() - referencesAfterFirst));
            return callsOfSecondRun < n ? SecondRun::Unharmed : SecondRun::Recovered;
        }

        // The dialog: the device, the call and the error, in one line.
        QMessageBox* box = nullptr;
        const bool boxShown = QTest::qWaitFor(
            [&] { return (box = w.findChild<QMessageBox*>()) != nullptr && box->isVisible(); },
            kResultTimeoutMs);
        if (!check(boxShown, QStringLiteral("no dialog"))) return SecondRun::Failed;
        const QString text = box->text();
        const QString device = QString::fromStdString(w.currentDevice()->name);
        check(text.contains(device),
              QStringLiteral("the dialog does not name the device '%1': %2").arg(device, text));
        const QString error = QString::fromStdString(clErrorName(code));
        const QRegularExpression callFailed(QStringLiteral("\\b(cl[A-Z][A-Za-z]+) failed with ") +
                                            QRegularExpression::escape(error) + QStringLiteral("$"));
        check(callFailed.match(text).hasMatch(),
              QStringLiteral("the dialog does not name the call and %1: %2").arg(error, text));

        // Nothing of the failed run shows; nothing it made is left.
        const Shown afterFailure = shownBy(w);
        check(afterFailure.histogram == first.histogram, QStringLiteral("the histogram shown changed"));
        check(
            afterFailure.image.pixels == first.image.pixels && afterFailure.image.width == first.image.width,
            QStringLiteral("the image shown changed"));
        check(w.lastOutcome() && w.lastOutcome()->requestId == firstId,
              QStringLiteral("the outcome is no longer the first run's"));
        check(faults::liveMemObjectReferences() == referencesAfterFirst,
              QStringLiteral("%1 memory object references left by the failed run")
                  .arg(faults::liveMemObjectReferences() - referencesAfterFirst));

        // Usable: the dialog closes, the controls answer, and the next run gives the right result.
        box->accept();
        QComboBox* devices = test::part<DevicePanel>(w)->deviceBox();
        check(devices->isEnabled(), QStringLiteral("the device box is disabled"));
        check(w.action(MainWindow::Command::Run)->isEnabled(), QStringLiteral("Run is disabled"));
        shown.clear();
        w.action(MainWindow::Command::Run)->trigger();
        if (!QTest::qWaitFor([&] { return !shown.isEmpty() && !w.controller().busy(); }, kResultTimeoutMs)) {
            check(false, QStringLiteral("the third run never finished"));
            return SecondRun::Failed;
        }
        const QString thirdWrong = mismatch(shownBy(w), image_, secondSpec());
        check(thirdWrong.isEmpty(), QStringLiteral("third run: ") + thirdWrong);
        check(devices->itemIcon(devices->currentIndex()).isNull(),
              QStringLiteral("the device is still marked as failing"));
        check(faults::liveMemObjectReferences() == referencesAfterFirst,
              QStringLiteral("%1 memory object references more after the third run")
                  .arg(faults::liveMemObjectReferences() - referencesAfterFirst));
        return SecondRun::Failed;
    }

  private slots:
    void secondRunFailingKeepsTheFirstResult_data() {
        QTest::addColumn<int>("code");
        QTest::addColumn<int>("firstCall");
        int firstCall = 1;
        for (const int code : {CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_OUT_OF_RESOURCES,
                               CL_BUILD_PROGRAM_FAILURE, CL_INVALID_COMMAND_QUEUE})
            QTest::newRow(clErrorName(code).c_str()) << code << firstCall++;
    }

    void secondRunFailingKeepsTheFirstResult() {
        QFETCH(int, code);
        QFETCH(int, firstCall);
        constexpr std::uint64_t kErrors = 4;
        int failures = 0;
        int recoveries = 0;
        for (auto n = static_cast<std::uint64_t>(firstCall);; n += kErrors) {
            QVERIFY2(n <= kMostCalls, "the second run never got beyond the call to fail");
            const SecondRun run = failSecondRunAt(n, code);
            if (QTest::currentTestFailed()) return;
            if (run == SecondRun::Unharmed) break;
            ++(run == SecondRun::Failed ? failures : recoveries);
        }
        qInfo("%s: %d calls of the second run failed it, %d it got over", clErrorName(code).c_str(), failures,
              recoveries);
        // The second run uploads, rotates, builds and runs the convolution, counts and reads back: dozens of
        // calls, every fourth of them failed here.
        QVERIFY2(failures >= 5, qPrintable(QString::number(failures)));
    }

    // Issue 12, failure 1, in the window: device indices beyond an int once escaped the window's catch as
    // std::out_of_range and ended the app. Chosen, such a selector is a dialog naming it; in
    // HISTOSCOPE_DEVICE, a status-bar line naming it. Either way the first device stays and runs.
    void deviceIndicesBeyondIntAreReportedAndTheWindowRunsOn() {
        const QString beyond = QStringLiteral("0:99999999999999999999");
        const QString fromEnvironment = QStringLiteral("2147483648:0");
        qputenv("HISTOSCOPE_DEVICE", fromEnvironment.toUtf8());
        test::PrivateWindow window;
        QList<ErrorReport> reports;
        const bool shown = test::showWithDevices(window.window, reports, kResultTimeoutMs);
        qunsetenv("HISTOSCOPE_DEVICE");
        QVERIFY(shown);
        MainWindow& w = window.window;
        QVERIFY2(w.statusBar()->currentMessage().contains(fromEnvironment),
                 qPrintable(w.statusBar()->currentMessage()));
        const QString first = test::part<DevicePanel>(w)->currentSelector();
        QCOMPARE(first, QStringLiteral("0:0"));

        w.setBins(kBins);
        w.chooseDevice(beyond);
        QCOMPARE(reports.size(), 1);
        QVERIFY2(reports.front().message.contains(beyond), qPrintable(reports.front().message));
        QCOMPARE(test::part<DevicePanel>(w)->currentSelector(), first);

        QSignalSpy resultShown(&w, &MainWindow::resultShown);
        w.showImage(std::make_shared<const ImageRGBA8>(image_), QStringLiteral("after the bad selectors"));
        QTRY_VERIFY_WITH_TIMEOUT(!resultShown.isEmpty() && !w.controller().busy(), kResultTimeoutMs);
        QCOMPARE(w.lastOutcome()->request.device, first);
        QCOMPARE(test::part<HistogramView>(w)->histogram(), test::referenceOf(image_, kBins));
        QCOMPARE(reports.size(), 1);
    }
};

QTEST_MAIN(ShellFaultInjectionTest)
#include "shell_fault_injection_test.moc"
