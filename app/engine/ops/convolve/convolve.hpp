#pragma once
// Convolution (applied as a correlation) of RGBA8 images with a Filter; see filter.hpp for the semantics.

#include <string_view>
#include <vector>

#include "image/image.hpp"
#include "image/pixel_source.hpp"
#include "ops/convolve/filter.hpp"
#include "ops/pipeline/stage.hpp"
#include "runtime/device_info.hpp"

namespace hs {
class DeviceContext;
}

namespace hs::convolve {

using Result = pipeline::StageResult;

// The golden reference: integer arithmetic for integer filters (exact), double precision otherwise.
ImageRGBA8 referenceConvolve(const ImageRGBA8& image, const Filter& filter);

// A named way of convolving on a device; the list is data that the CLI, the GUI, the bench and the tests
// iterate over.
class Strategy {
  public:
    virtual ~Strategy() = default;
    virtual std::string_view name() const = 0;
    virtual std::string_view description() const = 0;
    virtual Support supported(const DeviceInfo& device, const Filter& filter, int width,
                              int height) const = 0;
    virtual KernelBuild kernelBuild(const DeviceInfo& device, const Filter& filter) const = 0;
    // Preconditions (a validated filter, support) are checked by convolve(), which is what callers use.
    virtual Result run(DeviceContext& device, PixelSource& pixels, const Filter& filter) const = 0;
};

const std::vector<const Strategy*>& strategies();
// Throws UsageError naming the known strategies when `name` is not one of them.
const Strategy& findStrategy(std::string_view name);
// The strategy every device with buffers can run: "buffer-naive".
const Strategy& bufferStrategy();

// `requested` when it can run, else buffer-naive with a note naming the device and the reason (a filter that
// is not separable, an image beyond the device's 2-D image limits, no image support, too little local
// memory).
pipeline::Choice<Strategy> chooseStrategy(const DeviceInfo& device, const Filter& filter, int width,
                                          int height, const Strategy& requested);

// The single entry point: validates, chooses (see chooseStrategy), runs. The result's image stays on the
// device; result.strategy names what ran and result.note why it differs from `requested`.
Result convolve(DeviceContext& device, PixelSource& pixels, const Filter& filter, const Strategy& requested);

}  // namespace hs::convolve
