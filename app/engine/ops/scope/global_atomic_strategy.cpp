// global-atomic: one work-item per pixel of the counted rectangle, atomic_inc on the global counts.
#include "engine/ops/device_launch.hpp"
#include "engine/ops/scope/device_strategy.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::scope::device {

namespace {

class GlobalAtomicStrategy final : public DeviceStrategy {
  public:
    std::string_view name() const override { return "global-atomic"; }
    std::string_view description() const override {
        return "one work-item per pixel, atomic_inc on the global counts";
    }
    std::optional<KernelBuild> kernelBuild(const DeviceInfo&, const Params& params,
                                           ImageShape) const override {
        return KernelBuild{std::string(kSource), scopeOptions(params)};
    }

  protected:
    Support supportedHere(const DeviceInfo&, const Params&) const override { return Support::yes(); }
    void count(DeviceContext& device, const cl::Buffer& pixels, const Launch& launch, const Params& params,
               const cl::Buffer& counts, TimingLog& log, std::vector<KernelBuild>& builds) const override {
        cl::Kernel kernel(program(device, {std::string(kSource), scopeOptions(params)}, builds),
                          "scope_global_atomic");
        setLaunchArgs(kernel, pixels, launch, counts);
        launch::launch2d(device, kernel, launch.region.width, launch.region.height,
                         launch::localSize2d(device, kernel), log, "scope_global_atomic");
    }
};

const GlobalAtomicStrategy strategy;
const Registration<Operation> registration(strategy, 30);

}  // namespace

}  // namespace hs::scope::device
