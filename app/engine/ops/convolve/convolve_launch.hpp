#pragma once
// Internal: what the convolution strategies share. All build kernels/convolve.cl specialised for the
// filter's size and arithmetic (-D KW, KH, INTEGER, MAGNITUDE); each strategy lives in its own .cpp.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/ops/convolve/convolve.hpp"
#include "engine/runtime/cl.hpp"

namespace hs::convolve::launch {

std::string filterOptions(const Filter& filter);

// The divisor the kernels apply: integer filters divide at the end, float weights arrive already divided.
cl_int kernelDivisor(const Filter& filter);

// Copies weights into a constant buffer: integers as they are, floats divided by `divisor`.
cl::Buffer uploadWeights(DeviceContext& device, const std::vector<double>& values, bool integer,
                         double divisor, TimingLog& log);

// Binds a kernel's input arguments from index 0 and returns the index of the next one.
using InputBinder = std::function<cl_uint(cl::Kernel&, TimingLog&)>;

// The pixels as a buffer, argument 0. The pixel source holds the buffer until the commands finish.
InputBinder bufferInput(DeviceContext& device, PixelSource& pixels);

// The output block one work-group of a tiled kernel (local-tiled, separable) makes: x by y pixels, `rows` of
// them per work-item, so the work-group is x by y / rows work-items.
struct Tile {
    int x;
    int y;
    int rows;
    std::size_t workItems() const { return static_cast<std::size_t>(x) * static_cast<std::size_t>(y / rows); }
};

// The local memory of a tiled kernel: the input block with the filter's halo (rows padded by up to 3 pixels
// when the block's width is a multiple of 4, see kernels/convolve.cl) and, with `rowSums` (separable), the
// row pass's R, G, B sums of each of the block's rows, three float planes of x + 1 columns.
std::uint64_t tileBytes(const Tile& tile, const Filter& filter, bool rowSums);

// The largest tile whose work-group is within `workGroupLimit` and whose local memory fits the device; for
// the separable kernel and filters of 5 rows or more, a 32 x 64 block first (8 rows per work-item).
std::optional<Tile> chooseTile(const DeviceInfo& device, const Filter& filter, std::size_t workGroupLimit,
                               bool rowSums);

// The tile in force for `strategy` (TILE_X, TILE_Y, ROWS that a sweep set or stored, ops/tuning.hpp; each
// unset one as chooseTile's), else chooseTile's; chooseTile's too when the tuned one does not fit the limit
// and the device's local memory or its TILE_Y is not a multiple of ROWS (the build then says what ran).
std::optional<Tile> tunedTile(const DeviceInfo& device, std::string_view strategy, const Filter& filter,
                              std::size_t workGroupLimit, bool rowSums);

// The tiled strategies' tunables: TILE_X, TILE_Y, ROWS.
std::vector<Tunable> tileTunables();

// Why no tile fits the device's local memory; yes when one does.
Support tileSupport(const DeviceInfo& device, const Filter& filter, bool rowSums);

// The filter's options plus the tile's (-D TILE_X, TILE_Y, ROWS), and -D SEPARABLE for the separable kernel
// (rowSums) rather than the local-tiled one.
KernelBuild tiledBuild(const Filter& filter, const Tile& tile, bool rowSums);

// The largest tile `kernelName` accepts on this device: a kernel may take fewer work-items than the device
// (registers, local memory), so the tile shrinks until its work-group fits.
Tile runnableTile(DeviceContext& device, std::string_view strategy, const Filter& filter, bool rowSums,
                  const std::string& kernelName);

// Runs `strategy`'s 2-D kernel `kernelName` of `build`, whose arguments are (inputs..., dst, width, height,
// taps, divisor): one work-item per pixel in the largest work-group the kernel accepts, or with `tile`, one
// work-group per tile.
Result runTwoDimensional(DeviceContext& device, PixelSource& pixels, const Filter& filter,
                         const Strategy& strategy, const KernelBuild& build, const std::string& kernelName,
                         const InputBinder& bindInputs, std::optional<Tile> tile = std::nullopt);

// Launches a tiled kernel over a width x height image, one work-group per tile.
void launchTiled(DeviceContext& device, const cl::Kernel& kernel, int width, int height, const Tile& tile,
                 TimingLog& log, const std::string& name);

// Why the device cannot hold the image in a buffer; yes when it can.
Support bufferSupport(const DeviceInfo& device, ImageShape shape);

// Strategies on a device built with the filter's options alone.
class FilterBuiltStrategy : public Strategy {
  public:
    bool runsOnDevice() const override { return true; }
    std::optional<KernelBuild> kernelBuild(const DeviceInfo&, const Filter& filter,
                                           ImageShape) const override {
        return KernelBuild{"convolve", filterOptions(filter)};
    }
    // The work-group (LOCAL_X, LOCAL_Y), which the launch chooses unless a sweep sets it.
    std::vector<Tunable> tunables() const override;
};

}  // namespace hs::convolve::launch
