#pragma once
// The profiler window: a rolling plot of per-kernel time over the last N runs, the command table of the last
// run (queued → submit → start → end, upload / kernel / readback apart), min / median / max per command
// over the kept runs grouped by device and strategy, and the "Run ×N" control with progress and cancel.

#include <QSize>
#include <QString>
#include <QWidget>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "engine/runtime/timing.hpp"
#include "io/timeline.hpp"

class QCustomPlot;
class QLabel;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace hs::ui {

class RunModel;

class TimingView : public QWidget {
    Q_OBJECT

  public:
    // What a kept run ran on and with, beside its timings.
    struct RunInfo {
        int number = 1;  // counted from 1 since the view was made, as exports and the CLI count
        QString strategy;
        QString device;
        std::map<QString, QString> buildOptions;  // per pipeline stage, see io::RunTimings
        // The run's device queues (io::DeviceTimings::device), each with how many of the run's records, in
        // order, it holds: one for a run on one device, producer and consumer for a produce-consume run.
        std::vector<std::pair<QString, std::size_t>> lanes{};
        QString mode{};                            // a produce-consume run's (io::RunTimings::mode)
        std::optional<std::uint64_t> overlapNs{};  // a produce-consume run's, on the host clock
        // What it measured (io::RunTimings): the image's path and size, the stages with their parameters.
        QString image{};
        QSize size{};
        QString spec{};
    };

    // The durations of one command (same device, strategy, image, size and spec, stage and name) over the
    // kept runs. Where a run issues the command more than once, its durations are summed for that run. The
    // median of an even number of runs is the mean of the middle two.
    struct CommandSummary {
        QString device;
        QString strategy;
        QString group;  // everything the runs agree on, as the table's heading row says it
        Stage stage = Stage::Other;
        QString name;
        int runs = 0;
        double minMs = 0;
        double medianMs = 0;
        double maxMs = 0;
    };

    // Shows the runs `model` keeps, following it; the "keep last" box sets how many it keeps.
    explicit TimingView(RunModel& model, QWidget* parent = nullptr);

    // Each kept run's records, device after device (RunInfo::lanes says which device each one is from).
    const std::vector<std::vector<Timing>>& runs() const { return runs_; }
    const std::vector<RunInfo>& runInfo() const { return runInfo_; }
    void setMaxRuns(int count);
    int maxRuns() const;
    // Grouped by device and strategy in order of first appearance, each group's commands in order of first
    // appearance.
    std::vector<CommandSummary> summaries() const;
    QCustomPlot* plot() const { return plot_; }
    // The legend's entries (the list "timingLegend" under the plot) carry the colour of their kernel's line
    // or group's marker and the marker's QCPScatterStyle::ScatterShape in these roles.
    static constexpr int kLegendColorRole = Qt::UserRole;
    static constexpr int kLegendShapeRole = Qt::UserRole + 1;

    // For Run ×N: `done` of `total` runs finished; total 0 hides the progress bar and the cancel button.
    void setProgress(int done, int total);
    // The one count of Run ×N (1..10000): this view's button and the main window's action both run it.
    int repeatCount() const;
    void setRepeatCount(int count);

  signals:
    void runRepeatedRequested(int count);
    void repeatCountChanged(int count);
    void cancelRequested();

  protected:
    void changeEvent(QEvent* event) override;

  private:
    // Takes the model's kept runs.
    void refresh();
    void refreshPlot();
    void refreshLastRunTable();
    void refreshSummaryTable();

    std::vector<std::vector<Timing>> runs_;
    std::vector<RunInfo> runInfo_;  // beside runs_; the numbers keep counting, so the plot's x axis does
    RunModel& model_;

    QCustomPlot* plot_ = nullptr;
    QListWidget* legend_ = nullptr;
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
