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
        if (tile_ && tile_->workItems() <= device.maxWorkGroupSize &&
            tileBytes(*tile_, filter, separable_) <= device.localMemBytes)
            tile = *tile_;
        return tiledBuild(filter, tile, options_);
    }
    Result run(DeviceContext* context, PixelSource& pixels, const Filter& filter) const override {
        DeviceContext& device = *context;
        const std::string kernelName = separable_ ? "convolve_separable" : "convolve_local";
        const Tile tile = runnableTile(device, filter, separable_, kernelName, options_, tile_);
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
    std::string_view name_;
    bool separable_;
    std::string options_;
    std::optional<Tile> tile_;
};

const std::string kFast = "-D FAST_CONVERT=1 -D RESTRICT=1";

const ExperimentTiled localFast("local-tiled-fast", false, kFast, std::nullopt);
const ExperimentTiled localFast8("local-tiled-fast-32x32r8", false, kFast, Tile{32, 32, 8});
const ExperimentTiled sepRestrict("separable-restrict", true, "-D RESTRICT=1", std::nullopt);
const ExperimentTiled sepFast("separable-fast", true, kFast, std::nullopt);
const ExperimentTiled sepBlock4("separable-fast-rb4", true, kFast + " -D ROW_BLOCK=4", std::nullopt);
const ExperimentTiled sepBlock4r8("separable-fast-rb4-32x32r8", true, kFast + " -D ROW_BLOCK=4",
                                  Tile{32, 32, 8});
const ExperimentTiled sepBlock4w("separable-fast-rb4-64x16", true, kFast + " -D ROW_BLOCK=4",
                                 Tile{64, 16, 4});
const ExperimentTiled sepBlock2("separable-fast-rb2", true, kFast + " -D ROW_BLOCK=2", std::nullopt);

// Registers only in an experiment run, so the product's strategy lists stay as they are.
struct ExperimentRegistration {
    ExperimentRegistration(const Strategy& strategy, int order) {
        if (std::getenv("HISTOSCOPE_GPUEXP") != nullptr) Registry<Operation>::add(strategy, order);
    }
};

const ExperimentTiled localWide("local-tiled-fast-wide", false, kFast + " -D WIDE_TILE=1", std::nullopt);
const ExperimentTiled sepWide("separable-fast-wide", true, kFast + " -D WIDE_TILE=1", std::nullopt);
const ExperimentTiled sepBlock4Wide("separable-fast-rb4-wide", true, kFast + " -D ROW_BLOCK=4 -D WIDE_TILE=1",
                                    std::nullopt);
const ExperimentTiled sepBlock4WideR8("separable-fast-rb4-wide-32x32r8", true,
                                      kFast + " -D ROW_BLOCK=4 -D WIDE_TILE=1", Tile{32, 32, 8});
const ExperimentTiled sepBlock4Wide64("separable-fast-rb4-wide-64x16", true,
                                      kFast + " -D ROW_BLOCK=4 -D WIDE_TILE=1", Tile{64, 16, 4});
const ExperimentTiled localWideR8("local-tiled-fast-wide-32x32r8", false, kFast + " -D WIDE_TILE=1",
                                  Tile{32, 32, 8});

const ExperimentRegistration r1(localFast, 101);
const ExperimentRegistration r2(localFast8, 102);
const ExperimentRegistration r3(sepRestrict, 103);
const ExperimentRegistration r4(sepFast, 104);
const ExperimentRegistration r5(sepBlock4, 105);
const ExperimentRegistration r6(sepBlock4r8, 106);
const ExperimentRegistration r7(sepBlock4w, 107);
const ExperimentRegistration r8(sepBlock2, 108);
const ExperimentRegistration r9(localWide, 109);
const ExperimentRegistration r10(sepWide, 110);
const ExperimentRegistration r11(sepBlock4Wide, 111);
const ExperimentRegistration r12(sepBlock4WideR8, 112);
const ExperimentRegistration r13(sepBlock4Wide64, 113);
const ExperimentRegistration r14(localWideR8, 114);

}  // namespace

}  // namespace hs::convolve::launch
