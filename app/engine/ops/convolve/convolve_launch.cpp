#include "engine/ops/convolve/convolve_launch.hpp"

#include <array>

#include "engine/ops/device_launch.hpp"
#include "engine/ops/tuning.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

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

// What `strategy`'s tunings for `filter` are stored and swept under: per filter size.
std::string tuningKey(std::string_view strategy, const Filter& filter) {
    return tuning::key("convolve", strategy, tuningVariant(filter));
}

}  // namespace

InputBinder bufferInput(DeviceContext& device, PixelSource& pixels) {
    return [&device, &pixels](cl::Kernel& kernel, TimingLog& log) {
        return setKernelArgs(kernel, 0, pixels.device(device, log));
    };
}

Result runTwoDimensional(DeviceContext& device, PixelSource& pixels, const Filter& filter,
                         const Strategy& strategy, const KernelBuild& build, const std::string& kernelName,
                         const InputBinder& bindInputs, std::optional<Tile> tile) {
    const int width = pixels.width();
    const int height = pixels.height();
    TimingLog log;
    cl::Buffer output = hs::launch::newPixelBuffer(device, width, height);
    cl::Buffer taps = uploadTaps(device, filter, log);
    // A tiled kernel's work-group is its tile's; the others' the launch chooses, or a sweep.
    auto launchable = tile ? hs::launch::LaunchableKernel{{}, {}, build}
                           : hs::launch::tunedKernel(
                                 device, tuningKey(strategy.name(), filter), build, kernelName,
                                 [&](const cl::Kernel& k) { return hs::launch::localSize2d(device, k); });
    cl::Kernel& kernel = launchable.kernel;
    withClErrors("device " + device.info().name + ": setting up " + kernelName, [&] {
        if (tile) kernel = cl::Kernel(device.program(build.source, build.options), kernelName.c_str());
        setKernelArgs(kernel, bindInputs(kernel, log), output, width, height, taps, kernelDivisor(filter));
    });
    if (tile)
        launchTiled(device, kernel, width, height, *tile, log, kernelName);
    else
        hs::launch::launch2d(device, kernel, width, height, launchable.local, log, kernelName);
    return {{&strategy, {}, log.collect(), {launchable.build}},
            PixelSource(device, std::move(output), width, height)};
}

Support bufferSupport(const DeviceInfo& device, ImageShape shape) {
    if (auto problem = hs::launch::pixelBufferProblem(device, shape.width, shape.height); !problem.empty())
        return Support::no(problem);
    return Support::yes();
}

std::uint64_t tileBytes(const Tile& tile, const Filter& filter, bool rowSums) {
    const auto rows = static_cast<std::uint64_t>(tile.y + filter.height - 1);
    const int width = tile.x + filter.width - 1;
    const int pitch = tile.x % 4 == 0 ? width + (5 - width % 4) % 4 : width;
    const std::uint64_t input = static_cast<std::uint64_t>(pitch) * rows * 4;
    return input + (rowSums ? static_cast<std::uint64_t>(tile.x + 1) * rows * 12 : 0);
}

std::optional<Tile> chooseTile(const DeviceInfo& device, const Filter& filter, std::size_t workGroupLimit,
                               bool rowSums) {
    const auto fits = [&](const Tile& tile) {
        return tile.workItems() <= workGroupLimit && tileBytes(tile, filter, rowSums) <= device.localMemBytes;
    };
    // The separable kernel's halo rows cost a row pass each: a 64-row block halves their share. On the H100
    // (8192² RGBA) 5x5: 0.309 ms against 0.318 ms for 32x32, 15x15: 0.564 against 0.692 ms; 3x3: 0.312
    // against 0.293 ms, so not for 3 rows.
    if (const Tile tall{32, 64, 8}; rowSums && filter.height >= 5 && fits(tall)) return tall;
    // 32 columns: a warp reads 32 neighbouring pixels of a tile row. 4 rows per work-item share each tile
    // row they read among up to 4 outputs.
    static constexpr std::array<Tile, 6> tiles{
        {{32, 32, 4}, {16, 16, 4}, {8, 8, 4}, {4, 4, 4}, {2, 2, 2}, {1, 1, 1}}};
    for (const auto& tile : tiles) {
        if (fits(tile)) return tile;
    }
    return std::nullopt;
}

std::optional<Tile> tunedTile(const DeviceInfo& device, std::string_view strategy, const Filter& filter,
                              std::size_t workGroupLimit, bool rowSums) {
    const auto chosen = chooseTile(device, filter, workGroupLimit, rowSums);
    if (!chosen) return chosen;
    const std::string tunedAs = tuningKey(strategy, filter);
    const Tile tuned{tuning::valueOr(device, tunedAs, "TILE_X", chosen->x),
                     tuning::valueOr(device, tunedAs, "TILE_Y", chosen->y),
                     tuning::valueOr(device, tunedAs, "ROWS", chosen->rows)};
    const bool fits = tuned.y % tuned.rows == 0 && tuned.workItems() <= workGroupLimit &&
                      tileBytes(tuned, filter, rowSums) <= device.localMemBytes;
    return fits ? tuned : *chosen;
}

std::vector<Tunable> tileTunables() {
    return {{.name = "TILE_X", .help = "output columns of a work-group's block", .min = 1, .max = 256},
            {.name = "TILE_Y", .help = "output rows of a work-group's block", .min = 1, .max = 256},
            {.name = "ROWS", .help = "output rows per work-item (divides TILE_Y)", .min = 1, .max = 64}};
}

std::vector<Tunable> FilterBuiltStrategy::tunables() const {
    return hs::launch::groupTunables();
}

Support tileSupport(const DeviceInfo& device, const Filter& filter, bool rowSums) {
    if (chooseTile(device, filter, device.maxWorkGroupSize, rowSums)) return Support::yes();
    return Support::no("even a 1x1 tile with the filter's halo needs " +
                       std::to_string(tileBytes({1, 1, 1}, filter, rowSums)) +
                       " bytes of local memory, the device has " + std::to_string(device.localMemBytes));
}

KernelBuild tiledBuild(const Filter& filter, const Tile& tile, bool rowSums) {
    return {"convolve", filterOptions(filter) + " -D TILE_X=" + std::to_string(tile.x) +
                            " -D TILE_Y=" + std::to_string(tile.y) + " -D ROWS=" + std::to_string(tile.rows) +
                            (rowSums ? " -D SEPARABLE" : "")};
}

Tile runnableTile(DeviceContext& device, std::string_view strategy, const Filter& filter, bool rowSums,
                  const std::string& kernelName) {
    tuning::loadStored(device.programCache());
    std::size_t limit = device.info().maxWorkGroupSize;
    while (true) {
        const auto tile = tunedTile(device.info(), strategy, filter, limit, rowSums);
        if (!tile)
            throw OpenClError("running " + kernelName, 0, "device " + device.info().name + ": no tile fits");
        const KernelBuild build = tiledBuild(filter, *tile, rowSums);
        const auto accepted = withClErrors("device " + device.info().name + ": querying " + kernelName, [&] {
            cl::Kernel probe(device.program(build.source, build.options), kernelName.c_str());
            return probe.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device.device());
        });
        if (tile->workItems() <= accepted) return *tile;
        limit = accepted;
    }
}

void launchTiled(DeviceContext& device, const cl::Kernel& kernel, int width, int height, const Tile& tile,
                 TimingLog& log, const std::string& name) {
    const int groupsDown = (height + tile.y - 1) / tile.y;
    hs::launch::launch2d(
        device, kernel, width, groupsDown * (tile.y / tile.rows),
        cl::NDRange(static_cast<std::size_t>(tile.x), static_cast<std::size_t>(tile.y / tile.rows)), log,
        name);
}

}  // namespace hs::convolve::launch
