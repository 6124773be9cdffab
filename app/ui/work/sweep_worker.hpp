#pragma once
// The Kernel tab's sweep (views/sweep_view.*) on a thread of its own: session::runSweep, the one sweep of
// histoscope-cli too, point by point with progress and Cancel; and the adoption of a point, stored as the
// device's best (ops/tuning.hpp) from that thread, which owns the device's program cache.

#include <QString>
#include <atomic>
#include <optional>

#include "engine/lab/sweep.hpp"
#include "engine/runtime/device_info.hpp"
#include "session/sweep.hpp"
#include "ui/work/worker.hpp"

namespace hs::ui {

class SweepWorker : public Worker {
    Q_OBJECT

  public:
    explicit SweepWorker(QObject* parent = nullptr);
    ~SweepWorker() override;

    // Runs `spec`'s grid; progress, then finished, cancelled or failed follow.
    void start(session::SweepSpec spec);
    // The running sweep stops before its next point (cancelled follows).
    void cancel() { cancelRequested_ = true; }
    // Stores `values` as the best of `strategy` on the device `selector` names (adopted or failed follow).
    void adopt(const QString& selector, const std::string& strategy, const lab::Point& values);

  signals:
    void progress(int done, int total);
    void finished(const lab::Sweep& sweep, const hs::DeviceInfo& device);
    void cancelled();
    void failed(const QString& message);
    void adopted();

  private:
    std::atomic<bool> cancelRequested_{false};
    std::atomic<bool> stopping_{false};
};

}  // namespace hs::ui
