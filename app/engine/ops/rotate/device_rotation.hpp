#pragma once
// Internal: the device rotation both rotate strategies are, differing in how they read the input (an image
// object with a sampler, or the plain buffer with the sampling done by hand). Both build kernels/rotate.cl
// with the same options (the buffer kernel's -D PIXELS_X included), so they share one program per filter
// mode.

#include "engine/ops/rotate/rotate.hpp"

namespace hs::rotate {

class DeviceRotation final : public Strategy {
  public:
    DeviceRotation(std::string_view name, std::string_view description, bool usesImage)
        : name_(name), description_(description), usesImage_(usesImage) {}

    std::string_view name() const override { return name_; }
    std::string_view description() const override { return description_; }
    bool runsOnDevice() const override { return true; }
    Support supported(const DeviceInfo* device, ImageShape shape, const Params& params) const override;
    std::optional<KernelBuild> kernelBuild(const DeviceInfo& device, const Params& params,
                                           ImageShape shape) const override;
    // The work-group (LOCAL_X, LOCAL_Y); the buffer kernel's PIXELS_X too.
    std::vector<Tunable> tunables() const override;
    Result run(DeviceContext* device, PixelSource& pixels, const Params& params) const override;
    // `pixels` sampled through the inverse map `map` onto an `out` canvas: run() is the whole rotation; a
    // tile of one is the tile's map into its source box, which `pixels` then holds.
    Result runMapped(DeviceContext& device, PixelSource& pixels, const Params& params,
                     const std::array<double, 6>& map, CanvasSize out) const;

  private:
    // Output pixels per work-item of the buffer kernel (PIXELS_X).
    int pixelsX(const DeviceInfo& device) const;

    std::string_view name_;
    std::string_view description_;
    bool usesImage_;
};

}  // namespace hs::rotate
