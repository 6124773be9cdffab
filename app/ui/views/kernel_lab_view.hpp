#pragma once
// The Kernel tab with the kernel lab (docs/kernel-lab.md): beside the run's kernels (KernelView, kept as it
// is), an editor for a user kernel that builds as you type on every device of the chosen platform, puts the
// driver's errors and warnings on their lines, turns the `// @param` lines into controls and, with Run, adds
// the kernel to the run's stages as the `kernel` stage. A separate view rather than an editable KernelView:
// that one shows what a run ran and follows every result, this one holds what the user writes.
//
// What it keeps lives in `dataDirectory`: autosave.cl (the text, written at each pause in typing, restored at
// the next start) and lab.ini (the file it came from, the recent files).

#include <QMap>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>
#include <functional>
#include <map>
#include <memory>
#include <optional>

#include "engine/lab/annotations.hpp"
#include "engine/lab/oclgrind_log.hpp"
#include "engine/stages/stage.hpp"
#include "ui/model/run.hpp"
#include "ui/work/lab_builder.hpp"

class QFormLayout;
class QLabel;
class QListWidget;
class QElapsedTimer;
class QPlainTextEdit;
class QProcess;
class QPushButton;
class QTabWidget;
class QTimer;
class QToolButton;

namespace hs::ui {

class KernelView;
class RunModel;
class LabEditor;

class KernelLabView : public QWidget {
    Q_OBJECT

  public:
    // How long typing must pause before the text builds.
    static constexpr int kBuildDelayMs = 600;

    // `shown` (the run's kernels) becomes the tab's first page, this view its own parent.
    KernelLabView(KernelView* shown, const QString& dataDirectory, QWidget* parent = nullptr);

    // The device whose platform the builds use (the window's device choice); empty: the first platform.
    void setDeviceSource(std::function<QString()> selector) { deviceSelector_ = std::move(selector); }

    // A template of kernels/templates (its name without .cl); false when there is none so called.
    bool newFromTemplate(const QString& name);
    static QStringList templateNames();
    // The shown run's kernel of the current stage as a new text, its build options written as #defines.
    bool editCopy();
    // Reads / writes a .cl file; false, with the reason in status(), when it cannot.
    bool openFile(const QString& path);
    bool saveFile(const QString& path);
    // Shows `text` as the file `path`'s (a session's saved text where the file has gone) and builds it now,
    // so that its @param controls are there at once.
    void showSource(const QString& text, const QString& path);
    // The file the text was read from or saved to; empty for a text never saved.
    QString path() const { return path_; }
    // Builds the text now (Ctrl+B), without waiting for typing to pause.
    void buildNow();
    // Run: the kernel joins the run's stages (runRequested follows), or leaves them.
    void setRunning(bool running);
    bool running() const { return running_; }
    // Work-items per work-group for the kernel (the stage's kernel-group; 0: the driver's choice).
    void setWorkGroup(int items);
    int workGroup() const;

    // The lab's stage, for the run's request: empty unless running and the text is a valid kernel.
    stages::StageList stages() const;
    // `others` (the panel's stages after rotation and convolution) with the lab's stage, while it runs,
    // first.
    stages::StageList withStage(stages::StageList others) const;
    // While running an edited copy of a built-in strategy's kernel (editCopy), that strategy built from the
    // text, in its stage's place (RunRequest::edited); none otherwise, and for a kernel of the user's own.
    std::optional<RunRequest::EditedStrategy> editedStrategy() const;
    // The stage and strategy whose kernel the text is a copy of ("histogram", "local-atomic"); empty for a
    // kernel of the user's own.
    QString copiedStage() const { return copiedStage_; }
    QString copiedStrategy() const { return copiedStrategy_; }
    // Shows each run's reference check of the edited strategy (after Run) from now on.
    void follow(const RunModel& model);
    // The shown check: "bin 17 of r: expected 1204, got 0 …", "matches the CPU reference"; empty: none.
    QString referenceCheckText() const;

    // Check: the text under Oclgrind on a small image, in a child process (`histoscope-cli check`, the one
    // implementation); its findings join the markers and the diagnostics. False when it cannot start.
    bool check();
    void cancelCheck();
    bool checking() const;
    // The findings of the last finished check.
    const std::vector<lab::Finding>& findings() const { return findings_; }

    // The window's runs: while one of the lab's kernel is in flight the lab says what runs and for how
    // long, and offers to abandon it (abandonRequested).
    void setRunInFlight(bool inFlight);
    QString runStatus() const;

    // Sets a @param's value as its control does (a re-run follows when running); false for an unknown name.
    bool setParamValue(const QString& name, double value);

    // Source line (1-based) -> the messages of the diagnostics on it, one per line of text.
    const QMap<int, QString>& markers() const { return markers_; }
    QStringList recentFiles() const { return recent_; }
    QString autosavePath() const;
    QString text() const;
    QString status() const;

    QPlainTextEdit* editor() const;
    QListWidget* diagnostics() const { return diagnostics_; }
    QTabWidget* pages() const { return pages_; }
    LabBuilder* builder() const { return builder_; }

  signals:
    // The run's stages changed: the kernel joined or left them, or a parameter moved while it runs.
    void runRequested();
    // A build's result was shown.
    void buildShown();
    // A check finished (or failed to run: its reason is in status()).
    void checkFinished();
    // Abandon was pressed: the run in flight is to be given up (Controller::cancel).
    void abandonRequested();

  private:
    void textEdited();
    void pauseInTyping();
    void showBuild(const LabBuildResult& result);
    void updateParams();
    void setText(const QString& text, const QString& path);
    void addRecent(const QString& path);
    void writeState() const;
    QString label() const;
    void jumpTo(int line);
    void showReferenceCheck(const RunOutcome& outcome);
    void checkEnded();
    void showMarkers();
    void updateRunStatus();

    KernelView* shown_ = nullptr;
    QString dataDirectory_;
    QTabWidget* pages_ = nullptr;
    LabEditor* editor_ = nullptr;
    QListWidget* diagnostics_ = nullptr;
    QPlainTextEdit* log_ = nullptr;
    QFormLayout* paramsForm_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* run_ = nullptr;
    QSpinBox* group_ = nullptr;
    QToolButton* recentButton_ = nullptr;
    QTimer* typingPause_ = nullptr;
    LabBuilder* builder_ = nullptr;
    std::function<QString()> deviceSelector_;

    QString path_;  // the file the text came from or was saved to; empty: none yet
    QStringList recent_;
    bool running_ = false;
    std::vector<lab::KernelParam> params_;  // the text's @param lines as last parsed
    std::map<std::string, double> values_;  // by @param name
    QMap<int, QString> markers_;            // the build's and the check's, as shown
    QMap<int, QString> buildMarkers_;       // the last build's
    QMap<int, bool> buildErrorLines_;
    QString kernelName_;  // the text's kernel as last parsed
    QString copiedStage_;
    QString copiedStrategy_;
    QLabel* referenceCheck_ = nullptr;
    QPushButton* check_ = nullptr;
    QProcess* checker_ = nullptr;
    QString checkFolder_;  // where the checked text and image lie while a check runs
    std::vector<lab::Finding> findings_;
    QLabel* runStatus_ = nullptr;
    QPushButton* abandon_ = nullptr;
    QTimer* runTicker_ = nullptr;
    std::unique_ptr<QElapsedTimer> runClock_;
    bool abandoned_ = false;  // Abandon was pressed for the run in flight
};

}  // namespace hs::ui
