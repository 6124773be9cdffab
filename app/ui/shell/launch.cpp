#include "ui/shell/launch.hpp"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QImage>
#include <QPixmap>
#include <QTimer>
#include <iostream>

#include "engine/ops/histogram/histogram.hpp"
#include "engine/stages/shared_options.hpp"
#include "engine/stages/stage.hpp"
#include "io/command_line.hpp"
#include "io/export.hpp"
#include "io/files/filter_file.hpp"
#include "io/image_io.hpp"
#include "ui/shell/app_settings.hpp"
#include "ui/shell/export_actions.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/work/frame_measurement.hpp"

namespace hs::ui {

namespace {

// Long enough for the docks' plots to lay out and repaint after the result arrived.
constexpr int kSettleMs = 200;

QString strategyNames() {
    QStringList names;
    for (const auto* strategy : histogram::strategies()) names << QString::fromUtf8(strategy->name());
    return names.join(QStringLiteral(", "));
}

}  // namespace

std::optional<LaunchOptions> parseLaunchOptions(const QStringList& arguments) {
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("HistoScope: a workbench for OpenCL image kernels."));
    const QCommandLineOption helpOption = io::helpOption();
    const QCommandLineOption versionOption(QStringLiteral("version"), QStringLiteral("Show the version."));
    const QCommandLineOption open({QStringLiteral("o"), QStringLiteral("open")},
                                  QStringLiteral("Open IMAGE."), QStringLiteral("IMAGE"));
    const QCommandLineOption device = io::sharedOption(options::kDevice);
    // Without these options the app keeps the choices the user made last time.
    const QCommandLineOption strategy =
        io::rememberedOption(options::kStrategy, QStringLiteral("Known: %1.").arg(strategyNames()));
    const QCommandLineOption bins = io::rememberedOption(options::kBins);
    const QCommandLineOption angle = io::sharedOption(options::kAngle);
    const QCommandLineOption sampling = io::sharedOption(options::kSampling);
    const QCommandLineOption filter = io::sharedOption(options::filterOption());
    const QCommandLineOption ignoreTransparent = io::sharedOption(options::kIgnoreTransparent);
    const QCommandLineOption fitCanvas = io::sharedOption(options::kFitCanvas);
    const QCommandLineOption scopes(
        QStringLiteral("scopes"),
        QStringLiteral(
            "Open the Scopes dock with these scopes, comma-separated: waveform, parade, vectorscope."),
        QStringLiteral("LIST"));
    const QCommandLineOption roi = io::sharedOption(options::kRoi);
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("After the first result, save the window to FILE (PNG)."), QStringLiteral("FILE"));
    const QCommandLineOption histogramExport(
        QStringLiteral("export-histogram"),
        QStringLiteral("After the first result, export the histogram to FILE (.csv or .json), as File ▸ "
                       "Export ▸ Histogram does."),
        QStringLiteral("FILE"));
    const QCommandLineOption quit(
        QStringLiteral("quit"),
        QStringLiteral("Exit after the first result (and the screenshot); problems go "
                       "to stderr and set the exit code."));
    const QCommandLineOption display(
        QStringLiteral("display-path"),
        QStringLiteral(
            "How processed images reach the view: auto (OpenCL writes the view's texture where the "
            "driver shares it with OpenGL, else through the host) or copy (always through the "
            "host)."),
        QStringLiteral("PATH"), QStringLiteral("auto"));
    const QCommandLineOption measureFrames(
        QStringLiteral("measure-frames"),
        QStringLiteral("After the first result, run the pipeline N more times as Run ×N does and write the "
                       "per-frame figures (wall clock on the GUI thread and on the worker, the timing view's "
                       "totals; min / median / max) to --measure-json, then take the screenshot."),
        QStringLiteral("N"));
    const QCommandLineOption measureJson(QStringLiteral("measure-json"),
                                         QStringLiteral("Where --measure-frames writes its figures (JSON)."),
                                         QStringLiteral("FILE"));
    const QCommandLineOption sweep(
        QStringLiteral("sweep"),
        QStringLiteral("After the first result, run a sweep on the Kernel tab's Sweep page, e.g. "
                       "local-atomic:WG=32,64:COPIES=1,2 (STRATEGY, or KIND/STRATEGY, and two tunables with "
                       "their values), then take the screenshot."),
        QStringLiteral("SPEC"));
    parser.addOption(sweep);
    parser.addOptions({helpOption, versionOption, open, device, strategy, bins, ignoreTransparent, angle,
                       sampling, fitCanvas, filter, scopes, roi, display, screenshot, histogramExport,
                       measureFrames, measureJson, quit});
    // The flag of every image stage kind that no parameter adds (--equalize), as histoscope-cli pipeline has.
    QStringList stageFlags;
    for (const auto* kind : stages::kinds()) {
        if (!kind->producesImage() || !kind->trigger().empty()) continue;
        const QString name =
            QString::fromUtf8(kind->name().data(), static_cast<qsizetype>(kind->name().size()));
        parser.addOption(QCommandLineOption(
            name, QString::fromUtf8(kind->help().data(), static_cast<qsizetype>(kind->help().size()))));
        stageFlags << name;
    }
    parser.addPositionalArgument(QStringLiteral("IMAGE"), QStringLiteral("Image to open."),
                                 QStringLiteral("[IMAGE]"));

    if (!parser.parse(arguments)) throw UsageError(parser.errorText().toStdString());
    if (parser.isSet(helpOption)) {
        std::cout << io::helpText(parser, QStringLiteral("histoscope [options] [IMAGE]")).toStdString();
        return std::nullopt;
    }
    if (parser.isSet(versionOption)) {
        std::cout << QCoreApplication::applicationName().toStdString() << ' '
                  << QCoreApplication::applicationVersion().toStdString() << '\n';
        return std::nullopt;
    }

    LaunchOptions options;
    const QStringList positional = parser.positionalArguments();
    if (positional.size() > 1 || (positional.size() == 1 && parser.isSet(open)))
        throw UsageError(
            "expected one image to open, got " + positional.join(' ').toStdString() +
            (parser.isSet(open) ? " and --open " + parser.value(open).toStdString() : std::string()));
    options.image = parser.isSet(open) ? parser.value(open) : positional.value(0);
    options.device = parser.value(device);
    // The registry's spelling, whatever case was typed: the strategy box knows strategies by that name.
    if (parser.isSet(strategy))
        options.strategy =
            QString::fromUtf8(histogram::findStrategy(parser.value(strategy).toStdString()).name());
    if (parser.isSet(bins)) options.bins = options::parseBins(parser.value(bins).toStdString());
    options.ignoreTransparent = parser.isSet(ignoreTransparent);
    if (const auto rotation = options::parseRotation(io::givenValue(parser, angle.names().front()),
                                                     io::givenValue(parser, sampling.names().front()),
                                                     parser.isSet(fitCanvas))) {
        options.rotation = rotation->angleDegrees;
        options.sampling = rotation->filterMode;
        options.fitCanvas = rotation->fitCanvas;
    }
    if (parser.isSet(filter)) {
        options.filter = parser.value(filter);
        io::filterFromSpec(options.filter.toStdString());  // throws UsageError or InputError, in words
    }
    for (const QString& name : stageFlags)
        if (parser.isSet(name)) options.stages << name;
    if (parser.isSet(scopes))
        for (const QString& name : parser.value(scopes).split(QLatin1Char(',')))
            options.scopes.push_back(scope::parseKind(name.trimmed().toStdString(), "--scopes"));
    if (parser.isSet(roi)) options.roi = parseRegion(parser.value(roi).toStdString(), "--roi");
    options.sweep = parser.value(sweep);
    if (parser.isSet(sweep) && options.sweep.split(':').size() != 3)
        throw UsageError("--sweep: '" + options.sweep.toStdString() + "' is not STRATEGY:NAME=V,V:NAME=V,V");
    options.screenshot = parser.value(screenshot);
    if (!options.screenshot.isEmpty() &&
        QFileInfo(options.screenshot).suffix().toLower() != QLatin1String("png"))
        throw UsageError("--screenshot writes PNG files: '" + options.screenshot.toStdString() +
                         "' does not end in .png");
    options.histogramExport = parser.value(histogramExport);
    if (const QString suffix = QFileInfo(options.histogramExport).suffix().toLower();
        !options.histogramExport.isEmpty() && suffix != QLatin1String("csv") &&
        suffix != QLatin1String("json"))
        throw UsageError("--export-histogram writes .csv or .json files: '" +
                         options.histogramExport.toStdString() + "' ends in neither");
    options.quit = parser.isSet(quit);
    const QString path = parser.value(display).toLower();
    if (path != QLatin1String("auto") && path != QLatin1String("copy"))
        throw UsageError("--display-path takes auto or copy, not '" + parser.value(display).toStdString() +
                         "'");
    options.forceCopyDisplay = path == QLatin1String("copy");
    if (parser.isSet(measureFrames)) {
        bool number = false;
        options.measureFrames = parser.value(measureFrames).toInt(&number);
        if (!number || options.measureFrames < 1 || options.measureFrames > 10000)
            throw UsageError("--measure-frames takes a count from 1 to 10000, not '" +
                             parser.value(measureFrames).toStdString() + "'");
    }
    options.measureJson = parser.value(measureJson);
    if ((options.measureFrames > 0) != !options.measureJson.isEmpty())
        throw UsageError("--measure-frames and --measure-json go together");
    return options;
}

QString startupImage(const AppSettings& settings, const QStringList& sampleCandidates) {
    for (const QString& path : settings.recentFiles() + sampleCandidates) {
        if (QFileInfo(path).isFile()) return path;
    }
    return {};
}

Launcher::Launcher(MainWindow& window, LaunchOptions options, QObject* parent)
    : QObject(parent), window_(window), options_(std::move(options)) {
    if (options_.quit)
        window_.setErrorReporter(
            [this](const ErrorReport& problem) { finish(exitCodeFor(problem.kind), problem.message); });
    if (!options_.device.isEmpty()) window_.chooseDevice(options_.device);
    if (!options_.strategy.isEmpty()) window_.chooseStrategy(options_.strategy);
    if (options_.bins) window_.setBins(*options_.bins);
    if (options_.ignoreTransparent) window_.setIgnoreTransparent(true);
    window_.setForceCopyDisplay(options_.forceCopyDisplay);
    connect(&window_, &MainWindow::devicesShown, this, &Launcher::checkStrategy);
    connect(&window_, &MainWindow::resultShown, this, &Launcher::firstResult);
    connect(&window_, &MainWindow::imageOnScreenChanged, this, &Launcher::firstResult);
}

Launcher::~Launcher() = default;

void Launcher::start(const QString& image) {
    if (options_.rotation) window_.setRotation(*options_.rotation, options_.sampling, options_.fitCanvas);
    if (!options_.filter.isEmpty()) {
        try {
            // Checked by parseLaunchOptions already; a filter file may have gone since.
            window_.setFilter(options_.filter);
        } catch (const Error& e) {
            return fail(e.kind(), tr("Filter not available"), QString::fromUtf8(e.what()));
        }
    }
    for (const QString& stage : options_.stages) window_.switchStageOn(stage);
    if (!options_.scopes.empty()) window_.showScopes(options_.scopes);
    if (!image.isEmpty()) {
        window_.openImage(image);
    } else if (options_.quit) {
        // Nothing would ever produce the result the scripted mode waits for.
        fail(ErrorKind::Input, tr("No image"), tr("no image to open: name one with --open"));
    }
}

void Launcher::checkStrategy() {
    // The strategy box falls back to a supported strategy; a scripted run must not silently measure another.
    const auto* requested = window_.currentRequest().strategy;
    if (options_.strategy.isEmpty() ||
        (requested && QString::fromUtf8(requested->name()) == options_.strategy))
        return;
    const auto device = window_.currentDevice();
    const QString where =
        device ? tr("device %1").arg(QString::fromStdString(device->name)) : tr("no OpenCL device");
    fail(ErrorKind::OpenCl, tr("Strategy not available"),
         tr("%1: strategy %2 unsupported: %3")
             .arg(where, options_.strategy, window_.strategyUnsupportedReason(options_.strategy)));
}

void Launcher::firstResult() {
    // The first result and the image on screen, in either order.
    if (done_ || shot_ || !window_.lastOutcome() || !window_.imageOnScreen()) return;
    if (options_.roi && window_.model().histogramContext().roi != options_.roi) {
        // The region belongs to the image opened, and is checked against its size after the stages.
        if (regionSet_) return;  // its result is still on the way
        regionSet_ = true;
        const io::HistogramContext& context = window_.model().histogramContext();
        try {
            requireInside(*options_.roi, context.imageWidth, context.imageHeight, "--roi");
        } catch (const Error& e) {
            return fail(e.kind(), tr("Region not set"), QString::fromUtf8(e.what()));
        }
        window_.setRegion(*options_.roi);
        return;
    }
    shot_ = true;
    if (options_.measureFrames > 0) {
        // The first result was the warm-up (program builds, the display's texture and sharing context).
        measurement_ =
            std::make_unique<FrameMeasurement>(options_.measureFrames, FrameMeasurement::Clock::now());
        connect(&window_, &MainWindow::resultShown, this, &Launcher::measuredFrame);
        measuredRequest_ = window_.runRepeated(options_.measureFrames);
        if (measuredRequest_ == 0)
            fail(ErrorKind::Usage, tr("Nothing measured"), tr("--measure-frames: the window cannot run now"));
        return;
    }
    afterResults();
}

void Launcher::measuredFrame() {
    // A result of an earlier request still in flight is shown too (the view follows a drag): not a frame.
    if (done_ || !measurement_ || window_.lastOutcome()->requestId != measuredRequest_) return;
    if (!measurement_->add(*window_.lastOutcome(), FrameMeasurement::Clock::now())) return;
    disconnect(&window_, &MainWindow::resultShown, this, &Launcher::measuredFrame);
    try {
        io::writeFileAtomically(options_.measureJson,
                                QByteArray::fromStdString(measurement_->json(window_.imagePath())));
    } catch (const Error& e) {
        return fail(e.kind(), tr("Measurement not saved"), QString::fromUtf8(e.what()));
    }
    measurement_.reset();
    afterResults();
}

void Launcher::afterResults() {
    if (!options_.sweep.isEmpty() && !swept_) {
        swept_ = true;
        connect(&window_, &MainWindow::sweepShown, this, &Launcher::afterResults, Qt::SingleShotConnection);
        if (!window_.runSweep(options_.sweep))
            fail(ErrorKind::Usage, tr("Sweep not run"), window_.sweepStatus());
        return;
    }
    if (!options_.histogramExport.isEmpty()) {
        try {
            window_.exports().exportHistogram(options_.histogramExport);
        } catch (const Error& e) {
            return fail(e.kind(), tr("Histogram not exported"), QString::fromUtf8(e.what()));
        }
    }
    if (options_.screenshot.isEmpty()) {
        if (options_.quit) finish(0);
        return;
    }
    QTimer::singleShot(kSettleMs, this, [this] {
        saveScreenshot();
        if (options_.quit) finish(0);
    });
}

void Launcher::saveScreenshot() {
    try {
        io::saveImage(options_.screenshot, window_.grab().toImage());
    } catch (const Error& e) {
        fail(ErrorKind::Input, tr("Screenshot not saved"), QString::fromUtf8(e.what()));
    }
}

void Launcher::fail(ErrorKind kind, const QString& title, const QString& message) {
    window_.reportProblem({kind, title, message, {}, {}});
}

void Launcher::finish(int exitCode, const QString& problem) {
    if (done_) return;
    done_ = true;
    if (!problem.isEmpty()) std::cerr << "histoscope: " << problem.toStdString() << std::endl;
    emit finished(exitCode);
}

}  // namespace hs::ui
