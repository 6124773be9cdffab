#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/cl.hpp"

namespace hs {

enum class Stage { Upload, Kernel, Readback, Interop, Other };

std::string_view stageName(Stage stage);

// One command's life in nanoseconds on the device's profiling clock (host steady clock for host work).
struct Timing {
    Stage stage = Stage::Other;
    std::string name;
    std::uint64_t queuedNs = 0;
    std::uint64_t submitNs = 0;
    std::uint64_t startNs = 0;
    std::uint64_t endNs = 0;
    // Host work (TimingLog::addHost): it ran on a host thread, not in a device queue, so a timeline puts it
    // in the host lane.
    bool host = false;

    std::uint64_t durationNs() const { return endNs > startNs ? endNs - startNs : 0; }
};

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
