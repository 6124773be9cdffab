#pragma once

#include <QByteArray>
#include <QMap>
#include <QString>
#include <QStringList>
#include <optional>
#include <string_view>

#include "engine/ops/convolve/filter.hpp"

namespace hs::ui {

// "<kind>/<parameter>", e.g. "gaussian/sigma": a filter parameter's name in TransformSettings and, under
// "transform/", in the settings file.
QString filterParameterKey(const convolve::FilterKind& kind, const convolve::FilterParameter& parameter);
// Every registered filter kind's parameters at their defaults.
QMap<QString, double> defaultFilterParameters();

// The image stages as the Transform panel had them; the panel starts from these defaults. Choices are kept by
// name (strategies, sampling, filter), so lists that grow or reorder keep them; a name the panel's list no
// longer holds selects its first entry.
// The strategy every front end uses for the stage kind called `kind` when none is chosen.
QString kindDefaultStrategy(std::string_view kind);

struct TransformSettings {
    bool rotate = false;
    double angle = 0;        // degrees, -180..180
    bool fitCanvas = false;  // enlarge the rotated image's canvas instead of cutting its corners off
    QString sampling = QStringLiteral("linear");
    // The stage kinds' defaults (stages::StageKind::defaultStrategy), as histoscope-cli's.
    QString rotateStrategy = kindDefaultStrategy("rotate");
    bool convolve = false;
    QString filter = QStringLiteral("box");  // a registered filter kind's name, or "custom"
    // Every registered filter kind's parameters by filterParameterKey ("gaussian/sigma"); the registry's
    // defaults until set.
    QMap<QString, double> filterParameters = defaultFilterParameters();
    // A 3 × 3 binomial blur, written the way the format allows.
    QString customMatrix = QStringLiteral(
        "# one row per line; numbers separated by spaces or commas\n"
        "1 2 1\n"
        "2 4 2\n"
        "1 2 1\n"
        "/ 16\n");
    QString convolveStrategy = kindDefaultStrategy("convolve");
    // The generated stage pages (ui/stage_page.hpp), by kind name: each page's StagePage::settings().
    QMap<QString, QMap<QString, QString>> stagePages;

    bool operator==(const TransformSettings&) const = default;
};

// The size of an exported plot: the layout is width x height (pixels on screen, points in PDF and SVG); a PNG
// has width x height x dpi / 96 pixels and records `dpi`, so it prints at the same physical size.
struct PlotExportSize {
    static constexpr int kMinSide = 100;
    static constexpr int kMaxSide = 10000;
    static constexpr int kMinDpi = 48;
    static constexpr int kMaxDpi = 1200;
    static constexpr int kScreenDpi = 96;

    int width = 1000;
    int height = 600;
    int dpi = kScreenDpi;

    // Within the limits above; out-of-range values are clamped.
    PlotExportSize clamped() const;
    bool operator==(const PlotExportSize&) const = default;
};

// What a user sets once, in Edit ▸ Preferences (ui/shell/preferences_dialog.hpp); the window applies each as
// it is set (MainWindow::applyPreferences).
struct Preferences {
    static constexpr int kMinKeptRuns = 1;
    static constexpr int kMaxKeptRuns = 10000;
    static constexpr int kMinTypingPauseMs = 100;
    static constexpr int kMaxTypingPauseMs = 5000;

    // The device chosen at start: empty for the last one used, else a fixed one by its selector ("0:1") and
    // name, which must both still match (drivers come and go); otherwise the last one used is chosen and the
    // status bar says why.
    QString startDeviceSelector;
    QString startDeviceName;
    // How many runs the Timings dock keeps (RunModel::setMaxKeptRuns).
    int keptRuns = 50;
    // Run ×N records its runs in the run archive (Run ▸ Record Runs).
    bool recordRuns = true;
    // Compiled kernels kept between starts (engine/runtime/program_cache.hpp); HISTOSCOPE_PROGRAM_CACHE=off
    // still turns it off whatever this says.
    bool programCache = true;
    // How long typing may pause before a number field takes its text (ui/shell/number_field.hpp).
    int typingPauseMs = 500;

    // Within the limits above; out-of-range values are clamped.
    Preferences clamped() const;
    bool operator==(const Preferences&) const = default;
};

// What the app remembers between sessions. Read once when constructed and written by save() (the window
// saves when it closes): QSettings would otherwise write and fsync the file from the event loop after every
// change, which costs tens of milliseconds on a busy disk. Tests point it at a private file.
class AppSettings {
  public:
    static constexpr int kMaxRecentFiles = 10;

    // The user's settings (organisation "HistoScope", application "histoscope", INI format).
    AppSettings();
    // Settings kept in the INI file at `path`.
    explicit AppSettings(const QString& path);

    // Writes every value; false when the file could not be written.
    bool save() const;
    QString fileName() const { return path_; }

    QByteArray windowGeometry() const { return windowGeometry_; }
    void setWindowGeometry(const QByteArray& geometry) { windowGeometry_ = geometry; }
    QByteArray windowState() const { return windowState_; }
    void setWindowState(const QByteArray& state) { windowState_ = state; }

    // The device is remembered by name and platform: indices change when drivers come and go. Its selector
    // ("0:1") tells two identical devices apart while it still names one of that name.
    QString deviceName() const { return deviceName_; }
    QString platformName() const { return platformName_; }
    QString deviceSelector() const { return deviceSelector_; }
    void setDevice(const QString& platformName, const QString& deviceName, const QString& selector);

    QString strategy() const { return strategy_; }
    void setStrategy(const QString& strategy) { strategy_ = strategy; }
    // Within 1..256; 256 when unset or out of range.
    int bins() const { return bins_; }
    void setBins(int bins);
    // Leave alpha-0 pixels out of R, G, B and luma (histogram::Params::ignoreTransparent); off when unset.
    bool ignoreTransparent() const { return ignoreTransparent_; }
    void setIgnoreTransparent(bool on) { ignoreTransparent_ = on; }

    // Run ×N's count, within 1..kMaxRepeatCount; kDefaultRepeatCount when unset or out of range.
    static constexpr int kDefaultRepeatCount = 20;
    static constexpr int kMaxRepeatCount = 10000;
    int repeatCount() const { return repeatCount_; }
    void setRepeatCount(int count);

    // How the Histogram dock draws (its Log, Cumulative and Clip peak buttons and the channels shown); unset
    // until a window saved it, so a first start keeps the view's own defaults.
    struct HistogramDisplay {
        bool logScale = false;
        bool cumulative = false;
        bool clipPeak = false;
        QStringList channels;  // the visible channels' names (histogram::channelName)
    };
    std::optional<HistogramDisplay> histogramDisplay() const { return histogramDisplay_; }
    void setHistogramDisplay(const HistogramDisplay& display) { histogramDisplay_ = display; }
    // Run ×N records its runs in the run archive (archive/archive.hpp); on when unset.
    bool recordRuns() const { return preferences_.recordRuns; }
    void setRecordRuns(bool on) { preferences_.recordRuns = on; }

    Preferences preferences() const { return preferences_; }
    void setPreferences(const Preferences& preferences) { preferences_ = preferences.clamped(); }

    // Every value back to a first start's (the file keeps its name); save() writes them.
    void reset();

    TransformSettings transform() const { return transform_; }
    void setTransform(const TransformSettings& transform) { transform_ = transform; }

    PlotExportSize plotExportSize() const { return plotExportSize_; }
    void setPlotExportSize(const PlotExportSize& size) { plotExportSize_ = size.clamped(); }

    QString lastFolder() const { return lastFolder_; }
    void setLastFolder(const QString& folder) { lastFolder_ = folder; }

    // Absolute paths, most recent first, at most kMaxRecentFiles, no duplicates.
    QStringList recentFiles() const { return recentFiles_; }
    void addRecentFile(const QString& path);
    void removeRecentFile(const QString& path);
    void clearRecentFiles() { recentFiles_.clear(); }

  private:
    void load();

    QString path_;
    QByteArray windowGeometry_;
    QByteArray windowState_;
    QString deviceName_;
    QString platformName_;
    QString deviceSelector_;
    QString strategy_;
    int bins_ = 256;
    bool ignoreTransparent_ = false;
    int repeatCount_ = kDefaultRepeatCount;
    std::optional<HistogramDisplay> histogramDisplay_;
    Preferences preferences_;
    TransformSettings transform_;
    PlotExportSize plotExportSize_;
    QString lastFolder_;
    QStringList recentFiles_;
    bool clearFileOnSave_ = false;  // reset() was called
};

}  // namespace hs::ui
