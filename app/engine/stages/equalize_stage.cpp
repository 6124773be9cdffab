// The equalize stage kind: histogram equalization of R, G and B, alpha unchanged, exactly OpenCV's
// equalizeHist on each channel (kernels/equalize.cl: count, scan into the table, map). With cdf(v) the count
// of the channel's pixels of value <= v, cdf_min the count of its smallest value present and N its pixel
// count, lut[v] = the nearest integer, ties to even, of float(cdf(v) - cdf_min) * s, s = 255.0f / float(N -
// cdf_min), in single precision; a channel with one value stays as it is.
#include <array>
#include <cmath>

#include "engine/runtime/runtime.hpp"
#include "engine/stages/pixel_map_stage.hpp"

namespace hs::stages {

namespace {

constexpr int kValues = 256;
constexpr int kChannels = 3;  // r, g, b: alpha is copied
constexpr std::size_t kGroup = 256;

// The table of one channel from its 256 counts, as OpenCV computes it.
std::array<std::uint8_t, kValues> referenceTable(const std::array<std::uint64_t, kValues>& counts,
                                                 std::uint64_t total) {
    std::array<std::uint8_t, kValues> table{};
    int smallest = 0;
    while (smallest < kValues && counts[static_cast<std::size_t>(smallest)] == 0) ++smallest;
    const std::uint64_t cdfMin = smallest < kValues ? counts[static_cast<std::size_t>(smallest)] : total;
    if (cdfMin == total) {
        for (int v = 0; v < kValues; ++v) table[static_cast<std::size_t>(v)] = static_cast<std::uint8_t>(v);
        return table;
    }
    const float scale = 255.0f / static_cast<float>(total - cdfMin);
    std::uint64_t cdf = 0;
    for (int v = 0; v < kValues; ++v) {
        cdf += counts[static_cast<std::size_t>(v)];
        if (v < smallest) continue;  // no pixel has it; the entry stays 0
        const float product = static_cast<float>(cdf - cdfMin) * scale;
        // nearbyint rounds ties to even in the default rounding mode, as OpenCV's cvRound does.
        table[static_cast<std::size_t>(v)] =
            static_cast<std::uint8_t>(std::clamp(std::nearbyint(product), 0.0f, 255.0f));
    }
    return table;
}

class EqualizeKind;
const EqualizeKind& equalizeKind();

class EqualizeStage final : public Stage {
  public:
    EqualizeStage() : Stage({}) {}

    const StageKind& kind() const override;
    const StrategyInfo* requestedStrategy() const override { return nullptr; }

    StageRun run(DeviceContext* on, PixelSource& input) const override {
        return runPixelMap(
            on, kind(), input, {"equalize", ""},
            [](DeviceContext& device, const cl::Program& program, const cl::Buffer& pixels,
               cl_uint pixelCount, const cl::Buffer& output, TimingLog& log) {
                cl::Buffer counts(device.context(), CL_MEM_READ_WRITE, kChannels * kValues * sizeof(cl_uint));
                cl::Buffer table(device.context(), CL_MEM_READ_WRITE, kChannels * kValues);
                auto& queue = device.queue();
                queue.enqueueFillBuffer(counts, cl_uint{0}, 0, kChannels * kValues * sizeof(cl_uint), nullptr,
                                        log.track(hs::Stage::Other, "clear counts"));
                cl::Kernel count(program, "equalize_count");
                setKernelArgs(count, 0, pixels, pixelCount, counts);
                // A few groups per compute unit, each looping over its share: few global atomics.
                const std::size_t groups =
                    std::clamp<std::size_t>(std::min<std::size_t>((pixelCount + kGroup - 1) / kGroup,
                                                                  4u * device.info().computeUnits),
                                            1, 4096);
                queue.enqueueNDRangeKernel(count, cl::NullRange, cl::NDRange(groups * kGroup),
                                           cl::NDRange(kGroup), nullptr,
                                           log.track(hs::Stage::Kernel, "equalize_count"));
                cl::Kernel scan(program, "equalize_table");
                setKernelArgs(scan, 0, counts, pixelCount, table);
                queue.enqueueNDRangeKernel(scan, cl::NullRange, cl::NDRange(kChannels * kGroup),
                                           cl::NDRange(kGroup), nullptr,
                                           log.track(hs::Stage::Kernel, "equalize_table"));
                cl::Kernel map(program, "equalize_map");
                setKernelArgs(map, 0, pixels, pixelCount, table, output);
                queue.enqueueNDRangeKernel(
                    map, cl::NullRange, cl::NDRange((pixelCount + kGroup - 1) / kGroup * kGroup),
                    cl::NDRange(kGroup), nullptr, log.track(hs::Stage::Kernel, "equalize_map"));
            });
    }

    ImageRGBA8 reference(const ImageRGBA8& input) const override {
        std::array<std::array<std::uint64_t, kValues>, kChannels> counts{};
        const std::size_t pixelCount = static_cast<std::size_t>(input.width) * input.height;
        for (std::size_t p = 0; p < pixelCount; ++p)
            for (std::size_t c = 0; c < kChannels; ++c) ++counts[c][input.pixels[4 * p + c]];
        ImageRGBA8 out = input;
        for (std::size_t c = 0; c < kChannels; ++c) {
            const auto table = referenceTable(counts[c], pixelCount);
            for (std::size_t p = 0; p < pixelCount; ++p)
                out.pixels[4 * p + c] = table[input.pixels[4 * p + c]];
        }
        return out;
    }

    void writeJson(JsonWriter& json) const override { json.field("channels", "rgb"); }
    std::string summary() const override { return "r, g, b (alpha unchanged)"; }
};

class EqualizeKind final : public FixedImageKind {
  public:
    std::string_view name() const override { return "equalize"; }
    std::string_view label() const override { return "Equalize"; }
    std::string_view help() const override {
        return "Equalizes the histogram of R, G and B (each as OpenCV's equalizeHist), alpha unchanged.";
    }
    int order() const override { return 30; }

  private:
    std::shared_ptr<const Stage> make() const override { return std::make_shared<EqualizeStage>(); }
};

const EqualizeKind& equalizeKind() {
    static const EqualizeKind kind;
    return kind;
}

const StageKind& EqualizeStage::kind() const {
    return equalizeKind();
}

[[maybe_unused]] const bool registered = registerKind(equalizeKind());

}  // namespace

}  // namespace hs::stages
