#include "engine/ops/rotate/device_rotation.hpp"

#include "engine/ops/device_launch.hpp"
#include "engine/ops/tuning.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::rotate {

namespace {

// The buffer kernel makes 4 neighbouring pixels of a row per work-item (one 16-byte store), in work-groups of
// 4 x 64: on the H100 (8192² RGBA, 33.3 degrees) bilinear 0.357 ms against 0.380 ms with one pixel in 16 x
// 16, nearest 0.219 ms against 0.313 ms (bench/README.md). A sweep may set PIXELS_X and the work-group.
constexpr int kBufferPixelsX = 4;
constexpr std::size_t kBufferLocalX = 4;
constexpr std::size_t kBufferLocalY = 64;

cl::NDRange bufferLocalSize(DeviceContext& device, const cl::Kernel& kernel) {
    const auto limit = withClErrors("device " + device.info().name + ": querying a kernel", [&] {
        return kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device.device());
    });
    if (kBufferLocalX * kBufferLocalY <= limit) return cl::NDRange(kBufferLocalX, kBufferLocalY);
    return launch::localSize2d(device, kernel);
}

}  // namespace

Support DeviceRotation::supported(const DeviceInfo* device, ImageShape shape, const Params&) const {
    if (auto problem = launch::pixelBufferProblem(*device, shape.width, shape.height); !problem.empty())
        return Support::no(problem);
    if (usesImage_) {
        if (auto problem = launch::imageProblem(*device, shape.width, shape.height); !problem.empty())
            return Support::no(problem);
    }
    return Support::yes();
}

std::vector<Tunable> DeviceRotation::tunables() const {
    auto list = launch::groupTunables();
    if (!usesImage_)
        list.push_back({.name = "PIXELS_X",
                        .help = "output pixels of a row per work-item",
                        .min = 1,
                        .max = 8,
                        .powerOfTwo = true});
    return list;
}

int DeviceRotation::pixelsX(const DeviceInfo& device) const {
    return tuning::valueOr(device, tuning::key("rotate", name_), "PIXELS_X", kBufferPixelsX);
}

std::optional<KernelBuild> DeviceRotation::kernelBuild(const DeviceInfo& device, const Params& params,
                                                       ImageShape) const {
    // The image kernel ignores PIXELS_X: both strategies share one program unless a sweep sets it.
    return KernelBuild{"rotate", std::string("-D NEAREST=") +
                                     (params.filterMode == FilterMode::Nearest ? "1" : "0") +
                                     " -D PIXELS_X=" + std::to_string(pixelsX(device))};
}

Result DeviceRotation::run(DeviceContext* device, PixelSource& pixels, const Params& params) const {
    const int width = pixels.width();
    const int height = pixels.height();
    return runMapped(*device, pixels, params, inverseMap(params, width, height),
                     outputSize(params, width, height));
}

Result DeviceRotation::runMapped(DeviceContext& device, PixelSource& pixels, const Params& params,
                                 const std::array<double, 6>& m, CanvasSize out) const {
    const int width = pixels.width();
    const int height = pixels.height();
    tuning::loadStored(device.programCache());
    const KernelBuild build = *kernelBuild(device.info(), params, {width, height});
    const cl_float4 rowX{
        {static_cast<float>(m[0]), static_cast<float>(m[1]), static_cast<float>(m[2]), 0.0f}};
    const cl_float4 rowY{
        {static_cast<float>(m[3]), static_cast<float>(m[4]), static_cast<float>(m[5]), 0.0f}};
    const std::string kernelName = usesImage_ ? "rotate_image" : "rotate_buffer";

    TimingLog log;
    cl::Buffer output = launch::newPixelBuffer(device, out.width, out.height);
    // Held until the commands finish: a kernel argument does not keep its memory object alive.
    cl::Memory input;
    auto launchable = launch::tunedKernel(
        device, tuning::key("rotate", name_), build, kernelName, [&](const cl::Kernel& k) {
            return usesImage_ ? launch::localSize2d(device, k) : bufferLocalSize(device, k);
        });
    cl::Kernel& kernel = launchable.kernel;
    withClErrors("device " + device.info().name + ": setting up " + kernelName, [&] {
        if (usesImage_)
            input = launch::toImage2D(device, pixels, cl::ImageFormat(CL_RGBA, CL_UNORM_INT8), log);
        else
            input = pixels.device(device, log);
        setKernelArgs(kernel, 0, input, output, out.width, out.height, rowX, rowY);
        // The image object knows its own size; the buffer kernel is told where the input ends.
        if (!usesImage_) setKernelArgs(kernel, 6, width, height);
    });
    const int perItem = usesImage_ ? 1 : pixelsX(device.info());
    launch::launch2d(device, kernel, (out.width + perItem - 1) / perItem, out.height, launchable.local, log,
                     kernelName);
    return {{this, {}, log.collect(), {launchable.build}},
            PixelSource(device, std::move(output), out.width, out.height)};
}

}  // namespace hs::rotate
