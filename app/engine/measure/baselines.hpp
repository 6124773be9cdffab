#pragma once
// Bandwidth baselines (after clpeak): a streaming-read and a copy kernel (kernels/bench.cl) measured on the
// device and bytes of a run, so that an operation's GB/s can be given as a ratio to what the device reaches
// moving the same bytes in the same run.

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/measure/measure.hpp"
#include "engine/runtime/cl.hpp"

namespace hs {
class DeviceContext;
}

namespace hs::measure {

// Like clpeak, which reports the best of several access shapes, each baseline is measured in the fastest of
// a few work-group shapes found by a short trial.
struct Baseline : Summary {
    std::string shape;  // "local L, Q uint4 per work-item"
};

// Measured once per kernel and byte count and kept, so every measurement of a run compares against the same
// figures.
class Baselines {
  public:
    Baselines(DeviceContext& device, int repetitions) : device_(device), repetitions_(repetitions) {}

    // Reads the first `bytes` of `data` (uint4 loads, reduced so nothing is optimised away).
    const Baseline& streamRead(const cl::Buffer& data, std::uint64_t bytes);
    // Copies `bytes` from a scratch buffer to another; moves 2 * bytes.
    const Baseline& copy(std::uint64_t bytes);
    // Every baseline measured so far, by kernel name and byte count.
    const std::map<std::pair<std::string, std::uint64_t>, Baseline>& measured() const { return measured_; }

  private:
    struct Shape {
        std::size_t local;
        std::size_t quadsPerItem;
        std::size_t groups;
    };
    std::vector<Shape> shapes(const cl::Kernel& kernel, std::uint64_t bytes) const;
    std::vector<Timing> enqueue(cl::Kernel& kernel, const Shape& shape, const char* name);
    // `quadsArgument` is the index of the kernel's quads_per_item argument.
    Baseline measureFastest(cl::Kernel& kernel, unsigned quadsArgument, std::uint64_t bytes,
                            const char* name);

    DeviceContext& device_;
    int repetitions_;
    std::map<std::pair<std::string, std::uint64_t>, Baseline> measured_;
};

}  // namespace hs::measure
