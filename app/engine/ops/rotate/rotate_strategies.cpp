// The device strategies: the image object with a sampler (the classic listing, corrected to sample at pixel
// centres) and the plain buffer with the sampling done by hand. Both build kernels/rotate.cl with the same
// options, so they share one program per filter mode.
#include "ops/pipeline/stage_launch.hpp"
#include "ops/rotate/rotate.hpp"
#include "runtime/error.hpp"
#include "runtime/runtime.hpp"

namespace hs::rotate {

namespace {

class DeviceRotation final : public Strategy {
  public:
    DeviceRotation(std::string_view name, std::string_view description, bool usesImage)
        : name_(name), description_(description), usesImage_(usesImage) {}

    std::string_view name() const override { return name_; }
    std::string_view description() const override { return description_; }

    Support supported(const DeviceInfo& device, int width, int height) const override {
        if (auto problem = pipeline::pixelBufferProblem(device, width, height); !problem.empty())
            return Support::no(problem);
        if (usesImage_) {
            if (auto problem = pipeline::imageProblem(device, width, height); !problem.empty())
                return Support::no(problem);
        }
        return Support::yes();
    }

    KernelBuild kernelBuild(const DeviceInfo&, const Params& params) const override {
        return {"rotate",
                std::string("-D NEAREST=") + (params.filterMode == FilterMode::Nearest ? "1" : "0")};
    }

    Result run(DeviceContext& device, PixelSource& pixels, const Params& params) const override {
        const int width = pixels.width();
        const int height = pixels.height();
        const CanvasSize out = outputSize(params, width, height);
        const auto build = kernelBuild(device.info(), params);
        const auto m = inverseMap(params, width, height);
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
        pipeline::launch2d(device, kernel, out.width, out.height, pipeline::localSize2d(device, kernel), log,
                           kernelName);
        return {PixelSource(device, std::move(output), out.width, out.height),
                log.collect(),
                std::string(name_),
                {}};
    }

  private:
    std::string_view name_;
    std::string_view description_;
    bool usesImage_;
};

const DeviceRotation& imageSamplerStrategy() {
    static const DeviceRotation strategy("image-sampler",
                                         "image object and sampler (address clamp to transparent black, "
                                         "bilinear or nearest in the texture unit)",
                                         true);
    return strategy;
}

}  // namespace

const Strategy& bufferStrategy() {
    static const DeviceRotation strategy(
        "buffer", "plain buffer, bilinear or nearest computed by hand; for devices or sizes without images",
        false);
    return strategy;
}

const std::vector<const Strategy*>& strategies() {
    static const std::vector<const Strategy*> list{&imageSamplerStrategy(), &bufferStrategy()};
    return list;
}

}  // namespace hs::rotate
