// separable: two 1-D passes when the filter has rank 1.
#include "ops/convolve/convolve_launch.hpp"
#include "ops/pipeline/stage_launch.hpp"
#include "runtime/error.hpp"
#include "runtime/runtime.hpp"

namespace hs::convolve::launch {

namespace {

class Separable final : public FilterBuiltStrategy {
  public:
    std::string_view name() const override { return "separable"; }
    std::string_view description() const override {
        return "two 1-D passes (rows, then columns) when the filter has rank 1, detected automatically";
    }
    Support supported(const DeviceInfo* device, ImageShape shape, const Filter& filter) const override {
        if (filter.isMagnitude())
            return Support::no(
                "a gradient magnitude combines two filters by sqrt(a^2 + b^2); it is not one correlation");
        if (!separate(filter))
            return Support::no("the filter " + filter.label + " is not separable (its rank is above 1)");
        if (auto problem = pipeline::allocationProblem(
                *device, pipeline::pixelBytes(shape.width, shape.height) * 4, "the intermediate sums");
            !problem.empty())
            return Support::no(problem);
        return bufferSupport(*device, shape);
    }
    Result run(DeviceContext* context, PixelSource& pixels, const Filter& filter) const override {
        DeviceContext& device = *context;
        const int width = pixels.width();
        const int height = pixels.height();
        const auto separation = *separate(filter);
        const bool integer = filter.isInteger();
        const KernelBuild build = *kernelBuild(device.info(), filter, {width, height});
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
        return {{this, {}, log.collect(), {build}}, PixelSource(device, std::move(output), width, height)};
    }
};

const Separable strategy;
const Registration<Operation> registration(strategy, 40);

}  // namespace

}  // namespace hs::convolve::launch
