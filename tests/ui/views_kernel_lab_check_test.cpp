// The kernel lab's Run of an edited built-in, Check and a long run (KernelLabView with the controller):
// an edited local-atomic that drops one counter shows that bin, counted here by hand, and an unchanged copy
// matches; Check runs histoscope-cli check in a child process and puts Oclgrind's finding on the line of
// the write past the end, and stops when asked; a long-running kernel says what runs and for how long while
// the event loop goes on, is abandoned (its result discarded), and the next run shows its own result.

#include <algorithm>

#include <QElapsedTimer>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTextBlock>
#include <QtTest/QtTest>

#include "engine/runtime/kernel_sources.hpp"
#include "ui/model/run_model.hpp"
#include "ui/views/kernel_lab_view.hpp"
#include "ui/views/kernel_view.hpp"
#include "ui/work/controller.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;
using namespace hs::ui::test;

namespace {

constexpr int kTimeoutMs = 120000;
const QString kShots = QStringLiteral("/tmp/lab-check-shots");

void saveShot(QWidget& widget, const QString& name) {
    QDir().mkpath(kShots);
    widget.grab().save(kShots + QLatin1Char('/') + name);
    widget.grab().save(artifactPath(name));
}

// Replaces the first `from` in the editor's text with `to`, as a user's edit does (one undoable change).
bool editText(QPlainTextEdit* editor, const QString& from, const QString& to) {
    QTextCursor found = editor->document()->find(from);
    if (found.isNull()) return false;
    found.insertText(to);
    return true;
}

struct Lab {
    QTemporaryDir data;
    Controller controller;
    RunModel model;
    KernelView* shown = new KernelView;
    KernelLabView lab{shown, data.path()};
    std::shared_ptr<const ImageRGBA8> image;
    QString device;
    quint64 latest = 0;

    [[nodiscard]] bool start(int width, int height) {
        QSignalSpy ready(&controller, &Controller::devicesReady);
        controller.start();
        if (!ready.wait(kTimeoutMs) || controller.devices().empty()) return false;
        device = QString::fromStdString(controller.devices().front().selector());
        image = std::make_shared<const ImageRGBA8>(opaqueRandomImage(width, height, 11));
        lab.setDeviceSource([this] { return device; });
        lab.follow(model);
        QObject::connect(&controller, &Controller::histogramReady, &model,
                         [this](const RunOutcome& outcome) { model.show(outcome, {}); });
        QObject::connect(&controller, &Controller::busyChanged, &lab, &KernelLabView::setRunInFlight);
        QObject::connect(&lab, &KernelLabView::abandonRequested, &controller, &Controller::cancel);
        // As MainWindow::currentRequest asks: the toolbar's strategy, the lab's stage or edited strategy.
        QObject::connect(&lab, &KernelLabView::runRequested, &controller, [this] { latest = run(); });
        return true;
    }
    quint64 run(const histogram::Strategy& strategy = histogram::findStrategy("serial")) {
        RunRequest request;
        request.image = image;
        request.device = device;
        request.strategy = &strategy;
        request.otherStages = lab.withStage({});
        request.edited = lab.editedStrategy();
        return controller.runHistogram(request);
    }
    [[nodiscard]] bool showsLatest() {
        return QTest::qWaitFor(
            [this] { return model.outcome() && model.outcome()->requestId == latest && !controller.busy(); },
            kTimeoutMs);
    }
};

}  // namespace

class KernelLabCheckTest : public QObject {
    Q_OBJECT

  private slots:
    void anEditedLocalAtomicShowsTheBinItBrokeAndAnUnchangedCopyMatches() {
        Lab lab;
        QVERIFY(lab.start(96, 64));
        std::uint64_t greens200 = 0;  // by hand: the pixels whose g is 200, counter 256 + 200 of the kernel
        for (std::size_t i = 1; i < lab.image->pixels.size(); i += 4)
            greens200 += lab.image->pixels[i] == 200;
        QVERIFY(greens200 > 0);

        // A run of local-atomic itself, whose kernel Edit a copy then copies with its build options.
        lab.latest = lab.run(histogram::findStrategy("local-atomic"));
        QVERIFY(lab.showsLatest());
        lab.shown->setKernels(KernelView::kernelsOf(*lab.model.outcome()));
        QVERIFY(lab.shown->showStage(QStringLiteral("histogram")));
        QVERIFY(lab.lab.editCopy());
        QCOMPARE(lab.lab.copiedStage(), QStringLiteral("histogram"));
        QCOMPARE(lab.lab.copiedStrategy(), QStringLiteral("local-atomic"));
        // Its build as typed comes first, before Run (a build shown while running runs the text again).
        {
            QSignalSpy copyBuilt(&lab.lab, &KernelLabView::buildShown);
            lab.lab.buildNow();
            QVERIFY(copyBuilt.wait(kTimeoutMs));
            QVERIFY2(lab.lab.markers().isEmpty(), qPrintable(lab.lab.markers().values().join('\n')));
        }

        // Unchanged, Run puts it in local-atomic's place (the toolbar's serial notwithstanding): it matches.
        lab.lab.setRunning(true);
        QVERIFY(lab.showsLatest());
        QCOMPARE(lab.model.outcome()->stages.back().strategyName(), QStringLiteral("local-atomic"));
        QVERIFY2(lab.lab.referenceCheckText().endsWith(QStringLiteral("matches the CPU reference")),
                 qPrintable(lab.lab.referenceCheckText()));

        // The user drops counter 456 (channel g = 1, value 200) from the sum; the running kernel re-runs
        // once the text builds, and the check names that bin with the count taken here.
        QSignalSpy built(&lab.lab, &KernelLabView::buildShown);
        QVERIFY(editText(lab.lab.editor(), QStringLiteral("if (sum != 0) atomic_add(&hist[i], sum);"),
                         QStringLiteral("if (sum != 0 && i != 456) atomic_add(&hist[i], sum);")));
        QVERIFY(built.wait(kTimeoutMs));
        QVERIFY(lab.showsLatest());
        const QString expected =
            QStringLiteral("bin 200 of g: expected %1, got 0 (largest difference %1)").arg(greens200);
        QVERIFY2(lab.lab.referenceCheckText().endsWith(expected), qPrintable(lab.lab.referenceCheckText()));
        QCOMPARE(lab.model.outcome()->result.values.counts[1][200], std::uint64_t{0});
        QVERIFY(showExposed(lab.lab, {1280, 700}));
        lab.lab.pages()->setCurrentIndex(1);
        runEventLoopFor(100);
        saveShot(lab.lab, QStringLiteral("edited_local_atomic_broken_bin.png"));
    }

    void checkPutsOclgrindsFindingOnTheLineOfTheWritePastTheEndAndStopsWhenAsked() {
        if (QStandardPaths::findExecutable(QStringLiteral("oclgrind")).isEmpty())
            QSKIP("oclgrind is not installed");
        QTemporaryDir data;
        KernelLabView lab(new KernelView, data.path());
        QVERIFY(lab.openFile(QFileInfo(QStringLiteral(__FILE__))
                                 .dir()
                                 .filePath(QStringLiteral("../data/kernels/one_past_the_end.cl"))));
        QVERIFY(showExposed(lab, {1280, 700}));
        lab.pages()->setCurrentIndex(1);
        QSignalSpy finished(&lab, &KernelLabView::checkFinished);
        QVERIFY2(lab.check(), qPrintable(lab.status()));
        QVERIFY(lab.checking());
        // The window's event loop goes on while the child runs: a timer of its own keeps firing.
        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, [&] { ++ticks; });
        ticker.start(10);
        QVERIFY(finished.wait(kTimeoutMs));
        QVERIFY(ticks > 0);
        QVERIFY(!lab.checking());
        QVERIFY2(lab.findings().size() == 1, qPrintable(lab.status()));
        QCOMPARE(lab.findings().front().line, 9);
        QCOMPARE(lab.markers().keys(), QList<int>{9});
        QVERIFY2(lab.markers().value(9).startsWith(
                     QStringLiteral("oclgrind: Invalid write of size 4 in global memory")),
                 qPrintable(lab.markers().value(9)));
        const auto items = lab.diagnostics()->findItems(QStringLiteral("oclgrind"), Qt::MatchContains);
        QCOMPARE(items.size(), 1);
        QCOMPARE(items.front()->data(Qt::UserRole).toInt(), 9);
        runEventLoopFor(100);
        saveShot(lab, QStringLiteral("check_finding_on_line_9.png"));

        // A kernel that never ends: the check is stopped at once, its child killed.
        QVERIFY(lab.newFromTemplate(QStringLiteral("passthrough")));
        QVERIFY(editText(lab.editor(), QStringLiteral("dst[y * width + x] = src[y * width + x];"),
                         QStringLiteral("for (;;) dst[y * width + x] = src[y * width + x];")));
        QVERIFY(lab.check());
        runEventLoopFor(300);
        QVERIFY(lab.checking());
        lab.cancelCheck();
        QVERIFY(!lab.checking());
        QCOMPARE(lab.status(), QStringLiteral("Check stopped"));
    }

    void aLongRunSaysWhatRunsForHowLongCanBeAbandonedAndTheNextRunShowsItsOwnResult() {
        Lab lab;
        QVERIFY(lab.start(32, 16));
        // Each work-item spins `spins` times (bounded: the test ends), then copies its pixel; none is a plain
        // copy. How long a spin count runs depends on the machine's cores and vector width (a many-core CI
        // machine ran 2e6 spins in milliseconds), so the count is calibrated below to a run of seconds here.
        QVERIFY(lab.lab.newFromTemplate(QStringLiteral("passthrough")));
        lab.lab.editor()->setPlainText(
            QStringLiteral("// @param int spins 0 2000000000 0\n"
                           "kernel void slow_copy(global const uchar4* src, global uchar4* dst, int width, "
                           "int height, int spins) {\n"
                           "    const int x = get_global_id(0);\n"
                           "    const int y = get_global_id(1);\n"
                           "    if (x >= width || y >= height) return;\n"
                           "    uint v = (uint)(x + y);\n"
                           "    for (int k = 0; k < spins; ++k) v = v * 1664525u + 1013904223u;\n"
                           "    uchar4 p = src[y * width + x];\n"
                           "    if (v == 0xFFFFFFFFu && spins > 0) p.x ^= 1;  // keeps the loop\n"
                           "    dst[y * width + x] = p;\n"
                           "}\n"));
        QSignalSpy built(&lab.lab, &KernelLabView::buildShown);
        lab.lab.buildNow();
        QVERIFY(built.wait(kTimeoutMs));
        std::vector<quint64> discarded;
        connect(&lab.controller, &Controller::discarded, &lab.lab,
                [&](const RunOutcome& outcome) { discarded.push_back(outcome.requestId); });
        lab.lab.setRunning(true);
        QVERIFY(lab.showsLatest());
        // Calibration: spins grow fourfold until a run takes a quarter of a second, then scale to about 4 s.
        constexpr qint64 kMeasurableMs = 250;
        constexpr double kLongRunMs = 4000.0;
        constexpr int kMostSpins = 2000000000;
        int spins = 20000;
        qint64 tookMs = 0;
        for (;;) {
            QElapsedTimer clock;
            clock.start();
            QVERIFY(lab.lab.setParamValue(QStringLiteral("spins"), spins));
            QVERIFY(lab.showsLatest());
            tookMs = clock.elapsed();
            if (tookMs >= kMeasurableMs || spins > kMostSpins / 4) break;
            spins *= 4;
        }
        const int longSpins = static_cast<int>(std::clamp(
            static_cast<double>(spins) * kLongRunMs / static_cast<double>(std::max<qint64>(tookMs, 1)),
            static_cast<double>(spins), static_cast<double>(kMostSpins)));
        QVERIFY(lab.lab.setParamValue(QStringLiteral("spins"), longSpins));
        QCOMPARE(lab.lab.findChild<QSpinBox*>(QStringLiteral("param-spins-value"))->value(), longSpins);
        // The lab says what runs and for how long, and the time goes on while the event loop does.
        QVERIFY(QTest::qWaitFor([&] { return !lab.lab.runStatus().isEmpty(); }, kTimeoutMs));
        const QString first = lab.lab.runStatus();
        QVERIFY2(first.startsWith(QStringLiteral("Running kernel slow_copy (untitled.cl) for ")),
                 qPrintable(first));
        // The seconds count on (a few ticks of the lab's timer, for the screenshot to show some).
        QString shown = first;
        for (int tick = 0; tick < 4; ++tick) {
            QVERIFY(QTest::qWaitFor([&] { return lab.lab.runStatus() != shown; }, kTimeoutMs));
            shown = lab.lab.runStatus();
            QVERIFY2(shown.startsWith(QStringLiteral("Running kernel slow_copy")), qPrintable(shown));
        }
        QVERIFY(showExposed(lab.lab, {1280, 700}));
        lab.lab.pages()->setCurrentIndex(1);
        runEventLoopFor(100);
        saveShot(lab.lab, QStringLiteral("long_run_elapsed.png"));
        const quint64 abandoned = lab.latest;

        auto* abandon = lab.lab.findChild<QPushButton*>(QStringLiteral("labAbandon"));
        QVERIFY(abandon && abandon->isVisible());
        QTest::mouseClick(abandon, Qt::LeftButton);
        QVERIFY2(
            lab.lab.runStatus().startsWith(QStringLiteral("Abandoned: slow_copy still runs on the device")),
            qPrintable(lab.lab.runStatus()));
        // The next run: no spins. Its result is shown; the abandoned one's is discarded, never shown.
        QVERIFY(lab.lab.setParamValue(QStringLiteral("spins"), 0));
        QVERIFY(lab.latest > abandoned);
        QVERIFY(lab.showsLatest());
        QCOMPARE(lab.model.outcome()->frame->pixels->pixels, lab.image->pixels);
        QCOMPARE(discarded, std::vector<quint64>{abandoned});
        QVERIFY(lab.lab.runStatus().isEmpty());
    }
};

QTEST_MAIN(KernelLabCheckTest)
#include "views_kernel_lab_check_test.moc"
