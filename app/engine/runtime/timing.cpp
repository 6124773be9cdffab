#include "engine/runtime/timing.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "engine/runtime/device_clock.hpp"
#include "engine/runtime/device_timing.hpp"
#include "engine/runtime/error.hpp"

namespace hs {

std::string_view stageName(Stage stage) {
    switch (stage) {
        case Stage::Upload:
            return "upload";
        case Stage::Kernel:
            return "kernel";
        case Stage::Readback:
            return "readback";
        case Stage::Interop:
            return "interop";
        case Stage::Other:
            break;
    }
    return "other";
}

cl::Event* TimingLog::track(Stage stage, std::string name) {
    // std::vector growth would move the events, which is fine: cl::Event is a handle. The pointer is used
    // immediately by the enqueue call and not kept.
    pending_.push_back({stage, std::move(name), cl::Event(), next_++});
    return &pending_.back().event;
}

void TimingLog::addHost(Stage stage, std::string name, std::chrono::steady_clock::time_point start,
                        std::chrono::steady_clock::time_point end) {
    Timing timing{stage, std::move(name), steadyNs(start), steadyNs(start), steadyNs(start), steadyNs(end),
                  true};
    host_.push_back({std::move(timing), next_++});
}

std::vector<Timing> TimingLog::collect() {
    std::vector<std::pair<std::size_t, Timing>> ordered;
    ordered.reserve(pending_.size() + host_.size());
    withClErrors("collecting profiling events", [&] {
        for (auto& item : pending_) {
            item.event.wait();
            ordered.emplace_back(
                item.order, deviceTiming(item.stage, std::move(item.name),
                                         item.event.getProfilingInfo<CL_PROFILING_COMMAND_QUEUED>(),
                                         item.event.getProfilingInfo<CL_PROFILING_COMMAND_SUBMIT>(),
                                         item.event.getProfilingInfo<CL_PROFILING_COMMAND_START>(),
                                         item.event.getProfilingInfo<CL_PROFILING_COMMAND_END>(),
                                         queueClockOffset(item.event.getInfo<CL_EVENT_COMMAND_QUEUE>()())));
        }
    });
    for (auto& item : host_) ordered.emplace_back(item.order, std::move(item.timing));
    pending_.clear();
    host_.clear();
    std::sort(ordered.begin(), ordered.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<Timing> timings;
    timings.reserve(ordered.size());
    for (auto& item : ordered) timings.push_back(std::move(item.second));
    return timings;
}

Timing deviceTiming(Stage stage, std::string name, std::uint64_t queuedNs, std::uint64_t submitNs,
                    std::uint64_t startNs, std::uint64_t endNs, std::int64_t hostOffsetNs) {
    if (submitNs == 0 || submitNs > startNs) submitNs = startNs;
    if (queuedNs == 0 || queuedNs > submitNs) queuedNs = submitNs;
    return Timing{stage, std::move(name), queuedNs, submitNs, startNs, endNs, false, hostOffsetNs};
}

std::uint64_t runOriginNs(const std::vector<Timing>& timings) {
    if (timings.empty()) return 0;
    std::uint64_t origin = std::numeric_limits<std::uint64_t>::max();
    for (const auto& timing : timings) origin = std::min(origin, timing.hostQueuedNs());
    return origin;
}

std::uint64_t totalNs(const std::vector<Timing>& timings, Stage stage) {
    std::uint64_t total = 0;
    for (const auto& timing : timings) {
        if (timing.stage == stage) total += timing.durationNs();
    }
    return total;
}

}  // namespace hs
