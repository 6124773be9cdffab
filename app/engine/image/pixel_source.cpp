#include "engine/image/pixel_source.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs {

PixelSource::PixelSource(const ImageRGBA8& image)
    : width_(image.width), height_(image.height), borrowed_(&image) {}

PixelSource::PixelSource(DeviceContext& device, cl::Buffer buffer, int width, int height)
    : width_(width), height_(height), owner_(&device), buffer_(std::move(buffer)) {}

PixelSource::~PixelSource() {
    waitForUpload();
}

PixelSource& PixelSource::operator=(PixelSource other) noexcept {
    waitForUpload();
    width_ = other.width_;
    height_ = other.height_;
    borrowed_ = other.borrowed_;
    readBack_ = std::move(other.readBack_);
    haveReadBack_ = other.haveReadBack_;
    owner_ = other.owner_;
    buffer_ = std::move(other.buffer_);
    upload_ = std::move(other.upload_);
    spent_ = other.spent_;
    return *this;
}

void PixelSource::waitForUpload() noexcept {
    if (!upload_()) return;
    // A failing wait still means the command has ended (abnormally); there is nothing else to wait for.
    clWaitForEvents(1, &upload_());
    upload_ = cl::Event();
}

PixelSource::PixelSource(std::vector<std::uint8_t> pixels, int width, int height)
    : width_(width), height_(height), readBack_(std::move(pixels)), haveReadBack_(true) {}

bool PixelSource::onDevice(const DeviceContext& device) const {
    return owner_ != nullptr && owner_->context()() == device.context()();
}

void PixelSource::requireUnspent() const {
    if (spent_) throw std::logic_error("pixels already written into a device image and given up");
}

const std::uint8_t* PixelSource::host(TimingLog& log) {
    requireUnspent();
    if (borrowed_) return borrowed_->pixels.data();
    if (!haveReadBack_) {
        readBack_.resize(byteCount());
        withClErrors("device " + owner_->info().name + ": reading pixels back", [&] {
            owner_->queue().enqueueReadBuffer(buffer_, CL_TRUE, 0, byteCount(), readBack_.data(), nullptr,
                                              log.track(Stage::Readback, "read pixels"));
        });
        haveReadBack_ = true;
    }
    return readBack_.data();
}

void PixelSource::copyTo(std::uint8_t* destination, TimingLog& log) {
    if (borrowed_ || haveReadBack_) {
        const std::uint8_t* pixels = host(log);
        std::copy(pixels, pixels + byteCount(), destination);
        return;
    }
    withClErrors("device " + owner_->info().name + ": reading pixels back", [&] {
        owner_->queue().enqueueReadBuffer(buffer_, CL_TRUE, 0, byteCount(), destination, nullptr,
                                          log.track(Stage::Readback, "read pixels"));
    });
}

void PixelSource::withHostPixels(TimingLog& log, const std::function<void(const std::uint8_t*)>& use) {
    if (borrowed_ || haveReadBack_) {
        use(host(log));
        return;
    }
    const std::string where = "device " + owner_->info().name + ": mapping pixels";
    void* mapped = withClErrors(where, [&] {
        return owner_->queue().enqueueMapBuffer(buffer_, CL_TRUE, CL_MAP_READ, 0, byteCount(), nullptr,
                                                log.track(Stage::Readback, "map pixels"));
    });
    // Unmapped also when `use` throws (an encoder's error), so the buffer is left as it was.
    struct Unmap {
        PixelSource& source;
        void* mapped;
        ~Unmap() {
            // The C call: a destructor must not throw. A failed unmap leaves nothing else to undo.
            cl_event done = nullptr;
            if (clEnqueueUnmapMemObject(source.owner_->queue()(), source.buffer_(), mapped, 0, nullptr,
                                        &done) == CL_SUCCESS) {
                clWaitForEvents(1, &done);
                clReleaseEvent(done);
            }
        }
    } unmap{*this, mapped};
    use(static_cast<const std::uint8_t*>(mapped));
}

void PixelSource::writeTo(DeviceContext& device, const cl::Image2D& image, TimingLog& log) {
    const std::uint8_t* pixels = host(log);
    const bool ownPixels = borrowed_ == nullptr;
    const std::array<cl::size_type, 3> origin{0, 0, 0};
    const std::array<cl::size_type, 3> region{static_cast<cl::size_type>(width_),
                                              static_cast<cl::size_type>(height_), 1};
    // Own pixels are dropped right after, so their write blocks; borrowed ones are waited for later.
    cl::Event* uploaded = log.track(Stage::Upload, "upload pixels to image");
    withClErrors("device " + device.info().name + ": uploading pixels to an image", [&] {
        device.queue().enqueueWriteImage(image, ownPixels ? CL_TRUE : CL_FALSE, origin, region, 0, 0, pixels,
                                         nullptr, uploaded);
    });
    if (!ownPixels) {
        waitForUpload();
        upload_ = *uploaded;
        return;
    }
    std::vector<std::uint8_t>().swap(readBack_);
    haveReadBack_ = false;
    spent_ = true;
}

const cl::Buffer& PixelSource::device(DeviceContext& device, TimingLog& log) {
    if (onDevice(device)) return buffer_;
    requireUnspent();
    const std::uint8_t* pixels = host(log);
    // Host pixels of its own (not a borrowed image's) go once uploaded, so that a big image is held once, on
    // the device (host() reads them back if asked); their write blocks for that.
    const bool ownPixels = borrowed_ == nullptr;
    withClErrors("device " + device.info().name + ": uploading pixels", [&] {
        // At least one byte: OpenCL refuses zero-sized buffers, and a 0x0 image never gets this far anyway.
        const std::size_t bytes = std::max<std::size_t>(byteCount(), 4);
        buffer_ = cl::Buffer(device.context(), CL_MEM_READ_ONLY, bytes);
        if (byteCount() > 0) {
            // An owned copy is dropped right after, so its upload blocks; a borrowed one is waited for later.
            cl::Event* uploaded = log.track(Stage::Upload, "upload pixels");
            device.queue().enqueueWriteBuffer(buffer_, ownPixels ? CL_TRUE : CL_FALSE, 0, byteCount(), pixels,
                                              nullptr, uploaded);
            if (!ownPixels) upload_ = *uploaded;
        }
    });
    owner_ = &device;
    if (ownPixels) {
        std::vector<std::uint8_t>().swap(readBack_);
        haveReadBack_ = false;
    }
    return buffer_;
}

}  // namespace hs
