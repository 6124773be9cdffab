// image-sampler: the classic listing, an image object read through a sampler.
#include "ops/convolve/convolve_launch.hpp"
#include "ops/device_launch.hpp"
#include "runtime/runtime.hpp"

namespace hs::convolve::launch {

namespace {

class ImageSampler final : public FilterBuiltStrategy {
  public:
    std::string_view name() const override { return "image-sampler"; }
    std::string_view description() const override {
        return "image object, host-made sampler clamping to the edge, filter in constant memory (the classic "
               "listing)";
    }
    Support supported(const DeviceInfo* device, ImageShape shape, const Filter&) const override {
        if (auto problem = hs::launch::imageProblem(*device, shape.width, shape.height); !problem.empty())
            return Support::no(problem);
        return bufferSupport(*device, shape);
    }
    Result run(DeviceContext* device, PixelSource& pixels, const Filter& filter) const override {
        // Held until the commands finish: a kernel argument does not keep its memory object alive.
        cl::Image2D image;
        cl::Sampler sampler;
        return runTwoDimensional(*device, pixels, filter, *this,
                                 *kernelBuild(device->info(), filter, {pixels.width(), pixels.height()}),
                                 "convolve_image", [&](cl::Kernel& kernel, TimingLog& log) {
                                     image = hs::launch::toImage2D(
                                         *device, pixels, cl::ImageFormat(CL_RGBA, CL_UNSIGNED_INT8), log);
                                     sampler = cl::Sampler(device->context(), CL_FALSE,
                                                           CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST);
                                     return setKernelArgs(kernel, 0, image, sampler);
                                 });
    }
};

const ImageSampler strategy;
const Registration<Operation> registration(strategy, 10);

}  // namespace

}  // namespace hs::convolve::launch
