// global-atomic: one work-item per pixel, atomic_inc on the global histogram.
#include <algorithm>

#include "engine/ops/histogram/device_strategy.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::histogram::device {

namespace {

class GlobalAtomicStrategy final : public DeviceStrategy {
  public:
    std::string_view name() const override { return "global-atomic"; }
    std::string_view description() const override {
        return "one work-item per pixel, atomic_inc on the global histogram";
    }
    Support supported(const DeviceInfo*, ImageShape, const Params&) const override { return Support::yes(); }
    std::optional<KernelBuild> kernelBuild(const DeviceInfo&, const Params& params,
                                           ImageShape) const override {
        return KernelBuild{std::string(kSource), countingOptions(params)};
    }

  protected:
    const char* kernelName() const override { return "global_atomic"; }
    // The kernel sizes no local array by the work-group, so any work-group size works.
    void count(DeviceContext& device, const cl::Buffer& pixels, cl_uint pixelCount, const Params& params,
               cl::Buffer& hist, TimingLog& log, std::vector<KernelBuild>& builds) const override {
        clear(device, hist, params, log);
        if (pixelCount == 0) return;
        cl::Kernel kernel(program(device, {std::string(kSource), countingOptions(params)}, builds),
                          kernelName());
        const std::size_t local =
            std::min({std::size_t{256}, device.info().maxWorkGroupSize,
                      kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device.device())});
        launchCounting(device, kernel, pixels, pixelCount, hist, ceilDiv(pixelCount, local), local, log);
    }
};

const GlobalAtomicStrategy strategy;
const Registration<Operation> registration(strategy, 30);

}  // namespace

}  // namespace hs::histogram::device
