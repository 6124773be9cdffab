#include "engine/ops/device_launch.hpp"

#include <array>
#include <utility>

#include "engine/ops/tuning.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::launch {

namespace {

std::size_t roundUp(std::size_t value, std::size_t multiple) {
    return (value + multiple - 1) / multiple * multiple;
}

}  // namespace

void requirePixels(int width, int height, std::string_view operation) {
    if (width <= 0 || height <= 0)
        throw UsageError(std::string(operation) + ": the image has no pixels (" + std::to_string(width) +
                         "x" + std::to_string(height) + ")");
}

std::uint64_t pixelBytes(int width, int height) {
    return static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height) * 4;
}

std::string allocationProblem(const DeviceInfo& device, std::uint64_t bytes, std::string_view what) {
    if (device.maxAllocBytes == 0 || bytes <= device.maxAllocBytes) return {};
    return std::string(what) + " needs " + std::to_string(bytes) +
           " bytes, more than the device's largest allocation (" + std::to_string(device.maxAllocBytes) +
           " bytes)";
}

std::string pixelBufferProblem(const DeviceInfo& device, int width, int height) {
    return allocationProblem(device, pixelBytes(width, height), "the image");
}

std::string imageProblem(const DeviceInfo& device, int width, int height) {
    if (!device.imageSupport) return "the device has no image support";
    if (static_cast<std::size_t>(width) > device.image2dMaxWidth ||
        static_cast<std::size_t>(height) > device.image2dMaxHeight)
        return "the image is " + std::to_string(width) + "x" + std::to_string(height) +
               ", beyond the device's 2-D image limit of " + std::to_string(device.image2dMaxWidth) + "x" +
               std::to_string(device.image2dMaxHeight);
    return {};
}

cl::Buffer newPixelBuffer(DeviceContext& device, int width, int height) {
    const auto bytes = static_cast<std::size_t>(pixelBytes(width, height));
    return withClErrors("device " + device.info().name + ": allocating " + std::to_string(bytes) + " bytes",
                        [&] { return cl::Buffer(device.context(), CL_MEM_READ_WRITE, bytes); });
}

cl::Image2D toImage2D(DeviceContext& device, PixelSource& pixels, const cl::ImageFormat& format,
                      TimingLog& log) {
    const auto width = static_cast<std::size_t>(pixels.width());
    const auto height = static_cast<std::size_t>(pixels.height());
    return withClErrors("device " + device.info().name + ": making a 2-D image", [&] {
        cl::Image2D image(device.context(), CL_MEM_READ_ONLY, format, width, height);
        const std::array<cl::size_type, 3> origin{0, 0, 0};
        const std::array<cl::size_type, 3> region{width, height, 1};
        if (pixels.onDevice(device)) {
            device.queue().enqueueCopyBufferToImage(pixels.device(device, log), image, 0, origin, region,
                                                    nullptr,
                                                    log.track(Stage::Other, std::string(kCopyToImageName)));
        } else {
            pixels.writeTo(device, image, log);
        }
        return image;
    });
}

PixelSource cropped(DeviceContext* device, PixelSource& pixels, const Region& region, TimingLog& log) {
    if (!device ||
        !allocationProblem(device->info(), pixelBytes(region.width, region.height), "the region").empty()) {
        PixelSource packed(hs::cropped(pixels.host(log), pixels.width(), region).pixels, region.width,
                           region.height);
        return packed;
    }
    const std::size_t rowBytes = static_cast<std::size_t>(region.width) * 4;
    const std::size_t pitch = static_cast<std::size_t>(pixels.width()) * 4;
    const std::array<cl::size_type, 3> origin{static_cast<std::size_t>(region.x) * 4,
                                              static_cast<std::size_t>(region.y), 0};
    const std::array<cl::size_type, 3> size{rowBytes, static_cast<std::size_t>(region.height), 1};
    cl::Buffer packed = newPixelBuffer(*device, region.width, region.height);
    withClErrors("device " + device->info().name + ": copying the region " + region.text(), [&] {
        if (pixels.onDevice(*device)) {
            device->queue().enqueueCopyBufferRect(pixels.device(*device, log), packed, origin, {0, 0, 0},
                                                  size, pitch, 0, rowBytes, 0, nullptr,
                                                  log.track(Stage::Other, "copy region"));
        } else {
            // Blocking: the host pixels need not outlive the call.
            device->queue().enqueueWriteBufferRect(packed, CL_TRUE, {0, 0, 0}, origin, size, rowBytes, 0,
                                                   pitch, 0, pixels.host(log), nullptr,
                                                   log.track(Stage::Upload, "upload region"));
        }
    });
    return PixelSource(*device, std::move(packed), region.width, region.height);
}

cl::NDRange localSize2d(DeviceContext& device, const cl::Kernel& kernel) {
    static constexpr std::array<std::pair<std::size_t, std::size_t>, 9> shapes{
        {{16, 16}, {16, 8}, {8, 8}, {8, 4}, {4, 4}, {4, 2}, {2, 2}, {2, 1}, {1, 1}}};
    const auto limit = withClErrors("device " + device.info().name + ": querying a kernel", [&] {
        return kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device.device());
    });
    for (const auto& [x, y] : shapes) {
        if (x * y <= limit) return cl::NDRange(x, y);
    }
    return cl::NDRange(1, 1);
}

std::vector<Tunable> groupTunables() {
    return {{.name = "LOCAL_X", .help = "work-items per work-group along x", .min = 1, .max = 1024},
            {.name = "LOCAL_Y", .help = "work-items per work-group along y", .min = 1, .max = 1024}};
}

LaunchableKernel tunedKernel(DeviceContext& device, std::string_view strategy, const KernelBuild& build,
                             const std::string& name,
                             const std::function<cl::NDRange(const cl::Kernel&)>& chosen) {
    tuning::loadStored(device.programCache());
    const auto make = [&](const KernelBuild& b) {
        return withClErrors("device " + device.info().name + ": setting up " + name,
                            [&] { return cl::Kernel(device.program(b.source, b.options), name.c_str()); });
    };
    // Zero: not set; the strategy chooses.
    auto x = static_cast<std::size_t>(tuning::valueOr(device.info(), strategy, "LOCAL_X", 0));
    auto y = static_cast<std::size_t>(tuning::valueOr(device.info(), strategy, "LOCAL_Y", 0));
    if (x == 0 && y == 0) {
        cl::Kernel kernel = make(build);
        const cl::NDRange local = chosen(kernel);
        return {kernel, local, build};
    }
    const cl::NDRange own = chosen(make(build));
    x = x == 0 ? own[0] : x;
    y = y == 0 ? own[1] : y;
    std::size_t limit = device.info().maxWorkGroupSize;
    for (;;) {
        while (x * y > limit) (y > 1 ? y : x) /= 2;
        KernelBuild tuned = build;
        tuned.options += " -D LOCAL_X=" + std::to_string(x) + " -D LOCAL_Y=" + std::to_string(y);
        cl::Kernel kernel = make(tuned);
        limit = withClErrors("device " + device.info().name + ": querying " + name, [&] {
            return kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device.device());
        });
        if (x * y <= limit) return {kernel, cl::NDRange(x, y), tuned};
    }
}

void launch2d(DeviceContext& device, const cl::Kernel& kernel, int width, int height,
              const cl::NDRange& local, TimingLog& log, std::string name) {
    const cl::NDRange global(roundUp(static_cast<std::size_t>(width), local[0]),
                             roundUp(static_cast<std::size_t>(height), local[1]));
    withClErrors("device " + device.info().name + ": running " + name, [&] {
        device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr,
                                            log.track(Stage::Kernel, name));
    });
}

}  // namespace hs::launch
