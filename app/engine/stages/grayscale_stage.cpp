// The grayscale stage kind: every pixel's R, G and B replaced by its luma, (299 R + 587 G + 114 B + 500) /
// 1000 in integers, the luma the histogram counts (so the output's r histogram is the input's luma
// histogram); alpha unchanged. One kernel (kernels/grayscale.cl), no strategies, no parameters.
#include "engine/runtime/runtime.hpp"
#include "engine/stages/pixel_map_stage.hpp"

namespace hs::stages {

namespace {

constexpr std::size_t kGroup = 256;

std::uint8_t lumaOf(const std::uint8_t* rgba) {
    return static_cast<std::uint8_t>((299u * rgba[0] + 587u * rgba[1] + 114u * rgba[2] + 500u) / 1000u);
}

class GrayscaleKind;
const GrayscaleKind& grayscaleKind();

class GrayscaleStage final : public Stage {
  public:
    GrayscaleStage() : Stage({}) {}

    const StageKind& kind() const override;
    const StrategyInfo* requestedStrategy() const override { return nullptr; }

    StageRun run(DeviceContext* on, PixelSource& input) const override {
        return runPixelMap(on, kind(), input, {"grayscale", ""},
                           [](DeviceContext& device, const cl::Program& program, const cl::Buffer& pixels,
                              cl_uint pixelCount, const cl::Buffer& output, TimingLog& log) {
                               cl::Kernel grey(program, "grayscale");
                               setKernelArgs(grey, 0, pixels, pixelCount, output);
                               device.queue().enqueueNDRangeKernel(
                                   grey, cl::NullRange,
                                   cl::NDRange((pixelCount + kGroup - 1) / kGroup * kGroup),
                                   cl::NDRange(kGroup), nullptr, log.track(hs::Stage::Kernel, "grayscale"));
                           });
    }

    ImageRGBA8 reference(const ImageRGBA8& input) const override {
        ImageRGBA8 out = input;
        for (std::size_t p = 0; p < input.pixelCount(); ++p) {
            const std::uint8_t luma = lumaOf(&input.pixels[4 * p]);
            for (std::size_t c = 0; c < 3; ++c) out.pixels[4 * p + c] = luma;
        }
        return out;
    }

    void writeJson(JsonWriter& json) const override { json.field("weights", "299/587/114"); }
    std::string summary() const override { return "luma into r, g and b (alpha unchanged)"; }
};

class GrayscaleKind final : public FixedImageKind {
  public:
    std::string_view name() const override { return "grayscale"; }
    std::string_view label() const override { return "Grayscale"; }
    std::string_view help() const override {
        return "Replaces R, G and B with the pixel's luma (299 R + 587 G + 114 B) / 1000, alpha unchanged.";
    }
    int order() const override { return 40; }

  private:
    std::shared_ptr<const Stage> make() const override { return std::make_shared<GrayscaleStage>(); }
};

const GrayscaleKind& grayscaleKind() {
    static const GrayscaleKind kind;
    return kind;
}

const StageKind& GrayscaleStage::kind() const {
    return grayscaleKind();
}

[[maybe_unused]] const bool registered = registerKind(grayscaleKind());

}  // namespace

}  // namespace hs::stages
