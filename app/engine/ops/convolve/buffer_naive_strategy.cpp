// buffer-naive: every tap read from global memory; the fallback (Operation::kFallback).
#include "engine/ops/convolve/convolve_launch.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::convolve::launch {

namespace {

class BufferNaive final : public FilterBuiltStrategy {
  public:
    std::string_view name() const override { return "buffer-naive"; }
    std::string_view description() const override {
        return "plain buffer, every tap read from global memory";
    }
    Support supported(const DeviceInfo* device, ImageShape shape, const Filter&) const override {
        return bufferSupport(*device, shape);
    }
    Result run(DeviceContext* device, PixelSource& pixels, const Filter& filter) const override {
        return runTwoDimensional(*device, pixels, filter, *this,
                                 *kernelBuild(device->info(), filter, {pixels.width(), pixels.height()}),
                                 "convolve_buffer", bufferInput(*device, pixels));
    }
};

const BufferNaive strategy;
const Registration<Operation> registration(strategy, 20);

}  // namespace

}  // namespace hs::convolve::launch
