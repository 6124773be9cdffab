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

#include "engine/lab/annotations.hpp"
#include "engine/stages/stage.hpp"
#include "ui/work/lab_builder.hpp"

class QFormLayout;
class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTimer;
class QToolButton;

namespace hs::ui {

class KernelView;
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
    // Builds the text now (Ctrl+B), without waiting for typing to pause.
    void buildNow();
    // Run: the kernel joins the run's stages (runRequested follows), or leaves them.
    void setRunning(bool running);
    bool running() const { return running_; }

    // The lab's stage, for the run's request: empty unless running and the text is a valid kernel.
    stages::StageList stages() const;
    // `others` (the panel's stages after rotation and convolution) with the lab's stage, while it runs,
    // first.
    stages::StageList withStage(stages::StageList others) const;
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

    KernelView* shown_ = nullptr;
    QString dataDirectory_;
    QTabWidget* pages_ = nullptr;
    LabEditor* editor_ = nullptr;
    QListWidget* diagnostics_ = nullptr;
    QPlainTextEdit* log_ = nullptr;
    QFormLayout* paramsForm_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* run_ = nullptr;
    QToolButton* recentButton_ = nullptr;
    QTimer* typingPause_ = nullptr;
    LabBuilder* builder_ = nullptr;
    std::function<QString()> deviceSelector_;

    QString path_;  // the file the text came from or was saved to; empty: none yet
    QStringList recent_;
    bool running_ = false;
    std::vector<lab::KernelParam> params_;  // the text's @param lines as last parsed
    std::map<std::string, double> values_;  // by @param name
    QMap<int, QString> markers_;
};

}  // namespace hs::ui
