#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "engine/image/image.hpp"
#include "engine/runtime/cl.hpp"
#include "engine/runtime/timing.hpp"

namespace hs {

class DeviceContext;

// RGBA8 pixels that live on the host, on a device, or both. An operation asks for the form it needs; the
// transfer happens once and is recorded in the caller's TimingLog (stage upload or readback), so stages of a
// pipeline can hand device buffers to each other without a host round trip.
class PixelSource {
  public:
    // Borrows `image`: it must outlive the source.
    explicit PixelSource(const ImageRGBA8& image);
    // A buffer of width * height * 4 bytes in `device`'s context.
    PixelSource(DeviceContext& device, cl::Buffer buffer, int width, int height);
    // The upload to a device does not block, so the host pixels it reads (the borrowed image or the read-back
    // copy) must stay in place until it completes: destroying or assigning to a source waits for it first,
    // also when an error abandons the commands enqueued after it.
    ~PixelSource();
    PixelSource(const PixelSource&) = default;
    PixelSource(PixelSource&&) noexcept = default;
    PixelSource& operator=(PixelSource other) noexcept;
    // Owns width * height * 4 bytes of host pixels (a decoded image handed over, a tiled result); once
    // uploaded, only the device holds them.
    PixelSource(std::vector<std::uint8_t> pixels, int width, int height);

    int width() const { return width_; }
    int height() const { return height_; }
    std::size_t pixelCount() const {
        return static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_);
    }
    std::size_t byteCount() const { return pixelCount() * 4; }
    bool onDevice(const DeviceContext& device) const;

    // Host pixels; read back from the device on first use.
    const std::uint8_t* host(TimingLog& log);
    // Copies the byteCount() bytes of pixels into `destination`: straight from the device when they live only
    // there, keeping no host copy of them.
    void copyTo(std::uint8_t* destination, TimingLog& log);
    // A buffer usable on `device` (same context); uploaded on first use (then host pixels of its own go).
    const cl::Buffer& device(DeviceContext& device, TimingLog& log);
    // Writes the pixels into `image`, a 2-D image of their size on `device` (they are not there). Host pixels
    // of its own go with the write, as they go with a buffer upload: the source then has no pixels left and
    // is not to be asked for them again (a consumed input; host() and device() throw std::logic_error).
    void writeTo(DeviceContext& device, const cl::Image2D& image, TimingLog& log);
    // Lends `use` the byteCount() bytes of pixels on the host without copying them: its own or the borrowed
    // ones, else the device buffer mapped for reading (a CPU device's memory itself; elsewhere the driver's
    // staging), unmapped when `use` returns or throws. The mapping is recorded as a readback.
    void withHostPixels(TimingLog& log, const std::function<void(const std::uint8_t*)>& use);

  private:
    int width_ = 0;
    int height_ = 0;
    const ImageRGBA8* borrowed_ = nullptr;
    std::vector<std::uint8_t> readBack_;
    bool haveReadBack_ = false;
    DeviceContext* owner_ = nullptr;
    cl::Buffer buffer_;
    cl::Event upload_;    // the pending upload from host pixels, if any
    bool spent_ = false;  // its own host pixels went into an image (writeTo)

    void waitForUpload() noexcept;
    void requireUnspent() const;
};

}  // namespace hs
