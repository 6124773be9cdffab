#pragma once
// The display end of a pipeline: RGBA8 pixels into a GL texture, shared with OpenCL where the driver allows,
// through the host otherwise. Qt-free; the GUI (ui/display_link.cpp) passes the handles of an offscreen
// QOpenGLContext that shares objects with the image view's context:
//
//   auto* glx = context->nativeInterface<QNativeInterface::QGLXContext>();
//   auto* x11 = qGuiApp->nativeInterface<QNativeInterface::QX11Application>();
//   context->makeCurrent(surface);
//   sink = std::make_unique<hs::interop::TextureSink>(
//       hs::interop::GlxHandles{x11->display(), glx->nativeContext()}, engineDevice, runtime.programCache());
//
// Threads: construct, present() and destroy on the thread where the GL context is current, with it current.
// The GUI does all three on the controller's worker thread, which runs the pipeline too: a processed image
// is presented right after the stage that made it, and the view's context (on the GUI thread) draws the
// texture after present() has returned and GL has finished (glFinish), under a lock that keeps the next
// present() from writing it meanwhile. pipelineDevice() may be used from any thread.

#include <memory>
#include <string>

#include "engine/image/pixel_source.hpp"
#include "engine/runtime/program_cache.hpp"
#include "engine/runtime/runtime.hpp"
#include "engine/runtime/timing.hpp"
#include "interop/gl_sharing.hpp"

namespace hs::interop {

enum class PathPreference {
    Auto,       // shared when decideSharing() says so, else copy
    ForceCopy,  // always through the host (to compare the paths, or to work around a driver)
};

class TextureSink {
  public:
    // Decides the path for `engine`'s device and the current GL context, creates the texture and, on the
    // shared path, an OpenCL context tied to the GL context. A failure to create that context falls back to
    // the copy path with the error as the reason. Throws UsageError when the handles are unset or not
    // current.
    TextureSink(const GlxHandles& gl, DeviceContext& engine, ProgramCache& cache,
                PathPreference preference = PathPreference::Auto);
    // Releases the OpenCL image, then the GL-sharing OpenCL context, then the GL texture; the GL context must
    // be current and must not have been destroyed yet.
    ~TextureSink();
    TextureSink(const TextureSink&) = delete;
    TextureSink& operator=(const TextureSink&) = delete;

    DisplayPath path() const { return path_; }
    const std::string& reason() const { return reason_; }

    // Where the pipeline's last stage should run so that present() stays on the device. On the shared path
    // this is a context of its own, tied to the GL context, apart from the engine's per-platform context:
    // OpenCL objects cannot cross contexts, so the stages that produce the displayed image run here rather
    // than copy a finished buffer across through the host. On the copy path it is `engine`. Buffers made here
    // must be released before the sink is destroyed.
    DeviceContext& pipelineDevice();

    // Writes `pixels` into the texture (resized to match) and returns the path this frame took: shared when
    // the pixels are a buffer of pipelineDevice() and fit the device's image limits, otherwise copy. Shared:
    // glFinish, acquire, buffer-to-image copy, release, and a wait for the release before GL may use the
    // texture (stage interop). Copy: read back if needed (stage readback), then glTexSubImage2D (stage
    // interop, host-timed). The texture is GL_RGBA8 with row 0 = top image row; min filter linear, mag filter
    // nearest, clamp to edge.
    DisplayPath present(PixelSource& pixels, TimingLog& log);

    unsigned int texture() const;
    int width() const { return width_; }
    int height() const { return height_; }

  private:
    class GlTexture;

    void resize(int width, int height);
    void presentShared(PixelSource& pixels, TimingLog& log);
    void presentCopy(PixelSource& pixels, TimingLog& log);

    GlxHandles gl_;
    DeviceContext& engine_;
    DisplayPath path_ = DisplayPath::Copy;
    std::string reason_;
    int width_ = 0;
    int height_ = 0;
    // Declaration order is release order reversed: the OpenCL image goes first, then the GL-sharing context
    // (with its queue and programs), and the GL texture last.
    std::unique_ptr<GlTexture> texture_;
    std::unique_ptr<DeviceContext> sharing_;
    cl::ImageGL image_;
};

}  // namespace hs::interop
