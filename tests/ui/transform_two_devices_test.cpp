// Pipeline mode of the Transform panel (issue 10) end to end on POCL_DEVICES="pthread pthread": the box
// filter on device 0:0, the histogram on 0:1, through the controller's worker like every run. The histogram
// shown is checked against histogram(convolve(image)) of the engine's CPU references; the timeline has a lane
// per device; the Last-run table counts every device's times from the run's first command (issue 11); the
// Kernel view shows the programs each device built. Refusals (pipes where there are none, devices of two
// platforms) show the engine's reason in a dialog and keep the previous choice.
#include <QComboBox>
#include <QDockWidget>
#include <QGroupBox>
#include <QLabel>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include "engine/ops/convolve/convolve.hpp"
#include "engine/ops/produce_consume/produce_consume.hpp"
#include "io/image_io.hpp"
#include "ui/display/image_view.hpp"
#include "ui/shell/app_settings.hpp"
#include "ui/shell/device_panel.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/shell/transform_panel.hpp"
#include "ui/views/histogram_view.hpp"
#include "ui/views/kernel_view.hpp"
#include "ui/views/timeline_view.hpp"
#include "ui/views/timing_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr int kResultTimeoutMs = 120000;

void selectData(QComboBox* box, const QVariant& data) {
    box->setCurrentIndex(box->findData(data));
}

}  // namespace

class TransformTwoDevicesTest : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir dir_;
    // Odd sizes: the chunks of rows are unequal and the halo is cut at both edges.
    ImageRGBA8 image_ = test::opaqueRandomImage(97, 61, 11);
    std::unique_ptr<AppSettings> settings_;
    std::unique_ptr<MainWindow> window_;
    QList<ErrorReport> reports_;

    TransformPanel& panel() { return *test::part<TransformPanel>(*window_); }
    bool settled() const { return !window_->controller().busy() && window_->lastOutcome().has_value(); }
    int bins() const { return window_->lastOutcome()->request.bins; }
    // The last outcome is a pipeline run with `consumer` counting.
    bool ranOn(const QString& consumer) const {
        return settled() && window_->lastOutcome()->twoDevices &&
               window_->lastOutcome()->request.twoDevices->consumer == consumer;
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        const QString path = dir_.filePath(QStringLiteral("noise.png"));
        io::saveImage(path, image_);
        settings_ = std::make_unique<AppSettings>(dir_.filePath(QStringLiteral("settings.ini")));
        window_ = std::make_unique<MainWindow>(*settings_);
        QVERIFY(test::showWithDevices(*window_, reports_, kResultTimeoutMs));
        QVERIFY2(window_->controller().devices().size() >= 2, "POCL_DEVICES=\"pthread pthread\" gives two");
        QSignalSpy loaded(window_.get(), &MainWindow::imageLoaded);
        window_->openImage(path);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kResultTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(settled(), kResultTimeoutMs);
    }

    void pipelineModeCountsTheConvolvedImageOnTheSecondDevice() {
        selectData(panel().filterBox(), QStringLiteral("box"));
        // Its program does not depend on the image's size: each chunk's build is the whole image's.
        panel().convolveStrategyBox()->setCurrentText(QStringLiteral("buffer-naive"));
        QCOMPARE(panel().convolveStrategyBox()->currentText(), QStringLiteral("buffer-naive"));
        panel().twoDevicesGroup()->setFocus();
        QTest::keyClick(panel().twoDevicesGroup(), Qt::Key_Space);
        QVERIFY(panel().twoDevicesGroup()->isChecked());
        QVERIFY2(panel().convolutionGroup()->isChecked(), "pipeline mode convolves on the first device");
        QVERIFY(!panel().rotationGroup()->isEnabled());
        selectData(panel().consumerBox(), QStringLiteral("0:1"));
        selectData(panel().modeBox(), static_cast<int>(produce_consume::Mode::Buffer));
        panel().chunksBox()->setValue(5);
        QVERIFY(panel().pairNote()->text().contains(QStringLiteral("buffer mode")));
        QTRY_VERIFY_WITH_TIMEOUT(
            ranOn(QStringLiteral("0:1")) && window_->lastOutcome()->request.twoDevices->chunks == 5,
            kResultTimeoutMs);
        const RunOutcome& outcome = *window_->lastOutcome();
        QCOMPARE(outcome.twoDevices->mode, produce_consume::Mode::Buffer);
        QCOMPARE(outcome.twoDevices->chunks.size(), std::size_t{5});
        QCOMPARE(QString::fromStdString(outcome.device->selector()), QStringLiteral("0:0"));
        QCOMPARE(QString::fromStdString(outcome.consumer->selector()), QStringLiteral("0:1"));

        // histogram(convolve(image)) by the CPU references: the box filter is integer, so exact.
        const ImageRGBA8 convolved = convolve::referenceConvolve(image_, panel().filter());
        QCOMPARE(test::part<HistogramView>(*window_)->histogram(), test::referenceOf(convolved, bins()));
        QVERIFY(test::part<HistogramView>(*window_)->histogram() != test::referenceOf(image_, bins()));
        // The image view shows the image the histogram describes: the convolved one, not the input.
        const ImageRGBA8* shown = test::part<ImageView>(*window_)->image();
        QVERIFY2(shown, "the view shows host pixels (the copy path)");
        QCOMPARE(*shown, convolved);

        // A lane per device on the timeline (then the host lane, where a strategy did host work).
        const io::Timeline& timeline = test::part<TimelineView>(*window_)->timeline();
        QVERIFY(timeline.lanes.size() >= 2);
        QCOMPARE(std::count_if(timeline.lanes.begin(), timeline.lanes.end(),
                               [](const QString& lane) { return lane != io::hostLaneName(); }),
                 2);
        QVERIFY(timeline.lanes[0].startsWith(QStringLiteral("producer: ")) &&
                timeline.lanes[0].endsWith(QStringLiteral("(0:0)")));
        QVERIFY(timeline.lanes[1].startsWith(QStringLiteral("consumer: ")) &&
                timeline.lanes[1].endsWith(QStringLiteral("(0:1)")));

        // The Last-run table: every record with its device, times from the run's first command (one of them
        // is at 0.0 and none is far beyond the run's span), the mode and overlap in the title.
        auto* table = test::part<TimingView>(*window_)->findChild<QTableWidget*>("lastRunTable");
        QStringList devices;
        double earliest = 1e300;
        double latest = 0;
        for (int row = 0; row < table->rowCount(); ++row) {
            devices << table->item(row, 8)->text();
            earliest = std::min(earliest, table->item(row, 2)->text().toDouble());
            latest = std::max(latest, table->item(row, 5)->text().toDouble());
        }
        QCOMPARE(earliest, 0.0);
        QVERIFY(devices.contains(timeline.lanes[0]) && devices.contains(timeline.lanes[1]));
        QVERIFY2(latest <= timeline.endUs() + 0.1, qPrintable(QString::number(latest)));
        const QString title = test::part<TimingView>(*window_)->findChild<QLabel*>("lastRunTitle")->text();
        QVERIFY2(title.contains(QStringLiteral("buffer mode")) && title.contains(QStringLiteral("overlap")),
                 qPrintable(title));

        // The programs each device built, in the record and in the Kernel view.
        const auto expectedConvolution = panel().convolution()->strategy->kernelBuild(
            *outcome.device, panel().filter(), {image_.width, image_.height});
        QVERIFY(expectedConvolution);
        QCOMPARE(outcome.twoDevices->devices[0].builds, std::vector<KernelBuild>{*expectedConvolution});
        QVERIFY(!outcome.twoDevices->devices[1].builds.empty());
        const QVector<KernelView::Kernel> kernels = test::part<KernelView>(*window_)->kernels();
        QCOMPARE(kernels.size(), 2);
        QCOMPARE(kernels[0].stage, QStringLiteral("convolve"));
        QCOMPARE(kernels[0].buildOptions, QString::fromStdString(expectedConvolution->options));
        QCOMPARE(kernels[1].stage, QStringLiteral("histogram"));
        QCOMPARE(kernels[1].buildOptions,
                 QString::fromStdString(outcome.twoDevices->devices[1].builds.front().options));
        QVERIFY(reports_.isEmpty());

        QVERIFY(panel().grab().save(test::artifactPath(QStringLiteral("transform_panel_pipeline.png"))));
        auto* timelineDock = window_->findChild<QDockWidget*>(QStringLiteral("timelineDock"));
        if (timelineDock) timelineDock->raise();
        TimelineView* view = test::part<TimelineView>(*window_);
        view->fitRun();
        QVERIFY(view->grab().save(test::artifactPath(QStringLiteral("timeline_two_devices.png"))));
    }

    void pipesWhereThereAreNoneAreRefusedNamingTheDevice() {
        QVERIFY(settled());
        const int reportsBefore = static_cast<int>(reports_.size());
        const int modeBefore = panel().modeBox()->currentIndex();
        selectData(panel().modeBox(), static_cast<int>(produce_consume::Mode::Pipe));
        QCOMPARE(static_cast<int>(reports_.size()), reportsBefore + 1);
        const QString message = reports_.back().message;
        QVERIFY2(message.contains(QStringLiteral("pipe support")) && message.contains(QStringLiteral("0:0")),
                 qPrintable(message));
        QCOMPARE(panel().modeBox()->currentIndex(), modeBefore);
        QVERIFY2(!window_->controller().busy(), "a refused choice runs nothing");
    }

    void sameDeviceTwiceRunsWithItsNote() {
        const auto reportsBefore = reports_.size();
        selectData(panel().consumerBox(), QStringLiteral("0:0"));
        QVERIFY2(panel().pairNote()->text().contains(QStringLiteral("same device")),
                 qPrintable(panel().pairNote()->text()));
        QTRY_VERIFY_WITH_TIMEOUT(ranOn(QStringLiteral("0:0")), kResultTimeoutMs);
        const RunOutcome& outcome = *window_->lastOutcome();
        QCOMPARE(outcome.twoDevices->overlapNs, std::uint64_t{0});
        const ImageRGBA8 convolved = convolve::referenceConvolve(image_, panel().filter());
        QCOMPARE(test::part<HistogramView>(*window_)->histogram(), test::referenceOf(convolved, bins()));
        QCOMPARE(reports_.size(), reportsBefore);
    }

    void devicesOfTwoPlatformsAreRefusedWithTheEnginesReason() {
        QVERIFY(settled());
        // A fake device of a second platform beside the real ones.
        std::vector<DeviceInfo> devices = window_->controller().devices();
        DeviceInfo other;
        other.platformIndex = 1;
        other.platformName = "Other platform";
        other.name = "Fake GPU";
        devices.push_back(other);
        panel().setDevices(devices);
        QCOMPARE(panel().consumerBox()->currentData().toString(), QStringLiteral("0:0"));  // kept
        const int reportsBefore = static_cast<int>(reports_.size());
        selectData(panel().consumerBox(), QStringLiteral("1:0"));
        QCOMPARE(static_cast<int>(reports_.size()), reportsBefore + 1);
        const QString message = reports_.back().message;
        QVERIFY2(message.contains(QStringLiteral("two platforms")) && message.contains(QStringLiteral("1:0")),
                 qPrintable(message));
        QCOMPARE(panel().consumerBox()->currentData().toString(), QStringLiteral("0:0"));
        QVERIFY2(!window_->controller().busy(), "a refused choice runs nothing");
        panel().setDevices(window_->controller().devices());
    }
};

QTEST_MAIN(TransformTwoDevicesTest)
#include "transform_two_devices_test.moc"
