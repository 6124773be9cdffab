#pragma once
// The File ▸ Export menu: the histogram plot as PNG/PDF/SVG, the histogram as CSV/JSON, the kept timings as
// CSV/JSON and as a Chrome trace, the timeline as PNG/PDF/SVG, the histogram as CSV on the clipboard, and the
// Visual words tab's word histogram (PNG/PDF/SVG, CSV/JSON) and sweep table (CSV/JSON).
// Every file is written through QSaveFile, so a failed write leaves the previous file; the export functions
// throw InputError naming the file and the reason, the actions show that line in a message box. A written
// file is announced through exported() (the window shows it in the status bar).

#include <QList>
#include <QObject>
#include <QString>

#include "io/export.hpp"

class QAction;
class QCustomPlot;
class QWidget;

namespace hs::ui {

class AppSettings;
struct PlotExportSize;

// `plot` as a `format` ("png", "pdf" or "svg") document laid out at `size`, with `title` above it and a
// legend of its graphs, as every plot export writes it (the plot on screen is left as it was). Throws
// InputError naming `path` for an unknown format or a failed encoding.
QByteArray renderPlot(QCustomPlot* plot, const QString& format, const QString& path,
                      const PlotExportSize& size, const QString& title);

class HistogramView;
class TimelineView;
class RunModel;
class VisualWordsView;

class ExportActions : public QObject {
    Q_OBJECT

  public:
    // The data come from `model` (the histogram, what it counts, the kept runs); the plots are rendered from
    // the views that show them. `settings` keeps the plot export size between exports and sessions.
    ExportActions(const RunModel& model, HistogramView* histogram, TimelineView* timeline,
                  VisualWordsView* visualWords, AppSettings& settings, QWidget* dialogParent);

    QList<QAction*> actions() const;

    // The format follows the suffix: .png, .pdf or .svg; the plot is laid out at the remembered
    // PlotExportSize (a PNG scaled by its DPI) with a title (image, device, strategy, bins) and a legend of
    // the channels shown.
    void exportPlot(const QString& path);
    // .csv (after "# key: value" context lines) or .json (with a "context" object)
    void exportHistogram(const QString& path);
    // .csv or .json, every kept run under its number
    void exportTimings(const QString& path);
    // The kept runs in the timeline's lanes.
    void exportTrace(const QString& path);
    // The run the timeline shows, laid out as exportPlot lays out a plot.
    void exportTimeline(const QString& path);
    // The word histogram of the Visual words tab: the plot as exportPlot lays it out, the counts as .csv
    // (after "# key: value" context lines) or .json (with a "context" object).
    void exportWordPlot(const QString& path);
    void exportWordHistogram(const QString& path);
    // The Visual words sweep: .csv or .json (shaped as `histoscope-cli bow-sweep --json`).
    void exportSweep(const QString& path);
    // The bare CSV table, for pasting into a spreadsheet.
    void copyHistogram() const;

  signals:
    // A file was written: "Exported the plot to /path/plot.png".
    void exported(const QString& message);

  private:
    using Exporter = void (ExportActions::*)(const QString& path);

    void updateEnabled();
    // An action that runs `exporter` on the file the user picks among `filters`.
    // `what` names the file the dialog suggests (suggestedPath).
    QAction* fileAction(const QString& text, const QString& statusTip, const QString& filters,
                        Exporter exporter, const QString& what);
    // Asks for a file (adding the chosen filter's suffix when the name has none) and, for the plot, its size;
    // exports, and reports a failure in a message box.
    void runExport(const QString& title, const QString& filters, Exporter exporter, const QString& what);
    // The name a save dialog starts with: "<image>-<what>.<first filter's suffix>" in the last folder used
    // ("histoscope-<what>" without an image file).
    QString suggestedPath(const QString& what, const QString& filters) const;
    void announce(const QString& what, const QString& path);

    const RunModel& model_;
    HistogramView* histogram_;
    TimelineView* timeline_;
    VisualWordsView* visualWords_;
    AppSettings& settings_;
    QWidget* dialogParent_;
    QString lastDirectory_;
    QAction* plotAction_;
    QAction* histogramAction_;
    QAction* timingsAction_;
    QAction* traceAction_;
    QAction* timelineAction_;
    QAction* copyAction_;
    QAction* wordPlotAction_;
    QAction* wordHistogramAction_;
    QAction* sweepAction_;
};

}  // namespace hs::ui
