#pragma once
// One time origin for every device: each device's profiling clock mapped onto the host's steady clock.
//
// OpenCL event timestamps count on the device's own clock, whose epoch is the driver's choice (PoCL counts
// from boot like the host's steady clock; NVIDIA counts from 1970). Two devices of one run, or a device's
// commands beside host work, only line up once every clock is mapped onto one. Each DeviceContext measures
// its device's offset when it creates its queue and registers it here under that queue; TimingLog::collect()
// looks the offset up through each event's queue, so every Timing carries it (Timing::hostOffsetNs).

#include <chrono>
#include <cstdint>

#include "engine/runtime/cl.hpp"

namespace hs {

// The host steady clock's reading in nanoseconds, the clock host work (TimingLog::addHost) is measured on.
std::uint64_t steadyNs(std::chrono::steady_clock::time_point time = std::chrono::steady_clock::now());

// The offset of the device's profiling clock to the host steady clock (host steady ns = device ns + offset),
// measured on `queue` (a profiling queue of `device`): through clGetDeviceAndHostTimer where the device has
// OpenCL >= 2.1 and a host timer, otherwise from a marker's CL_PROFILING_COMMAND_END against the steady clock
// around it. The best of a few samples (the narrowest host window) is taken.
std::int64_t measureClockOffset(const cl::Device& device, cl::CommandQueue& queue);

// The registry of measured offsets, by queue: DeviceContext registers its queue's offset and forgets it when
// it goes; an unregistered queue (a test's own) has offset 0.
void registerQueueClock(cl_command_queue queue, std::int64_t offsetNs);
void forgetQueueClock(cl_command_queue queue);
std::int64_t queueClockOffset(cl_command_queue queue);

}  // namespace hs
