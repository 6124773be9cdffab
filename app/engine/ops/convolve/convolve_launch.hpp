#pragma once
// Internal: what the convolution strategies share. All build kernels/convolve.cl specialised for the
// filter's size and arithmetic (-D KW, KH, INTEGER, MAGNITUDE); each strategy lives in its own .cpp.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ops/convolve/convolve.hpp"
#include "runtime/cl.hpp"

namespace hs::convolve::launch {

std::string filterOptions(const Filter& filter);

// The divisor the kernels apply: integer filters divide at the end, float weights arrive already divided.
cl_int kernelDivisor(const Filter& filter);

// Copies weights into a constant buffer: integers as they are, floats divided by `divisor`.
cl::Buffer uploadWeights(DeviceContext& device, const std::vector<double>& values, bool integer,
                         double divisor, TimingLog& log);

// Binds a kernel's input arguments from index 0 and returns the index of the next one.
using InputBinder = std::function<cl_uint(cl::Kernel&, TimingLog&)>;

// The pixels as a buffer, argument 0. The pixel source holds the buffer until the commands finish.
InputBinder bufferInput(DeviceContext& device, PixelSource& pixels);

// Runs `strategy`'s 2-D kernel `kernelName` of `build`, whose arguments are (inputs..., dst, width, height,
// taps, divisor); the local size is `local`, else the largest the kernel accepts.
Result runTwoDimensional(DeviceContext& device, PixelSource& pixels, const Filter& filter,
                         const Strategy& strategy, const KernelBuild& build, const std::string& kernelName,
                         const InputBinder& bindInputs, std::optional<cl::NDRange> local = std::nullopt);

// Why the device cannot hold the image in a buffer; yes when it can.
Support bufferSupport(const DeviceInfo& device, ImageShape shape);

// Strategies on a device built with the filter's options alone.
class FilterBuiltStrategy : public Strategy {
  public:
    bool runsOnDevice() const override { return true; }
    std::optional<KernelBuild> kernelBuild(const DeviceInfo&, const Filter& filter,
                                           ImageShape) const override {
        return KernelBuild{"convolve", filterOptions(filter)};
    }
};

}  // namespace hs::convolve::launch
