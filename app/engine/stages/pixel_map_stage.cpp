#include "engine/stages/pixel_map_stage.hpp"

#include <string>

#include "engine/ops/device_launch.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::stages {

const std::vector<Parameter>& FixedImageKind::parameters() const {
    static const std::vector<Parameter> none;
    return none;
}

std::shared_ptr<const Stage> FixedImageKind::configure(const Values& values, std::string_view strategy,
                                                       const FileReader&) const {
    requireKnownValues(*this, values);
    if (!strategy.empty()) throw UsageError(std::string(name()) + ": has no strategies to choose from");
    return make();
}

StageRun runPixelMap(DeviceContext* on, const StageKind& kind, PixelSource& input, const KernelBuild& build,
                     const EnqueuePixelMap& enqueue) {
    DeviceContext& device = requireDevice(on, kind);
    const std::string name(kind.name());
    const int width = input.width();
    const int height = input.height();
    launch::requirePixels(width, height, name);
    if (auto problem = launch::pixelBufferProblem(device.info(), width, height); !problem.empty())
        throw OpenClError(name, 0, "device " + device.info().name + ": " + problem);
    const auto pixelCount = static_cast<cl_uint>(static_cast<std::uint64_t>(width) * height);
    TimingLog log;
    cl::Buffer output = launch::newPixelBuffer(device, width, height);
    withClErrors("device " + device.info().name + ": " + name, [&] {
        const cl::Buffer& pixels = input.device(device, log);
        enqueue(device, device.program(build.source, build.options), pixels, pixelCount, output, log);
    });
    StageRun out;
    out.timings = log.collect();
    out.builds = {build};
    out.image.emplace(device, std::move(output), width, height);
    return out;
}

}  // namespace hs::stages
