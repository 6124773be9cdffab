#pragma once
// The profiler window: a rolling plot of per-kernel time over the last N runs, the command table of the last
// run (queued → submit → start → end, upload / kernel / readback apart), min / median / max per command
// over the kept runs, and the "Run ×N" control with progress and cancel.

#include <QString>
#include <QWidget>
#include <vector>

#include "runtime/timing.hpp"

class QCustomPlot;
class QLabel;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace hs::ui {

class TimingView : public QWidget {
    Q_OBJECT

  public:
    // The durations of one command (same stage and name) over the kept runs. Where a run issues the command
    // more than once, its durations are summed for that run. The median of an even number of runs is the
    // mean of the middle two.
    struct CommandSummary {
        Stage stage = Stage::Other;
        QString name;
        int runs = 0;
        double minMs = 0;
        double medianMs = 0;
        double maxMs = 0;
    };

    explicit TimingView(QWidget* parent = nullptr);

    // Appends a run and what ran it (a strategy, or each stage's); only the last maxRuns() runs are kept.
    void addRun(const std::vector<Timing>& timings, const QString& strategy);
    void clear();
    const std::vector<std::vector<Timing>>& runs() const { return runs_; }
    const std::vector<QString>& runStrategies() const { return strategies_; }
    void setMaxRuns(int count);
    int maxRuns() const;
    // In order of first appearance in the kept runs.
    std::vector<CommandSummary> summaries() const;
    QCustomPlot* plot() const { return plot_; }

    // For Run ×N: `done` of `total` runs finished; total 0 hides the progress bar and the cancel button.
    void setProgress(int done, int total);
    // The one count of Run ×N (1..10000): this view's button and the main window's action both run it.
    int repeatCount() const;
    void setRepeatCount(int count);

  signals:
    void runRepeatedRequested(int count);
    void repeatCountChanged(int count);
    void cancelRequested();
    void runsChanged();

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void trimToMaxRuns();
    void refresh();
    void refreshPlot();
    void refreshLastRunTable();
    void refreshSummaryTable();

    std::vector<std::vector<Timing>> runs_;
    std::vector<QString> strategies_;
    std::vector<int> runNumbers_;  // 1-based sequence numbers, so the rolling plot's x axis keeps counting
    int nextRunNumber_ = 1;

    QCustomPlot* plot_ = nullptr;
    QSpinBox* maxRuns_ = nullptr;
    QLabel* lastRunTitle_ = nullptr;
    QTableWidget* lastRunTable_ = nullptr;
    QLabel* stageTotals_ = nullptr;
    QTableWidget* summaryTable_ = nullptr;
    QSpinBox* repeatCount_ = nullptr;
    QPushButton* runRepeated_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QPushButton* cancel_ = nullptr;
};

}  // namespace hs::ui
