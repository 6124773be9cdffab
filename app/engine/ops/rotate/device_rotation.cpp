#include "ops/rotate/device_rotation.hpp"

#include <array>
#include <cmath>
#include <numbers>

#include "ops/pipeline/stage_launch.hpp"
#include "runtime/error.hpp"
#include "runtime/runtime.hpp"

namespace hs::rotate {

namespace {

// The buffer kernel's output block per work-group (tile x tile pixels, `rows` per work-item) and the side of
// the local box that holds the block's source pixels under any rotation: the block's corners map to at most
// (tile - 1) * sqrt(2) apart, plus 4 (a margin pixel either side, the bilinear neighbour, the floor of both
// ends).
struct Tile {
    int tile;
    int rows;
    int span() const { return static_cast<int>(std::ceil((tile - 1) * std::numbers::sqrt2)) + 4; }
    std::size_t workItems() const {
        return static_cast<std::size_t>(tile) * static_cast<std::size_t>(tile / rows);
    }
    std::uint64_t localBytes() const {
        return static_cast<std::uint64_t>(span()) * static_cast<std::uint64_t>(span()) * 4;
    }
};

// The largest block within the work-group limit whose box fits the device's local memory.
Tile chooseTile(const DeviceInfo& device, std::size_t workGroupLimit) {
    // 32 columns: a warp writes 32 neighbouring output pixels of a row.
    static constexpr std::array<Tile, 6> tiles{{{32, 4}, {16, 4}, {8, 4}, {4, 4}, {2, 2}, {1, 1}}};
    for (const auto& tile : tiles) {
        if (tile.workItems() <= workGroupLimit && tile.localBytes() <= device.localMemBytes) return tile;
    }
    return tiles.back();
}

std::string buildOptions(const Params& params, std::optional<Tile> tile) {
    std::string options = std::string("-D NEAREST=") + (params.filterMode == FilterMode::Nearest ? "1" : "0");
    if (tile)
        options += " -D TILE=" + std::to_string(tile->tile) + " -D ROWS=" + std::to_string(tile->rows) +
                   " -D SPAN=" + std::to_string(tile->span());
    return options;
}

}  // namespace

Support DeviceRotation::supported(const DeviceInfo* device, ImageShape shape, const Params&) const {
    if (auto problem = pipeline::pixelBufferProblem(*device, shape.width, shape.height); !problem.empty())
        return Support::no(problem);
    if (usesImage_) {
        if (auto problem = pipeline::imageProblem(*device, shape.width, shape.height); !problem.empty())
            return Support::no(problem);
    }
    return Support::yes();
}

std::optional<KernelBuild> DeviceRotation::kernelBuild(const DeviceInfo& device, const Params& params,
                                                       ImageShape) const {
    if (usesImage_) return KernelBuild{"rotate", buildOptions(params, std::nullopt)};
    return KernelBuild{"rotate", buildOptions(params, chooseTile(device, device.maxWorkGroupSize))};
}

Result DeviceRotation::run(DeviceContext* device, PixelSource& pixels, const Params& params) const {
    const int width = pixels.width();
    const int height = pixels.height();
    return runMapped(*device, pixels, params, inverseMap(params, width, height),
                     outputSize(params, width, height));
}

Result DeviceRotation::runMapped(DeviceContext& device, PixelSource& pixels, const Params& params,
                                 const std::array<double, 6>& m, CanvasSize out) const {
    const int width = pixels.width();
    const int height = pixels.height();
    KernelBuild build = *kernelBuild(device.info(), params, {width, height});
    std::optional<Tile> tile;
    if (!usesImage_) {
        // The kernel may accept fewer work-items than the device (registers, local memory): shrink the tile
        // until it does.
        tile = chooseTile(device.info(), device.info().maxWorkGroupSize);
        while (tile->workItems() > 1) {
            build = {"rotate", buildOptions(params, tile)};
            const auto accepted =
                withClErrors("device " + device.info().name + ": querying rotate_buffer", [&] {
                    cl::Kernel probe(device.program(build.source, build.options), "rotate_buffer");
                    return probe.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device.device());
                });
            if (tile->workItems() <= accepted) break;
            tile = chooseTile(device.info(), accepted);
        }
        build = {"rotate", buildOptions(params, tile)};
    }
    const cl_float4 rowX{
        {static_cast<float>(m[0]), static_cast<float>(m[1]), static_cast<float>(m[2]), 0.0f}};
    const cl_float4 rowY{
        {static_cast<float>(m[3]), static_cast<float>(m[4]), static_cast<float>(m[5]), 0.0f}};
    const std::string kernelName = usesImage_ ? "rotate_image" : "rotate_buffer";

    TimingLog log;
    cl::Buffer output = pipeline::newPixelBuffer(device, out.width, out.height);
    // Held until the commands finish: a kernel argument does not keep its memory object alive.
    cl::Memory input;
    cl::Kernel kernel = withClErrors("device " + device.info().name + ": setting up " + kernelName, [&] {
        if (usesImage_)
            input = pipeline::toImage2D(device, pixels, cl::ImageFormat(CL_RGBA, CL_UNORM_INT8), log);
        else
            input = pixels.device(device, log);
        cl::Kernel k(device.program(build.source, build.options), kernelName.c_str());
        setKernelArgs(k, 0, input, output, out.width, out.height, rowX, rowY);
        // The image object knows its own size; the buffer kernel is told where the input ends.
        if (!usesImage_) setKernelArgs(k, 6, width, height);
        return k;
    });
    if (tile) {
        const int groupY = tile->tile / tile->rows;
        pipeline::launch2d(
            device, kernel, out.width, (out.height + tile->tile - 1) / tile->tile * groupY,
            cl::NDRange(static_cast<std::size_t>(tile->tile), static_cast<std::size_t>(groupY)), log,
            kernelName);
    } else {
        pipeline::launch2d(device, kernel, out.width, out.height, pipeline::localSize2d(device, kernel), log,
                           kernelName);
    }
    return {{this, {}, log.collect(), {build}},
            PixelSource(device, std::move(output), out.width, out.height)};
}

}  // namespace hs::rotate
