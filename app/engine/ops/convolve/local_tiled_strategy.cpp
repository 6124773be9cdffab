// local-tiled: the work-group's tile plus the filter's halo in local memory, loaded once.
#include <array>

#include "ops/convolve/convolve_launch.hpp"
#include "runtime/error.hpp"
#include "runtime/runtime.hpp"

namespace hs::convolve::launch {

namespace {

struct Tile {
    int x;
    int y;
};

std::uint64_t tileBytes(const Tile& tile, const Filter& filter) {
    return static_cast<std::uint64_t>(tile.x + filter.width - 1) *
           static_cast<std::uint64_t>(tile.y + filter.height - 1) * 4;
}

// The largest work-group shape within `workGroupLimit` whose tile plus halo fits the device's local memory.
std::optional<Tile> chooseTile(const DeviceInfo& device, const Filter& filter, std::size_t workGroupLimit) {
    static constexpr std::array<Tile, 7> shapes{{{16, 16}, {16, 8}, {8, 8}, {8, 4}, {4, 4}, {2, 2}, {1, 1}}};
    for (const auto& tile : shapes) {
        if (static_cast<std::size_t>(tile.x * tile.y) <= workGroupLimit &&
            tileBytes(tile, filter) <= device.localMemBytes)
            return tile;
    }
    return std::nullopt;
}

std::string tileOptions(const Filter& filter, const Tile& tile) {
    return filterOptions(filter) + " -D TILE_X=" + std::to_string(tile.x) +
           " -D TILE_Y=" + std::to_string(tile.y);
}

class LocalTiled final : public Strategy {
  public:
    bool runsOnDevice() const override { return true; }
    std::string_view name() const override { return "local-tiled"; }
    std::string_view description() const override {
        return "work-group tile plus the filter's halo loaded into local memory once; shape adapted to the "
               "device";
    }
    Support supported(const DeviceInfo* device, ImageShape shape, const Filter& filter) const override {
        if (!chooseTile(*device, filter, device->maxWorkGroupSize))
            return Support::no(
                "even a 1x1 tile with the filter's halo needs " + std::to_string(tileBytes({1, 1}, filter)) +
                " bytes of local memory, the device has " + std::to_string(device->localMemBytes));
        return bufferSupport(*device, shape);
    }
    std::optional<KernelBuild> kernelBuild(const DeviceInfo& device, const Filter& filter,
                                           ImageShape) const override {
        return KernelBuild{"convolve",
                           tileOptions(filter, *chooseTile(device, filter, device.maxWorkGroupSize))};
    }
    Result run(DeviceContext* context, PixelSource& pixels, const Filter& filter) const override {
        DeviceContext& device = *context;
        // The kernel may accept fewer work-items than the device (registers, local memory): shrink until it
        // fits.
        std::size_t limit = device.info().maxWorkGroupSize;
        while (true) {
            const auto tile = chooseTile(device.info(), filter, limit);
            if (!tile)
                throw OpenClError("running local-tiled", 0,
                                  "device " + device.info().name + ": no tile fits");
            const KernelBuild build{"convolve", tileOptions(filter, *tile)};
            const auto accepted =
                withClErrors("device " + device.info().name + ": querying convolve_local", [&] {
                    cl::Kernel probe(device.program(build.source, build.options), "convolve_local");
                    return probe.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device.device());
                });
            if (static_cast<std::size_t>(tile->x * tile->y) > accepted) {
                limit = accepted;
                continue;
            }
            return runTwoDimensional(
                device, pixels, filter, *this, build, "convolve_local", bufferInput(device, pixels),
                cl::NDRange(static_cast<std::size_t>(tile->x), static_cast<std::size_t>(tile->y)));
        }
    }
};

const LocalTiled strategy;
const Registration<Operation> registration(strategy, 30);

}  // namespace

}  // namespace hs::convolve::launch
