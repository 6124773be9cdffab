// Experiment only (issue 11, bench/experiments/gpuexp.sh): variants of the local-tiled and separable kernels,
// registered when the environment has HISTOSCOPE_GPUEXP set so that one H100 run measures them side by side
// and runs the engine tests on each. Not part of the product.
#include <cstdlib>

#include "ops/convolve/convolve_launch.hpp"

#include "ops/pipeline/stage_launch.hpp"
#include "runtime/error.hpp"
#include "runtime/runtime.hpp"

namespace hs::convolve::launch {

namespace {

class ExperimentTiled final : public Strategy {
  public:
    ExperimentTiled(std::string_view name, bool separable, std::string options, std::optional<Tile> tile)
        : name_(name), separable_(separable), options_(std::move(options)), tile_(tile) {}
    bool runsOnDevice() const override { return true; }
    std::string_view name() const override { return name_; }
    std::string_view description() const override { return "experiment variant"; }
    Support supported(const DeviceInfo* device, ImageShape shape, const Filter& filter) const override {
        if (separable_ && (filter.isMagnitude() || !separate(filter)))
            return Support::no("not one separable correlation");
        if (auto support = tileSupport(*device, filter, separable_); !support.ok) return support;
        return bufferSupport(*device, shape);
    }
    std::optional<KernelBuild> kernelBuild(const DeviceInfo& device, const Filter& filter,
                                           ImageShape) const override {
        auto tile = *chooseTile(device, filter, device.maxWorkGroupSize, separable_);
        if (tile_ && fits(device, filter, *tile_)) tile = *tile_;
        return tiledBuild(filter, tile, options_);
    }
    Result run(DeviceContext* context, PixelSource& pixels, const Filter& filter) const override {
        DeviceContext& device = *context;
        const std::string kernelName = separable_ ? "convolve_separable" : "convolve_local";
        const Tile tile = tile_ && fits(device.info(), filter, *tile_)
                              ? *tile_
                              : runnableTile(device, filter, separable_, kernelName, options_);
        const KernelBuild build = tiledBuild(filter, tile, options_);
        if (!separable_)
            return runTwoDimensional(device, pixels, filter, *this, build, kernelName,
                                     bufferInput(device, pixels), tile);
        const int width = pixels.width();
        const int height = pixels.height();
        const auto separation = *separate(filter);
        const bool integer = filter.isInteger();
        TimingLog log;
        cl::Buffer output = pipeline::newPixelBuffer(device, width, height);
        cl::Buffer rowTaps = uploadWeights(device, separation.row, integer, 1.0, log);
        cl::Buffer columnTaps = uploadWeights(device, separation.column, integer, filter.divisor, log);
        cl::Buffer input = pixels.device(device, log);
        cl::Kernel kernel = withClErrors("device " + device.info().name + ": separable convolution", [&] {
            cl::Kernel k(device.program(build.source, build.options), kernelName.c_str());
            setKernelArgs(k, 0, input, output, width, height, rowTaps, columnTaps, kernelDivisor(filter));
            return k;
        });
        launchTiled(device, kernel, width, height, tile, log, kernelName);
        return {{this, {}, log.collect(), {build}}, PixelSource(device, std::move(output), width, height)};
    }

  private:
    // The local memory of the -D ROW_BLOCK layout: the input block with its rows padded by up to 3 pixels,
    // and three float planes of TILE_X + 1 columns.
    bool fits(const DeviceInfo& device, const Filter& filter, const Tile& tile) const {
        const auto rows = static_cast<std::uint64_t>(tile.y + filter.height - 1);
        const std::uint64_t bytes = static_cast<std::uint64_t>(tile.x + filter.width - 1 + 3) * rows * 4 +
                                    (separable_ ? static_cast<std::uint64_t>(tile.x + 1) * rows * 12 : 0);
        return tile.workItems() <= device.maxWorkGroupSize && bytes <= device.localMemBytes;
    }

    std::string_view name_;
    bool separable_;
    std::string options_;
    std::optional<Tile> tile_;
};

const std::string kRb4 = "-D ROW_BLOCK=4";
const std::string kWide = " -D WIDE_TILE=1";

const ExperimentTiled localWide("local-tiled-wide", false, "-D WIDE_TILE=1", std::nullopt);
const ExperimentTiled sepWide("separable-wide", true, "-D WIDE_TILE=1", std::nullopt);
const ExperimentTiled rb4("separable-rb4", true, kRb4, std::nullopt);
const ExperimentTiled rb4Wide("separable-rb4-wide", true, kRb4 + kWide, std::nullopt);
const ExperimentTiled rb4R8("separable-rb4-32x32r8", true, kRb4, Tile{32, 32, 8});
const ExperimentTiled rb4WideR8("separable-rb4-wide-32x32r8", true, kRb4 + kWide, Tile{32, 32, 8});
const ExperimentTiled rb4WideTall("separable-rb4-wide-32x64r8", true, kRb4 + kWide, Tile{32, 64, 8});
const ExperimentTiled rb8WideR8("separable-rb8-wide-32x32r8", true, "-D ROW_BLOCK=8" + kWide,
                                Tile{32, 32, 8});
const ExperimentTiled rb2WideR8("separable-rb2-wide-32x32r8", true, "-D ROW_BLOCK=2" + kWide,
                                Tile{32, 32, 8});
const ExperimentTiled rb4Wide64("separable-rb4-wide-64x16", true, kRb4 + kWide, Tile{64, 16, 4});

// Registers only in an experiment run, so the product's strategy lists stay as they are.
struct ExperimentRegistration {
    ExperimentRegistration(const Strategy& strategy, int order) {
        if (std::getenv("HISTOSCOPE_GPUEXP") != nullptr) Registry<Operation>::add(strategy, order);
    }
};

const ExperimentRegistration r1(localWide, 101);
const ExperimentRegistration r2(sepWide, 102);
const ExperimentRegistration r3(rb4, 103);
const ExperimentRegistration r4(rb4Wide, 104);
const ExperimentRegistration r5(rb4R8, 105);
const ExperimentRegistration r6(rb4WideR8, 106);
const ExperimentRegistration r7(rb4WideTall, 107);
const ExperimentRegistration r8(rb8WideR8, 108);
const ExperimentRegistration r9(rb2WideR8, 109);
const ExperimentRegistration r10(rb4Wide64, 110);

}  // namespace

}  // namespace hs::convolve::launch
