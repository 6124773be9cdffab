// PixelSource's non-blocking upload reads the host pixels after device() returns: the source must keep them
// in place until the upload has completed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "engine/image/pixel_source.hpp"
#include "engine/runtime/runtime.hpp"

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

std::vector<std::uint8_t> readBack(hs::DeviceContext& device, const cl::Image2D& image, int width,
                                   int height) {
    std::vector<std::uint8_t> pixels(static_cast<std::size_t>(width) * height * 4);
    device.queue().enqueueReadImage(
        image, CL_TRUE, {0, 0, 0}, {static_cast<cl::size_type>(width), static_cast<cl::size_type>(height), 1},
        0, 0, pixels.data());
    return pixels;
}

cl::Image2D rgbaImage(hs::DeviceContext& device, int width, int height) {
    return cl::Image2D(device.context(), CL_MEM_READ_ONLY, cl::ImageFormat(CL_RGBA, CL_UNORM_INT8),
                       static_cast<cl::size_type>(width), static_cast<cl::size_type>(height));
}

// The queue runs in order, so an upload enqueued behind a marker on a closed gate cannot start before the
// gate opens. The gate opens on another thread while `release` lets go of the source; the pixels are
// overwritten as soon as it returns. A source that did not wait would upload (some of) the overwritten
// pixels. `toImage`: the upload is PixelSource::writeTo into a 2-D image, else device().
template <typename Release>
void expectUploadOfOriginalPixels(Release release, bool toImage = false) {
    hs::Runtime runtime(hs::ProgramCacheSettings{false, {}});
    hs::DeviceContext& device = runtime.open("");
    hs::ImageRGBA8 image = patternImage(1024, 768);
    const std::vector<std::uint8_t> original = image.pixels;
    auto source = std::make_unique<hs::PixelSource>(image);

    cl::UserEvent gate(device.context());
    const std::vector<cl::Event> closedGate{gate};
    device.queue().enqueueMarkerWithWaitList(&closedGate);
    hs::TimingLog log;
    const cl::Image2D target = rgbaImage(device, image.width, image.height);
    cl::Buffer uploaded;
    if (toImage)
        source->writeTo(device, target, log);
    else
        uploaded = source->device(device, log);
    std::thread opener([&] { gate.setStatus(CL_COMPLETE); });
    release(source);
    std::fill(image.pixels.begin(), image.pixels.end(), std::uint8_t{0});
    opener.join();
    EXPECT_EQ(toImage ? readBack(device, target, image.width, image.height)
                      : readBack(device, uploaded, image.byteCount()),
              original);
}

TEST(PixelSourceTest, DestroyingTheSourceWaitsForItsUpload) {
    expectUploadOfOriginalPixels([](std::unique_ptr<hs::PixelSource>& source) { source.reset(); });
}

TEST(PixelSourceTest, AssigningToTheSourceWaitsForItsUpload) {
    const hs::ImageRGBA8 other = patternImage(2, 2);
    expectUploadOfOriginalPixels(
        [&](std::unique_ptr<hs::PixelSource>& source) { *source = hs::PixelSource(other); });
}

TEST(PixelSourceTest, DestroyingTheSourceWaitsForItsUploadToAnImage) {
    expectUploadOfOriginalPixels([](std::unique_ptr<hs::PixelSource>& source) { source.reset(); }, true);
}

// Pixels handed over go with their write into an image, as they go with a buffer upload: the image holds
// them, the source nothing, and asking it again is a mistake that says so.
TEST(PixelSourceTest, OwnPixelsWrittenIntoAnImageAreGivenUp) {
    hs::Runtime runtime(hs::ProgramCacheSettings{false, {}});
    hs::DeviceContext& device = runtime.open("");
    const hs::ImageRGBA8 image = patternImage(37, 11);
    hs::PixelSource owned(std::vector<std::uint8_t>(image.pixels), image.width, image.height);
    const cl::Image2D target = rgbaImage(device, image.width, image.height);
    hs::TimingLog log;
    owned.writeTo(device, target, log);
    EXPECT_EQ(readBack(device, target, image.width, image.height), image.pixels);
    EXPECT_THROW(owned.host(log), std::logic_error);
    EXPECT_THROW(owned.device(device, log), std::logic_error);

    // Borrowed pixels stay where they are, and the source still serves them.
    hs::PixelSource borrowed(image);
    const cl::Image2D second = rgbaImage(device, image.width, image.height);
    borrowed.writeTo(device, second, log);
    EXPECT_EQ(borrowed.host(log), image.pixels.data());
    EXPECT_EQ(readBack(device, second, image.width, image.height), image.pixels);
}

}  // namespace
