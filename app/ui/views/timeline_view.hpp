#pragma once
// One run as a profiler shows it: a lane per device queue and one for host work, each command a bar from
// start to end with its queued → submit and submit → start waits drawn lighter and thinner behind it. The
// wheel zooms and a drag pans along time; hovering a bar shows every time and the kernel's build options; a
// shift-drag selects a range and says how long each lane was busy in it. Where two devices' queues are busy
// at once (a produce-consume run), the overlap is shaded across the lanes (io::overlapUs). It shows the last
// kept run, or the one picked in the selector. Times are microseconds from the run's first queued timestamp,
// the same for every device (io::timelineOf, which the Chrome trace export also uses).

#include <QPointF>
#include <QString>
#include <QWidget>
#include <optional>
#include <utility>
#include <vector>

#include "io/timeline.hpp"

class QComboBox;
class QCPItemRect;
class QCustomPlot;
class QLabel;
class QMouseEvent;

namespace hs::ui {

class RunModel;

class TimelineView : public QWidget {
    Q_OBJECT

  public:
    // Half the height of a command's bar and of its wait, in lanes (a lane is 1 high, centred on its index).
    static constexpr double kBarHalfHeight = 0.3;
    static constexpr double kWaitHalfHeight = 0.12;

    explicit TimelineView(QWidget* parent = nullptr);

    // The kept runs, oldest first. The run shown stays shown while it is kept; "last run" follows new runs.
    void setRuns(std::vector<io::RunTimings> runs);
    // Shows `model`'s kept runs from now on, whenever they change.
    void follow(const RunModel& model);
    // Shows the kept run numbered `number`, or the last run for 0; false when no such run is kept.
    bool showRun(int number);
    // The number of the run shown, 0 when none is.
    int shownRun() const { return shownRun_; }
    const io::Timeline& timeline() const { return timeline_; }

    // The read-out for the point at `timeUs` in lane coordinate `lane` (lane index ± ½): a command's bar,
    // else the wait of a command in that lane; empty where there is neither.
    QString hoverTextAt(double timeUs, double lane) const;
    // Selects [fromUs, toUs] (either order), as a shift-drag does; selectionText() then tells the busy times.
    void selectRange(double fromUs, double toUs);
    void clearSelection();
    std::optional<std::pair<double, double>> selection() const { return selection_; }
    QString selectionText() const;
    // Shows the whole run.
    void fitRun();

    QCustomPlot* plot() const { return plot_; }
    QComboBox* runSelector() const { return runSelector_; }

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void rebuildSelector();
    void rebuildPlot();
    void rebuildLegend();
    void onMousePress(QMouseEvent* event);
    void onMouseMove(QMouseEvent* event);
    void onMouseRelease(QMouseEvent* event);
    void updateSelectionItem();

    std::vector<io::RunTimings> runs_;
    int shownRun_ = 0;  // the number of the run shown, 0 for none
    bool followsLastRun_ = true;
    io::Timeline timeline_;

    std::optional<std::pair<double, double>> selection_;
    std::optional<double> dragStartUs_;  // while a shift-drag selects

    QComboBox* runSelector_ = nullptr;
    QLabel* selectionLabel_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QCPItemRect* selectionItem_ = nullptr;
};

}  // namespace hs::ui
