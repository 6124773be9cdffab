#include "engine/ops/scope/device_strategy.hpp"

#include "engine/ops/device_launch.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::scope::device {

std::string scopeOptions(const Params& params) {
    std::string options = "-D SCOPE=" + std::to_string(static_cast<int>(params.kind));
    if (params.kind == Kind::Waveform)
        options += " -D CHANNEL=" + std::to_string(static_cast<int>(params.channel));
    if (params.ignoreTransparent) options += " -D IGNORE_TRANSPARENT";
    return options;
}

Support DeviceStrategy::supported(const DeviceInfo* device, ImageShape shape, const Params& params) const {
    if (auto problem = launch::pixelBufferProblem(*device, shape.width, shape.height); !problem.empty())
        return Support::no(problem);
    return supportedHere(*device, params);
}

Result DeviceStrategy::run(DeviceContext* device, PixelSource& pixels, const Params& params) const {
    const std::string where = "device " + device->info().name + ": scope strategy " + std::string(name());
    const Region region = countedRegion(params, pixels.width(), pixels.height());
    Result result;
    result.counts = Counts(params, region.width);
    TimingLog log;
    std::vector<KernelBuild> builds;
    withClErrors(where, [&] {
        const cl::Buffer& input = pixels.device(*device, log);
        const std::size_t bytes = result.counts.counts.size() * sizeof(cl_uint);
        cl::Buffer counts(device->context(), CL_MEM_READ_WRITE, bytes);
        device->queue().enqueueFillBuffer(counts, cl_uint{0}, 0, bytes, nullptr,
                                          log.track(Stage::Other, "clear counts"));
        const Launch launch{static_cast<cl_uint>(pixels.width()), region,
                            static_cast<cl_uint>(result.counts.columns)};
        count(*device, input, launch, params, counts, log, builds);
        device->queue().enqueueReadBuffer(counts, CL_TRUE, 0, bytes, result.counts.counts.data(), nullptr,
                                          log.track(Stage::Readback, "read counts"));
    });
    static_cast<RunRecord&>(result) = {this, {}, log.collect(), std::move(builds)};
    return result;
}

cl::Program DeviceStrategy::program(DeviceContext& device, const KernelBuild& build,
                                    std::vector<KernelBuild>& builds) {
    cl::Program program = device.program(build.source, build.options);
    builds.push_back(build);
    return program;
}

cl_uint DeviceStrategy::setLaunchArgs(cl::Kernel& kernel, const cl::Buffer& pixels, const Launch& launch,
                                      const cl::Buffer& counts) {
    return setKernelArgs(kernel, 0, pixels, launch.pitch, static_cast<cl_uint>(launch.region.x),
                         static_cast<cl_uint>(launch.region.y), static_cast<cl_uint>(launch.region.width),
                         static_cast<cl_uint>(launch.region.height), launch.columns, counts);
}

}  // namespace hs::scope::device
