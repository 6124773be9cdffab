#pragma once
// Internal: what the OpenCL scope strategies share (kernels/scope.cl specialised per scope, channel and
// device): the frame of a run (pixels to the device once, counts cleared, counted in place over the counted
// rectangle, read back, every command tracked). Each strategy lives in its own .cpp.

#include <string>
#include <vector>

#include "engine/ops/scope/scope.hpp"
#include "engine/runtime/cl.hpp"

namespace hs::scope::device {

inline constexpr std::string_view kSource = "scope";

// -D SCOPE, CHANNEL and IGNORE_TRANSPARENT: what every kernel of kernels/scope.cl needs.
std::string scopeOptions(const Params& params);

// The rectangle a kernel counts and the counts' columns, as its first arguments take them.
struct Launch {
    cl_uint pitch = 0;  // the image's width in pixels
    Region region;
    cl_uint columns = 0;
};

class DeviceStrategy : public Strategy {
  public:
    bool runsOnDevice() const override { return true; }
    // The image must fit one buffer (the kernels read the rectangle in place); else the host counts it.
    Support supported(const DeviceInfo* device, ImageShape shape, const Params& params) const override;
    Result run(DeviceContext* device, PixelSource& pixels, const Params& params) const override;

  protected:
    // What the strategy itself needs beyond a buffer for the image (local memory).
    virtual Support supportedHere(const DeviceInfo& device, const Params& params) const = 0;
    // Enqueues the kernels that add the counts of `launch`'s rectangle to `counts` (cleared).
    virtual void count(DeviceContext& device, const cl::Buffer& pixels, const Launch& launch,
                       const Params& params, const cl::Buffer& counts, TimingLog& log,
                       std::vector<KernelBuild>& builds) const = 0;

    // `build`'s program on `device`, recorded in `builds`.
    static cl::Program program(DeviceContext& device, const KernelBuild& build,
                               std::vector<KernelBuild>& builds);
    // Sets the arguments every kernel of kernels/scope.cl starts with; returns the index after them.
    static cl_uint setLaunchArgs(cl::Kernel& kernel, const cl::Buffer& pixels, const Launch& launch,
                                 const cl::Buffer& counts);
};

}  // namespace hs::scope::device
