// separable: two 1-D passes, kept on chip, when the filter has rank 1.
#include "engine/ops/convolve/convolve_launch.hpp"
#include "engine/ops/device_launch.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::convolve::launch {

namespace {

class Separable final : public Strategy {
  public:
    bool runsOnDevice() const override { return true; }
    std::string_view name() const override { return "separable"; }
    std::string_view description() const override {
        return "two 1-D passes (rows, then columns) kept in local memory, when the filter has rank 1 "
               "(detected automatically)";
    }
    Support supported(const DeviceInfo* device, ImageShape shape, const Filter& filter) const override {
        if (filter.isMagnitude())
            return Support::no(
                "a gradient magnitude combines two filters by sqrt(a^2 + b^2); it is not one correlation");
        if (!separate(filter))
            return Support::no("the filter " + filter.label + " is not separable (its rank is above 1)");
        if (auto support = tileSupport(*device, filter, true); !support.ok) return support;
        return bufferSupport(*device, shape);
    }
    std::optional<KernelBuild> kernelBuild(const DeviceInfo& device, const Filter& filter,
                                           ImageShape) const override {
        return tiledBuild(filter, *tunedTile(device, name(), filter, device.maxWorkGroupSize, true), true);
    }
    std::vector<Tunable> tunables() const override { return tileTunables(); }
    Result run(DeviceContext* context, PixelSource& pixels, const Filter& filter) const override {
        DeviceContext& device = *context;
        const int width = pixels.width();
        const int height = pixels.height();
        const auto separation = *separate(filter);
        const bool integer = filter.isInteger();
        const Tile tile = runnableTile(device, name(), filter, true, "convolve_separable");
        const KernelBuild build = tiledBuild(filter, tile, true);

        TimingLog log;
        cl::Buffer output = hs::launch::newPixelBuffer(device, width, height);
        cl::Buffer rowTaps = uploadWeights(device, separation.row, integer, 1.0, log);
        cl::Buffer columnTaps = uploadWeights(device, separation.column, integer, filter.divisor, log);
        cl::Buffer input = pixels.device(device, log);
        cl::Kernel kernel = withClErrors("device " + device.info().name + ": separable convolution", [&] {
            cl::Kernel k(device.program(build.source, build.options), "convolve_separable");
            setKernelArgs(k, 0, input, output, width, height, rowTaps, columnTaps, kernelDivisor(filter));
            return k;
        });
        launchTiled(device, kernel, width, height, tile, log, "convolve_separable");
        return {{this, {}, log.collect(), {build}}, PixelSource(device, std::move(output), width, height)};
    }
};

const Separable strategy;
const Registration<Operation> registration(strategy, 40);

}  // namespace

}  // namespace hs::convolve::launch
