#pragma once
// The File ▸ Export menu: the histogram plot as PNG/PDF/SVG, the histogram as CSV/JSON, the kept timings as
// CSV/JSON and as a Chrome trace, the timeline as PNG/PDF/SVG, and the histogram as CSV on the clipboard.
// Every file is written through QSaveFile, so a failed write leaves the previous file; the export functions
// throw InputError naming the file and the reason, the actions show that line in a message box.

#include <QList>
#include <QObject>
#include <QString>

class QAction;
class QWidget;

namespace hs::ui {

class HistogramView;
class TimelineView;
class TimingView;

class ExportActions : public QObject {
    Q_OBJECT

  public:
    ExportActions(HistogramView* histogram, TimingView* timings, TimelineView* timeline,
                  QWidget* dialogParent);

    QList<QAction*> actions() const;
    // The device the timings were measured on, named in the Chrome trace.
    void setDeviceName(const QString& name) { deviceName_ = name; }

    // The format follows the suffix: .png, .pdf or .svg; the plot is drawn at its on-screen size.
    void exportPlot(const QString& path) const;
    // .csv or .json
    void exportHistogram(const QString& path) const;
    // .csv or .json, every kept run under its number
    void exportTimings(const QString& path) const;
    // The kept runs in the timeline's lanes.
    void exportTrace(const QString& path) const;
    // The run the timeline shows, as exportPlot draws a plot.
    void exportTimeline(const QString& path) const;
    void copyHistogram() const;

  private:
    using Exporter = void (ExportActions::*)(const QString& path) const;

    void updateEnabled();
    // An action that runs `exporter` on the file the user picks among `filters`.
    QAction* fileAction(const QString& text, const QString& statusTip, const QString& filters,
                        Exporter exporter);
    // Asks for a file (adding the chosen filter's suffix when the name has none), exports, and reports a
    // failure in a message box.
    void runExport(const QString& title, const QString& filters, Exporter exporter);

    HistogramView* histogram_;
    TimingView* timings_;
    TimelineView* timeline_;
    QWidget* dialogParent_;
    QString deviceName_;
    QString lastDirectory_;
    QAction* plotAction_;
    QAction* histogramAction_;
    QAction* timingsAction_;
    QAction* traceAction_;
    QAction* timelineAction_;
    QAction* copyAction_;
};

}  // namespace hs::ui
