#pragma once
// Convolution (applied as a correlation) of RGBA8 images with a Filter; see filter.hpp for the semantics.

#include <string_view>
#include <vector>

#include "engine/image/image.hpp"
#include "engine/image/pixel_source.hpp"
#include "engine/ops/convolve/filter.hpp"
#include "engine/ops/stage_result.hpp"
#include "engine/runtime/device_info.hpp"

namespace hs::convolve {

using Result = pipeline::StageResult;

// The golden reference: integer arithmetic for integer filters (exact), double precision otherwise.
ImageRGBA8 referenceConvolve(const ImageRGBA8& image, const Filter& filter);

// What a strategy's tunings are stored under beside its name (tuning::key): the filter's size, "5x5" (a tile
// good for one size can be several times slower for another).
std::string tuningVariant(const Filter& filter);

// Convolution as an operation (see ops/operation.hpp): its strategies take the pixels and a Filter and
// leave the result on the device; "buffer-naive" runs where another cannot.
struct Operation {
    static constexpr OperationKind kKind = OperationKind::Convolve;
    static constexpr std::string_view kStrategyNoun = "convolution strategy";
    static constexpr std::string_view kFallback = "buffer-naive";
    using Params = Filter;
    using Input = PixelSource;
    using Result = convolve::Result;
};

using Strategy = hs::Strategy<Operation>;

// Every strategy, in the order they are presented (the registry's list).
inline const std::vector<const Strategy*>& strategies() {
    return Registry<Operation>::list();
}
// Throws UsageError naming the known strategies when `name` is not one of them.
inline const Strategy& findStrategy(std::string_view name) {
    return Registry<Operation>::find(name);
}
// The strategy every device with buffers can run: "buffer-naive".
inline const Strategy& bufferStrategy() {
    return *Registry<Operation>::fallback();
}

// The single entry point: validates, chooses (chooseRunnable: buffer-naive with a note naming the device and
// the reason where `requested` cannot run: a filter that is not separable, an image beyond the device's 2-D
// image limits, no image support, too little local memory), runs. The result's image stays on the device;
// result.strategy is what ran and result.note why it differs from `requested`.
Result convolve(DeviceContext& device, PixelSource& pixels, const Filter& filter, const Strategy& requested);

}  // namespace hs::convolve
