#pragma once

#include <QMainWindow>
#include <QString>
#include <functional>
#include <map>
#include <memory>
#include <optional>

#include "image/image.hpp"
#include "runtime/error.hpp"
#include "ui/controller.hpp"

class QAction;
class QCheckBox;
class QDockWidget;
class QLabel;
class QMenu;
class QProgressBar;
class QSpinBox;
class QTimer;

namespace hs::ui {

class AppSettings;
class CompareView;
class DevicePanel;
class ExportActions;
class HistogramView;
class ImageView;
class KernelView;
class StrategyBox;
class TimelineView;
class TimingView;
class TransformPanel;

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

    // The one way images are opened (dialog, drop, recent files, command line): decoded off the GUI thread;
    // on failure the previous image stays and the reason is reported. The newest call wins.
    void openImage(const QString& path);
    // Shows pixels that do not come from a file (generated or processed images) and runs on them.
    void showImage(std::shared_ptr<const ImageRGBA8> image, const QString& title);
    std::shared_ptr<const ImageRGBA8> image() const { return image_; }
    QString imagePath() const { return imagePath_; }

    // Applied as soon as the devices are known: a "P:D" selector or a part of the device name.
    void preferDevice(const QString& selector);

    void runHistogram();
    void runRepeated(int count);
    void runCompare(int repetitions);

    const std::optional<RunOutcome>& lastOutcome() const { return lastOutcome_; }
    Controller& controller() { return *controller_; }
    ImageView* imageView() const { return imageView_; }
    DevicePanel* devicePanel() const { return devicePanel_; }
    StrategyBox* strategyBox() const { return strategyBox_; }
    QSpinBox* binsBox() const { return bins_; }
    QCheckBox* ignoreTransparentBox() const { return ignoreTransparent_; }
    HistogramView* histogramView() const { return histogramView_; }
    TimingView* timingView() const { return timingView_; }
    TimelineView* timelineView() const { return timelineView_; }
    CompareView* compareView() const { return compareView_; }
    KernelView* kernelView() const { return kernelView_; }
    TransformPanel* transformPanel() const { return transformPanel_; }
    // Run ×N: runs the Timings dock's repeat count, the one count of Run ×N.
    QAction* runRepeatedAction() const { return runRepeatedAction_; }
    // The status-bar texts: image size, device, display path, strategy, last kernel time, fallback notes,
    // pixel under the cursor.
    QString statusSummary() const;
    // "display: copy" and, as tooltip, why.
    QLabel* displayLabel() const { return displayLabel_; }
    // A stage that ran another strategy than the chosen one, and why; hidden when none did.
    QLabel* noteLabel() const { return noteLabel_; }
    // "running…", or what the run is doing ("auto: trying 2 of 4 (local-atomic)"); hidden while idle.
    QLabel* busyLabel() const { return busyLabel_; }
    // The histogram shown belongs to earlier settings: a newer run has taken longer than a moment so far (or
    // failed). The plot is greyed and the dock's title says so.
    bool showsPreviousSettings() const { return showsPreviousSettings_; }

  signals:
    void imageLoaded(const QString& path);
    void imageLoadFailed(const QString& path, const QString& reason);
    void devicesShown();
    // The views show a new result.
    void resultShown();
    void runFailed(const QString& message);

  protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

  private:
    void buildActions();
    void buildMenus();
    void buildToolBar();
    void buildDocks();
    void buildStatusBar();
    void restoreLayout();
    void rebuildRecentMenu();

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
    // Greys the histogram and says in its dock's title that it belongs to earlier settings, or undoes that.
    void markPreviousSettings(bool previous);
    // Shows the source of every kernel that ran; returns each pipeline stage's build options.
    std::map<QString, QString> showKernelSource(const RunOutcome& outcome);
    void showProcessedImage(const RunOutcome& outcome);
    RunRequest currentRequest() const;
    bool canRun() const;

    AppSettings& settings_;
    Controller* controller_ = nullptr;
    ErrorReporter reporter_;

    std::shared_ptr<const ImageRGBA8> image_;
    QString imagePath_;
    quint64 loadGeneration_ = 0;
    QString preferredDevice_;
    std::optional<RunOutcome> lastOutcome_;
    bool showsProcessed_ = false;       // the view shows a processed image rather than image_
    quint64 requestedHistogramId_ = 0;  // the newest request whose result the histogram view is to show
    QTimer* previousSettingsDelay_ = nullptr;  // "a moment": quick runs never mark the histogram
    bool showsPreviousSettings_ = false;
    enum class ProgressTarget { Timings, StatusBar } progressTarget_ = ProgressTarget::Timings;

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
    ExportActions* exportActions_ = nullptr;
    QDockWidget* compareDock_ = nullptr;
    QDockWidget* histogramDock_ = nullptr;

    QAction* openAction_ = nullptr;
    QAction* quitAction_ = nullptr;
    QAction* runAction_ = nullptr;
    QAction* runRepeatedAction_ = nullptr;
    QAction* compareAction_ = nullptr;
    QAction* cancelAction_ = nullptr;
    QAction* fitAction_ = nullptr;
    QAction* actualSizeAction_ = nullptr;
    QAction* zoomInAction_ = nullptr;
    QAction* zoomOutAction_ = nullptr;
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
