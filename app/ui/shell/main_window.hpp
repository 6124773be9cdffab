#pragma once

#include <QByteArray>
#include <QList>
#include <QMainWindow>
#include <QMap>
#include <QString>
#include <functional>
#include <map>
#include <memory>
#include <optional>

#include "engine/image/image.hpp"
#include "engine/image/region.hpp"
#include "engine/ops/rotate/rotate.hpp"
#include "engine/ops/scope/scope.hpp"
#include "engine/runtime/error.hpp"
#include "ui/model/run_model.hpp"
#include "ui/work/controller.hpp"

class QAction;
class QIcon;
class QKeySequence;
class QCheckBox;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QSpinBox;
class QTimer;

namespace hs::ui {

class AppSettings;
struct Preferences;
class CompareView;
class DevicePanel;
class ExportActions;
class HistogramView;
class ImageView;
class KernelLabView;
class SweepView;
class KernelView;
class RunHistory;
class StrategyBox;
class TimelineView;
class TimingView;
class TransformPanel;
class VisualWordsView;
class ScopeView;
class RegionSelector;

// A problem to put in front of the user: a one-line message, and details (a build log) when there are any.
struct ErrorReport {
    ErrorKind kind = ErrorKind::Input;
    QString title;
    QString message;
    QString hint;     // what the user can do about it
    QString details;  // a build log
};

// The workbench window: the image in the middle, the device on the left, the histogram on the right, and
// timings, comparison and kernel source below. It turns user intents into Controller requests and shows
// the results; the views it hosts are passive.
class MainWindow : public QMainWindow {
    Q_OBJECT

  public:
    using ErrorReporter = std::function<void(const ErrorReport&)>;

    explicit MainWindow(AppSettings& settings, QWidget* parent = nullptr);
    ~MainWindow() override;

    // Message boxes by default; tests and the scripted mode install their own.
    void setErrorReporter(ErrorReporter reporter);
    // Shows the message in the status bar and hands it to the error reporter.
    void reportProblem(const ErrorReport& problem);

    // ---- What a user can do, and nothing else: the menus, the toolbar, the keyboard shortcuts, the scripted
    // mode (ui/launch.cpp) and the tests all go through these actions and requests. The views and panels are
    // the window's own (buildDocks lists them): the window feeds them the controller's results, and nobody
    // outside reaches into them.

    // The window's commands, each one QAction in the menus, on the toolbar and behind its shortcut.
    enum class Command {
        Open,
        Quit,
        Run,
        RunRepeated,
        Compare,
        Cancel,
        FitToWindow,
        ActualSize,
        ZoomIn,
        ZoomOut,
        Preferences
    };
    QAction* action(Command command) const;
    // File ▸ Export: its actions (with their file dialogs) and the exports they make, given a path.
    ExportActions& exports() const { return *exportActions_; }
    // The run archive's History and Diff docks, Record Runs and the sessions (ui/shell/run_history.hpp).
    RunHistory& history() const { return *history_; }

    // The one way images are opened (dialog, drop, recent files, command line): decoded off the GUI thread;
    // on failure the previous image stays and the reason is reported. The newest call wins.
    void openImage(const QString& path);
    // Shows pixels that do not come from a file (generated or processed images) and runs on them.
    void showImage(std::shared_ptr<const ImageRGBA8> image, const QString& title);

    // The settings of the toolbar and the panels, as a user makes them there: each runs the histogram again
    // when it changes something.
    // A "P:D" selector or a part of the device name, applied as soon as the devices are known; a selector
    // that names no device is reported.
    void chooseDevice(const QString& selector);
    // False when the strategy is unknown or the current device cannot run it (it stays wanted: it is chosen
    // once a device can run it).
    bool chooseStrategy(const QString& name);
    // Selects the Transform panel's strategy `name` for the rotate or convolve stage (`kind`); false when
    // its list has none so called.
    bool chooseStageStrategy(const QString& kind, const QString& name);
    void setBins(int bins);
    void setIgnoreTransparent(bool ignore);
    // Switches rotation on at `degrees` (shown reduced into (-180, 180]).
    void setRotation(double degrees, rotate::FilterMode mode, bool fitCanvas);
    // Switches convolution on with a convolve::filterFromSpec spec; throws UsageError or InputError as that
    // does.
    void setFilter(const QString& spec);
    // Switches convolution on with a custom matrix's text (convolve::parseFilterText); throws UsageError as
    // that does. customFilter(): the custom matrix's text in use.
    void setCustomFilter(const QString& text);
    QString customFilter() const;
    // Switches on the Transform panel's generated page of the stage kind called `name` (equalize); false
    // when the panel has no such page.
    bool switchStageOn(const QString& name);
    // Switches on the generated page of `stage`'s kind set to its values and strategy; false when the panel
    // has no such page.
    bool switchStageOn(const stages::Stage& stage);
    // The kernel lab's file (empty for a text never saved) and text, what its stage runs.
    QString userKernelPath() const;
    QString userKernelText() const;
    // Runs `text` (the file `path`'s) as the kernel lab's stage, its @params set from `params` (name, value).
    // False, with nothing run, when a name is not one of the kernel's @params.
    bool runUserKernel(const QString& path, const QString& text, const QMap<QString, double>& params,
                       int workGroup = 0);
    // Switches every image stage off (rotation, convolution, the generated pages, the kernel lab's) and
    // pipeline mode.
    void switchImageStagesOff();
    // Processed images go through the host even where OpenCL could write the view's texture (the launch
    // option --display-path copy; the next run uses it).
    void setForceCopyDisplay(bool force);
    // Opens the Scopes dock with exactly `kinds` ticked (View ▸ Scopes and its check boxes).
    void showScopes(const std::vector<scope::Kind>& kinds);
    // The current image's region of interest, as a Shift+drag draws it (clipped to the image shown); none
    // clears it (Esc).
    void setRegion(std::optional<Region> region);

    // Every dock and toolbar shown in its first place, the window at its first size (View ▸ Reset Layout).
    void resetLayout();
    // What Edit ▸ Preferences sets, kept in the settings: the runs kept, recording and the typing pause apply
    // at once, the device at start and the program cache at the next start.
    void applyPreferences(const hs::ui::Preferences& preferences);
    // Preferences' Reset All Settings: every setting back to a first start's, the window following them.
    void resetAllSettings();

    void runHistogram();
    // The request's id (RunOutcome::requestId of its results), 0 when nothing can run yet.
    quint64 runRepeated(int count);
    void runCompare(int repetitions);

    // ---- What the window shows (read-only).
    std::shared_ptr<const ImageRGBA8> image() const { return image_; }
    QString imagePath() const { return imagePath_; }
    // The device, strategy, bins and transforms the next run uses.
    RunRequest currentRequest() const;
    // Opens the Kernel tab's Sweep page on "STRATEGY:T1=v,v:T2=v,v" and runs the grid on the shown image and
    // device; false when the spec does not fit or the grid cannot start (sweepStatus() says why). sweepShown
    // follows the grid's heat map.
    bool runSweep(const QString& spec);
    QString sweepStatus() const;
    std::optional<DeviceInfo> currentDevice() const;
    // Why the current device cannot run `strategy`; empty when it can.
    QString strategyUnsupportedReason(const QString& strategy) const;
    const std::optional<RunOutcome>& lastOutcome() const { return model_->outcome(); }
    // The shown run and the kept runs, which the views follow and the exports read.
    const RunModel& model() const { return *model_; }
    RunModel& model() { return *model_; }
    // The image view has drawn the current image (or processed frame).
    bool imageOnScreen() const;
    Controller& controller() { return *controller_; }
    // The status-bar texts: image size, device, display path, strategy, last kernel time, fallback notes,
    // pixel under the cursor.
    QString statusSummary() const;
    // The histogram shown belongs to earlier settings: a newer run has taken longer than a moment so far (or
    // failed). The plot is greyed and the dock's title says so.
    bool showsPreviousSettings() const { return showsPreviousSettings_; }

  signals:
    void imageLoaded(const QString& path);
    void imageLoadFailed(const QString& path, const QString& reason);
    void devicesShown();
    // The image view drew an image or a processed frame.
    void imageOnScreenChanged();
    // The views show a new result.
    void resultShown();
    void runFailed(const QString& message);
    // The Sweep page shows a finished grid.
    void sweepShown();
    // A run (Run, Run ×N or Compare) was asked of the controller; `id` is its request's.
    void runRequested(quint64 id);

  protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    void buildActions();
    // Makes the action of `command`, which `triggered` carries out.
    QAction* addCommand(Command command, const QIcon& icon, const QString& text,
                        const QList<QKeySequence>& shortcuts, const QString& toolTip,
                        std::function<void()> triggered);
    void buildMenus();
    void buildToolBar();
    void buildDocks();
    void buildStatusBar();
    void restoreLayout();
    void rebuildRecentMenu();
    void openPreferences();
    // The device a start chooses when no --device asks for one: the fixed one of the preferences where it
    // is present, else the last one used; empty when neither is.
    QString startDeviceSelector(const std::vector<DeviceInfo>& devices);

    void chooseOpenFile();
    void imageDecoded(quint64 generation, const QString& path, std::shared_ptr<const ImageRGBA8> image,
                      const QString& error);
    void onDevicesReady();
    void onDeviceChanged();
    void onBinsChanged();
    void refreshSupport();
    void onHistogramReady(const RunOutcome& outcome);
    void onRunFailed(const RunFailure& failure);
    void onBusyChanged(bool busy);
    // Cancel (or Esc) abandoned the latest request: says what becomes of it.
    void onCancelled();
    // Greys the histogram and says in its dock's title that it belongs to earlier settings, or undoes that.
    void markPreviousSettings(bool previous);
    void showProcessedImage(const RunOutcome& outcome);
    bool canRun() const;

    AppSettings& settings_;
    Controller* controller_ = nullptr;
    ErrorReporter reporter_;

    std::shared_ptr<const ImageRGBA8> image_;
    QString imagePath_;
    quint64 loadGeneration_ = 0;
    QString openNote_;  // said once the image being opened is shown (a drop of several files)
    QString preferredDevice_;
    RunModel* model_ = nullptr;
    bool showsProcessed_ = false;  // the view shows a processed image rather than image_
    bool forceCopyDisplay_ = false;
    QByteArray defaultState_;           // the docks as first arranged, for resetLayout
    quint64 requestedHistogramId_ = 0;  // the newest request whose result the histogram view is to show
    QTimer* previousSettingsDelay_ = nullptr;  // "a moment": quick runs never mark the histogram
    bool showsPreviousSettings_ = false;
    enum class ProgressTarget { Timings, StatusBar } progressTarget_ = ProgressTarget::Timings;
    enum class RunKind { Run, Repeated, Compare } latestKind_ = RunKind::Run;  // of the latest request
    QString idleNotice_;  // what a cancel or a drop did, said (again) once the worker is idle

    ImageView* imageView_ = nullptr;
    DevicePanel* devicePanel_ = nullptr;
    TransformPanel* transformPanel_ = nullptr;
    StrategyBox* strategyBox_ = nullptr;
    QSpinBox* bins_ = nullptr;
    QCheckBox* ignoreTransparent_ = nullptr;
    HistogramView* histogramView_ = nullptr;
    TimingView* timingView_ = nullptr;
    TimelineView* timelineView_ = nullptr;
    CompareView* compareView_ = nullptr;
    KernelView* kernelView_ = nullptr;
    KernelLabView* kernelLab_ = nullptr;  // the Kernel tab: kernelView_ and the lab
    SweepView* sweepView_ = nullptr;      // the Kernel tab's Sweep page
    VisualWordsView* visualWordsView_ = nullptr;
    ScopeView* scopeView_ = nullptr;
    RegionSelector* regions_ = nullptr;
    ExportActions* exportActions_ = nullptr;
    RunHistory* history_ = nullptr;

    std::map<Command, QAction*> actions_;
    QMenu* recentMenu_ = nullptr;
    QMenu* viewMenu_ = nullptr;

    QLabel* readoutLabel_ = nullptr;
    QLabel* zoomLabel_ = nullptr;
    QLabel* imageLabel_ = nullptr;
    QLabel* deviceLabel_ = nullptr;
    QLabel* displayLabel_ = nullptr;
    QLabel* noteLabel_ = nullptr;
    QLabel* strategyLabel_ = nullptr;
    QLabel* kernelTimeLabel_ = nullptr;
    QProgressBar* busyBar_ = nullptr;  // Compare's progress
    QLabel* busyLabel_ = nullptr;
};

}  // namespace hs::ui
