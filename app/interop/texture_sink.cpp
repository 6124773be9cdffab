#include "interop/texture_sink.hpp"

#include <GL/gl.h>
#include <GL/glext.h>

#include <array>
#include <chrono>

#include "engine/runtime/error.hpp"

namespace hs::interop {

namespace {

using Clock = std::chrono::steady_clock;

std::string glErrorName(GLenum code) {
    switch (code) {
        case GL_INVALID_ENUM:
            return "GL_INVALID_ENUM";
        case GL_INVALID_VALUE:
            return "GL_INVALID_VALUE";
        case GL_INVALID_OPERATION:
            return "GL_INVALID_OPERATION";
        case GL_OUT_OF_MEMORY:
            return "GL_OUT_OF_MEMORY";
        default:
            return "GL error " + std::to_string(code);
    }
}

void throwOnGlError(const std::string& what) {
    if (const GLenum code = glGetError(); code != GL_NO_ERROR)
        throw Error(ErrorKind::OpenCl, "GL display: " + what + " failed with " + glErrorName(code));
}

// Binds `texture` with the unpack state our uploads assume, and puts back what the caller (Qt, the UI) had,
// so the sink never leaves GL state changed behind it.
class TextureScope {
  public:
    explicit TextureScope(GLuint texture) {
        // Errors left by earlier GL calls of others must not be blamed on ours; bounded in case a lost
        // context keeps reporting.
        for (int i = 0; i < 16 && glGetError() != GL_NO_ERROR; ++i) {
        }
        GLint unpackBuffer = 0;
        glGetIntegerv(GL_PIXEL_UNPACK_BUFFER_BINDING, &unpackBuffer);
        // With a pixel-unpack buffer bound, glTexSubImage2D would read our host pointer as an offset into it.
        if (unpackBuffer != 0)
            throw UsageError("GL display: a pixel-unpack buffer is bound; unbind it first");
        glGetIntegerv(GL_TEXTURE_BINDING_2D, &previousTexture_);
        for (std::size_t i = 0; i < kUnpack.size(); ++i) {
            glGetIntegerv(kUnpack[i].name, &previousUnpack_[i]);
            glPixelStorei(kUnpack[i].name, kUnpack[i].value);
        }
        glBindTexture(GL_TEXTURE_2D, texture);
    }
    ~TextureScope() {
        glBindTexture(GL_TEXTURE_2D, static_cast<GLuint>(previousTexture_));
        for (std::size_t i = 0; i < kUnpack.size(); ++i) glPixelStorei(kUnpack[i].name, previousUnpack_[i]);
    }
    TextureScope(const TextureScope&) = delete;
    TextureScope& operator=(const TextureScope&) = delete;

  private:
    struct Setting {
        GLenum name;
        GLint value;
    };
    // Tightly packed rows (width * 4 bytes, so alignment 4 always holds).
    static constexpr std::array<Setting, 4> kUnpack = {{{GL_UNPACK_ALIGNMENT, 4},
                                                        {GL_UNPACK_ROW_LENGTH, 0},
                                                        {GL_UNPACK_SKIP_ROWS, 0},
                                                        {GL_UNPACK_SKIP_PIXELS, 0}}};
    GLint previousTexture_ = 0;
    std::array<GLint, kUnpack.size()> previousUnpack_{};
};

}  // namespace

class TextureSink::GlTexture {
  public:
    GlTexture() {
        glGenTextures(1, &id_);
        TextureScope scope(id_);
        // No mipmaps: a mipmapped filter would leave the texture incomplete, which clCreateFromGLTexture
        // refuses.
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        throwOnGlError("creating a texture");
    }
    ~GlTexture() { glDeleteTextures(1, &id_); }
    GlTexture(const GlTexture&) = delete;
    GlTexture& operator=(const GlTexture&) = delete;

    GLuint id() const { return id_; }

  private:
    GLuint id_ = 0;
};

TextureSink::TextureSink(const GlxHandles& gl, DeviceContext& engine, ProgramCache& cache,
                         PathPreference preference)
    : gl_(gl), engine_(engine) {
    requireCurrent(gl_);
    texture_ = std::make_unique<GlTexture>();
    if (preference == PathPreference::ForceCopy) {
        reason_ = "copy path requested";
        return;
    }
    SharingDecision decision = decideSharing(gl_, engine_.device());
    reason_ = std::move(decision.reason);
    if (decision.path != DisplayPath::Shared) return;
    try {
        const std::string where = "device " + engine_.info().name + ": creating a GL-sharing context";
        cl::Context context = withClErrors(where, [&] {
            const cl::Platform platform(engine_.device().getInfo<CL_DEVICE_PLATFORM>(), true);
            return cl::Context(engine_.device(), glSharingProperties(gl_, platform).data());
        });
        sharing_ =
            std::make_unique<DeviceContext>(engine_.info(), std::move(context), engine_.device(), cache);
        path_ = DisplayPath::Shared;
    } catch (const OpenClError& e) {
        reason_ = std::string(e.what()) + "; copying through the host instead";
    }
}

TextureSink::~TextureSink() {
    // present() always waits for its release, so nothing should be in flight; finishing anyway guarantees no
    // command still refers to the texture when the image and the context below go away.
    if (sharing_) clFinish(sharing_->queue()());
}

DeviceContext& TextureSink::pipelineDevice() {
    return sharing_ ? *sharing_ : engine_;
}

unsigned int TextureSink::texture() const {
    return texture_->id();
}

void TextureSink::resize(int width, int height) {
    GLint maxSize = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxSize);
    if (width > maxSize || height > maxSize)
        throw InputError("GL display: image " + std::to_string(width) + "x" + std::to_string(height) +
                         " exceeds the GL texture limit of " + std::to_string(maxSize) + " pixels a side");
    // The OpenCL image aliases the texture's storage, which glTexImage2D replaces: release it first.
    image_ = cl::ImageGL();
    TextureScope scope(texture_->id());
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, width, height, 0, GL_RGBA, GL_UNSIGNED_BYTE, nullptr);
    throwOnGlError("allocating a " + std::to_string(width) + "x" + std::to_string(height) + " texture");
    width_ = width;
    height_ = height;
}

DisplayPath TextureSink::present(PixelSource& pixels, TimingLog& log) {
    requireCurrent(gl_);
    if (pixels.width() != width_ || pixels.height() != height_) resize(pixels.width(), pixels.height());
    if (pixels.pixelCount() == 0) return DisplayPath::Copy;
    const DeviceInfo& info = engine_.info();
    const bool fitsImage = static_cast<std::size_t>(width_) <= info.image2dMaxWidth &&
                           static_cast<std::size_t>(height_) <= info.image2dMaxHeight;
    if (sharing_ && fitsImage && pixels.onDevice(*sharing_)) {
        presentShared(pixels, log);
        return DisplayPath::Shared;
    }
    presentCopy(pixels, log);
    return DisplayPath::Copy;
}

void TextureSink::presentShared(PixelSource& pixels, TimingLog& log) {
    withClErrors("device " + engine_.info().name + ": writing the GL texture", [&] {
        if (image_() == nullptr) {
            const auto start = Clock::now();
            image_ = cl::ImageGL(sharing_->context(), CL_MEM_WRITE_ONLY, GL_TEXTURE_2D, 0, texture_->id());
            log.addHost(Stage::Interop, "create image from GL texture", start, Clock::now());
        }
        const cl::Buffer& buffer = pixels.device(*sharing_, log);  // already there: no transfer
        cl::CommandQueue& queue = sharing_->queue();
        const std::vector<cl::Memory> objects{image_};

        // Without cl_khr_gl_event, glFinish is the only portable way to know GL is done with the texture.
        const auto finishStart = Clock::now();
        glFinish();
        log.addHost(Stage::Interop, "glFinish before acquire", finishStart, Clock::now());
        queue.enqueueAcquireGLObjects(&objects, nullptr, log.track(Stage::Interop, "acquire GL texture"));
        try {
            const std::array<cl::size_type, 3> region{static_cast<cl::size_type>(width_),
                                                      static_cast<cl::size_type>(height_), 1};
            queue.enqueueCopyBufferToImage(buffer, image_, 0, {0, 0, 0}, region, nullptr,
                                           log.track(Stage::Interop, "copy pixels into GL texture"));
        } catch (...) {
            // An acquired object must be released before GL touches the texture again.
            queue.enqueueReleaseGLObjects(&objects);
            queue.finish();
            throw;
        }
        queue.enqueueReleaseGLObjects(&objects, nullptr, log.track(Stage::Interop, "release GL texture"));
        // GL may sample the texture only after the release has completed.
        queue.finish();
    });
}

void TextureSink::presentCopy(PixelSource& pixels, TimingLog& log) {
    const std::uint8_t* host = pixels.host(log);
    TextureScope scope(texture_->id());
    const auto start = Clock::now();
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, host);
    log.addHost(Stage::Interop, "glTexSubImage2D upload", start, Clock::now());
    throwOnGlError("uploading pixels into the texture");
}

}  // namespace hs::interop
