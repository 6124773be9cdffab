// The window end to end on PoCL: images opened through the same path as the dialog, device and strategy
// picked through the combo boxes, results compared with the reference histogram of the pixels the test
// generated, errors reported in words, latest request wins, settings persist.
#include <QCheckBox>
#include <QComboBox>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QFile>
#include <QGroupBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QSlider>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include "engine/ops/convolve/filter.hpp"
#include "engine/ops/histogram/auto_strategy.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/rotate/rotate.hpp"
#include "io/image_io.hpp"
#include "ui/display/image_view.hpp"
#include "ui/shell/app_settings.hpp"
#include "ui/shell/device_panel.hpp"
#include "ui/shell/export_actions.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/shell/strategy_box.hpp"
#include "ui/shell/transform_panel.hpp"
#include "ui/views/compare_view.hpp"
#include "ui/views/histogram_view.hpp"
#include "ui/views/kernel_view.hpp"
#include "ui/views/timing_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr int kResultTimeoutMs = 120000;

bool showsResultFor(const MainWindow& window, const QString& device, const QString& strategy, int bins,
                    const ImageRGBA8* image) {
    const auto& outcome = window.lastOutcome();
    return outcome && outcome->request.device == device &&
           QString::fromUtf8(outcome->request.strategy->name()) == strategy &&
           outcome->request.bins == bins && outcome->request.image.get() == image;
}

}  // namespace

class MainWindowTest : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir dir_;
    ImageRGBA8 first_ = test::randomImage(173, 91, 11);
    ImageRGBA8 second_ = test::randomImage(64, 48, 12);
    QString firstPath_;
    QString secondPath_;
    std::unique_ptr<AppSettings> settings_;
    std::unique_ptr<MainWindow> window_;
    QList<ErrorReport> reports_;

    // Opens through MainWindow::openImage, as the File ▸ Open dialog, drops and recent files do.
    void openAndWait(const QString& path) {
        QSignalSpy loaded(window_.get(), &MainWindow::imageLoaded);
        window_->openImage(path);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kResultTimeoutMs);
    }

    void selectStrategy(const QString& name) {
        QComboBox* box = test::part<StrategyBox>(*window_)->comboBox();
        box->setCurrentIndex(box->findText(name));
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        firstPath_ = dir_.filePath(QStringLiteral("first.png"));
        secondPath_ = dir_.filePath(QStringLiteral("second.png"));
        io::saveImage(firstPath_, first_);
        io::saveImage(secondPath_, second_);
        settings_ = std::make_unique<AppSettings>(dir_.filePath(QStringLiteral("settings.ini")));
        // A cache of this process's own: no `auto` choice of another test's process decides whether a trial
        // runs here.
        qputenv("HISTOSCOPE_CACHE_DIR", dir_.filePath(QStringLiteral("cache")).toUtf8());
        window_ = std::make_unique<MainWindow>(*settings_);
        QVERIFY(test::showWithDevices(*window_, reports_, kResultTimeoutMs));
        QVERIFY2(window_->controller().devices().size() >= 2,
                 "the tests expect POCL_DEVICES=\"pthread pthread\"");
    }

    void everyStrategyOnTheDeviceMatchesTheReference() {
        openAndWait(firstPath_);
        QVERIFY(window_->image());
        QCOMPARE(*window_->image(), first_);  // the PNG round trip is lossless
        QCOMPARE(test::part<ImageView>(*window_)->image(), window_->image().get());

        test::part<DevicePanel>(*window_)->deviceBox()->setCurrentIndex(0);
        const auto device = test::part<DevicePanel>(*window_)->currentDevice();
        QVERIFY(device);
        window_->setBins(256);
        const auto* model =
            qobject_cast<QStandardItemModel*>(test::part<StrategyBox>(*window_)->comboBox()->model());
        int ran = 0;
        for (const auto* strategy : histogram::strategies()) {
            const QString name = QString::fromUtf8(strategy->name());
            const int index = test::part<StrategyBox>(*window_)->comboBox()->findText(name);
            QVERIFY2(index >= 0, qPrintable(name));
            const auto support = strategy->supported(&*device, {}, histogram::Params{256});
            QCOMPARE(model->item(index)->isEnabled(), support.ok);
            if (!support.ok) {
                QVERIFY(model->item(index)->toolTip().contains(QString::fromStdString(support.reason)));
                continue;
            }
            selectStrategy(name);
            QTRY_VERIFY_WITH_TIMEOUT(showsResultFor(*window_, QString::fromStdString(device->selector()),
                                                    name, 256, window_->image().get()),
                                     kResultTimeoutMs);
            QCOMPARE(test::part<HistogramView>(*window_)->histogram(), test::referenceOf(first_, 256));
            QVERIFY(!window_->lastOutcome()->result.timings.empty());
            QCOMPARE(test::part<TimingView>(*window_)->runs().back().size(),
                     window_->lastOutcome()->result.timings.size());
            // The kernel view shows the source of device strategies and says so for host ones.
            const auto build = strategy->kernelBuild(*device, histogram::Params{256}, {});
            const QString ranName = QString::fromStdString(window_->lastOutcome()->result.strategyName());
            if (ranName == name)
                QCOMPARE(test::part<KernelView>(*window_)->source().isEmpty(), !build.has_value());
            QVERIFY(window_->statusSummary().contains(QStringLiteral("173 × 91")));
            ++ran;
        }
        qInfo("%d strategies ran on %s", ran, device->name.c_str());
        QVERIFY(ran >= 1);
        QVERIFY(reports_.isEmpty());
    }

    void binsFromTheSpinBox() {
        selectStrategy(QString::fromUtf8(histogram::strategies().front()->name()));
        for (const int bins : {1, 37, 256}) {
            window_->setBins(bins);
            QTRY_VERIFY_WITH_TIMEOUT(
                showsResultFor(*window_, test::part<DevicePanel>(*window_)->currentSelector(),
                               test::part<StrategyBox>(*window_)->currentStrategy(), bins,
                               window_->image().get()),
                kResultTimeoutMs);
            QCOMPARE(test::part<HistogramView>(*window_)->histogram(), test::referenceOf(first_, bins));
        }
    }

    // The random image has about 60 pixels of alpha 0 (of random colours): with the box ticked they leave
    // R, G, B and luma, and A keeps them.
    void ignoreTransparentChangesThePlot() {
        QVERIFY(!test::part<QCheckBox>(*window_, "ignoreTransparent")
                     ->isChecked());  // the default counts every pixel
        window_->setBins(64);
        QTRY_VERIFY_WITH_TIMEOUT(window_->lastOutcome()->request.bins == 64 && !window_->controller().busy(),
                                 kResultTimeoutMs);
        QCOMPARE(test::part<HistogramView>(*window_)->histogram(), test::referenceOf(first_, 64));
        const auto countingEveryPixel =
            test::part<HistogramView>(*window_)->plottedValues(histogram::Channel::Luma);

        test::part<QCheckBox>(*window_, "ignoreTransparent")->click();
        QTRY_VERIFY_WITH_TIMEOUT(
            window_->lastOutcome()->request.ignoreTransparent && !window_->controller().busy(),
            kResultTimeoutMs);
        const auto ignoring =
            histogram::referenceHistogram(first_.pixels.data(), first_.pixelCount(), 64, true);
        QVERIFY(ignoring != test::referenceOf(first_, 64));
        QCOMPARE(test::part<HistogramView>(*window_)->histogram(), ignoring);
        QVERIFY(test::part<HistogramView>(*window_)->plottedValues(histogram::Channel::Luma) !=
                countingEveryPixel);
        QCOMPARE(test::part<HistogramView>(*window_)->values().total(histogram::Channel::A),
                 first_.pixelCount());

        test::part<QCheckBox>(*window_, "ignoreTransparent")->click();
        QTRY_VERIFY_WITH_TIMEOUT(
            !window_->lastOutcome()->request.ignoreTransparent && !window_->controller().busy(),
            kResultTimeoutMs);
        QCOMPARE(test::part<HistogramView>(*window_)->histogram(), test::referenceOf(first_, 64));
    }

    void exportsCarryTheRunsContextAndSayWhereTheyWent() {
        QVERIFY(window_->lastOutcome());
        const RunOutcome outcome = *window_->lastOutcome();
        auto* exports = window_->findChild<ExportActions*>();
        QVERIFY(exports);
        const QString path = dir_.filePath(QStringLiteral("context.json"));
        exports->exportHistogram(path);
        QCOMPARE(window_->statusBar()->currentMessage(),
                 QStringLiteral("Exported the histogram to %1").arg(path));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject context =
            QJsonDocument::fromJson(file.readAll()).object().value("context").toObject();
        QCOMPARE(context.value("image").toObject(),
                 (QJsonObject{{"path", window_->imagePath()}, {"width", 173}, {"height", 91}}));
        QCOMPARE(context.value("device").toObject().value("selector").toString(), outcome.request.device);
        QCOMPARE(context.value("strategy").toString(), QString::fromStdString(outcome.result.strategyName()));
        QCOMPARE(context.value("requested_strategy").toString(),
                 QString::fromUtf8(outcome.request.strategy->name()));
        QCOMPARE(context.value("bins").toInt(), outcome.request.bins);
        QCOMPARE(context.value("transform").toObject().value("angle"), QJsonValue());  // no rotation
    }

    void switchingDeviceReRuns() {
        DevicePanel* panel = test::part<DevicePanel>(*window_);
        QTRY_VERIFY_WITH_TIMEOUT(!window_->controller().busy(), kResultTimeoutMs);
        const int other = panel->deviceBox()->currentIndex() == 0 ? 1 : 0;
        panel->deviceBox()->setCurrentIndex(other);
        const QString selector = panel->currentSelector();
        QCOMPARE(QString::fromStdString(panel->currentDevice()->selector()), selector);
        QTRY_VERIFY_WITH_TIMEOUT(
            window_->lastOutcome()->request.device == selector && !window_->controller().busy(),
            kResultTimeoutMs);
        QCOMPARE(QString::fromStdString(window_->lastOutcome()->device->selector()), selector);
        QCOMPARE(test::part<HistogramView>(*window_)->histogram(),
                 test::referenceOf(first_, window_->lastOutcome()->request.bins));
        // The capability table follows the device.
        QTableWidget* table = panel->propertiesTable();
        QVERIFY(table->rowCount() >= 20);
        QCOMPARE(table->item(0, 1)->text(), selector);
    }

    void unreadableFileKeepsThePreviousImage() {
        const QString broken = dir_.filePath(QStringLiteral("broken.png"));
        QVERIFY(test::writeFile(broken, "this is not a PNG file"));
        const auto before = window_->image();
        const auto histogramBefore = test::part<HistogramView>(*window_)->histogram();
        reports_.clear();
        QSignalSpy failed(window_.get(), &MainWindow::imageLoadFailed);
        window_->openImage(broken);
        QTRY_COMPARE_WITH_TIMEOUT(failed.count(), 1, kResultTimeoutMs);
        QCOMPARE(reports_.size(), 1);
        QCOMPARE(reports_.front().kind, ErrorKind::Input);
        QVERIFY2(reports_.front().message.contains(QStringLiteral("broken.png")),
                 qPrintable(reports_.front().message));
        QVERIFY(!reports_.front().message.contains(QLatin1Char('\n')));
        QCOMPARE(window_->image(), before);
        QCOMPARE(window_->imagePath(), QFileInfo(firstPath_).absoluteFilePath());
        QCOMPARE(test::part<ImageView>(*window_)->image(), before.get());
        QCOMPARE(test::part<HistogramView>(*window_)->histogram(), histogramBefore);
        QVERIFY(!settings_->recentFiles().contains(QFileInfo(broken).absoluteFilePath()));
    }

    void latestRequestWins() {
        const auto big = std::make_shared<const ImageRGBA8>(test::randomImage(2048, 2048, 13));
        Controller& controller = window_->controller();
        QTRY_VERIFY_WITH_TIMEOUT(!controller.busy(), kResultTimeoutMs);
        QSignalSpy results(&controller, &Controller::histogramReady);
        const int startedBefore = controller.startedRequests();
        RunRequest request{big,
                           test::part<DevicePanel>(*window_)->currentSelector(),
                           histogram::strategies().front(),
                           1,
                           {},
                           {},
                           {},
                           false,
                           {}};
        // The first run is held on the worker until the other nine requests are made, as on a slow device.
        test::WorkerProbe worker(controller);
        worker.hold();
        controller.runHistogram(request);
        QTRY_VERIFY_WITH_TIMEOUT(worker.waiting(), kResultTimeoutMs);
        for (int bins = 2; bins <= 10; ++bins) {
            request.bins = bins;
            controller.runHistogram(request);
        }
        worker.release();
        QTRY_VERIFY_WITH_TIMEOUT(!controller.busy(), kResultTimeoutMs);
        QCOMPARE(window_->lastOutcome()->request.bins, 10);
        QCOMPARE(test::part<HistogramView>(*window_)->histogram(), test::referenceOf(*big, 10));
        // The first and the last ran; the others were replaced while waiting. A run that finished is shown
        // although superseded (same image and device, as while a slider is dragged), and the last one last.
        QCOMPARE(controller.startedRequests() - startedBefore, 2);
        QCOMPARE(results.count(), 2);
        QCOMPARE(results.first().at(0).value<RunOutcome>().request.bins, 1);
        QCOMPARE(results.last().at(0).value<RunOutcome>().request.bins, 10);
    }

    void aSlowRunSaysWhatItDoesAndMarksThePreviousHistogram() {
        Controller& controller = window_->controller();
        const QString strategyBefore = test::part<StrategyBox>(*window_)->currentStrategy();
        selectStrategy(QStringLiteral("auto"));
        QTRY_VERIFY_WITH_TIMEOUT(!controller.busy(), kResultTimeoutMs);
        QVERIFY(!window_->showsPreviousSettings());
        auto* histogramDock = window_->findChild<QDockWidget*>(QStringLiteral("histogramDock"));
        QCOMPARE(histogramDock->windowTitle(), QStringLiteral("Histogram"));
        const auto device = test::part<DevicePanel>(*window_)->currentDevice();
        QVERIFY(device);
        const int bins = test::part<QSpinBox>(*window_, "bins")->value();
        int candidates = 0;
        for (const auto* strategy : histogram::strategies())
            if (strategy->runsOnDevice() && strategy->name() != "auto" &&
                strategy->supported(&*device, {}, histogram::Params{bins}).ok)
                ++candidates;
        QVERIFY(candidates >= 2);

        // An image size no other test here uses and no remembered choice: `auto` runs a trial. The worker is
        // held before the run and before each candidate, so every state is seen, however fast the device is.
        histogram::forgetAutoChoices();
        const auto image = std::make_shared<const ImageRGBA8>(test::randomImage(640, 480, 17));
        test::WorkerProbe worker(controller);
        worker.hold();
        window_->showImage(image, QStringLiteral("random 640 × 480"));
        QTRY_VERIFY_WITH_TIMEOUT(worker.waiting(), kResultTimeoutMs);
        QLabel* busy = test::part<QLabel>(*window_, "busyLabel");
        QVERIFY(busy->isVisible());
        QCOMPARE(busy->text(), QStringLiteral("running…"));
        // After a moment the histogram on screen, of the previous image, says so.
        QTRY_VERIFY_WITH_TIMEOUT(window_->showsPreviousSettings(), kResultTimeoutMs);
        QCOMPARE(histogramDock->windowTitle(), QStringLiteral("Histogram (previous settings)"));
        QVERIFY(test::part<HistogramView>(*window_)->graphicsEffect());

        for (int candidate = 1; candidate <= candidates; ++candidate) {
            const int arrived = worker.arrivals();
            worker.step();
            QTRY_VERIFY_WITH_TIMEOUT(worker.arrivals() > arrived && worker.waiting(), kResultTimeoutMs);
            const QString trying = QStringLiteral("auto: trying %1 of %2 (").arg(candidate).arg(candidates);
            QTRY_VERIFY2_WITH_TIMEOUT(busy->text().startsWith(trying), qPrintable(busy->text()),
                                      kResultTimeoutMs);
            if (candidate == 2)
                QVERIFY(window_->grab().save(test::artifactPath(QStringLiteral("shell_auto_trial.png"))));
            QVERIFY(window_->showsPreviousSettings());
        }
        QSignalSpy shown(window_.get(), &MainWindow::resultShown);
        worker.release();
        QVERIFY(shown.wait(kResultTimeoutMs));
        QCOMPARE(window_->lastOutcome()->request.image, image);
        QCOMPARE(test::part<HistogramView>(*window_)->histogram(), test::referenceOf(*image, bins));
        QVERIFY(window_->lastOutcome()->result.strategyName() != "auto");
        QVERIFY(!window_->showsPreviousSettings());
        QCOMPARE(histogramDock->windowTitle(), QStringLiteral("Histogram"));
        QVERIFY(!test::part<HistogramView>(*window_)->graphicsEffect());
        QTRY_VERIFY_WITH_TIMEOUT(!controller.busy(), kResultTimeoutMs);
        QVERIFY(!busy->isVisible());
        QCOMPARE(busy->text(), QStringLiteral("running…"));
        // The trial and the run were made on the worker's thread, not the GUI's.
        QCOMPARE(worker.threads().size(), std::size_t{1});
        QVERIFY(*worker.threads().begin() != QThread::currentThread());

        selectStrategy(strategyBefore);
        QTRY_VERIFY_WITH_TIMEOUT(!controller.busy(), kResultTimeoutMs);
    }

    void runRepeatedAddsEveryRunAndCancelStops() {
        Controller& controller = window_->controller();
        QTRY_VERIFY_WITH_TIMEOUT(!controller.busy(), kResultTimeoutMs);
        TimingView* timings = test::part<TimingView>(*window_);
        window_->model().clearKeptRuns();
        QSignalSpy progress(&controller, &Controller::progress);
        window_->runRepeated(5);
        QTRY_VERIFY_WITH_TIMEOUT(!controller.busy(), kResultTimeoutMs);
        QCOMPARE(timings->runs().size(), std::size_t{5});
        QCOMPARE(progress.count(), 5);
        QCOMPARE(progress.last().at(0).toInt(), 5);
        QCOMPARE(progress.last().at(1).toInt(), 5);
        QCOMPARE(test::part<HistogramView>(*window_)->histogram(),
                 test::referenceOf(*window_->image(), test::part<QSpinBox>(*window_, "bins")->value()));

        // A long series stops at the next repetition after Cancel.
        window_->model().clearKeptRuns();
        QSignalSpy started(&controller, &Controller::progress);
        window_->runRepeated(100000);
        QVERIFY(started.wait(kResultTimeoutMs));
        emit timings->cancelRequested();
        QTRY_VERIFY_WITH_TIMEOUT(!controller.busy(), kResultTimeoutMs);
        QVERIFY(!timings->runs().empty());
        QVERIFY(timings->runs().size() < 1000);
    }

    void compareMeasuresEverySupportedStrategy() {
        Controller& controller = window_->controller();
        QTRY_VERIFY_WITH_TIMEOUT(!controller.busy(), kResultTimeoutMs);
        const auto device = test::part<DevicePanel>(*window_)->currentDevice();
        const int bins = test::part<QSpinBox>(*window_, "bins")->value();
        // Before any comparison the tab says what Compare does instead of showing an empty plot.
        const QLabel* emptyState = test::part<CompareView>(*window_)->emptyState();
        QVERIFY(!emptyState->isHidden());
        QVERIFY(emptyState->text().contains(QStringLiteral("Compare")));
        QSignalSpy compared(&controller, &Controller::compareReady);
        emit test::part<CompareView>(*window_)->compareRequested(3);
        QVERIFY(compared.wait(kResultTimeoutMs));
        QVERIFY(emptyState->isHidden());
        const auto entries = test::part<CompareView>(*window_)->entries();
        QCOMPARE(static_cast<std::size_t>(entries.size()), histogram::strategies().size());
        const double bytes = static_cast<double>(window_->image()->byteCount());
        for (int i = 0; i < entries.size(); ++i) {
            const auto* strategy = histogram::strategies()[static_cast<std::size_t>(i)];
            const auto& entry = entries[i];
            QVERIFY2(entry.strategy.startsWith(QString::fromUtf8(strategy->name())),
                     qPrintable(entry.strategy));
            const auto support = strategy->supported(&*device, {}, histogram::Params{bins});
            QCOMPARE(entry.unsupportedReason.isEmpty(), support.ok);
            if (!support.ok) continue;
            QVERIFY(entry.minMs > 0 && entry.minMs <= entry.medianMs && entry.medianMs <= entry.maxMs);
            QVERIFY(std::abs(entry.gbPerS - bytes / (entry.medianMs * 1e6)) <= 1e-9 * entry.gbPerS);
            if (strategy->name() == "serial") QCOMPARE(entry.speedupOverSerial, 1.0);
        }
        test::replotNow(*window_);
        QVERIFY(window_->grab().save(test::artifactPath(QStringLiteral("shell_compare.png"))));
    }

    void dropOpensImages() {
        QMimeData text;
        text.setUrls({QUrl::fromLocalFile(dir_.filePath(QStringLiteral("notes.txt")))});
        QDragEnterEvent refused(QPoint(10, 10), Qt::CopyAction, &text, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(window_.get(), &refused);
        QVERIFY(!refused.isAccepted());

        QMimeData image;
        image.setUrls({QUrl::fromLocalFile(secondPath_)});
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &image, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(window_.get(), &enter);
        QVERIFY(enter.isAccepted());
        QSignalSpy loaded(window_.get(), &MainWindow::imageLoaded);
        QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &image, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(window_.get(), &drop);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kResultTimeoutMs);
        QCOMPARE(*window_->image(), second_);
        QTRY_VERIFY_WITH_TIMEOUT(window_->lastOutcome()->request.image == window_->image(), kResultTimeoutMs);
        QCOMPARE(test::part<HistogramView>(*window_)->histogram(),
                 test::referenceOf(second_, window_->lastOutcome()->request.bins));
    }

    void recentFilesReopen() {
        const QStringList recent = settings_->recentFiles();
        QCOMPARE(recent.value(0), QFileInfo(secondPath_).absoluteFilePath());
        QCOMPARE(recent.value(1), QFileInfo(firstPath_).absoluteFilePath());
        QMenu* menu = nullptr;
        for (auto* candidate : window_->findChildren<QMenu*>()) {
            if (candidate->title() == QStringLiteral("Open &Recent")) menu = candidate;
        }
        QVERIFY(menu);
        emit menu->aboutToShow();
        QAction* firstEntry = nullptr;
        for (auto* action : menu->actions()) {
            if (action->toolTip() == recent.value(1)) firstEntry = action;
        }
        QVERIFY(firstEntry);
        QSignalSpy loaded(window_.get(), &MainWindow::imageLoaded);
        firstEntry->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kResultTimeoutMs);
        QCOMPARE(*window_->image(), first_);
        QCOMPARE(settings_->recentFiles().value(0), QFileInfo(firstPath_).absoluteFilePath());
    }

    void failuresAreReportedInWords() {
        reports_.clear();
        const QString selector = test::part<DevicePanel>(*window_)->currentSelector();
        emit window_->controller().failed(RunFailure{
            0, ErrorKind::OpenCl, selector, QStringLiteral("device X: building histogram.cl failed"),
            QStringLiteral("<kernel>:3:1: error: use of undeclared identifier 'bins'")});
        QCOMPARE(reports_.size(), 1);
        QCOMPARE(reports_.front().title, QStringLiteral("Kernel build failed"));
        QCOMPARE(reports_.front().details,
                 QStringLiteral("<kernel>:3:1: error: use of undeclared identifier 'bins'"));

        emit window_->controller().failed(
            RunFailure{0, ErrorKind::OpenCl, selector, QStringLiteral("device X: CL_OUT_OF_RESOURCES"), {}});
        QCOMPARE(reports_.size(), 2);
        QCOMPARE(reports_.back().title, QStringLiteral("Device problem"));
        QVERIFY(!reports_.back().hint.isEmpty());
        QComboBox* devices = test::part<DevicePanel>(*window_)->deviceBox();
        QVERIFY(devices->itemData(devices->currentIndex(), Qt::ToolTipRole)
                    .toString()
                    .contains("CL_OUT_OF_RESOURCES"));
        QVERIFY(!devices->itemIcon(devices->currentIndex()).isNull());
        QVERIFY(devices->isEnabled());  // another device can be chosen
        // The mark goes once the device works again.
        window_->runHistogram();
        QTRY_VERIFY_WITH_TIMEOUT(devices->itemIcon(devices->currentIndex()).isNull(), kResultTimeoutMs);
    }

    void defaultReporterShowsAMessageBox() {
        AppSettings settings(dir_.filePath(QStringLiteral("dialog.ini")));
        MainWindow window(settings);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QString missing = dir_.filePath(QStringLiteral("missing.png"));
        window.openImage(missing);
        QMessageBox* box = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((box = window.findChild<QMessageBox*>()) && box->isVisible(),
                                 kResultTimeoutMs);
        QVERIFY2(box->text().contains(QStringLiteral("missing.png")), qPrintable(box->text()));
        box->accept();
        QVERIFY(!window.image());
    }

    void settingsPersist() {
        const QString file = dir_.filePath(QStringLiteral("persist.ini"));
        QString strategy;
        QString device;
        QSize size;
        {
            AppSettings settings(file);
            MainWindow window(settings);
            QVERIFY(test::showExposed(window, {1201, 851}));
            QTRY_VERIFY_WITH_TIMEOUT(window.controller().devicesKnown(), kResultTimeoutMs);
            window.setBins(99);
            QVERIFY(!test::part<QCheckBox>(window, "ignoreTransparent")->isChecked());
            window.setIgnoreTransparent(true);
            QComboBox* devices = test::part<DevicePanel>(window)->deviceBox();
            devices->setCurrentIndex(devices->count() - 1);
            device = test::part<DevicePanel>(window)->currentSelector();
            QComboBox* strategies = test::part<StrategyBox>(window)->comboBox();
            strategies->setCurrentIndex(strategies->count() - 1);
            if (strategies->currentIndex() != strategies->count() - 1) strategies->setCurrentIndex(0);
            strategy = test::part<StrategyBox>(window)->currentStrategy();
            size = window.size();
            window.close();
        }
        AppSettings reread(file);
        MainWindow restored(reread);
        QSignalSpy shown(&restored, &MainWindow::devicesShown);
        QTRY_COMPARE_WITH_TIMEOUT(shown.count(), 1, kResultTimeoutMs);
        QCOMPARE(test::part<QSpinBox>(restored, "bins")->value(), 99);
        QVERIFY(test::part<QCheckBox>(restored, "ignoreTransparent")->isChecked());
        QCOMPARE(test::part<StrategyBox>(restored)->currentStrategy(), strategy);
        QCOMPARE(test::part<DevicePanel>(restored)->currentSelector(), device);
        restored.show();
        QVERIFY(QTest::qWaitForWindowExposed(&restored));
        QCOMPARE(restored.size(), size);
    }

    void transformSettingsPersist() {
        const QString file = dir_.filePath(QStringLiteral("transform.ini"));
        const QString matrix = QStringLiteral("# Sobel x\n1 0 -1\n2 0 -2\n1 0 -1\n");
        QString rotateStrategy;
        QString convolveStrategy;
        {
            AppSettings settings(file);
            QCOMPARE(settings.transform(), TransformSettings{});  // nothing saved yet: the defaults
            MainWindow window(settings);
            QVERIFY(test::showExposed(window, {1201, 851}));
            TransformPanel& panel = *test::part<TransformPanel>(window);
            panel.rotationGroup()->setChecked(true);
            panel.angleBox()->setValue(-33.3);
            panel.fitCanvasBox()->setChecked(true);
            panel.samplingBox()->setCurrentIndex(panel.samplingBox()->findText(QStringLiteral("nearest")));
            panel.rotateStrategyBox()->setCurrentIndex(panel.rotateStrategyBox()->count() - 1);
            rotateStrategy = panel.rotateStrategyBox()->currentText();
            panel.convolutionGroup()->setChecked(true);
            panel.parameterBox(QStringLiteral("box"), QStringLiteral("size"))->setValue(5);
            panel.customEditor()->setPlainText(matrix);
            panel.filterBox()->setCurrentIndex(panel.filterBox()->findData(QStringLiteral("gaussian")));
            panel.parameterBox(QStringLiteral("gaussian"), QStringLiteral("sigma"))->setValue(2.25);
            panel.parameterBox(QStringLiteral("gaussian"), QStringLiteral("size"))->setValue(7);
            panel.parameterBox(QStringLiteral("unsharp"), QStringLiteral("amount"))->setValue(2.5);
            panel.convolveStrategyBox()->setCurrentIndex(panel.convolveStrategyBox()->count() - 1);
            convolveStrategy = panel.convolveStrategyBox()->currentText();
            window.close();
        }
        AppSettings reread(file);
        MainWindow restored(reread);
        TransformPanel& panel = *test::part<TransformPanel>(restored);
        QVERIFY(panel.rotationGroup()->isChecked());
        QCOMPARE(panel.angleBox()->value(), -33.3);
        QCOMPARE(panel.angleSlider()->value(), -333);
        QVERIFY(panel.fitCanvasBox()->isChecked());
        QCOMPARE(panel.samplingBox()->currentText(), QStringLiteral("nearest"));
        QCOMPARE(panel.rotateStrategyBox()->currentText(), rotateStrategy);
        QVERIFY(panel.convolutionGroup()->isChecked());
        QCOMPARE(panel.parameterBox(QStringLiteral("box"), QStringLiteral("size"))->value(), 5.0);
        QCOMPARE(panel.parameterBox(QStringLiteral("gaussian"), QStringLiteral("sigma"))->value(), 2.25);
        QCOMPARE(panel.parameterBox(QStringLiteral("gaussian"), QStringLiteral("size"))->value(), 7.0);
        QCOMPARE(panel.parameterBox(QStringLiteral("unsharp"), QStringLiteral("amount"))->value(), 2.5);
        QCOMPARE(panel.customEditor()->toPlainText(), matrix);
        QCOMPARE(panel.convolveStrategyBox()->currentText(), convolveStrategy);
        // What the pipeline is asked for, against filters built here.
        const auto rotation = panel.rotation();
        QVERIFY(rotation);
        QCOMPARE(rotation->params.angleDegrees, -33.3);
        QCOMPARE(rotation->params.filterMode, rotate::FilterMode::Nearest);
        QVERIFY(rotation->params.fitCanvas);
        QCOMPARE(QString::fromUtf8(rotation->strategy->name()), rotateStrategy);
        const auto convolution = panel.convolution();
        QVERIFY(convolution);
        QCOMPARE(convolution->filter.taps, convolve::gaussianFilter(2.25, 7).taps);
        QCOMPARE(QString::fromUtf8(convolution->strategy->name()), convolveStrategy);
        panel.filterBox()->setCurrentIndex(
            panel.filterBox()->findData(QString::fromLatin1(TransformPanel::kCustomFilter)));
        QCOMPARE(panel.filter().taps, convolve::parseFilterText(matrix.toStdString()).taps);
    }

    void unknownTransformSettingsFallBack() {
        const QString file = dir_.filePath(QStringLiteral("odd-transform.ini"));
        {
            QSettings odd(file, QSettings::IniFormat);
            odd.setValue(QStringLiteral("transform/rotate"), true);
            odd.setValue(QStringLiteral("transform/angle"), QStringLiteral("nan"));
            odd.setValue(QStringLiteral("transform/sampling"), QStringLiteral("cubic"));
            odd.setValue(QStringLiteral("transform/rotateStrategy"), QStringLiteral("gone"));
            odd.setValue(QStringLiteral("transform/filter"), QStringLiteral("median"));
            odd.setValue(QStringLiteral("transform/box/size"), 99);
            odd.setValue(QStringLiteral("transform/customMatrix"), QStringLiteral("1 x\n"));
        }
        AppSettings settings(file);
        MainWindow window(settings);
        TransformPanel& panel = *test::part<TransformPanel>(window);
        QVERIFY(panel.rotationGroup()->isChecked());
        QCOMPARE(panel.angle(), 0.0);
        QCOMPARE(panel.samplingBox()->currentIndex(), 0);
        QCOMPARE(panel.rotateStrategyBox()->currentIndex(), 0);
        QCOMPARE(panel.filterBox()->currentData().toString(), QStringLiteral("box"));
        // clamped like a typed value
        QCOMPARE(panel.parameterBox(QStringLiteral("box"), QStringLiteral("size"))->value(),
                 double(convolve::kMaxFilterSize));
        // A matrix that does not parse says so, and the default matrix stays in use.
        QVERIFY(!panel.customError()->isHidden());
        QVERIFY2(panel.customError()->text().contains(QStringLiteral("'x'")),
                 qPrintable(panel.customError()->text()));
        QCOMPARE(panel.customEditor()->toPlainText(), QStringLiteral("1 x\n"));
        // What is saved is the matrix in use, not the refused text.
        QCOMPARE(panel.settings().customMatrix, TransformSettings{}.customMatrix);
        panel.filterBox()->setCurrentIndex(
            panel.filterBox()->findData(QString::fromLatin1(TransformPanel::kCustomFilter)));
        QCOMPARE(panel.filter().taps,
                 convolve::parseFilterText(TransformSettings{}.customMatrix.toStdString()).taps);
    }

    void screenshotArtifacts() {
        QTRY_VERIFY_WITH_TIMEOUT(!window_->controller().busy(), kResultTimeoutMs);
        QVERIFY(window_->grab().save(test::artifactPath(QStringLiteral("shell_main_window.png"))));
        // The kernel view of a strategy with an OpenCL kernel.
        const auto device = test::part<DevicePanel>(*window_)->currentDevice();
        for (const auto* strategy : histogram::strategies()) {
            const histogram::Params params{test::part<QSpinBox>(*window_, "bins")->value()};
            if (strategy->supported(&*device, {}, params).ok && strategy->kernelBuild(*device, params, {})) {
                selectStrategy(QString::fromUtf8(strategy->name()));
                break;
            }
        }
        QTRY_VERIFY_WITH_TIMEOUT(!window_->controller().busy() &&
                                     QString::fromUtf8(window_->lastOutcome()->request.strategy->name()) ==
                                         test::part<StrategyBox>(*window_)->currentStrategy(),
                                 kResultTimeoutMs);
        QVERIFY(!test::part<KernelView>(*window_)->source().isEmpty());
        auto* kernelDock = window_->findChild<QDockWidget*>(QStringLiteral("kernelDock"));
        QVERIFY(kernelDock);
        kernelDock->raise();
        test::replotNow(*window_);
        QVERIFY(window_->grab().save(test::artifactPath(QStringLiteral("shell_kernel.png"))));
    }

    void cleanupTestCase() { window_.reset(); }
};

QTEST_MAIN(MainWindowTest)
#include "shell_main_window_test.moc"
