// The histogram of arbitrary pixels and sizes: serial, cpu-parallel and one OpenCL strategy must agree with
// the reference, and every channel must count every pixel.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "engine/image/pixel_source.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/runtime/runtime.hpp"

namespace {

std::unique_ptr<hs::Runtime> runtime;
hs::DeviceContext* device = nullptr;

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    runtime = std::make_unique<hs::Runtime>(hs::ProgramCacheSettings{false, {}});
    device = &runtime->open("");
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    // Byte 0: bins - 1; byte 1: width - 1 (the height follows from the pixels given); the rest: pixels.
    if (size < 2 + 4) return 0;
    const int bins = data[0] + 1;
    const int width = data[1] + 1;
    const std::size_t pixels = (size - 2) / 4;
    const int height = static_cast<int>(pixels / static_cast<std::size_t>(width));
    if (height == 0) return 0;
    hs::ImageRGBA8 image(width, height);
    std::memcpy(image.pixels.data(), data + 2, image.byteCount());
    const auto expected = hs::histogram::referenceHistogram(image.pixels.data(), image.pixelCount(), bins);
    for (const char* name : {"serial", "cpu-parallel", "private-uchar"}) {
        const auto& strategy = hs::histogram::findStrategy(name);
        hs::DeviceContext* on = strategy.runsOnDevice() ? device : nullptr;
        if (!strategy.supported(on ? &on->info() : nullptr, {}, {bins}).ok) continue;
        hs::PixelSource source(image);
        const auto result = hs::histogram::computeHistogram(on, source, {bins}, strategy);
        if (!(result.histogram == expected)) std::abort();
    }
    for (const auto channel : hs::histogram::kChannels) {
        if (expected.total(channel) != image.pixelCount()) std::abort();
    }
    return 0;
}
