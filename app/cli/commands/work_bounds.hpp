#pragma once
// Work bounded before it starts (issue 21, item 12): a command estimates the host memory and the time a
// request needs from its arguments, and what cannot fit this machine is refused with the estimate in one
// line (a usage error, exit 2) before any of it runs, unless --force asks for it anyway. The time is an
// estimate at a generous throughput, so a refused request would take longer still.
//
//     addForceOption(parser);                                     // the option group: --force
//     refuseUnlessItFits(parser, "65536 descriptors x 200000 words", {bytes, seconds});

#include <QString>
#include <cstdint>

#include "cli/commands/command.hpp"
#include "runtime/device_info.hpp"

namespace hs::cli {

struct WorkEstimate {
    double bytes = 0;    // host memory held at once
    double seconds = 0;  // at the generous throughput of multiplyAddsPerSecond
};

// The longest work a command starts without --force.
inline constexpr double kLongestWorkSeconds = 3600;

// Float multiply-adds per second that `device` cannot beat: every compute unit at its highest clock, 128
// lanes a cycle on a GPU (a streaming multiprocessor's FP32 units) and 16 elsewhere (AVX-512). Null: the
// host, each of its hardware threads at 4 GHz, 16 lanes.
double multiplyAddsPerSecond(const DeviceInfo* device);
// The host's physical memory.
double machineMemoryBytes();

void addForceOption(ArgumentParser& parser);
// Throws UsageError "<command>: <request> would need about 8.0 GiB of memory (this machine has 7.8 GiB) and
// about 3.2 h (more than 1 h); --force runs it anyway" when the estimate exceeds this machine's memory or
// kLongestWorkSeconds, unless --force is given.
void refuseUnlessItFits(const ArgumentParser& parser, const QString& request, const WorkEstimate& estimate);

}  // namespace hs::cli
