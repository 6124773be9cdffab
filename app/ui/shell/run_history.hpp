#pragma once
// What the app keeps beyond one session (issue 26), in one place beside the window: the recording of runs in
// the run archive (Run ▸ Record Runs), the History dock of the archived runs, the Diff view of two runs or
// two groups, its exports, and File ▸ Save Session / Open Session (.histoscope, archive/session_file.hpp).
// The window registers its docks and actions; everything it does goes through the window's public requests.

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <vector>

#include "archive/archive.hpp"
#include "archive/session_file.hpp"

class QAction;
class QDockWidget;

namespace hs::ui {

class AppSettings;
class DiffView;
class HistoryView;
class MainWindow;

class RunHistory : public QObject {
    Q_OBJECT

  public:
    // Adds the History and Diff docks to `window` (tabbed with its bottom docks) and follows its controller.
    RunHistory(MainWindow& window, AppSettings& settings);

    // File menu: Save Session…, Open Session…; File ▸ Export: the diff's plot and table; Run menu: Record
    // Runs.
    QList<QAction*> sessionActions() const;
    QList<QAction*> exportActions() const;
    QAction* recordAction() const { return recordAction_; }

    HistoryView& history() const { return *history_; }
    DiffView& diffView() const { return *diff_; }
    // The archive the app records in and lists: archive::Settings::fromEnvironment() at construction.
    const archive::Settings& archiveSettings() const { return archive_; }

    // Lists the archive again (History dock).
    void refresh();
    // Loads the runs of both sides and shows their diff; a problem is reported through the window.
    void showDiff(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b);

    // The window's image, device, stages (the histogram last) and dock layout.
    archive::SessionFile currentSession() const;
    // Written atomically; throws InputError naming the file.
    void saveSession(const QString& path);
    // Restores what it can of the session at `path` and says what it restored; when something could not be
    // restored (the image or the device is gone, a stage is refused) one report through the window names it
    // and what was restored. Returns the lines of what was not restored; a file that cannot be read is one.
    QStringList openSession(const QString& path);

    // .png, .pdf or .svg: the box plots, laid out as every plot export.
    void exportDiffPlot(const QString& path);
    // .json (archive::writeDiffJson, as `histoscope-cli runs diff --json`), .csv (every timing of both
    // sides' runs, archive::timingsCsv) or .txt (archive::diffText).
    void exportDiffTable(const QString& path);

  signals:
    void sessionOpened(const QString& path);

  private:
    QDockWidget* dock(const QString& title, const char* objectName, QWidget* view);
    // Asks for a file among `filters` (adding the chosen filter's suffix to a bare name) and runs `write`.
    void askAndWrite(const QString& title, const QString& filters, void (RunHistory::*write)(const QString&),
                     bool plot);
    void recorded(qint64 id, const QString& problem);
    // Where a file dialog opens: the folder of the last file chosen, else the image's.
    QString startDirectory() const;

    MainWindow& window_;
    AppSettings& settings_;
    archive::Settings archive_;
    QString archiveProblem_;  // why the archive's settings could not be read from the environment
    HistoryView* history_;
    DiffView* diff_;
    QAction* recordAction_;
    QAction* saveSessionAction_;
    QAction* openSessionAction_;
    QAction* diffPlotAction_;
    QAction* diffTableAction_;
    QString lastDirectory_;
};

// True for a path the command line opens as a session rather than an image (".histoscope").
bool isSessionPath(const QString& path);

}  // namespace hs::ui
