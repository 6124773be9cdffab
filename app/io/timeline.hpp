#pragma once
// A run's commands laid out as a profiler shows them: one lane per device queue and one for host work, each
// command with its queued, submit, start and end time in microseconds from the run's first queued timestamp,
// every device's times mapped onto the host steady clock first (Timing::hostQueuedNs), so that one origin
// holds for every device whatever its own clock. The timeline view draws this layout and the Chrome trace is
// written from it, so the two show the same lanes, starts and durations.

#include <QString>
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "engine/ops/produce_consume/produce_consume.hpp"
#include "engine/runtime/timing.hpp"

namespace hs::io {

// The commands of one device's queue in a run, in submission order; records marked `host` are host work done
// for it. `device` names the queue's lane, so it tells devices apart ("pthread-cpu (0:1)").
struct DeviceTimings {
    QString device;
    std::vector<Timing> timings;
};

// One run: its number (counted from 1, as everywhere), what ran it, its commands per device (a pipeline over
// two devices gives two), and the build options of each pipeline stage's kernels keyed by the stage name that
// prefixes its commands ("histogram" for "histogram: count").
struct RunTimings {
    int number = 1;
    QString strategy;
    std::vector<DeviceTimings> devices;
    std::map<QString, QString> buildOptions;
    // A produce-consume run's mode ("buffer", "pipe") and overlap (produce_consume::Result::overlapNs); empty
    // and unset for a run on one device.
    QString mode{};
    std::optional<std::uint64_t> overlapNs{};
    // What the run measured, besides the device and the strategy: the image (its path; empty for pixels
    // that come from no file), its size, and the spec, every stage with its parameters in order ("rotate (30
    // degrees, linear) → histogram (256 bins)"). Times compare only between runs that agree on all of them.
    QString image{};
    int width = 0;
    int height = 0;
    QString spec{};
};

// One command on the timeline; times in microseconds from the run's origin.
struct TimelineBar {
    int lane = 0;
    Stage stage = Stage::Other;
    QString name;
    QString buildOptions;  // the kernel's; empty for transfers and host work
    double queuedUs = 0;
    double submitUs = 0;
    double startUs = 0;
    double endUs = 0;

    double durationUs() const { return endUs - startUs; }
    double waitUs() const { return startUs - queuedUs; }
};

struct Timeline {
    std::vector<QString> lanes;  // the device queues in the run's order, then the host lane if host work ran
    std::vector<TimelineBar> bars;  // device by device, each in submission order
    std::uint64_t originNs = 0;     // the run's first queued timestamp, on the host steady clock

    double endUs() const;  // the latest end of any command
};

// A produce-consume run as a timeline's run: producer, then consumer, each lane named "role: device
// (selector)" so that two devices of one name (PoCL's two pthread devices) get a lane each.
RunTimings runTimingsOf(const produce_consume::Result& result, int number);

// The run's time origin on the host clock: the earliest queued time of any record of any of its devices
// (hs::runOriginNs over them all); 0 when it has none.
std::uint64_t runOriginNs(const RunTimings& run);

// The lane of host work.
QString hostLaneName();

Timeline timelineOf(const RunTimings& run);

// How long each lane was busy within [fromUs, toUs]: the union of its bars' start → end, clipped to the range
// (waits do not count). Indexed like Timeline::lanes.
std::vector<double> laneBusyUs(const Timeline& timeline, double fromUs, double toUs);

// The stretches when two or more device queue lanes are busy at once (bars' start -> end; the host lane and
// waits do not count), in time order and merged: a produce-consume run's overlap.
std::vector<std::pair<double, double>> overlapUs(const Timeline& timeline);

}  // namespace hs::io
