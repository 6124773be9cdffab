#pragma once
// How TimingLog turns a device command's profiling times into a Timing record (runtime/timing.hpp).

#include <cstdint>
#include <string>

#include "engine/runtime/timing.hpp"

namespace hs {

// A device command's record from its four profiling times. Some drivers leave QUEUED and SUBMIT at 0 for
// commands they do not profile fully (NVIDIA for clEnqueueAcquireGLObjects / clEnqueueReleaseGLObjects); a
// 0 would map to the device clock's epoch, decades before the run on the host clock, and pull every view's
// times from the run's first command apart. So a time that is missing (0) or later than the next one takes
// the next one's value: queued <= submit <= start always holds.
Timing deviceTiming(Stage stage, std::string name, std::uint64_t queuedNs, std::uint64_t submitNs,
                    std::uint64_t startNs, std::uint64_t endNs, std::int64_t hostOffsetNs);

}  // namespace hs
