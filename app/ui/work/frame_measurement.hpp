#pragma once
// The app's own per-frame time as a user sees it (--measure-frames, ui/launch.cpp), three clocks:
//  - wall per frame: from the Run ×N request until its last result is shown, divided by the frames: the rate
//    at which a user sees new frames, the figure to quote;
//  - shown intervals: the GUI thread's time between two results shown. The worker does not wait for the GUI
//    thread: while that thread paints, the next results queue up and are then shown back to back, so single
//    intervals scatter around the rate (a short one follows a long one) and only their sum means something;
//  - worker: the worker thread's time for one run (upload, stages, hand-off to the view's texture, glFinish);
//    with the GUI thread keeping up, wall per frame is this plus the wait for the next request.
// Beside them the timing view's totals of each run (its records summed per Stage, as the view's "Totals:"
// line). Each figure but the rate is min / median / max over the frames; written as JSON.

#include <QString>
#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "runtime/timing.hpp"
#include "ui/work/controller.hpp"

namespace hs::ui {

class FrameMeasurement {
  public:
    using Clock = std::chrono::steady_clock;

    // `frames` > 0 results to measure; the Run ×N is requested at `start`.
    FrameMeasurement(int frames, Clock::time_point start);

    // A result shown at `shown`. True once `frames` results are in.
    bool add(const RunOutcome& outcome, Clock::time_point shown);
    int frames() const { return static_cast<int>(wallMs_.size()); }

    // {"image", "width", "height", "device", "display", "display_reason", "strategies", "frames",
    //  "wall_total_ms", "wall_per_frame_ms", "shown_interval_ms", "worker_ms",
    //  "timing_totals_ms": {"upload", "kernel", ...}}, each figure but the total and the rate
    //  {"median", "min", "max"}; the context comes from the last result. Needs at least one frame.
    std::string json(const QString& imagePath) const;

  private:
    int wanted_;
    Clock::time_point start_;
    Clock::time_point previous_;
    std::vector<double> wallMs_;
    std::vector<double> workerMs_;
    std::map<Stage, std::vector<double>> totalsMs_;  // only the stages with records
    RunOutcome last_;
};

}  // namespace hs::ui
