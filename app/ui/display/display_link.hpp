#pragma once
// How the pipeline's processed image reaches the image view: an OpenGL context of the view's share group that
// is current on the controller's worker thread only, holding the interop TextureSink (app/interop). The
// sink's texture is the view's texture for processed images, so on the shared path the pixels go from the
// last OpenCL stage into the texture without leaving the device.
//
// The hand-over between the threads:
//  - The GUI thread creates the link with the view's context (ImageView::displayLink()), and
//    Controller::setDisplay() moves the link's context to the worker thread. From then on only the worker
//    makes it current: prepare(), present() and release() run there, in the order of the worker's jobs, so
//    the TextureSink is made, used and destroyed on one thread, with its context current, as it requires.
//  - prepare() (re)creates the sink for the job's device and returns the decision; when it says shared, the
//    job runs its stages on pipelineDevice(), the sink's OpenCL context tied to the GL context.
//  - present() writes the texture under the texture lock and finishes GL before unlocking (glFinish), so the
//    texture is complete when another context of the share group binds it. The frame it returns goes to the
//    GUI thread in the job's result.
//  - The GUI thread draws the texture only while holding tryLockTexture(); while a present() holds the lock
//  it
//    keeps showing its last rendered frame instead of waiting (the GUI thread never blocks on the worker).
//  - release() (worker thread, before the OpenCL runtime goes) destroys the sink while the GL context is
//  still
//    alive; the controller does it when it is destroyed, which MainWindow arranges before the view goes.

#include <QString>
#include <memory>
#include <mutex>

#include "image/image.hpp"
#include "interop/gl_sharing.hpp"

class QOffscreenSurface;
class QOpenGLContext;
class QThread;

namespace hs {
class DeviceContext;
class ProgramCache;
class TimingLog;
namespace pipeline {
struct Result;
}
namespace interop {
class TextureSink;
enum class PathPreference;
}  // namespace interop
}  // namespace hs

namespace hs::ui {

// Which way processed images reach the screen, and why, for the status bar.
struct DisplayStatus {
    QString path;    // "shared", "copy" (through the host into the texture), "host" (no texture link)
    QString reason;  // one line naming the device and the GL renderer where they decided
};

// A processed image on its way to the view.
struct DisplayFrame {
    int width = 0;
    int height = 0;
    // The pixels on the host, for the pixel readout; null on the shared path, where they stayed on the
    // device.
    std::shared_ptr<const ImageRGBA8> pixels;
    // The link's texture holds the image (else the view uploads `pixels` itself).
    bool inTexture = false;
    unsigned texture = 0;
};

class DisplayLink {
  public:
    // GUI thread: a context sharing objects with `view` (which must be valid), on an offscreen surface.
    // Null, with `problem` set, when it cannot be created.
    static std::unique_ptr<DisplayLink> create(QOpenGLContext& view, QString& problem);
    ~DisplayLink();
    DisplayLink(const DisplayLink&) = delete;
    DisplayLink& operator=(const DisplayLink&) = delete;

    // GUI thread, once: the worker thread that will use the link from now on.
    void moveToThread(QThread* worker);

    // Worker thread. The sink for `engine` and `preference` (made when either changed) and its decision.
    DisplayStatus prepare(DeviceContext& engine, ProgramCache& cache, interop::PathPreference preference);
    // Where the pipeline should run so that present() stays on the device: the sink's GL-sharing context on
    // the shared path, else the device prepare() was given.
    DeviceContext& pipelineDevice();
    // Puts the pipeline's processed image into the texture by the sink's path; the copy path reads it back
    // through `result` (stage "readback"). Interop records go to `log`.
    DisplayFrame present(pipeline::Result& result, TimingLog& log);
    // Destroys the sink (and its OpenCL objects) while the GL context lives.
    void release();

    // GUI thread: hold while drawing texture(); an empty lock means a present() is writing it.
    std::unique_lock<std::mutex> tryLockTexture();
    // The texture the last present() wrote into; 0 before the first. Read it under the lock.
    unsigned texture() const { return texture_; }

  private:
    DisplayLink() = default;

    std::unique_ptr<QOffscreenSurface> surface_;
    std::unique_ptr<QOpenGLContext> context_;
    interop::GlxHandles gl_;
    QString withoutSink_;  // why there is no sink (not GLX); empty when there can be one
    std::unique_ptr<interop::TextureSink> sink_;
    DeviceContext* sinkDevice_ = nullptr;  // the engine device the sink was made for
    interop::PathPreference sinkPreference_{};
    DisplayStatus status_;
    int maxTextureSide_ = 0;
    std::mutex textureMutex_;
    unsigned texture_ = 0;
};

}  // namespace hs::ui
