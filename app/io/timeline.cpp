#include "io/timeline.hpp"

#include <algorithm>
#include <cstdlib>
#include <utility>

namespace hs::io {

namespace {

constexpr double kNsPerUs = 1000.0;

// A device's queue lane; a device without a name still gets a lane of its own.
QString queueLaneName(const DeviceTimings& device) {
    return device.device.isEmpty() ? QStringLiteral("device") : device.device;
}

}  // namespace

double Timeline::endUs() const {
    double end = 0;
    for (const TimelineBar& bar : bars) end = std::max(end, bar.endUs);
    return end;
}

QString hostLaneName() {
    return QStringLiteral("host");
}

RunTimings runTimingsOf(const produce_consume::Result& result, int number) {
    RunTimings run;
    run.number = number;
    run.strategy = QString::fromStdString(result.convolutionStrategy + " -> " + result.histogramStrategy);
    for (const auto& device : result.devices)
        run.devices.push_back(
            {QString::fromStdString(device.role + ": " + device.device + " (" + device.selector + ")"),
             device.timings});
    run.mode = QString::fromUtf8(produce_consume::modeName(result.mode));
    run.overlapNs = result.overlapNs;
    return run;
}

std::uint64_t runOriginNs(const RunTimings& run) {
    std::vector<Timing> all;
    for (const DeviceTimings& device : run.devices)
        all.insert(all.end(), device.timings.begin(), device.timings.end());
    return hs::runOriginNs(all);
}

Timeline timelineOf(const RunTimings& run) {
    Timeline timeline;
    const bool empty = std::all_of(run.devices.begin(), run.devices.end(),
                                   [](const DeviceTimings& device) { return device.timings.empty(); });
    if (empty) return timeline;
    const std::uint64_t origin = runOriginNs(run);
    timeline.originNs = origin;

    const auto laneOf = [&timeline](const QString& name) {
        auto it = std::find(timeline.lanes.begin(), timeline.lanes.end(), name);
        if (it == timeline.lanes.end()) it = timeline.lanes.insert(timeline.lanes.end(), name);
        return static_cast<int>(it - timeline.lanes.begin());
    };
    // Device lanes first, in the run's order; the host lane is added after them.
    for (const DeviceTimings& device : run.devices) {
        const bool usesQueue = std::any_of(device.timings.begin(), device.timings.end(),
                                           [](const Timing& timing) { return !timing.host; });
        if (usesQueue) laneOf(queueLaneName(device));
    }
    const auto relative = [origin](std::uint64_t ns) {
        return static_cast<double>(ns - std::min(ns, origin)) / kNsPerUs;
    };
    for (const DeviceTimings& device : run.devices) {
        for (const Timing& timing : device.timings) {
            TimelineBar bar;
            bar.lane = laneOf(timing.host ? hostLaneName() : queueLaneName(device));
            bar.stage = timing.stage;
            bar.name = QString::fromStdString(timing.name);
            if (timing.stage == Stage::Kernel && !timing.host) {
                const auto options = run.buildOptions.find(QString::fromStdString(timing.step));
                if (options != run.buildOptions.end()) bar.buildOptions = options->second;
            }
            bar.queuedUs = relative(timing.hostQueuedNs());
            bar.submitUs = relative(timing.hostSubmitNs());
            bar.startUs = relative(timing.hostStartNs());
            bar.endUs = relative(timing.hostEndNs());
            timeline.bars.push_back(bar);
        }
    }
    return timeline;
}

std::vector<double> laneBusyUs(const Timeline& timeline, double fromUs, double toUs) {
    std::vector<double> busy(timeline.lanes.size(), 0.0);
    if (toUs < fromUs) std::swap(fromUs, toUs);
    for (std::size_t lane = 0; lane < timeline.lanes.size(); ++lane) {
        std::vector<std::pair<double, double>> spans;
        for (const TimelineBar& bar : timeline.bars) {
            if (bar.lane != static_cast<int>(lane)) continue;
            const double start = std::max(bar.startUs, fromUs);
            const double end = std::min(bar.endUs, toUs);
            if (end > start) spans.emplace_back(start, end);
        }
        std::sort(spans.begin(), spans.end());
        // Overlapping spans (a host thread beside a queue's commands, out-of-order execution) count once.
        double coveredUntil = fromUs;
        for (const auto& [start, end] : spans) {
            const double from = std::max(start, coveredUntil);
            if (end > from) busy[lane] += end - from;
            coveredUntil = std::max(coveredUntil, end);
        }
    }
    return busy;
}

std::vector<std::pair<double, double>> overlapUs(const Timeline& timeline) {
    // Sweep the bars' edges: +1 where a device lane turns busy, -1 where it turns idle; the overlap is where
    // two or more lanes are busy. A lane's own overlapping bars count once (its busy count goes 0 -> 1 only).
    const auto hostLane = std::find(timeline.lanes.begin(), timeline.lanes.end(), hostLaneName());
    const int host = static_cast<int>(hostLane - timeline.lanes.begin());
    std::vector<std::pair<double, int>> edges;  // (time, lane + 1) opening, (time, -(lane + 1)) closing
    for (const TimelineBar& bar : timeline.bars) {
        if (bar.lane == host || bar.endUs <= bar.startUs) continue;
        edges.emplace_back(bar.startUs, bar.lane + 1);
        edges.emplace_back(bar.endUs, -(bar.lane + 1));
    }
    // Closing before opening at one instant: bars that only touch do not overlap.
    std::sort(edges.begin(), edges.end(), [](const auto& a, const auto& b) {
        return a.first != b.first ? a.first < b.first : a.second < b.second;
    });
    std::vector<int> openBars(timeline.lanes.size(), 0);
    int busyLanes = 0;
    double overlapStart = 0;
    std::vector<std::pair<double, double>> overlaps;
    for (const auto& [time, edge] : edges) {
        const auto lane = static_cast<std::size_t>(std::abs(edge) - 1);
        const int before = busyLanes;
        if (edge > 0) {
            if (openBars[lane]++ == 0) ++busyLanes;
        } else if (--openBars[lane] == 0) {
            --busyLanes;
        }
        if (before < 2 && busyLanes >= 2) overlapStart = time;
        if (before >= 2 && busyLanes < 2 && time > overlapStart) {
            if (!overlaps.empty() && overlaps.back().second >= overlapStart)
                overlaps.back().second = time;
            else
                overlaps.emplace_back(overlapStart, time);
        }
    }
    return overlaps;
}

}  // namespace hs::io
