// The kernel lab in the Kernel tab (KernelLabView, LabBuilder): a syntax error typed on line 12 builds once,
// after the pause in typing, and comes back as PoCL's message on line 12; the autosave and the recent files
// outlive the view; the invert template's @param control re-runs the kernel through the controller's
// RunRequest path, and the image shown is the CPU's inversion at the control's value.

#include <QDockWidget>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSlider>
#include <QTabWidget>
#include <QTextBlock>
#include <QtTest/QtTest>

#include "ui/views/kernel_lab_view.hpp"
#include "ui/views/kernel_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;
using namespace hs::ui::test;

namespace {

constexpr int kBuildTimeoutMs = 60000;

// The invert template's arithmetic (kernels/templates/invert.cl), on the host.
ImageRGBA8 invertOnHost(const ImageRGBA8& image, int amount) {
    ImageRGBA8 out = image;
    for (std::size_t i = 0; i < out.pixels.size(); ++i) {
        if (i % 4 == 3) continue;  // alpha kept
        const int in = image.pixels[i];
        out.pixels[i] = static_cast<std::uint8_t>(in + (255 - 2 * in) * amount / 255);
    }
    return out;
}

// Waits for the lab's next shown build; false when none comes.
[[nodiscard]] bool nextBuild(KernelLabView& lab) {
    QSignalSpy shown(&lab, &KernelLabView::buildShown);
    return shown.wait(kBuildTimeoutMs);
}

}  // namespace

class KernelLabTest : public QObject {
    Q_OBJECT

  private slots:
    void syntaxErrorTypedOnLine12IsOneBuildWithItsMarker() {
        QTemporaryDir data;
        KernelLabView lab(new KernelView, data.path());
        QVERIFY(showExposed(lab, {1100, 600}));
        lab.pages()->setCurrentIndex(1);
        QVERIFY(lab.newFromTemplate(QStringLiteral("invert")));
        lab.buildNow();
        QVERIFY(nextBuild(lab));
        QVERIFY2(lab.markers().isEmpty(), qPrintable(lab.markers().value(lab.markers().firstKey())));
        const int before = lab.builder()->buildsStarted();

        // The end of line 12 (`dst[i] = ...;`), then a statement naming nothing declared, typed key by key.
        QPlainTextEdit* editor = lab.editor();
        const QTextBlock line12 = editor->document()->findBlockByNumber(11);
        QVERIFY2(line12.text().trimmed().startsWith(QLatin1String("dst[i]")), qPrintable(line12.text()));
        QTextCursor cursor(line12);
        cursor.movePosition(QTextCursor::EndOfBlock);
        editor->setTextCursor(cursor);
        editor->setFocus();
        QSignalSpy shown(&lab, &KernelLabView::buildShown);
        QTest::keyClicks(editor, QStringLiteral(" undeclared_amount;"));
        QVERIFY(shown.wait(kBuildTimeoutMs));
        // A further pause longer than the debounce brings no second build: the keys made one.
        runEventLoopFor(3 * KernelLabView::kBuildDelayMs);
        QCOMPARE(shown.count(), 1);
        QCOMPARE(lab.builder()->buildsStarted(), before + 1);

        // The marker: on line 12 only, with PoCL's own words, underlined in the editor.
        QCOMPARE(lab.markers().keys(), QList<int>{12});
        const QString message = lab.markers().value(12);
        QVERIFY2(
            message.contains(QLatin1String("error")) && message.contains(QLatin1String("undeclared_amount")),
            qPrintable(message));
        const QList<QTextEdit::ExtraSelection> underlined = editor->extraSelections();
        QCOMPARE(underlined.size(), 1);
        QCOMPARE(underlined.front().cursor.blockNumber(), 11);
        // Both devices of the platform built it and failed; their identical diagnostic is listed once, and a
        // click on it moves the cursor to its line.
        QCOMPARE(lab.diagnostics()->count(), 1);
        editor->moveCursor(QTextCursor::Start);
        QListWidget* list = lab.diagnostics();
        QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(0)).center());
        QCOMPARE(editor->textCursor().blockNumber(), 11);

        const QString shot = QStringLiteral("/tmp/kernel_lab_error_line12.png");
        QVERIFY(lab.grab().save(shot));
        QVERIFY(lab.grab().save(artifactPath(QStringLiteral("kernel_lab_error_line12.png"))));
    }

    void autosaveAndRecentFilesOutliveTheView() {
        QTemporaryDir data;
        const QString saved = QDir(data.path()).filePath(QStringLiteral("mine.cl"));
        QString typed;
        {
            KernelLabView lab(new KernelView, data.path());
            QVERIFY(lab.newFromTemplate(QStringLiteral("passthrough")));
            lab.editor()->moveCursor(QTextCursor::End);
            QTest::keyClicks(lab.editor(), QStringLiteral(" // kept across a restart"));
            typed = lab.text();
            QVERIFY(nextBuild(lab));
            QFile autosave(lab.autosavePath());
            QVERIFY(autosave.open(QIODevice::ReadOnly));
            QCOMPARE(QString::fromUtf8(autosave.readAll()), typed);
            QVERIFY(lab.saveFile(saved));
        }
        QFile file(saved);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(file.readAll()), typed);

        KernelLabView restored(new KernelView, data.path());
        QCOMPARE(restored.text(), typed);
        QCOMPARE(restored.recentFiles(), QStringList{saved});
    }

    void editACopyKeepsTheBuildOptionsAsDefines() {
        QTemporaryDir data;
        auto* shown = new KernelView;
        KernelLabView lab(shown, data.path());
        QVERIFY(!lab.editCopy());  // nothing ran yet: the text stays
        const QString source =
            QStringLiteral("kernel void k(global uint* counts) { counts[0] = BINS + WG; }\n");
        shown->setKernels({{QStringLiteral("histogram"),
                            QStringLiteral("local-atomic"),
                            {},
                            QStringLiteral("k"),
                            source,
                            QStringLiteral("-D BINS=64 -DWG=128 -cl-std=CL1.2"),
                            QStringLiteral("dev")}});
        QVERIFY(lab.editCopy());
        const QStringList lines = lab.text().split(QLatin1Char('\n'));
        QVERIFY2(lines.size() == 6, qPrintable(lab.text()));
        QCOMPARE(lines[1],
                 QStringLiteral("// Run replaces the local-atomic strategy's kernels with this text: keep "
                                "their names and arguments."));
        QCOMPARE(lines[2], QStringLiteral("#define BINS 64"));
        QCOMPARE(lines[3], QStringLiteral("#define WG 128"));
        QCOMPARE(lines[4] + QLatin1Char('\n'), source);
        QCOMPARE(lab.copiedStrategy(), QStringLiteral("local-atomic"));
        QCOMPARE(lab.pages()->currentIndex(), 1);
    }

    void invertControlReRunsAndTheImageIsTheHostsInversion() {
        QTemporaryDir data;
        Controller controller;
        QSignalSpy ready(&controller, &Controller::devicesReady);
        controller.start();
        QVERIFY(ready.wait(kBuildTimeoutMs));
        QVERIFY(!controller.devices().empty());
        const QString device = QString::fromStdString(controller.devices().front().selector());
        const auto image = std::make_shared<const ImageRGBA8>(opaqueRandomImage(61, 37, 24));

        KernelLabView lab(new KernelView, data.path());
        lab.setDeviceSource([device] { return device; });
        QVERIFY(lab.newFromTemplate(QStringLiteral("invert")));
        lab.buildNow();
        QVERIFY(nextBuild(lab));
        quint64 latest = 0;
        int runs = 0;
        // As MainWindow::currentRequest asks, with no other stage.
        connect(&lab, &KernelLabView::runRequested, &controller, [&] {
            RunRequest request;
            request.image = image;
            request.device = device;
            request.strategy = &histogram::findStrategy("serial");
            request.otherStages = lab.withStage({});
            latest = controller.runHistogram(request);
            ++runs;
        });
        std::optional<RunOutcome> shown;
        connect(&controller, &Controller::histogramReady, &lab,
                [&](const RunOutcome& outcome) { shown = outcome; });
        auto showsLatest = [&] {
            return QTest::qWaitFor([&] { return shown && shown->requestId == latest; }, kBuildTimeoutMs);
        };

        lab.setRunning(true);
        QVERIFY(showsLatest());
        QCOMPARE(runs, 1);
        QVERIFY(shown->frame && shown->frame->pixels);
        QCOMPARE(shown->frame->pixels->pixels, invertOnHost(*image, 255).pixels);

        auto* slider = lab.findChild<QSlider*>(QStringLiteral("param-amount"));
        QVERIFY(slider);
        QCOMPARE(slider->value(), 255);
        slider->setValue(100);
        QVERIFY(showsLatest());
        QCOMPARE(runs, 2);
        QCOMPARE(shown->stages.front().stage, std::string("kernel"));
        const ImageRGBA8 expected = invertOnHost(*image, 100);
        QCOMPARE(shown->frame->pixels->pixels, expected.pixels);
        QVERIFY(shown->result.histogram == test::referenceOf(expected, histogram::kMaxBins));
        // A neutral value is not the identity of the pixels above: the control did change what ran.
        QVERIFY(expected.pixels != invertOnHost(*image, 255).pixels);

        // While it runs, a text that does not build is not run; once it builds again it runs.
        lab.editor()->moveCursor(QTextCursor::End);
        QTest::keyClicks(lab.editor(), QStringLiteral(" oops"));
        QVERIFY(nextBuild(lab));
        QVERIFY(!lab.markers().isEmpty());
        QCOMPARE(runs, 2);
        for (int i = 0; i < 5; ++i) QTest::keyClick(lab.editor(), Qt::Key_Backspace);
        QVERIFY(nextBuild(lab));
        QVERIFY(showsLatest());
        QCOMPARE(runs, 3);
        QCOMPARE(shown->frame->pixels->pixels, expected.pixels);

        lab.pages()->setCurrentIndex(1);
        QVERIFY(showExposed(lab, {1100, 600}));
        QVERIFY(lab.grab().save(QStringLiteral("/tmp/kernel_lab_invert_control.png")));
        QVERIFY(lab.grab().save(artifactPath(QStringLiteral("kernel_lab_invert_control.png"))));

        lab.setRunning(false);
        QVERIFY(showsLatest());
        QCOMPARE(shown->frame ? 1 : 0, 0);  // no image stage left: the histogram of the image itself
    }

    // The window's own path: Run in its Kernel tab puts the kernel among the window's stages, and the
    // control's value reaches the image the window shows.
    void runInTheWindowShowsTheKernelsImage() {
        QTemporaryDir home;
        qputenv("XDG_DATA_HOME", home.path().toUtf8());  // the lab's autosave goes there, not to the user's
        PrivateWindow private_;
        MainWindow& window = private_.window;
        QList<ErrorReport> reports;
        QVERIFY(showWithDevices(window, reports, kBuildTimeoutMs));
        const auto image = std::make_shared<const ImageRGBA8>(opaqueRandomImage(96, 64, 7));
        QSignalSpy results(&window.controller(), &Controller::histogramReady);
        window.showImage(image, QStringLiteral("random"));
        QVERIFY(results.wait(kBuildTimeoutMs));
        auto* lab = window.findChild<KernelLabView*>();
        QVERIFY(lab);
        window.findChild<QDockWidget*>(QStringLiteral("kernelDock"))->raise();
        lab->pages()->setCurrentIndex(1);
        QVERIFY(lab->newFromTemplate(QStringLiteral("invert")));
        lab->buildNow();
        QVERIFY(nextBuild(*lab));
        std::optional<RunOutcome> shown;
        connect(&window.controller(), &Controller::histogramReady, lab,
                [&](const RunOutcome& outcome) { shown = outcome; });
        lab->setRunning(true);
        lab->findChild<QSlider*>(QStringLiteral("param-amount"))->setValue(60);
        const ImageRGBA8 expected = invertOnHost(*image, 60);
        QVERIFY(QTest::qWaitFor(
            [&] {
                return shown && shown->frame && shown->frame->pixels &&
                       shown->frame->pixels->pixels == expected.pixels;
            },
            kBuildTimeoutMs));
        QVERIFY2(reports.isEmpty(), messagesOf(reports).constData());
        runEventLoopFor(200);  // the image view's repaint
        QVERIFY(window.grab().save(QStringLiteral("/tmp/kernel_lab_window_invert.png")));
        QVERIFY(window.grab().save(artifactPath(QStringLiteral("kernel_lab_window_invert.png"))));
    }
};

QTEST_MAIN(KernelLabTest)
#include "views_kernel_lab_test.moc"
