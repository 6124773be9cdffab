// The transform panel end to end on PoCL: the angle slider dragged with the mouse and stepped with the
// keyboard, filters chosen and typed, and every result checked against hs::pipeline::referencePipeline (the
// CPU references) and hs::histogram::referenceHistogram. Nearest sampling of a quarter turn of a square image
// and integer filters are exact; bilinear rotation is compared within its 1 LSB, a Gaussian after it within 2
// (each inexact stage may round once the other way).
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSlider>
#include <QStandardItemModel>
#include <QTabBar>
#include <QTemporaryDir>
#include <QtTest/QtTest>
#include <algorithm>

#include "engine/ops/convolve/convolve.hpp"
#include "engine/ops/pipeline/pipeline.hpp"
#include "engine/ops/rotate/rotate.hpp"
#include "engine/runtime/kernel_sources.hpp"
#include "io/export.hpp"
#include "io/image_io.hpp"
#include "ui/display/image_view.hpp"
#include "ui/model/run_model.hpp"
#include "ui/shell/app_settings.hpp"
#include "ui/shell/device_panel.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/shell/strategy_box.hpp"
#include "ui/shell/transform_panel.hpp"
#include "ui/views/histogram_view.hpp"
#include "ui/views/kernel_view.hpp"
#include "ui/views/timing_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr int kResultTimeoutMs = 120000;

// Red rises to the right, green downwards, blue is a hash of both, alpha opaque: every rotation shows in the
// pixels, and transparent corners show in the histogram.
ImageRGBA8 testCard(int size) {
    ImageRGBA8 image(size, size);
    for (int y = 0; y < size; ++y) {
        for (int x = 0; x < size; ++x) {
            std::uint8_t* p = image.pixel(x, y);
            p[0] = static_cast<std::uint8_t>(x * 255 / (size - 1));
            p[1] = static_cast<std::uint8_t>(y * 255 / (size - 1));
            p[2] = static_cast<std::uint8_t>((x * 7 + y * 13) % 256);
            p[3] = 255;
        }
    }
    return image;
}

int maxAbsDifference(const ImageRGBA8& a, const ImageRGBA8& b) {
    int worst = 0;
    for (std::size_t i = 0; i < a.pixels.size(); ++i)
        worst = std::max(worst, std::abs(a.pixels[i] - b.pixels[i]));
    return worst;
}

pipeline::Spec specOf(std::optional<rotate::Params> rotation, std::optional<convolve::Filter> filter) {
    pipeline::Spec spec;
    if (rotation) spec.rotation = pipeline::RotateStage{*rotation};
    if (filter) spec.convolution = pipeline::ConvolveStage{*filter};
    return spec;
}

bool anyNameStartsWith(const std::vector<Timing>& timings, const std::string& prefix, Stage stage) {
    return std::any_of(timings.begin(), timings.end(),
                       [&](const Timing& t) { return t.name.rfind(prefix, 0) == 0 && t.stage == stage; });
}

}  // namespace

class TransformPipelineTest : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir dir_;
    ImageRGBA8 card_ = testCard(96);
    std::unique_ptr<AppSettings> settings_;
    std::unique_ptr<MainWindow> window_;
    QList<ErrorReport> reports_;

    TransformPanel& panel() { return *test::part<TransformPanel>(*window_); }
    bool settled() const { return !window_->controller().busy() && window_->lastOutcome().has_value(); }
    int bins() const { return window_->lastOutcome()->request.bins; }

    // The user's path to switching a stage on or off: the group box's check box, by keyboard.
    void toggle(QGroupBox* group) {
        group->setFocus();
        QTest::keyClick(group, Qt::Key_Space);
    }

    void selectData(QComboBox* box, const QVariant& data) { box->setCurrentIndex(box->findData(data)); }

    // Where the kernel view's `stage` tab differs from what the engine builds for `strategy` on the device:
    // the options and source displayed against kernelBuild()'s; empty when they agree.
    template <typename Strategy, typename Params>
    QString kernelTabMismatch(const QString& stage, const Strategy& strategy, const Params& params) {
        KernelView* view = test::part<KernelView>(*window_);
        if (!view->showStage(stage)) return stage + QStringLiteral(": no tab");
        const auto device = test::part<DevicePanel>(*window_)->currentDevice();
        const auto built = strategy.kernelBuild(*device, params, {card_.width, card_.height});
        const KernelBuild& build = *built;
        const QString shownOptions = view->findChild<QLabel*>(QStringLiteral("kernelBuildOptions"))->text();
        const QString expectedOptions =
            QStringLiteral("Build options: ") + QString::fromStdString(build.options);
        QStringList wrong;
        if (!view->stageTabs()
                 ->tabText(view->stageTabs()->currentIndex())
                 .endsWith(QString::fromUtf8(strategy.name())))
            wrong << QStringLiteral("tab %1").arg(
                view->stageTabs()->tabText(view->stageTabs()->currentIndex()));
        if (shownOptions != expectedOptions)
            wrong << QStringLiteral("'%1' instead of '%2'").arg(shownOptions, expectedOptions);
        if (view->editor()->toPlainText() != QString::fromUtf8(kernelSource(build.source)))
            wrong << QStringLiteral("not the source of kernels/%1.cl")
                         .arg(QString::fromStdString(build.source));
        return wrong.isEmpty() ? QString() : stage + QStringLiteral(": ") + wrong.join(QStringLiteral("; "));
    }

    // The kernel view against the strategies chosen in the panel and the strategy box (auto's choice for
    // auto).
    QString kernelViewMismatches() {
        const RunOutcome& outcome = *window_->lastOutcome();
        const QString shown = test::part<KernelView>(*window_)->currentStage();
        QStringList stages;
        for (const auto& kernel : test::part<KernelView>(*window_)->kernels()) stages << kernel.stage;
        if (stages != QStringList{"rotate", "convolve", "histogram"}) return stages.join(QLatin1Char(','));
        const QString histogramStrategy =
            test::part<StrategyBox>(*window_)->currentStrategy() == QLatin1String("auto")
                ? QString::fromStdString(outcome.result.strategyName())
                : test::part<StrategyBox>(*window_)->currentStrategy();
        const auto& histogram = histogram::findStrategy(histogramStrategy.toStdString());
        const QString mismatches[] = {
            kernelTabMismatch(QStringLiteral("rotate"),
                              rotate::findStrategy(panel().rotateStrategyBox()->currentText().toStdString()),
                              outcome.request.rotation->params),
            kernelTabMismatch(
                QStringLiteral("convolve"),
                convolve::findStrategy(panel().convolveStrategyBox()->currentText().toStdString()),
                panel().filter()),
            histogram.kernelBuild(*outcome.device, histogram::Params{bins()}, {})
                ? kernelTabMismatch(QStringLiteral("histogram"), histogram, histogram::Params{bins()})
                : QString()};
        test::part<KernelView>(*window_)->showStage(shown);
        QStringList wrong;
        for (const QString& mismatch : mismatches) {
            if (!mismatch.isEmpty()) wrong << mismatch;
        }
        return wrong.join(QLatin1Char('\n'));
    }

    // The processed pixels shown, which on the copy path come back to the host with the frame.
    const ImageRGBA8& shownPixels() {
        const ImageRGBA8* pixels = test::part<ImageView>(*window_)->image();
        if (!pixels) qFatal("the view shows no host pixels");
        return *pixels;
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        const QString path = dir_.filePath(QStringLiteral("card.png"));
        io::saveImage(path, card_);
        settings_ = std::make_unique<AppSettings>(dir_.filePath(QStringLiteral("settings.ini")));
        window_ = std::make_unique<MainWindow>(*settings_);
        QVERIFY(test::showWithDevices(*window_, reports_, kResultTimeoutMs));
        QSignalSpy loaded(window_.get(), &MainWindow::imageLoaded);
        window_->openImage(path);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kResultTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(settled(), kResultTimeoutMs);
        QVERIFY(test::part<ImageView>(*window_)->usesOpenGl());
        QVERIFY2(test::part<ImageView>(*window_)->displayLink(),
                 "the OpenGL view presents through a display link");
    }

    void strategyListsFollowTheRegistries() {
        QComboBox* rotateBox = panel().rotateStrategyBox();
        QCOMPARE(static_cast<std::size_t>(rotateBox->count()), rotate::strategies().size());
        for (std::size_t i = 0; i < rotate::strategies().size(); ++i)
            QCOMPARE(rotateBox->itemText(static_cast<int>(i)),
                     QString::fromUtf8(rotate::strategies()[i]->name()));

        // Sharpen has rank 3: a strategy that needs a separable filter must be disabled, with the reason.
        selectData(panel().filterBox(), QStringLiteral("sharpen"));
        const auto device = test::part<DevicePanel>(*window_)->currentDevice();
        QVERIFY(device);
        QComboBox* convolveBox = panel().convolveStrategyBox();
        const auto* model = qobject_cast<QStandardItemModel*>(convolveBox->model());
        QCOMPARE(static_cast<std::size_t>(convolveBox->count()), convolve::strategies().size());
        int disabled = 0;
        for (std::size_t i = 0; i < convolve::strategies().size(); ++i) {
            const auto* strategy = convolve::strategies()[i];
            const int row = static_cast<int>(i);
            QCOMPARE(convolveBox->itemText(row), QString::fromUtf8(strategy->name()));
            const auto support =
                strategy->supported(&*device, {card_.width, card_.height}, convolve::sharpenFilter());
            QCOMPARE(model->item(row)->isEnabled(), support.ok);
            if (support.ok) continue;
            ++disabled;
            QVERIFY(convolveBox->itemData(row, Qt::ToolTipRole)
                        .toString()
                        .contains(QString::fromStdString(support.reason)));
        }
        QVERIFY(disabled >= 1);
        QVERIFY(reports_.isEmpty());
    }

    void draggingTheSliderRotatesImageAndHistogram() {
        const auto original = test::part<HistogramView>(*window_)->histogram();
        toggle(panel().rotationGroup());
        QVERIFY(panel().rotationGroup()->isChecked());
        selectData(panel().samplingBox(), static_cast<int>(rotate::FilterMode::Linear));

        // A mouse drag of the handle, in steps, as a hand moves it.
        QSlider* slider = panel().angleSlider();
        QCOMPARE(slider->value(), 0);
        const QPoint start = test::sliderHandle(slider).center();
        QTest::mousePress(slider, Qt::LeftButton, Qt::NoModifier, start);
        for (int step = 1; step <= 10; ++step) QTest::mouseMove(slider, start + QPoint(2 * step, 0));
        QTest::mouseRelease(slider, Qt::LeftButton, Qt::NoModifier, start + QPoint(20, 0));
        QVERIFY2(slider->value() > 0, qPrintable(QString::number(slider->value())));
        const double angle = slider->value() / 10.0;
        QCOMPARE(panel().angleBox()->value(), angle);

        QTRY_VERIFY_WITH_TIMEOUT(settled(), kResultTimeoutMs);
        const auto& outcome = *window_->lastOutcome();
        QVERIFY(outcome.request.rotation);
        QCOMPARE(outcome.request.rotation->params.angleDegrees, angle);
        const ImageRGBA8 expected =
            pipeline::referencePipeline(card_, specOf(rotate::Params{angle, rotate::FilterMode::Linear}, {}));
        QVERIFY(shownPixels() != card_);
        QVERIFY2(maxAbsDifference(shownPixels(), expected) <= 1,
                 qPrintable(QString::number(maxAbsDifference(shownPixels(), expected))));
        // The histogram is the processed image's: exactly that of the pixels shown, and no longer the
        // original's.
        QCOMPARE(test::part<HistogramView>(*window_)->histogram(), test::referenceOf(shownPixels(), bins()));
        QVERIFY(test::part<HistogramView>(*window_)->histogram() != original);
        QVERIFY(reports_.isEmpty());
    }

    void keyboardQuarterTurnIsExactAndCounterClockwise() {
        selectData(panel().samplingBox(), static_cast<int>(rotate::FilterMode::Nearest));
        QSlider* slider = panel().angleSlider();
        slider->setFocus();
        QTest::keyClick(slider, Qt::Key_Home);                                 // -180°
        for (int i = 0; i < 18; ++i) QTest::keyClick(slider, Qt::Key_PageUp);  // 15° each: +90°
        QCOMPARE(panel().angleBox()->value(), 90.0);

        QTRY_VERIFY_WITH_TIMEOUT(settled(), kResultTimeoutMs);
        QCOMPARE(window_->lastOutcome()->request.rotation->params.angleDegrees, 90.0);
        const ImageRGBA8 expected =
            pipeline::referencePipeline(card_, specOf(rotate::Params{90.0, rotate::FilterMode::Nearest}, {}));
        QCOMPARE(shownPixels(), expected);
        QCOMPARE(test::part<HistogramView>(*window_)->histogram(), test::referenceOf(expected, bins()));
        // Counter-clockwise on screen, by hand: the right edge (red 255) is now the top row, the top edge
        // (green 0) the left column.
        const int last = card_.width - 1;
        QCOMPARE(shownPixels().pixel(last / 2, 0)[0], std::uint8_t{255});
        QCOMPARE(shownPixels().pixel(last / 2, last)[0], std::uint8_t{0});
        QCOMPARE(shownPixels().pixel(0, last / 2)[1], std::uint8_t{0});
        QCOMPARE(shownPixels().pixel(last, last / 2)[1], std::uint8_t{255});
    }

    void quickStepsEndOnTheLastAngle() {
        const auto big = std::make_shared<const ImageRGBA8>(testCard(768));
        window_->showImage(big, QStringLiteral("card 768"));
        QTRY_VERIFY_WITH_TIMEOUT(settled(), kResultTimeoutMs);
        Controller& controller = window_->controller();
        QSignalSpy shown(&controller, &Controller::histogramReady);
        const int startedBefore = controller.startedRequests();

        // Up and back down again, one tenth of a degree at a time, as fast as keys repeat. The worker is held
        // at the first step's run until every key is pressed, as a slow device would be, whatever the device.
        test::WorkerProbe worker(controller);
        worker.hold();
        QSlider* slider = panel().angleSlider();
        slider->setFocus();
        constexpr int kSteps = 30;
        QTest::keyClick(slider, Qt::Key_Right);
        QTRY_VERIFY_WITH_TIMEOUT(worker.waiting(), kResultTimeoutMs);
        for (int i = 1; i < kSteps; ++i) QTest::keyClick(slider, Qt::Key_Right);
        for (int i = 0; i < kSteps; ++i) QTest::keyClick(slider, Qt::Key_Left);
        QCOMPARE(panel().angleBox()->value(), 90.0);
        worker.release();
        QTRY_VERIFY_WITH_TIMEOUT(settled(), kResultTimeoutMs);

        const int started = controller.startedRequests() - startedBefore;
        qInfo("%d angle changes started %d runs, %d results shown", 2 * kSteps, started,
              static_cast<int>(shown.count()));
        QVERIFY2(started == 2, "the requests made while one ran must collapse into the newest");
        QVERIFY(shown.count() <= started);
        quint64 previous = 0;
        for (const auto& arguments : shown) {
            const auto id = arguments.at(0).value<RunOutcome>().requestId;
            QVERIFY2(id > previous, "results are shown newest last");
            previous = id;
        }
        const auto& outcome = *window_->lastOutcome();
        QCOMPARE(outcome.request.rotation->params.angleDegrees, 90.0);
        const ImageRGBA8 expected =
            pipeline::referencePipeline(*big, specOf(rotate::Params{90.0, rotate::FilterMode::Nearest}, {}));
        QCOMPARE(shownPixels(), expected);
        QCOMPARE(test::part<HistogramView>(*window_)->histogram(), test::referenceOf(expected, bins()));

        window_->showImage(std::make_shared<const ImageRGBA8>(card_), QStringLiteral("card"));
        QTRY_VERIFY_WITH_TIMEOUT(settled(), kResultTimeoutMs);
    }

    void customFilterErrorsShowInlineAndKeepTheResult() {
        toggle(panel().convolutionGroup());
        QVERIFY(panel().convolutionGroup()->isChecked());
        selectData(panel().filterBox(), QString::fromLatin1(TransformPanel::kCustomFilter));
        QPlainTextEdit* editor = panel().customEditor();
        QVERIFY(editor->isVisible());

        // Typed by hand: a shift one pixel to the left, an integer filter (exact).
        editor->setFocus();
        QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClick(editor, Qt::Key_Delete);
        for (const char* row : {"0 0 0", "0 0 1", "0 0 0"}) {
            QTest::keyClicks(editor, QString::fromLatin1(row));
            QTest::keyClick(editor, Qt::Key_Return);
        }
        QVERIFY(panel().customError()->isHidden());
        QTRY_VERIFY_WITH_TIMEOUT(settled(), kResultTimeoutMs);
        const convolve::Filter shift = convolve::parseFilterText("0 0 0\n0 0 1\n0 0 0\n");
        const ImageRGBA8 expected = pipeline::referencePipeline(
            card_, specOf(rotate::Params{90.0, rotate::FilterMode::Nearest}, shift));
        QCOMPARE(shownPixels(), expected);
        QCOMPARE(test::part<HistogramView>(*window_)->histogram(), test::referenceOf(expected, bins()));
        const quint64 lastShown = window_->lastOutcome()->requestId;

        // A typo: the error in words, under the editor; no run, and the result stays.
        const int startedBefore = window_->controller().startedRequests();
        QTest::keyClicks(editor, QStringLiteral("1 x 1"));
        QVERIFY(panel().customError()->isVisible());
        const QString error = panel().customError()->text();
        QVERIFY2(error.contains(QStringLiteral("line 4")) && error.contains(QStringLiteral("'x'")),
                 qPrintable(error));
        // Requests are made synchronously from the edit: none is waiting or running, so none was made.
        QVERIFY(!window_->controller().busy());
        QCOMPARE(window_->controller().startedRequests(), startedBefore);
        QCOMPARE(window_->lastOutcome()->requestId, lastShown);
        QCOMPARE(shownPixels(), expected);
        QVERIFY(reports_.isEmpty());  // typing is not a problem to report
        // The refused text is never saved: the settings keep the matrix in use, which the next start can
        // read (a refused one would be replaced by the default there, silently).
        const QString shiftText = QStringLiteral("0 0 0\n0 0 1\n0 0 0\n");
        QCOMPARE(panel().settings().customMatrix, shiftText);
        // Every export's context has the matrix's values, not only its size.
        QCOMPARE(window_->model().histogramContext().filterMatrix, QStringLiteral("0 0 0; 0 0 1; 0 0 0"));
        QVERIFY(io::histogramCsv(test::referenceOf(expected, bins()), window_->model().histogramContext())
                    .contains("# filter_matrix: 0 0 0; 0 0 1; 0 0 0\n"));

        // Corrected, it runs again.
        for (int i = 0; i < 5; ++i) QTest::keyClick(editor, Qt::Key_Backspace);
        QVERIFY(panel().customError()->isHidden());
        QTRY_VERIFY_WITH_TIMEOUT(settled() && window_->lastOutcome()->requestId > lastShown,
                                 kResultTimeoutMs);
        QCOMPARE(shownPixels(), expected);
    }

    void filterFilesLoadOrReport() {
        const QString bad = dir_.filePath(QStringLiteral("bad.txt"));
        QVERIFY(test::writeFile(bad, "1 1\n1\n"));
        const QString before = panel().customEditor()->toPlainText();
        reports_.clear();
        panel().loadFilterFile(bad);
        QCOMPARE(reports_.size(), 1);
        QVERIFY2(reports_.front().message.contains(QStringLiteral("bad.txt")),
                 qPrintable(reports_.front().message));
        QVERIFY(!reports_.front().message.contains(QLatin1Char('\n')));
        QCOMPARE(panel().customEditor()->toPlainText(), before);

        const QString good = dir_.filePath(QStringLiteral("box.txt"));
        QVERIFY(test::writeFile(good, "# a 3x3 box\n1 1 1\n1 1 1\n1 1 1\n/ 9\n"));
        panel().loadFilterFile(good);
        QCOMPARE(reports_.size(), 1);
        QVERIFY(panel().customEditor()->toPlainText().contains(QStringLiteral("# a 3x3 box")));
        QVERIFY(QString::fromStdString(panel().filter().label).contains(QStringLiteral("box.txt")));
        QTRY_VERIFY_WITH_TIMEOUT(settled(), kResultTimeoutMs);
        const ImageRGBA8 expected = pipeline::referencePipeline(
            card_, specOf(rotate::Params{90.0, rotate::FilterMode::Nearest}, convolve::boxFilter(3)));
        QCOMPARE(shownPixels(), expected);
        QCOMPARE(test::part<HistogramView>(*window_)->histogram(), test::referenceOf(expected, bins()));
    }

    void statusBarAndTimingsShowTheDisplayPath() {
        QTRY_VERIFY_WITH_TIMEOUT(settled(), kResultTimeoutMs);
        // Mesa's llvmpipe and PoCL cannot share: the copy path, with the driver's reason naming the platform.
        const auto device = test::part<DevicePanel>(*window_)->currentDevice();
        QCOMPARE(test::part<QLabel>(*window_, "displayLabel")->text(), QStringLiteral("display: copy"));
        const QString why = test::part<QLabel>(*window_, "displayLabel")->toolTip();
        QVERIFY2(why.contains(QString::fromStdString(device->platformName)), qPrintable(why));
        QVERIFY(window_->statusSummary().contains(QStringLiteral("display: copy")));
        QCOMPARE(window_->lastOutcome()->display->path, QStringLiteral("copy"));

        // Every stage's commands, named by stage, the copy path's readback and texture upload among them.
        const auto& timings = test::part<TimingView>(*window_)->runs().back();
        QCOMPARE(timings.size(), window_->lastOutcome()->result.timings.size());
        QVERIFY(anyNameStartsWith(timings, "rotate: ", Stage::Kernel));
        QVERIFY(anyNameStartsWith(timings, "convolve: ", Stage::Kernel));
        QVERIFY(anyNameStartsWith(timings, "histogram: ", Stage::Kernel));
        QVERIFY(anyNameStartsWith(timings, "readback: ", Stage::Readback));
        QVERIFY(anyNameStartsWith(timings, "display: ", Stage::Interop));
        QVERIFY(
            !anyNameStartsWith(timings, "rotate: ", Stage::Readback));  // no host round trip between stages
        std::vector<std::string> stages;
        for (const auto& stage : window_->lastOutcome()->stages) stages.push_back(stage.stage);
        QCOMPARE(stages, (std::vector<std::string>{"rotate", "convolve", "histogram"}));
    }

    void kernelViewShowsEveryStageAsBuilt() {
        QTRY_VERIFY_WITH_TIMEOUT(settled(), kResultTimeoutMs);
        const auto reportsBefore = reports_.size();
        const auto device = test::part<DevicePanel>(*window_)->currentDevice();
        QString wrong = kernelViewMismatches();
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));

        // Reading the convolution's kernel, the user picks another convolution strategy: the tab stays and
        // shows the new strategy's kernel as built on the device.
        KernelView* view = test::part<KernelView>(*window_);
        QTabBar* tabs = view->stageTabs();
        QTest::mouseClick(tabs, Qt::LeftButton, Qt::NoModifier, tabs->tabRect(1).center());
        QCOMPARE(view->currentStage(), QStringLiteral("convolve"));
        QComboBox* convolveBox = panel().convolveStrategyBox();
        const QString convolveBefore = convolveBox->currentText();
        const auto buildBefore = convolve::findStrategy(convolveBefore.toStdString())
                                     .kernelBuild(*device, panel().filter(), {card_.width, card_.height});
        QString other;
        for (const auto* strategy : convolve::strategies()) {
            const auto build = strategy->kernelBuild(*device, panel().filter(), {card_.width, card_.height});
            if (strategy->supported(&*device, {card_.width, card_.height}, panel().filter()).ok &&
                build != buildBefore)
                other = QString::fromUtf8(strategy->name());
        }
        QVERIFY2(!other.isEmpty(), "a second convolution strategy with another kernel");
        convolveBox->setCurrentIndex(convolveBox->findText(other));
        QTRY_VERIFY_WITH_TIMEOUT(
            settled() && QString::fromUtf8(window_->lastOutcome()->stages[1].strategy->name()) == other,
            kResultTimeoutMs);
        QCOMPARE(view->currentStage(), QStringLiteral("convolve"));
        wrong = kernelViewMismatches();
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));

        // Sampling and bins are build options: the rotate and histogram tabs follow them.
        selectData(panel().samplingBox(), static_cast<int>(rotate::FilterMode::Linear));
        const int binsBefore = test::part<QSpinBox>(*window_, "bins")->value();
        window_->setBins(64);
        QTRY_VERIFY_WITH_TIMEOUT(
            settled() && bins() == 64 &&
                window_->lastOutcome()->request.rotation->params.filterMode == rotate::FilterMode::Linear,
            kResultTimeoutMs);
        wrong = kernelViewMismatches();
        QVERIFY2(wrong.isEmpty(), qPrintable(wrong));

        // Every histogram strategy the device runs, chosen in the strategy box; host ones say they have no
        // kernel.
        QComboBox* strategies = test::part<StrategyBox>(*window_)->comboBox();
        const QString histogramBefore = strategies->currentText();
        for (const auto* strategy : histogram::strategies()) {
            const QString name = QString::fromUtf8(strategy->name());
            if (!strategy->supported(&*device, {}, histogram::Params{64}).ok ||
                name == strategies->currentText())
                continue;
            strategies->setCurrentIndex(strategies->findText(name));
            QTRY_VERIFY_WITH_TIMEOUT(
                settled() && QString::fromUtf8(window_->lastOutcome()->request.strategy->name()) == name,
                kResultTimeoutMs);
            wrong = kernelViewMismatches();
            QVERIFY2(wrong.isEmpty(), qPrintable(name + QStringLiteral(": ") + wrong));
            view->showStage(QStringLiteral("histogram"));
            if (!strategy->runsOnDevice()) {
                QVERIFY(view->source().isEmpty());
                QVERIFY(view->editor()->toPlainText().contains(QStringLiteral("runs on the host")));
            }
        }
        view->showStage(QStringLiteral("convolve"));
        window_->findChild<QDockWidget*>(QStringLiteral("kernelDock"))->raise();
        test::replotNow(*window_);
        QVERIFY(window_->grab().save(test::artifactPath(QStringLiteral("transform_kernel_stages.png"))));

        // Back to what the following tests expect.
        strategies->setCurrentIndex(strategies->findText(histogramBefore));
        convolveBox->setCurrentIndex(convolveBox->findText(convolveBefore));
        selectData(panel().samplingBox(), static_cast<int>(rotate::FilterMode::Nearest));
        window_->setBins(binsBefore);
        window_->findChild<QDockWidget*>(QStringLiteral("timingDock"))->raise();
        QTRY_VERIFY_WITH_TIMEOUT(settled() && bins() == binsBefore, kResultTimeoutMs);
        QVERIFY2(reports_.size() == reportsBefore, test::messagesOf(reports_).constData());
    }

    void imagesBeyondTheImageLimitsFallBackWithANote() {
        const auto device = test::part<DevicePanel>(*window_)->currentDevice();
        const auto reportsBefore = reports_.size();
        // The image strategies first, while the image fits.
        QComboBox* rotateBox = panel().rotateStrategyBox();
        rotateBox->setCurrentIndex(rotateBox->findText(QStringLiteral("image-sampler")));
        QTRY_VERIFY_WITH_TIMEOUT(settled(), kResultTimeoutMs);
        QVERIFY(test::part<QLabel>(*window_, "noteLabel")->isHidden());

        const auto wide = std::make_shared<const ImageRGBA8>(
            test::randomImage(static_cast<int>(device->image2dMaxWidth) + 1, 3, 31));
        window_->showImage(wide, QStringLiteral("wide"));
        const auto* model = qobject_cast<QStandardItemModel*>(rotateBox->model());
        QVERIFY(!model->item(rotateBox->currentIndex())->isEnabled());
        QTRY_VERIFY_WITH_TIMEOUT(settled() && window_->lastOutcome()->request.image == wide,
                                 kResultTimeoutMs);
        QCOMPARE(reports_.size(), reportsBefore);
        const auto& stages = window_->lastOutcome()->stages;
        QCOMPARE(stages.front().strategy, &rotate::bufferStrategy());
        QVERIFY(test::part<QLabel>(*window_, "noteLabel")->isVisible());
        QVERIFY2(
            test::part<QLabel>(*window_, "noteLabel")->toolTip().startsWith(QStringLiteral("rotate: ")) &&
                test::part<QLabel>(*window_, "noteLabel")
                    ->toolTip()
                    .contains(QString::fromUtf8(rotate::bufferStrategy().name())),
            qPrintable(test::part<QLabel>(*window_, "noteLabel")->toolTip()));
        const ImageRGBA8 expected = pipeline::referencePipeline(
            *wide, specOf(rotate::Params{90.0, rotate::FilterMode::Nearest}, convolve::boxFilter(3)));
        QCOMPARE(shownPixels(), expected);

        window_->showImage(std::make_shared<const ImageRGBA8>(card_), QStringLiteral("card"));
        QTRY_VERIFY_WITH_TIMEOUT(settled() && test::part<QLabel>(*window_, "noteLabel")->isHidden(),
                                 kResultTimeoutMs);
    }

    void screenshotRotated33WithGaussian() {
        QDoubleSpinBox* angle = panel().angleBox();
        angle->setFocus();
        angle->selectAll();
        QTest::keyClicks(angle, QStringLiteral("33"));
        QTest::keyClick(angle, Qt::Key_Return);
        QCOMPARE(panel().angleSlider()->value(), 330);
        selectData(panel().samplingBox(), static_cast<int>(rotate::FilterMode::Linear));
        selectData(panel().filterBox(), QStringLiteral("gaussian"));
        QTRY_VERIFY_WITH_TIMEOUT(settled(), kResultTimeoutMs);
        const auto& outcome = *window_->lastOutcome();
        QCOMPARE(outcome.request.rotation->params.angleDegrees, 33.0);
        const ImageRGBA8 expected = pipeline::referencePipeline(
            card_, specOf(rotate::Params{33.0, rotate::FilterMode::Linear}, convolve::gaussianFilter(1.5)));
        QVERIFY2(maxAbsDifference(shownPixels(), expected) <= 2,
                 qPrintable(QString::number(maxAbsDifference(shownPixels(), expected))));
        QCOMPARE(test::part<HistogramView>(*window_)->histogram(), test::referenceOf(shownPixels(), bins()));
        QTRY_VERIFY_WITH_TIMEOUT(test::part<ImageView>(*window_)->imageReady(), kResultTimeoutMs);
        test::replotNow(*window_);
        QVERIFY(window_->grab().save(test::artifactPath(QStringLiteral("transform_rotate33_gaussian.png"))));
    }

    void fitCanvasCheckboxEnlargesTheOutput() {
        const auto reportsBefore = reports_.size();
        if (panel().convolutionGroup()->isChecked()) toggle(panel().convolutionGroup());
        QVERIFY(panel().rotationGroup()->isChecked());
        selectData(panel().samplingBox(), static_cast<int>(rotate::FilterMode::Linear));
        panel().angleBox()->setValue(108);
        QTRY_VERIFY_WITH_TIMEOUT(settled() && !window_->lastOutcome()->request.convolution &&
                                     window_->lastOutcome()->request.rotation->params.angleDegrees == 108.0,
                                 kResultTimeoutMs);
        QCOMPARE(QSize(shownPixels().width, shownPixels().height), QSize(card_.width, card_.height));

        // A click on the check box, as a user would.
        QCheckBox* fit = panel().fitCanvasBox();
        QVERIFY(!fit->isChecked());
        QTest::mouseClick(fit, Qt::LeftButton, Qt::NoModifier, QPoint(8, fit->height() / 2));
        QVERIFY(fit->isChecked());
        QTRY_VERIFY_WITH_TIMEOUT(settled() && window_->lastOutcome()->request.rotation->params.fitCanvas,
                                 kResultTimeoutMs);
        // 96 (|cos 108°| + sin 108°) = 96 * 1.2601 = 120.97: a 121 × 121 canvas.
        QCOMPARE(QSize(shownPixels().width, shownPixels().height), QSize(121, 121));
        const rotate::Params params{108.0, rotate::FilterMode::Linear, true};
        const ImageRGBA8 expected = pipeline::referencePipeline(card_, specOf(params, {}));
        QVERIFY2(maxAbsDifference(shownPixels(), expected) <= 1,
                 qPrintable(QString::number(maxAbsDifference(shownPixels(), expected))));
        QCOMPARE(test::part<HistogramView>(*window_)->histogram(), test::referenceOf(shownPixels(), bins()));
        QCOMPARE(panel().settings().fitCanvas, true);

        QTest::mouseClick(fit, Qt::LeftButton, Qt::NoModifier, QPoint(8, fit->height() / 2));
        QTRY_VERIFY_WITH_TIMEOUT(settled() && !window_->lastOutcome()->request.rotation->params.fitCanvas,
                                 kResultTimeoutMs);
        QCOMPARE(QSize(shownPixels().width, shownPixels().height), QSize(card_.width, card_.height));
        QVERIFY2(reports_.size() == reportsBefore, test::messagesOf(reports_).constData());
    }

    // The image stays on the device between runs of it: the first run after an image is shown uploads its
    // pixels, runs with other angles take them from the device, and the next image shown is uploaded again.
    // Every result is still the reference's.
    void runsOfOneImageUploadItOnce() {
        reports_.clear();
        if (!panel().rotationGroup()->isChecked()) toggle(panel().rotationGroup());
        selectData(panel().samplingBox(), static_cast<int>(rotate::FilterMode::Linear));
        const auto pixelUploads = [this] {
            int uploads = 0;
            for (const auto& timing : window_->lastOutcome()->result.timings)
                uploads +=
                    timing.stage == Stage::Upload && timing.name.find("upload pixels") != std::string::npos;
            return uploads;
        };
        QSignalSpy shown(window_.get(), &MainWindow::resultShown);
        const auto runWith = [&](double angle) {
            shown.clear();
            panel().angleBox()->setValue(angle);
            return QTest::qWaitFor([&] { return !shown.isEmpty() && settled(); }, kResultTimeoutMs);
        };
        const auto shownIsReference = [&](const ImageRGBA8& image, double angle) {
            const auto& request = window_->lastOutcome()->request;
            pipeline::Spec spec;
            spec.rotation = request.rotation;
            spec.convolution = request.convolution;
            const ImageRGBA8 expected = pipeline::referencePipeline(image, spec);
            return request.image.get() == &image && request.rotation->params.angleDegrees == angle &&
                   shownPixels().width == expected.width && shownPixels().height == expected.height &&
                   maxAbsDifference(shownPixels(), expected) <= 1;
        };
        for (const int size : {64, 72}) {
            const auto image = std::make_shared<const ImageRGBA8>(testCard(size));
            shown.clear();
            window_->showImage(image, QStringLiteral("card %1").arg(size));
            QVERIFY(QTest::qWaitFor([&] { return !shown.isEmpty() && settled(); }, kResultTimeoutMs));
            QVERIFY(runWith(10.0));  // whatever angle it showed first, a run of this image at 10 degrees
            QVERIFY(runWith(20.0));
            QCOMPARE(pixelUploads(), 0);
            QVERIFY(shownIsReference(*image, 20.0));
            QVERIFY(runWith(30.0));
            QCOMPARE(pixelUploads(), 0);
            QVERIFY(shownIsReference(*image, 30.0));
        }
        // The first run of an image uploads it: shown anew, the image of the same content is another image.
        const auto again = std::make_shared<const ImageRGBA8>(testCard(72));
        shown.clear();
        window_->showImage(again, QStringLiteral("card 72 again"));
        QVERIFY(QTest::qWaitFor([&] { return !shown.isEmpty() && settled(); }, kResultTimeoutMs));
        QCOMPARE(pixelUploads(), 1);
        QVERIFY(shownIsReference(*again, 30.0));
        QVERIFY(reports_.isEmpty());
    }

    void cleanupTestCase() { window_.reset(); }
};

QTEST_MAIN(TransformPipelineTest)
#include "transform_pipeline_test.moc"
