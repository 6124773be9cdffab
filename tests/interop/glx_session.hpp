#pragma once

#include "engine/image/image.hpp"
#include "interop/gl_sharing.hpp"
#include "interop/texture_sink.hpp"

// A GLX context made current on a hidden (never mapped) window of $DISPLAY: what the harness needs instead of
// a Qt window, on Xvfb with Mesa here and on Xvfb with NVIDIA's GLX on the GPU machine.
class GlxSession {
  public:
    // Throws std::runtime_error naming the display and the step that failed.
    GlxSession();
    ~GlxSession();
    GlxSession(const GlxSession&) = delete;
    GlxSession& operator=(const GlxSession&) = delete;

    hs::interop::GlxHandles handles() const { return {display_, context_}; }
    // A second context on the same display that is never made current.
    hs::interop::GlxHandles idleHandles() const { return {display_, idleContext_}; }

  private:
    void release() noexcept;

    _XDisplay* display_ = nullptr;
    unsigned long colormap_ = 0;
    unsigned long window_ = 0;
    __GLXcontextRec* context_ = nullptr;
    __GLXcontextRec* idleContext_ = nullptr;
};

// The pixels of `sink`'s texture, read back through GL in the current context (the texture a display shows,
// to compare with what OpenCL computed). Throws hs::Error naming the GL error.
hs::ImageRGBA8 readTexture(const hs::interop::TextureSink& sink);
