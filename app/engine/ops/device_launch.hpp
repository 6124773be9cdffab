#pragma once
// Internal: device plumbing the image operations share (allocation checks, images from pixel sources, 2-D
// launches). Not for callers of the operations.

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/image/pixel_source.hpp"
#include "engine/image/region.hpp"
#include "engine/ops/strategy.hpp"
#include "engine/runtime/cl.hpp"
#include "engine/runtime/device_info.hpp"
#include "engine/runtime/timing.hpp"

namespace hs {
class DeviceContext;
}

namespace hs::launch {

// Throws UsageError for an image without pixels: no operation has anything to do with it.
void requirePixels(int width, int height, std::string_view operation);

// Bytes of width × height RGBA8 pixels.
std::uint64_t pixelBytes(int width, int height);
// Why `device` cannot allocate a buffer of `bytes` for `what`; empty when it can.
std::string allocationProblem(const DeviceInfo& device, std::uint64_t bytes, std::string_view what);
// Why `device` cannot hold a width × height image in a buffer; empty when it can.
std::string pixelBufferProblem(const DeviceInfo& device, int width, int height);
// Why `device` cannot hold a width × height 2-D image; empty when it can.
std::string imageProblem(const DeviceInfo& device, int width, int height);

// A fresh read-write buffer for width × height RGBA8 pixels.
cl::Buffer newPixelBuffer(DeviceContext& device, int width, int height);

// The name of toImage2D's device-side copy in the timing log.
inline constexpr std::string_view kCopyToImageName = "copy buffer to image";

// The pixels as a read-only 2-D image of `format`: a device-side copy (kCopyToImageName) when they already
// live on `device`, one upload from the host otherwise (PixelSource::writeTo: host pixels of the source's own
// go with it).
cl::Image2D toImage2D(DeviceContext& device, PixelSource& pixels, const cl::ImageFormat& format,
                      TimingLog& log);

// The pixels of `region` (inside `pixels`), packed into a source of their own: with a device, a buffer there
// made by a rectangle copy (from the pixels' buffer when they live on it, else written from the host), unless
// the device cannot hold it; without one (or then), a copy on the host. The transfer is recorded in `log`.
PixelSource cropped(DeviceContext* device, PixelSource& pixels, const Region& region, TimingLog& log);

// The largest of 16×16, 16×8, 8×8, ... that `kernel` accepts on `device`.
cl::NDRange localSize2d(DeviceContext& device, const cl::Kernel& kernel);

// The 2-D work-group a sweep may set for a strategy that otherwise lets the launch choose it
// (ops/tuning.hpp): LOCAL_X × LOCAL_Y work-items.
std::vector<Tunable> groupTunables();

// A kernel ready to launch in 2-D: its program's build, and the work-group it runs in.
struct LaunchableKernel {
    cl::Kernel kernel;
    cl::NDRange local;
    KernelBuild build;
};

// Kernel `name` of `build`, in the work-group in force for `strategy` on the device (groupTunables; the build
// then says it with -D LOCAL_X and LOCAL_Y, halved, y first, until the kernel accepts it), else in the one
// `chosen` picks for the built kernel (the strategy's own choice; the build unchanged).
LaunchableKernel tunedKernel(DeviceContext& device, std::string_view strategy, const KernelBuild& build,
                             const std::string& name,
                             const std::function<cl::NDRange(const cl::Kernel&)>& chosen);

// Runs `kernel` over width × height work-items, the global size rounded up to `local` (kernels check bounds).
void launch2d(DeviceContext& device, const cl::Kernel& kernel, int width, int height,
              const cl::NDRange& local, TimingLog& log, std::string name);

}  // namespace hs::launch
