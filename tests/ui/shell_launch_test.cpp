// The command line: option parsing, the startup image, and the scripted mode both in process (the screenshot
// has the window's size) and as the real executable (exit codes and the one-line reason on stderr).
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QGroupBox>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest/QtTest>
#include <cmath>

#include "engine/ops/convolve/filter.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/pipeline/pipeline.hpp"
#include "engine/runtime/error.hpp"
#include "io/export.hpp"
#include "io/image_io.hpp"
#include "ui/shell/app_settings.hpp"
#include "ui/shell/device_panel.hpp"
#include "ui/shell/export_actions.hpp"
#include "ui/shell/launch.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/shell/strategy_box.hpp"
#include "ui/shell/transform_panel.hpp"
#include "ui/views/histogram_view.hpp"
#include "ui/views/timing_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;
using namespace hs::ui::test;

namespace {

constexpr int kTimeoutMs = 120000;

struct Run {
    int exitCode = -1;
    QByteArray standardError;
};

// The scripted mode in process, as main() drives it; the exit code it finished with, or -1 when it did not.
int runScripted(MainWindow& window, const LaunchOptions& options, const QString& image) {
    auto* launcher = new Launcher(window, options, &window);  // reports for the window as long as it lives
    QSignalSpy finished(launcher, &Launcher::finished);
    window.show();
    launcher->start(image);
    return finished.count() > 0 || finished.wait(kTimeoutMs) ? finished.front().at(0).toInt() : -1;
}

Run runApp(const QStringList& arguments,
           const QProcessEnvironment& environment = QProcessEnvironment::systemEnvironment()) {
    QProcess process;
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(HISTOSCOPE_GUI_EXECUTABLE), arguments);
    process.waitForFinished(kTimeoutMs);
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            process.readAllStandardError()};
}

}  // namespace

class LaunchTest : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir dir_;
    ImageRGBA8 image_ = test::randomImage(120, 80, 31);
    QString imagePath_;

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        imagePath_ = dir_.filePath(QStringLiteral("image.png"));
        io::saveImage(imagePath_, image_);
    }

    void parsesTheScriptedMode() {
        const QString strategy = QString::fromUtf8(histogram::strategies().back()->name());
        const auto options = parseLaunch({"--open", "a.png", "--device", "0:1", "--strategy", strategy,
                                          "--bins", "64", "--screenshot", "out.png", "--quit"});
        QCOMPARE(options.image, QStringLiteral("a.png"));
        QCOMPARE(options.device, QStringLiteral("0:1"));
        QCOMPARE(options.strategy, strategy);
        QCOMPARE(options.bins, std::optional<int>(64));
        QVERIFY(!options.ignoreTransparent);
        QCOMPARE(options.screenshot, QStringLiteral("out.png"));
        QVERIFY(options.quit);

        const auto positional = parseLaunch({"b.jpg"});
        QCOMPARE(positional.image, QStringLiteral("b.jpg"));
        QVERIFY(!positional.quit && !positional.bins && positional.strategy.isEmpty());
        QVERIFY(!positional.rotation && positional.filter.isEmpty());

        const auto transforms =
            parseLaunch({"--angle", "-33.5", "--sampling", "nearest", "--filter", "gaussian:1.5:7"});
        QCOMPARE(transforms.rotation, std::optional<double>(-33.5));
        QCOMPARE(transforms.sampling, rotate::FilterMode::Nearest);
        QCOMPARE(transforms.filter, QStringLiteral("gaussian:1.5:7"));
        QVERIFY(parseLaunch({"--ignore-transparent"}).ignoreTransparent);
        QVERIFY(!transforms.fitCanvas);
        QVERIFY(parseLaunch({"--angle", "108", "--fit-canvas"}).fitCanvas);

        // The rules histoscope-cli applies: any finite angle, reduced into (-180, 180]; names in any case.
        QCOMPARE(parseLaunch({"--angle", "400"}).rotation, std::optional<double>(40));
        QCOMPARE(parseLaunch({"--angle=-180", "--sampling", "NEAREST"}).rotation, std::optional<double>(180));
        QCOMPARE(parseLaunch({"--strategy", strategy.toUpper()}).strategy, strategy);

        QVERIFY(!transforms.forceCopyDisplay && transforms.measureFrames == 0);
        QVERIFY(parseLaunch({"--display-path", "COPY"}).forceCopyDisplay);
        QVERIFY(!parseLaunch({"--display-path", "auto"}).forceCopyDisplay);
        const auto measured = parseLaunch({"--measure-frames", "7", "--measure-json", "m.json"});
        QCOMPARE(measured.measureFrames, 7);
        QCOMPARE(measured.measureJson, QStringLiteral("m.json"));
    }

    void refusesBadOptions_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("reason");
        QTest::newRow("bins zero") << QStringList{"--bins", "0"}
                                   << "--bins must be an integer within 1..256, got '0'";
        QTest::newRow("bins 257") << QStringList{"--bins", "257"}
                                  << "--bins must be an integer within 1..256, got '257'";
        QTest::newRow("bins word") << QStringList{"--bins", "many"}
                                   << "--bins must be an integer within 1..256, got 'many'";
        QTest::newRow("strategy") << QStringList{"--strategy", "fastest"} << "unknown strategy 'fastest'";
        QTest::newRow("two images") << QStringList{"a.png", "b.png"} << "expected one image to open";
        QTest::newRow("screenshot") << QStringList{"--screenshot", "out.jpg"} << "does not end in .png";
        QTest::newRow("unknown") << QStringList{"--frobnicate"} << "frobnicate";
        QTest::newRow("sweep") << QStringList{"--sweep", "local-atomic:WG=8"}
                               << "is not STRATEGY:NAME=V,V:NAME=V,V";
        QTest::newRow("angle word") << QStringList{"--angle", "left"}
                                    << "--angle expects a finite number of degrees, got 'left'";
        QTest::newRow("angle nan") << QStringList{"--angle", "nan"}
                                   << "--angle expects a finite number of degrees, got 'nan'";
        QTest::newRow("angle inf") << QStringList{"--angle", "inf"}
                                   << "--angle expects a finite number of degrees, got 'inf'";
        QTest::newRow("old rotate name") << QStringList{"--rotate", "30"} << "rotate";
        QTest::newRow("sampling alone")
            << QStringList{"--sampling", "nearest"} << "--sampling applies to --angle";
        QTest::newRow("fit canvas alone") << QStringList{"--fit-canvas"} << "--fit-canvas applies to --angle";
        QTest::newRow("sampling word") << QStringList{"--angle", "1", "--sampling", "cubic"}
                                       << "--sampling must be linear or nearest, got 'cubic'";
        QTest::newRow("filter name") << QStringList{"--filter", "blur"} << "unknown filter 'blur'";
        QTest::newRow("filter parameters") << QStringList{"--filter", "box:99"} << "within 1..15";
        QTest::newRow("display") << QStringList{"--display-path", "shared"}
                                 << "--display-path takes auto or copy";
        QTest::newRow("frames zero") << QStringList{"--measure-frames", "0", "--measure-json", "m.json"}
                                     << "--measure-frames takes a count from 1 to 10000, not '0'";
        QTest::newRow("frames alone")
            << QStringList{"--measure-frames", "5"} << "--measure-frames and --measure-json go together";
        QTest::newRow("json alone") << QStringList{"--measure-json", "m.json"}
                                    << "--measure-frames and --measure-json go together";
    }

    void refusesBadOptions() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, reason);
        try {
            parseLaunch(arguments);
            QFAIL("accepted");
        } catch (const UsageError& e) {
            QVERIFY2(QString::fromUtf8(e.what()).contains(reason), e.what());
        }
    }

    void startupImagePrefersRecentThenSample() {
        AppSettings settings(dir_.filePath(QStringLiteral("startup.ini")));
        const QString sample = dir_.filePath(QStringLiteral("sample.png"));
        io::saveImage(sample, image_);
        const QString missing = dir_.filePath(QStringLiteral("gone.png"));
        QCOMPARE(startupImage(settings, {missing, sample}), sample);  // first start: the sample
        settings.addRecentFile(missing);
        QCOMPARE(startupImage(settings, {sample}), sample);  // a recent file that vanished is passed over
        settings.addRecentFile(imagePath_);
        QCOMPARE(startupImage(settings, {sample}), QFileInfo(imagePath_).absoluteFilePath());
        QCOMPARE(startupImage(AppSettings(dir_.filePath(QStringLiteral("empty.ini"))), {missing}), QString());
    }

    void scriptedScreenshotHasTheWindowSize() {
        AppSettings settings(dir_.filePath(QStringLiteral("scripted.ini")));
        MainWindow window(settings);
        LaunchOptions options;
        options.strategy = QString::fromUtf8(histogram::strategies().front()->name());
        options.bins = 64;
        options.screenshot = test::artifactPath(QStringLiteral("shell_scripted_window.png"));
        options.quit = true;
        QFile::remove(options.screenshot);
        QCOMPARE(runScripted(window, options, imagePath_), 0);
        QCOMPARE(test::part<QSpinBox>(window, "bins")->value(), 64);
        QCOMPARE(test::part<HistogramView>(window)->histogram(), test::referenceOf(image_, 64));
        const QImage shot(options.screenshot);
        QVERIFY(!shot.isNull());
        QCOMPARE(shot.size(), window.size() * window.devicePixelRatio());
        // Not blank: the dark image background and light widget chrome both appear.
        QVERIFY(shot.pixelColor(shot.width() / 2, shot.height() / 3) !=
                shot.pixelColor(2, shot.height() / 2));
    }

    void scriptedSweepRunsTheGridBeforeTheScreenshot() {
        AppSettings settings(dir_.filePath(QStringLiteral("sweep.ini")));
        MainWindow window(settings);
        QSignalSpy swept(&window, &MainWindow::sweepShown);
        LaunchOptions options = parseLaunch({"--sweep", "local-atomic:WG=8,16:COPIES=1,2", "--quit"});
        QCOMPARE(options.sweep, QStringLiteral("local-atomic:WG=8,16:COPIES=1,2"));
        options.screenshot = test::artifactPath(QStringLiteral("shell_scripted_sweep.png"));
        QFile::remove(options.screenshot);
        QCOMPARE(runScripted(window, options, imagePath_), 0);
        // The screenshot waited for the grid: its heat map was shown first, and the page names the best.
        QCOMPARE(swept.count(), 1);
        QVERIFY2(window.sweepStatus().contains(QStringLiteral("local-atomic on")),
                 qPrintable(window.sweepStatus()));
        QVERIFY2(window.sweepStatus().contains(QStringLiteral("best WG=")), qPrintable(window.sweepStatus()));
        QVERIFY(!QImage(options.screenshot).isNull());
        // A strategy without tunables is refused with the reason, and the scripted run fails.
        MainWindow other(settings);
        QVERIFY(!other.runSweep(QStringLiteral("serial:WG=8:COPIES=1")));
        QVERIFY(other.sweepStatus().contains(QStringLiteral("no strategy serial")));
    }

    void scriptedTransformsReachThePanelAndTheResult() {
        AppSettings settings(dir_.filePath(QStringLiteral("transforms.ini")));
        MainWindow window(settings);
        // 450 degrees is the quarter turn the panel shows as 90, as histoscope-cli reduces it.
        const LaunchOptions options =
            parseLaunch({"--angle", "450", "--sampling", "nearest", "--filter", "sharpen", "--quit"});
        QCOMPARE(runScripted(window, options, imagePath_), 0);
        QCOMPARE(test::part<TransformPanel>(window)->angle(), 90.0);
        // Integer stages: the histogram equals the reference's exactly.
        pipeline::Spec spec;
        spec.rotation = pipeline::RotateStage{{90.0, rotate::FilterMode::Nearest}};
        spec.convolution = pipeline::ConvolveStage{convolve::sharpenFilter()};
        const ImageRGBA8 expected = pipeline::referencePipeline(image_, spec);
        const int bins = test::part<QSpinBox>(window, "bins")->value();
        QCOMPARE(test::part<HistogramView>(window)->histogram(), test::referenceOf(expected, bins));
        QVERIFY(test::part<TransformPanel>(window)->rotationGroup()->isChecked());
        QCOMPARE(test::part<TransformPanel>(window)->filterBox()->currentData().toString(),
                 QStringLiteral("sharpen"));
    }

    // A quarter turn of the 120 x 80 image leaves 2 x 20 x 80 transparent pixels of padding: with
    // --ignore-transparent they are left out of R, G, B and luma.
    void scriptedIgnoreTransparentLeavesThePaddingOut() {
        AppSettings settings(dir_.filePath(QStringLiteral("transparent.ini")));
        MainWindow window(settings);
        LaunchOptions options;
        options.bins = 100;
        options.rotation = 90;
        options.sampling = rotate::FilterMode::Nearest;
        options.ignoreTransparent = true;
        options.quit = true;
        QCOMPARE(runScripted(window, options, imagePath_), 0);
        QVERIFY(test::part<QCheckBox>(window, "ignoreTransparent")->isChecked());
        pipeline::Spec spec;
        spec.rotation = pipeline::RotateStage{{90.0, rotate::FilterMode::Nearest}};
        const ImageRGBA8 expected = pipeline::referencePipeline(image_, spec);
        const auto ignoring =
            histogram::referenceHistogram(expected.pixels.data(), expected.pixelCount(), 100, true);
        QCOMPARE(test::part<HistogramView>(window)->histogram(), ignoring);
        const auto everyPixel = test::referenceOf(expected, 100);
        QVERIFY(everyPixel[histogram::Channel::Luma][0] - ignoring[histogram::Channel::Luma][0] >=
                2 * 20 * 80);
    }

    // --measure-frames runs the pipeline N more times after the first result, through the display path asked
    // for, and writes one figure per frame; the timing view holds the first run and the N measured ones.
    void scriptedMeasurementRunsTheFramesThroughTheDisplay_data() {
        QTest::addColumn<bool>("forceCopy");
        QTest::newRow("auto") << false;
        QTest::newRow("copy") << true;
    }
    void scriptedMeasurementRunsTheFramesThroughTheDisplay() {
        QFETCH(bool, forceCopy);
        AppSettings settings(dir_.filePath(QStringLiteral("measure.ini")));
        MainWindow window(settings);
        LaunchOptions options = parseLaunch({"--angle", "33", "--filter", "box:5", "--quit"});
        options.forceCopyDisplay = forceCopy;
        options.measureFrames = 3;
        options.measureJson = dir_.filePath(QStringLiteral("measure.json"));
        options.screenshot = dir_.filePath(QStringLiteral("measure.png"));
        QFile::remove(options.measureJson);
        QCOMPARE(runScripted(window, options, imagePath_), 0);
        QVERIFY(!QImage(options.screenshot).isNull());
        QCOMPARE(test::part<TimingView>(window)->runs().size(), std::size_t(1 + 3));

        QFile file(options.measureJson);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QJsonObject json = QJsonDocument::fromJson(file.readAll()).object();
        QCOMPARE(json["frames"].toInt(), 3);
        QCOMPARE(json["width"].toInt(), 120);
        QCOMPARE(json["height"].toInt(), 80);
        QCOMPARE(json["image"].toString(), imagePath_);
        QVERIFY2(json["strategies"].toString().startsWith(QStringLiteral("rotate ")),
                 qPrintable(json["strategies"].toString()));
        // The GL view's link draws every processed frame from its texture, by the path asked for.
        QCOMPARE(json["display"].toString(), QStringLiteral("copy"));
        QCOMPARE(json["display_reason"].toString() == QStringLiteral("copy path requested"), forceCopy);
        QVERIFY(std::abs(json["wall_per_frame_ms"].toDouble() - json["wall_total_ms"].toDouble() / 3) <=
                1e-6 * json["wall_total_ms"].toDouble());
        for (const char* name : {"shown_interval_ms", "worker_ms"}) {
            const QJsonObject figures = json[QLatin1String(name)].toObject();
            QVERIFY2(figures["min"].toDouble() > 0, name);
            QVERIFY2(figures["min"].toDouble() <= figures["median"].toDouble(), name);
            QVERIFY2(figures["median"].toDouble() <= figures["max"].toDouble(), name);
        }
        // The timing view's totals: the kernels, the filter's taps uploaded each frame (the image stays on
        // the device after the warm-up), and the hand-off to the texture.
        const QJsonObject totals = json["timing_totals_ms"].toObject();
        for (const char* stage : {"kernel", "upload", "readback", "interop"})
            QVERIFY2(totals[QLatin1String(stage)].toObject()["median"].toDouble() > 0, stage);
    }

    // What docs and people look at: the app as shipped, on its bundled sample (opened on first start, as the
    // scripted mode starts from default settings), plain and with the transforms of the README's example.
    void scriptedScreenshotsOfTheSample() {
        const QString plainPath = test::artifactPath(QStringLiteral("app_sample.png"));
        const QString transformedPath =
            test::artifactPath(QStringLiteral("app_sample_rotate33_gaussian.png"));
        QFile::remove(plainPath);
        QFile::remove(transformedPath);
        const Run plain = runApp({"--screenshot", plainPath, "--quit"});
        QVERIFY2(plain.exitCode == 0 && plain.standardError.isEmpty(), plain.standardError.constData());
        const Run transformed =
            runApp({"--angle", "33", "--filter", "gaussian:1.5", "--screenshot", transformedPath, "--quit"});
        QVERIFY2(transformed.exitCode == 0 && transformed.standardError.isEmpty(),
                 transformed.standardError.constData());

        const QImage plainShot(plainPath);
        const QImage transformedShot(transformedPath);
        QVERIFY(!plainShot.isNull());
        QCOMPARE(transformedShot.size(), plainShot.size());
        // A first start fills most of the 1600 × 1000 test screen.
        QVERIFY2(plainShot.width() >= 1200 && plainShot.height() >= 800,
                 qPrintable(QStringLiteral("%1 × %2").arg(plainShot.width()).arg(plainShot.height())));
        // The transformed picture and its histogram change far more than the figures in the text do.
        qint64 differing = 0;
        for (int y = 0; y < plainShot.height(); ++y) {
            for (int x = 0; x < plainShot.width(); ++x)
                differing += plainShot.pixel(x, y) != transformedShot.pixel(x, y);
        }
        const double share = static_cast<double>(differing) / (plainShot.width() * plainShot.height());
        qInfo("rotated and filtered: %.1f %% of the window's pixels differ", 100 * share);
        QVERIFY(share > 0.05);
    }

    // Issue 8: the scripted mode drives the window through the requests a user's actions make. The same
    // settings made by hand in the window's widgets and menus (File ▸ Open, the device and strategy boxes,
    // the bins, the Transform panel, File ▸ Export ▸ Export histogram) write the same file, byte for byte, as
    // the executable's command line; and both hold the reference histogram of the rotated and sharpened
    // pixels.
    void scriptedModeWritesWhatTheMenusWriteByHand() {
        const QString strategy = QStringLiteral("private-uchar");  // a device strategy PoCL runs
        const QString scriptedPath = dir_.filePath(QStringLiteral("scripted.csv"));
        const Run scripted =
            runApp({"--open", imagePath_, "--device", "0:1", "--strategy", strategy, "--bins", "100",
                    "--ignore-transparent", "--angle", "90", "--sampling", "nearest", "--filter", "sharpen",
                    "--export-histogram", scriptedPath, "--quit"});
        QVERIFY2(scripted.exitCode == 0 && scripted.standardError.isEmpty(),
                 scripted.standardError.constData());

        test::PrivateWindow byHand;
        MainWindow& window = byHand.window;
        QList<ErrorReport> reports;
        QVERIFY(test::showWithDevices(window, reports, kTimeoutMs));
        QVERIFY2(window.controller().devices().size() >= 2,
                 "the test expects POCL_DEVICES=\"pthread pthread\"");
        QSignalSpy loaded(&window, &MainWindow::imageLoaded);
        test::answerNextFileDialog(imagePath_);
        window.action(MainWindow::Command::Open)->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kTimeoutMs);

        QComboBox* devices = test::part<DevicePanel>(window)->deviceBox();
        for (int i = 0; i < devices->count(); ++i)
            if (devices->itemText(i).startsWith(QStringLiteral("0:1 "))) devices->setCurrentIndex(i);
        QComboBox* strategies = test::part<StrategyBox>(window)->comboBox();
        strategies->setCurrentIndex(strategies->findText(strategy));
        test::part<QSpinBox>(window, "bins")->setValue(100);
        QCheckBox* ignoreTransparent = test::part<QCheckBox>(window, "ignoreTransparent");
        QVERIFY(!ignoreTransparent->isChecked());  // a first start counts every pixel
        ignoreTransparent->click();
        TransformPanel& panel = *test::part<TransformPanel>(window);
        panel.rotationGroup()->setChecked(true);
        panel.angleBox()->setValue(90);
        panel.samplingBox()->setCurrentIndex(
            panel.samplingBox()->findData(static_cast<int>(rotate::FilterMode::Nearest)));
        panel.convolutionGroup()->setChecked(true);
        panel.filterBox()->setCurrentIndex(panel.filterBox()->findData(QStringLiteral("sharpen")));
        QTRY_VERIFY_WITH_TIMEOUT(
            !window.controller().busy() && window.lastOutcome() && window.lastOutcome()->request.convolution,
            kTimeoutMs);
        const RunRequest& ran = window.lastOutcome()->request;
        QCOMPARE(ran.device, QStringLiteral("0:1"));
        QCOMPARE(QString::fromUtf8(ran.strategy->name()), strategy);
        QCOMPARE(ran.bins, 100);
        QVERIFY(ran.ignoreTransparent);

        const QString byHandPath = dir_.filePath(QStringLiteral("by-hand.csv"));
        QAction* exportHistogram = nullptr;
        for (QAction* action : window.exports().actions())
            if (action->text() == QStringLiteral("Export &histogram…")) exportHistogram = action;
        QVERIFY(exportHistogram && exportHistogram->isEnabled());
        test::answerNextFileDialog(byHandPath);
        exportHistogram->trigger();
        QVERIFY2(reports.isEmpty(), test::messagesOf(reports).constData());

        QFile scriptedFile(scriptedPath);
        QFile byHandFile(byHandPath);
        QVERIFY(scriptedFile.open(QIODevice::ReadOnly) && byHandFile.open(QIODevice::ReadOnly));
        const QByteArray written = scriptedFile.readAll();
        QCOMPARE(byHandFile.readAll(), written);
        // Both are the histogram asked for: the reference of the rotated and sharpened pixels, padding left
        // out.
        pipeline::Spec spec;
        spec.rotation = pipeline::RotateStage{{90.0, rotate::FilterMode::Nearest}};
        spec.convolution = pipeline::ConvolveStage{convolve::sharpenFilter()};
        const ImageRGBA8 expected = pipeline::referencePipeline(image_, spec);
        const auto reference =
            histogram::referenceHistogram(expected.pixels.data(), expected.pixelCount(), 100, true);
        QCOMPARE(test::part<HistogramView>(window)->histogram(), reference);
        const QByteArray csv = io::histogramCsv(reference);
        QVERIFY2(written.endsWith(csv), written.constData());
        QVERIFY2(written.contains("# device_selector: 0:1\n"), written.constData());
    }

    void helpNamesTheAppAndStatesTheDefaults() {
        QProcess process;
        process.start(QStringLiteral(HISTOSCOPE_GUI_EXECUTABLE), {QStringLiteral("--help")});
        QVERIFY(process.waitForFinished(kTimeoutMs));
        QCOMPARE(process.exitCode(), 0);
        const QString text = QString::fromUtf8(process.readAllStandardOutput());
        QCOMPARE(text.section(QLatin1Char('\n'), 0, 0),
                 QStringLiteral("Usage: histoscope [options] [IMAGE]"));
        QVERIFY2(!text.contains(QStringLiteral("--help-all")), qPrintable(text));
        for (const char* mention :
             {"-h, --help", "--angle <DEG>", "reduced into (-180, 180]", "--sampling <MODE>",
              "Default: linear.", "--strategy <NAME>", "--bins <N>", "as last used", "--device <SEL>",
              "$HISTOSCOPE_DEVICE", "--filter <SPEC>", "--display-path <PATH>", "--measure-frames <N>",
              "--measure-json <FILE>"})
            QVERIFY2(text.simplified().contains(QLatin1String(mention)), mention);  // Qt wraps the lines
        QVERIFY(!text.contains(QStringLiteral("--rotate")));
    }

    void executableExitCodes() {
        const QString shot = dir_.filePath(QStringLiteral("app.png"));
        const Run ok = runApp({"--open", imagePath_, "--bins", "16", "--screenshot", shot, "--quit"});
        QCOMPARE(ok.exitCode, 0);
        QVERIFY(QImage(shot).width() > 0);

        const Run usage = runApp({"--bins", "0", "--quit"});
        QCOMPARE(usage.exitCode, exitCodeFor(ErrorKind::Usage));
        QCOMPARE(usage.standardError.count('\n'), 1);
        for (const QStringList& arguments :
             {QStringList{"--angle", "nan", "--quit"}, QStringList{"--filter", "blur", "--quit"}}) {
            const Run refused = runApp(arguments);
            QCOMPARE(refused.exitCode, exitCodeFor(ErrorKind::Usage));
            QCOMPARE(refused.standardError.count('\n'), 1);
        }

        const QString noFilter = dir_.filePath(QStringLiteral("no-filter.txt"));
        const Run filter = runApp({"--open", imagePath_, "--filter", noFilter, "--quit"});
        QCOMPARE(filter.exitCode, exitCodeFor(ErrorKind::Input));
        QVERIFY2(filter.standardError.contains("no-filter.txt"), filter.standardError.constData());
        QCOMPARE(filter.standardError.count('\n'), 1);

        const QString missing = dir_.filePath(QStringLiteral("missing.png"));
        const Run input = runApp({"--open", missing, "--quit"});
        QCOMPARE(input.exitCode, exitCodeFor(ErrorKind::Input));
        QVERIFY2(input.standardError.contains("missing.png"), input.standardError.constData());
        QCOMPARE(input.standardError.count('\n'), 1);

        const Run device = runApp({"--open", imagePath_, "--device", "no such device", "--quit"});
        QCOMPARE(device.exitCode, exitCodeFor(ErrorKind::OpenCl));
        QVERIFY2(device.standardError.contains("no such device"), device.standardError.constData());
        QCOMPARE(device.standardError.count('\n'), 1);
    }

    // The app leaves stderr to the drivers (it captures nothing, unlike histoscope-cli): what a driver says
    // as it brings the process down, and a sanitizer's report of its fault, reach the terminal that started
    // the app. The only OpenCL driver is tests/cli/fatal_test_icd.cpp, which faults while the app lists the
    // devices (see tests/cli/fatal_messages_cli_test.cpp).
    void fatalMessagesReachStderr_data() {
        QTest::addColumn<QString>("fault");
        QTest::addColumn<QString>("report");
        QTest::newRow("abort") << QStringLiteral("abort") << QString();
        QTest::newRow("heap-overflow") << QStringLiteral("heap-overflow")
                                       << QStringLiteral("ERROR: AddressSanitizer: heap-buffer-overflow");
    }

    void fatalMessagesReachStderr() {
        QFETCH(QString, fault);
        QFETCH(QString, report);
#if !defined(__SANITIZE_ADDRESS__)  // the test is built with the app's flags
        if (!report.isEmpty()) QSKIP("reported only by the sanitizer build (./test.sh --sanitize)");
#endif
        const QString driver = qEnvironmentVariable("HISTOSCOPE_FATAL_TEST_ICD");
        QVERIFY2(QFileInfo(driver).isFile(), "ctest sets HISTOSCOPE_FATAL_TEST_ICD to the test driver");
        QTemporaryDir vendors;
        QFile icd(vendors.filePath(QStringLiteral("fatal.icd")));
        QVERIFY(icd.open(QIODevice::WriteOnly));
        icd.write(QFile::encodeName(driver) + '\n');
        icd.close();
        QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
        environment.insert(QStringLiteral("OCL_ICD_VENDORS"), vendors.path());
        environment.insert(QStringLiteral("FATAL_TEST_DRIVER_FAULT"), fault);
        environment.insert(QStringLiteral("ASAN_OPTIONS"), QStringLiteral("abort_on_error=1"));

        const Run died = runApp({"--open", imagePath_, "--quit"}, environment);
        QCOMPARE(died.exitCode, -1);  // a crash
        const QByteArray said = "fatal-test-driver: internal error (" + fault.toUtf8() + ")";
        QVERIFY2(died.standardError.contains(said), died.standardError.constData());
        QVERIFY2(died.standardError.contains(report.toUtf8()), died.standardError.constData());
    }
};

QTEST_MAIN(LaunchTest)
#include "shell_launch_test.moc"
