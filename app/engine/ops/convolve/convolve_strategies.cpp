// The device strategies. All build kernels/convolve.cl specialised for the filter's size and arithmetic
// (-D KW, KH, INTEGER, MAGNITUDE); local-tiled adds its work-group shape.
#include <array>
#include <functional>
#include <optional>

#include "ops/convolve/convolve.hpp"
#include "ops/pipeline/stage_launch.hpp"
#include "runtime/error.hpp"
#include "runtime/runtime.hpp"

namespace hs::convolve {

namespace {

std::string filterOptions(const Filter& filter) {
    return "-D KW=" + std::to_string(filter.width) + " -D KH=" + std::to_string(filter.height) +
           " -D INTEGER=" + (filter.isInteger() ? "1" : "0") +
           " -D MAGNITUDE=" + (filter.isMagnitude() ? "1" : "0");
}

// The divisor the kernels apply: integer filters divide at the end, float weights arrive already divided.
cl_int kernelDivisor(const Filter& filter) {
    return filter.isInteger() ? static_cast<cl_int>(filter.divisor) : 1;
}

// Copies weights into a constant buffer: integers as they are, floats divided by `divisor`.
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

cl::Buffer uploadTaps(DeviceContext& device, const Filter& filter, TimingLog& log) {
    std::vector<double> values = filter.taps;
    values.insert(values.end(), filter.tapsB.begin(), filter.tapsB.end());
    return uploadWeights(device, values, filter.isInteger(), filter.divisor, log);
}

// Binds a kernel's input arguments from index 0 and returns the index of the next one.
using InputBinder = std::function<cl_uint(cl::Kernel&, TimingLog&)>;

// The pixels as a buffer, argument 0. The pixel source holds the buffer until the commands finish.
InputBinder bufferInput(DeviceContext& device, PixelSource& pixels) {
    return [&device, &pixels](cl::Kernel& kernel, TimingLog& log) {
        return setKernelArgs(kernel, 0, pixels.device(device, log));
    };
}

// Runs one of the 2-D kernels, whose arguments are (inputs..., dst, width, height, taps, divisor).
Result runTwoDimensional(DeviceContext& device, PixelSource& pixels, const Filter& filter,
                         std::string_view strategy, const KernelBuild& build, const std::string& kernelName,
                         const InputBinder& bindInputs, std::optional<cl::NDRange> local = std::nullopt) {
    const int width = pixels.width();
    const int height = pixels.height();
    TimingLog log;
    cl::Buffer output = pipeline::newPixelBuffer(device, width, height);
    cl::Buffer taps = uploadTaps(device, filter, log);
    cl::Kernel kernel = withClErrors("device " + device.info().name + ": setting up " + kernelName, [&] {
        cl::Kernel k(device.program(build.source, build.options), kernelName.c_str());
        setKernelArgs(k, bindInputs(k, log), output, width, height, taps, kernelDivisor(filter));
        return k;
    });
    pipeline::launch2d(device, kernel, width, height, local ? *local : pipeline::localSize2d(device, kernel),
                       log, kernelName);
    return {PixelSource(device, std::move(output), width, height), log.collect(), std::string(strategy), {}};
}

Support bufferSupport(const DeviceInfo& device, int width, int height) {
    if (auto problem = pipeline::pixelBufferProblem(device, width, height); !problem.empty())
        return Support::no(problem);
    return Support::yes();
}

// Strategies built with the filter's options alone.
class FilterBuiltStrategy : public Strategy {
  public:
    KernelBuild kernelBuild(const DeviceInfo&, const Filter& filter) const override {
        return {"convolve", filterOptions(filter)};
    }
};

class BufferNaive final : public FilterBuiltStrategy {
  public:
    std::string_view name() const override { return "buffer-naive"; }
    std::string_view description() const override {
        return "plain buffer, every tap read from global memory";
    }
    Support supported(const DeviceInfo& device, const Filter&, int width, int height) const override {
        return bufferSupport(device, width, height);
    }
    Result run(DeviceContext& device, PixelSource& pixels, const Filter& filter) const override {
        return runTwoDimensional(device, pixels, filter, name(), kernelBuild(device.info(), filter),
                                 "convolve_buffer", bufferInput(device, pixels));
    }
};

class ImageSampler final : public FilterBuiltStrategy {
  public:
    std::string_view name() const override { return "image-sampler"; }
    std::string_view description() const override {
        return "image object, host-made sampler clamping to the edge, filter in constant memory (the classic "
               "listing)";
    }
    Support supported(const DeviceInfo& device, const Filter&, int width, int height) const override {
        if (auto problem = pipeline::imageProblem(device, width, height); !problem.empty())
            return Support::no(problem);
        return bufferSupport(device, width, height);
    }
    Result run(DeviceContext& device, PixelSource& pixels, const Filter& filter) const override {
        // Held until the commands finish: a kernel argument does not keep its memory object alive.
        cl::Image2D image;
        cl::Sampler sampler;
        return runTwoDimensional(
            device, pixels, filter, name(), kernelBuild(device.info(), filter), "convolve_image",
            [&](cl::Kernel& kernel, TimingLog& log) {
                image = pipeline::toImage2D(device, pixels, cl::ImageFormat(CL_RGBA, CL_UNSIGNED_INT8), log);
                sampler =
                    cl::Sampler(device.context(), CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST);
                return setKernelArgs(kernel, 0, image, sampler);
            });
    }
};

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
    std::string_view name() const override { return "local-tiled"; }
    std::string_view description() const override {
        return "work-group tile plus the filter's halo loaded into local memory once; shape adapted to the "
               "device";
    }
    Support supported(const DeviceInfo& device, const Filter& filter, int width, int height) const override {
        if (!chooseTile(device, filter, device.maxWorkGroupSize))
            return Support::no(
                "even a 1x1 tile with the filter's halo needs " + std::to_string(tileBytes({1, 1}, filter)) +
                " bytes of local memory, the device has " + std::to_string(device.localMemBytes));
        return bufferSupport(device, width, height);
    }
    KernelBuild kernelBuild(const DeviceInfo& device, const Filter& filter) const override {
        return {"convolve", tileOptions(filter, *chooseTile(device, filter, device.maxWorkGroupSize))};
    }
    Result run(DeviceContext& device, PixelSource& pixels, const Filter& filter) const override {
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
                device, pixels, filter, name(), build, "convolve_local", bufferInput(device, pixels),
                cl::NDRange(static_cast<std::size_t>(tile->x), static_cast<std::size_t>(tile->y)));
        }
    }
};

class Separable final : public FilterBuiltStrategy {
  public:
    std::string_view name() const override { return "separable"; }
    std::string_view description() const override {
        return "two 1-D passes (rows, then columns) when the filter has rank 1, detected automatically";
    }
    Support supported(const DeviceInfo& device, const Filter& filter, int width, int height) const override {
        if (filter.isMagnitude())
            return Support::no(
                "a gradient magnitude combines two filters by sqrt(a^2 + b^2); it is not one correlation");
        if (!separate(filter))
            return Support::no("the filter " + filter.label + " is not separable (its rank is above 1)");
        if (auto problem = pipeline::allocationProblem(device, pipeline::pixelBytes(width, height) * 4,
                                                       "the intermediate sums");
            !problem.empty())
            return Support::no(problem);
        return bufferSupport(device, width, height);
    }
    Result run(DeviceContext& device, PixelSource& pixels, const Filter& filter) const override {
        const int width = pixels.width();
        const int height = pixels.height();
        const auto separation = *separate(filter);
        const bool integer = filter.isInteger();
        const auto build = kernelBuild(device.info(), filter);
        const std::string where = "device " + device.info().name + ": separable convolution";

        TimingLog log;
        cl::Buffer output = pipeline::newPixelBuffer(device, width, height);
        cl::Buffer rowTaps = uploadWeights(device, separation.row, integer, 1.0, log);
        cl::Buffer columnTaps = uploadWeights(device, separation.column, integer, filter.divisor, log);
        cl::Buffer input = pixels.device(device, log);
        // Held here until the commands finish: a kernel argument does not keep its memory object alive.
        cl::Buffer partial;
        auto [rows, columns] = withClErrors(where, [&] {
            partial =
                cl::Buffer(device.context(), CL_MEM_READ_WRITE, pipeline::pixelBytes(width, height) * 4);
            const cl::Program program = device.program(build.source, build.options);
            cl::Kernel first(program, "convolve_rows");
            setKernelArgs(first, 0, input, partial, width, height, rowTaps);
            cl::Kernel second(program, "convolve_columns");
            setKernelArgs(second, 0, partial, input, output, width, height, columnTaps,
                          kernelDivisor(filter));
            return std::pair{first, second};
        });
        pipeline::launch2d(device, rows, width, height, pipeline::localSize2d(device, rows), log,
                           "convolve_rows");
        pipeline::launch2d(device, columns, width, height, pipeline::localSize2d(device, columns), log,
                           "convolve_columns");
        return {
            PixelSource(device, std::move(output), width, height), log.collect(), std::string(name()), {}};
    }
};

}  // namespace

const Strategy& bufferStrategy() {
    static const BufferNaive strategy;
    return strategy;
}

const std::vector<const Strategy*>& strategies() {
    static const ImageSampler imageSampler;
    static const LocalTiled localTiled;
    static const Separable separable;
    static const std::vector<const Strategy*> list{&imageSampler, &bufferStrategy(), &localTiled, &separable};
    return list;
}

}  // namespace hs::convolve
