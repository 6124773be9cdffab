// PixelSource's non-blocking upload reads the host pixels after device() returns: the source must keep them
// in place until the upload has completed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "image/pixel_source.hpp"
#include "runtime/runtime.hpp"

namespace {

hs::ImageRGBA8 patternImage(int width, int height) {
    hs::ImageRGBA8 image(width, height);
    for (std::size_t i = 0; i < image.pixels.size(); ++i)
        image.pixels[i] = static_cast<std::uint8_t>(i * 7 % 251);
    return image;
}

std::vector<std::uint8_t> readBack(hs::DeviceContext& device, const cl::Buffer& buffer, std::size_t bytes) {
    std::vector<std::uint8_t> pixels(bytes);
    device.queue().enqueueReadBuffer(buffer, CL_TRUE, 0, bytes, pixels.data());
    return pixels;
}

// The queue runs in order, so an upload enqueued behind a marker on a closed gate cannot start before the
// gate opens. The gate opens on another thread while `release` lets go of the source; the pixels are
// overwritten as soon as it returns. A source that did not wait would upload (some of) the overwritten
// pixels.
template <typename Release>
void expectUploadOfOriginalPixels(Release release) {
    hs::Runtime runtime(hs::ProgramCacheSettings{false, {}});
    hs::DeviceContext& device = runtime.open("");
    hs::ImageRGBA8 image = patternImage(1024, 768);
    const std::vector<std::uint8_t> original = image.pixels;
    auto source = std::make_unique<hs::PixelSource>(image);

    cl::UserEvent gate(device.context());
    const std::vector<cl::Event> closedGate{gate};
    device.queue().enqueueMarkerWithWaitList(&closedGate);
    hs::TimingLog log;
    const cl::Buffer uploaded = source->device(device, log);
    std::thread opener([&] { gate.setStatus(CL_COMPLETE); });
    release(source);
    std::fill(image.pixels.begin(), image.pixels.end(), std::uint8_t{0});
    opener.join();
    EXPECT_EQ(readBack(device, uploaded, image.byteCount()), original);
}

TEST(PixelSourceTest, DestroyingTheSourceWaitsForItsUpload) {
    expectUploadOfOriginalPixels([](std::unique_ptr<hs::PixelSource>& source) { source.reset(); });
}

TEST(PixelSourceTest, AssigningToTheSourceWaitsForItsUpload) {
    const hs::ImageRGBA8 other = patternImage(2, 2);
    expectUploadOfOriginalPixels(
        [&](std::unique_ptr<hs::PixelSource>& source) { *source = hs::PixelSource(other); });
}

}  // namespace
