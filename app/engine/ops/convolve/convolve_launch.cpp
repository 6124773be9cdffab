#include "ops/convolve/convolve_launch.hpp"

#include "ops/pipeline/stage_launch.hpp"
#include "runtime/error.hpp"
#include "runtime/runtime.hpp"

namespace hs::convolve::launch {

std::string filterOptions(const Filter& filter) {
    return "-D KW=" + std::to_string(filter.width) + " -D KH=" + std::to_string(filter.height) +
           " -D INTEGER=" + (filter.isInteger() ? "1" : "0") +
           " -D MAGNITUDE=" + (filter.isMagnitude() ? "1" : "0");
}

cl_int kernelDivisor(const Filter& filter) {
    return filter.isInteger() ? static_cast<cl_int>(filter.divisor) : 1;
}

cl::Buffer uploadWeights(DeviceContext& device, const std::vector<double>& values, bool integer,
                         double divisor, TimingLog& log) {
    return withClErrors("device " + device.info().name + ": uploading filter taps", [&] {
        std::vector<cl_int> integers;
        std::vector<cl_float> floats;
        for (const double value : values) {
            if (integer)
                integers.push_back(static_cast<cl_int>(value));
            else
                floats.push_back(static_cast<cl_float>(value / divisor));
        }
        const void* data = integer ? static_cast<const void*>(integers.data()) : floats.data();
        const std::size_t bytes = values.size() * 4;
        cl::Buffer buffer(device.context(), CL_MEM_READ_ONLY, bytes);
        // Blocking: the host vectors die with this scope.
        device.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, bytes, data, nullptr,
                                          log.track(Stage::Upload, "upload filter taps"));
        return buffer;
    });
}

namespace {

cl::Buffer uploadTaps(DeviceContext& device, const Filter& filter, TimingLog& log) {
    std::vector<double> values = filter.taps;
    values.insert(values.end(), filter.tapsB.begin(), filter.tapsB.end());
    return uploadWeights(device, values, filter.isInteger(), filter.divisor, log);
}

}  // namespace

InputBinder bufferInput(DeviceContext& device, PixelSource& pixels) {
    return [&device, &pixels](cl::Kernel& kernel, TimingLog& log) {
        return setKernelArgs(kernel, 0, pixels.device(device, log));
    };
}

Result runTwoDimensional(DeviceContext& device, PixelSource& pixels, const Filter& filter,
                         const Strategy& strategy, const KernelBuild& build, const std::string& kernelName,
                         const InputBinder& bindInputs, std::optional<cl::NDRange> local) {
    const int width = pixels.width();
    const int height = pixels.height();
    TimingLog log;
    cl::Buffer output = pipeline::newPixelBuffer(device, width, height);
    cl::Buffer taps = uploadTaps(device, filter, log);
    cl::Kernel kernel = withClErrors("device " + device.info().name + ": setting up " + kernelName, [&] {
        cl::Kernel k(device.program(build.source, build.options), kernelName.c_str());
        setKernelArgs(k, bindInputs(k, log), output, width, height, taps, kernelDivisor(filter));
        return k;
    });
    pipeline::launch2d(device, kernel, width, height, local ? *local : pipeline::localSize2d(device, kernel),
                       log, kernelName);
    return {{&strategy, {}, log.collect(), {build}}, PixelSource(device, std::move(output), width, height)};
}

Support bufferSupport(const DeviceInfo& device, ImageShape shape) {
    if (auto problem = pipeline::pixelBufferProblem(device, shape.width, shape.height); !problem.empty())
        return Support::no(problem);
    return Support::yes();
}

}  // namespace hs::convolve::launch
