// local-tiled: the work-group's block plus the filter's halo in local memory, loaded once; each work-item
// makes several output rows.
#include "engine/ops/convolve/convolve_launch.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::convolve::launch {

namespace {

class LocalTiled final : public Strategy {
  public:
    bool runsOnDevice() const override { return true; }
    std::string_view name() const override { return "local-tiled"; }
    std::string_view description() const override {
        return "work-group block plus the filter's halo loaded into local memory once, several output rows "
               "per "
               "work-item; block adapted to the device";
    }
    Support supported(const DeviceInfo* device, ImageShape shape, const Filter& filter) const override {
        if (auto support = tileSupport(*device, filter, false); !support.ok) return support;
        return bufferSupport(*device, shape);
    }
    std::optional<KernelBuild> kernelBuild(const DeviceInfo& device, const Filter& filter,
                                           ImageShape) const override {
        return tiledBuild(filter, *tunedTile(device, name(), filter, device.maxWorkGroupSize, false), false);
    }
    std::vector<Tunable> tunables() const override { return tileTunables(); }
    Result run(DeviceContext* context, PixelSource& pixels, const Filter& filter) const override {
        DeviceContext& device = *context;
        const Tile tile = runnableTile(device, name(), filter, false, "convolve_local");
        return runTwoDimensional(device, pixels, filter, *this, tiledBuild(filter, tile, false),
                                 "convolve_local", bufferInput(device, pixels), tile);
    }
};

const LocalTiled strategy;
const Registration<Operation> registration(strategy, 30);

}  // namespace

}  // namespace hs::convolve::launch
