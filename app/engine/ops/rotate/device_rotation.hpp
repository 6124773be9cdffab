#pragma once
// Internal: the device rotation both rotate strategies are, differing in how they read the input (an image
// object with a sampler, or the plain buffer with the sampling done by hand). Both build kernels/rotate.cl
// with the same options, so they share one program per filter mode.

#include "ops/rotate/rotate.hpp"

namespace hs::rotate {

// How the buffer kernel is specialised and launched: extra build options (-D FAST_CONVERT, RESTRICT,
// PIXELS_X), the output pixels per work-item along x (PIXELS_X) and the work-group shape (0: the default).
struct BufferVariant {
    std::string_view options;
    int pixelsX = 1;
    std::size_t localX = 0;
    std::size_t localY = 0;
};

class DeviceRotation final : public Strategy {
  public:
    DeviceRotation(std::string_view name, std::string_view description, bool usesImage,
                   BufferVariant variant = {})
        : name_(name), description_(description), usesImage_(usesImage), variant_(variant) {}

    std::string_view name() const override { return name_; }
    std::string_view description() const override { return description_; }
    bool runsOnDevice() const override { return true; }
    Support supported(const DeviceInfo* device, ImageShape shape, const Params& params) const override;
    std::optional<KernelBuild> kernelBuild(const DeviceInfo& device, const Params& params,
                                           ImageShape shape) const override;
    Result run(DeviceContext* device, PixelSource& pixels, const Params& params) const override;
    // `pixels` sampled through the inverse map `map` onto an `out` canvas: run() is the whole rotation; a
    // tile of one is the tile's map into its source box, which `pixels` then holds.
    Result runMapped(DeviceContext& device, PixelSource& pixels, const Params& params,
                     const std::array<double, 6>& map, CanvasSize out) const;

  private:
    std::string_view name_;
    std::string_view description_;
    bool usesImage_;
    BufferVariant variant_;
};

}  // namespace hs::rotate
