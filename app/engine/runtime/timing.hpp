#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/runtime/cl.hpp"

namespace hs {

enum class Stage { Upload, Kernel, Readback, Interop, Other };

std::string_view stageName(Stage stage);

// One command's life in nanoseconds. The four times are raw, as OpenCL reported them, on the device's
// profiling clock (whose epoch is the driver's: PoCL's counts from boot, NVIDIA's from 1970), or on the host
// steady clock for host work. `hostOffsetNs` maps them onto the host steady clock, the one clock every device
// of a run shares (runtime/device_clock.hpp): whatever places commands in time (a timeline, the overlap of
// two devices, times from a run's start) uses the host* times; durations are the same on either clock.
struct Timing {
    Stage stage = Stage::Other;  // what kind of command: an upload, a kernel, ...
    std::string name;
    std::uint64_t queuedNs = 0;
    std::uint64_t submitNs = 0;
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    // Host work (TimingLog::addHost): it ran on a host thread, not in a device queue, so a timeline puts it
    // in the host lane.
    bool host = false;
    // Host steady ns = raw ns + hostOffsetNs; 0 for host work, already on that clock.
    std::int64_t hostOffsetNs = 0;
    // Where in a run it belongs: the stage kind's name ("rotate") or the transfer's ("upload"), and the
    // device that ran it (empty for host work); set by the run (pipeline::Result::timings), empty outside
    // one.
    std::string step{};
    std::string device{};

    std::uint64_t durationNs() const { return endNs > startNs ? endNs - startNs : 0; }
    // A raw time of this record on the host steady clock.
    std::uint64_t onHostClock(std::uint64_t rawNs) const {
        return static_cast<std::uint64_t>(static_cast<std::int64_t>(rawNs) + hostOffsetNs);
    }
    std::uint64_t hostQueuedNs() const { return onHostClock(queuedNs); }
    std::uint64_t hostSubmitNs() const { return onHostClock(submitNs); }
    std::uint64_t hostStartNs() const { return onHostClock(startNs); }
    // Never before the start, as durationNs() reads it.
    std::uint64_t hostEndNs() const { return onHostClock(endNs > startNs ? endNs : startNs); }
};

// A run's time origin on the host steady clock: the earliest queued time of `timings` (every device's and
// the host's records alike); 0 when there are none. Views show times from it.
std::uint64_t runOriginNs(const std::vector<Timing>& timings);

// Collects the events of one run and turns them into Timing records once the commands have finished.
// Every enqueue of an operation passes its event through here, so no command goes unaccounted.
class TimingLog {
  public:
    // Returns a pointer suitable as the `event` argument of an enqueue call.
    cl::Event* track(Stage stage, std::string name);
    // Records host-side work (CPU strategies, host conversions) measured with the steady clock.
    void addHost(Stage stage, std::string name, std::chrono::steady_clock::time_point start,
                 std::chrono::steady_clock::time_point end);
    // Waits for the tracked events and returns all records in submission order; the log is emptied.
    std::vector<Timing> collect();
    bool empty() const { return pending_.empty() && host_.empty(); }

  private:
    struct Pending {
        Stage stage;
        std::string name;
        cl::Event event;
        std::size_t order;
    };
    struct Host {
        Timing timing;
        std::size_t order;
    };
    std::vector<Pending> pending_;
    std::vector<Host> host_;
    std::size_t next_ = 0;
};

// Sum of durations of the records of one stage.
std::uint64_t totalNs(const std::vector<Timing>& timings, Stage stage);

}  // namespace hs
