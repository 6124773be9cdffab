#pragma once
// The app's own per-frame time as a user sees it (--measure-frames, ui/launch.cpp): for each result of a
// Run ×N that the window shows, the wall time on the GUI thread since the previous one was shown (the first
// since the Run ×N started), the worker's time for the run (its stages and the hand-off to the display), and
// the timing view's totals of that run (its records summed per Stage, as the view's "Totals:" line). The
// figures are min / median / max over the frames, written as JSON.

#include <QString>
#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "runtime/timing.hpp"
#include "ui/controller.hpp"

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
    //  "wall_total_ms", "wall_ms", "worker_ms", "timing_totals_ms": {"upload", "kernel", ...}} with each
    //  figure but the total {"median", "min", "max"}; the context comes from the last result. Needs at least
    //  one frame. The worker runs ahead of the GUI thread, so single wall intervals can be short where two
    //  results were shown back to back: wall_total_ms / frames is the rate a user sees.
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
