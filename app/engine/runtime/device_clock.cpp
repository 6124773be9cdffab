#include "engine/runtime/device_clock.hpp"

#include <cstdio>
#include <limits>
#include <map>
#include <mutex>

namespace hs {

namespace {

constexpr int kSamples = 5;

// One sample: the device's time and the host steady clock's window around it.
struct Sample {
    std::uint64_t deviceNs = 0;
    std::uint64_t hostBeforeNs = 0;
    std::uint64_t hostAfterNs = 0;

    std::uint64_t windowNs() const { return hostAfterNs - hostBeforeNs; }
    std::int64_t offsetNs() const {
        const std::uint64_t hostMiddle = hostBeforeNs + windowNs() / 2;
        return static_cast<std::int64_t>(hostMiddle) - static_cast<std::int64_t>(deviceNs);
    }
};

// clGetDeviceAndHostTimer exists from OpenCL 2.1 on, and answers only where the device has a host timer.
bool hasHostTimer(const cl::Device& device) {
    int major = 0;
    int minor = 0;
    const std::string version = device.getInfo<CL_DEVICE_VERSION>();
    if (std::sscanf(version.c_str(), "OpenCL %d.%d", &major, &minor) != 2) return false;
    if (major * 10 + minor < 21) return false;
    // The host timer's resolution is the platform's; 0 means it has none.
    cl_ulong resolution = 0;
    const cl_platform_id platform = device.getInfo<CL_DEVICE_PLATFORM>();
    if (clGetPlatformInfo(platform, CL_PLATFORM_HOST_TIMER_RESOLUTION, sizeof(resolution), &resolution,
                          nullptr) != CL_SUCCESS)
        return false;
    return resolution != 0;
}

bool hostTimerSample(const cl::Device& device, Sample& sample) {
    cl_ulong deviceNs = 0;
    cl_ulong hostNs = 0;
    sample.hostBeforeNs = steadyNs();
    const cl_int status = clGetDeviceAndHostTimer(device(), &deviceNs, &hostNs);
    sample.hostAfterNs = steadyNs();
    sample.deviceNs = deviceNs;
    return status == CL_SUCCESS;
}

// The marker ends after it was enqueued and before finish() returns: its end lies within that window.
Sample markerSample(cl::CommandQueue& queue) {
    cl::Event marker;
    Sample sample;
    sample.hostBeforeNs = steadyNs();
    queue.enqueueMarkerWithWaitList(nullptr, &marker);
    queue.finish();
    sample.hostAfterNs = steadyNs();
    sample.deviceNs = marker.getProfilingInfo<CL_PROFILING_COMMAND_END>();
    return sample;
}

struct Registry {
    std::mutex mutex;
    std::map<cl_command_queue, std::int64_t> offsets;
};

// Never destroyed: a Runtime of static storage (a test's, a tool's) forgets its queues at exit, possibly
// after a registry of static storage would already be gone.
Registry& registry() {
    static auto* r = new Registry;
    return *r;
}

}  // namespace

std::uint64_t steadyNs(std::chrono::steady_clock::time_point time) {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(time.time_since_epoch()).count());
}

std::int64_t measureClockOffset(const cl::Device& device, cl::CommandQueue& queue) {
    bool useHostTimer = hasHostTimer(device);
    Sample best;
    best.hostAfterNs = std::numeric_limits<std::uint64_t>::max();
    for (int k = 0; k < kSamples; ++k) {
        Sample sample;
        if (useHostTimer && !hostTimerSample(device, sample)) useHostTimer = false;  // marker from now on
        if (!useHostTimer) sample = markerSample(queue);
        if (sample.windowNs() < best.windowNs()) best = sample;
    }
    return best.offsetNs();
}

void registerQueueClock(cl_command_queue queue, std::int64_t offsetNs) {
    std::lock_guard lock(registry().mutex);
    registry().offsets[queue] = offsetNs;
}

void forgetQueueClock(cl_command_queue queue) {
    std::lock_guard lock(registry().mutex);
    registry().offsets.erase(queue);
}

std::int64_t queueClockOffset(cl_command_queue queue) {
    std::lock_guard lock(registry().mutex);
    const auto found = registry().offsets.find(queue);
    return found == registry().offsets.end() ? 0 : found->second;
}

}  // namespace hs
