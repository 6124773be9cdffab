#pragma once

#include <QObject>
#include <QString>
#include <QStringList>
#include <memory>
#include <optional>

#include "engine/image/region.hpp"
#include "engine/ops/rotate/rotate.hpp"
#include "engine/ops/scope/scope.hpp"
#include "engine/runtime/error.hpp"

namespace hs::ui {

class AppSettings;
class FrameMeasurement;
class MainWindow;

// What the command line asks for. `histoscope IMAGE` opens a file; the scripted mode
// `histoscope --open IMG --device SEL --strategy NAME --bins N [--ignore-transparent] [--angle DEG
// [--sampling MODE] [--fit-canvas]] [--filter SPEC] [--equalize] [--scopes waveform,parade,vectorscope]
// [--roi X,Y,W,H] [--export-histogram OUT.csv|json] --screenshot OUT.png
// --quit` renders the window after the first result, exports the histogram, saves the window, and exits. With
// `--measure-frames N --measure-json OUT.json` it first runs the pipeline N more times as Run ×N does (the
// same requests, stages and display hand-off; `--display-path copy` forces the copy path) and writes the
// per-frame figures (ui/frame_measurement.hpp) before the screenshot. It drives the window through the
// requests and exports a user's actions make (MainWindow), nothing else. The options histoscope-cli also
// takes follow the same rules (stages/shared_options.hpp).
struct LaunchOptions {
    QString image;
    QString device;
    QString strategy;
    std::optional<int> bins;
    bool ignoreTransparent = false;  // only turns the checkbox on: unset keeps the remembered setting
    std::optional<double> rotation;  // degrees, within (-180, 180]
    rotate::FilterMode sampling = rotate::FilterMode::Linear;
    bool fitCanvas = false;
    QString filter;  // a convolve::filterFromSpec spec
    // Stage kinds whose own flag was given (--equalize): their generated Transform pages are switched on.
    QStringList stages;
    // The Scopes dock opened with these scopes ticked (--scopes); empty: the dock as the layout has it.
    std::vector<scope::Kind> scopes;
    // The region drawn on the image once it is shown (--roi, read as histoscope-cli reads it); it must lie
    // inside the image after the stages, or the run fails with histoscope-cli's words.
    std::optional<Region> roi;
    QString screenshot;
    QString sweep;            // --sweep STRATEGY:T1=v,v:T2=v,v, run after the first result
    QString histogramExport;  // .csv or .json, written as File ▸ Export ▸ Histogram writes it
    bool quit = false;
    bool forceCopyDisplay = false;  // --display-path copy
    int measureFrames = 0;          // 0: no measurement
    QString measureJson;
};

// Throws hs::UsageError with a one-line reason. Returns nullopt after printing --help or --version (which
// works before QApplication exists).
std::optional<LaunchOptions> parseLaunchOptions(const QStringList& arguments);

// The image to open when the command line names none: the most recent file that still exists, else the first
// existing sample candidate (so the bundled sample opens on first start); empty when there is neither.
QString startupImage(const AppSettings& settings, const QStringList& sampleCandidates);

// Applies the options to the window and drives the scripted mode: once the first result and the image are
// shown it exports the histogram, saves the screenshot and, with --quit, finishes. With --quit every problem
// finishes the run with the exit code of its kind (2 usage, 3 input, 4 OpenCL) and one line on stderr instead
// of a dialog.
class Launcher : public QObject {
    Q_OBJECT

  public:
    Launcher(MainWindow& window, LaunchOptions options, QObject* parent = nullptr);
    ~Launcher() override;
    // Sets the transforms the options name and opens the image (which may come from startupImage() when the
    // options name none).
    void start(const QString& image);

  signals:
    // With --quit only: the run is over and the process should exit with `exitCode`.
    void finished(int exitCode);

  private:
    void checkStrategy();
    void firstResult();
    // --measure-frames: one of the measured runs is shown.
    void measuredFrame();
    // Exports, screenshot and quit, once the results (and the measurement) are in.
    void afterResults();
    void saveScreenshot();
    void fail(ErrorKind kind, const QString& title, const QString& message);
    void finish(int exitCode, const QString& problem = {});

    MainWindow& window_;
    LaunchOptions options_;
    bool done_ = false;
    bool shot_ = false;
    bool regionSet_ = false;                         // --roi: asked of the window after the first result
    bool swept_ = false;                             // --sweep was started
    std::unique_ptr<FrameMeasurement> measurement_;  // while --measure-frames runs
    quint64 measuredRequest_ = 0;                    // its Run ×N
};

}  // namespace hs::ui
