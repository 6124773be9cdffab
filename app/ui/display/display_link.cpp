#include "ui/display/display_link.hpp"

#include <QtGui/qguiapplication_platform.h>
#include <QtGui/qopenglcontext_platform.h>
#include <QCoreApplication>
#include <QGuiApplication>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <algorithm>
#include <chrono>

#include "interop/texture_sink.hpp"
#include "ops/pipeline/pipeline.hpp"
#include "runtime/error.hpp"
#include "runtime/runtime.hpp"

namespace hs::ui {

namespace {

using Clock = std::chrono::steady_clock;

QString tr(const char* text) {
    return QCoreApplication::translate("hs::ui::DisplayLink", text);
}

// The link's context is current from construction to destruction of this scope, whatever is thrown.
class CurrentScope {
  public:
    CurrentScope(QOpenGLContext& context, QOffscreenSurface& surface) : context_(context) {
        if (!context_.makeCurrent(&surface))
            throw Error(ErrorKind::OpenCl,
                        "GL display: the image view's display context cannot be made current");
    }
    ~CurrentScope() { context_.doneCurrent(); }
    CurrentScope(const CurrentScope&) = delete;
    CurrentScope& operator=(const CurrentScope&) = delete;

  private:
    QOpenGLContext& context_;
};

}  // namespace

std::unique_ptr<DisplayLink> DisplayLink::create(QOpenGLContext& view, QString& problem) {
    std::unique_ptr<DisplayLink> link(new DisplayLink);
    link->surface_ = std::make_unique<QOffscreenSurface>();
    link->surface_->setFormat(view.format());
    link->surface_->create();
    link->context_ = std::make_unique<QOpenGLContext>();
    link->context_->setFormat(view.format());
    link->context_->setShareContext(&view);
    if (!link->surface_->isValid() || !link->context_->create() || !link->context_->shareContext()) {
        problem = tr("no OpenGL context sharing objects with the image view's");
        return nullptr;
    }
    auto* glx = link->context_->nativeInterface<QNativeInterface::QGLXContext>();
    auto* x11 = qGuiApp->nativeInterface<QNativeInterface::QX11Application>();
    if (glx && x11) {
        link->gl_ = interop::GlxHandles{x11->display(), glx->nativeContext()};
    } else {
        // EGL (QT_XCB_GL_INTEGRATION=xcb_egl, Wayland): clGetGLContextInfoKHR is asked with GLX handles here.
        link->withoutSink_ =
            tr("the GL context is not a GLX context (platform '%1'), so OpenCL cannot be asked to "
               "share with it; processed images go through the host")
                .arg(QGuiApplication::platformName());
    }
    return link;
}

DisplayLink::~DisplayLink() {
    // release() ran on the worker thread (the controller's destructor), while the context could be current.
    Q_ASSERT(!sink_);
}

void DisplayLink::moveToThread(QThread* worker) {
    context_->moveToThread(worker);
}

DisplayStatus DisplayLink::prepare(DeviceContext& engine, ProgramCache& cache,
                                   interop::PathPreference preference) {
    if (sinkDevice_ == &engine && sinkPreference_ == preference) return status_;
    release();
    sinkDevice_ = &engine;
    sinkPreference_ = preference;
    if (!withoutSink_.isEmpty()) {
        status_ = {QStringLiteral("host"), withoutSink_};
        return status_;
    }
    try {
        CurrentScope current(*context_, *surface_);
        context_->functions()->glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxTextureSide_);
        sink_ = std::make_unique<interop::TextureSink>(gl_, engine, cache, preference);
    } catch (const Error& e) {
        // Without a texture the view still shows every processed image, uploaded from the host.
        status_ = {QStringLiteral("host"), tr("no display texture (%1); processed images go through the host")
                                               .arg(QString::fromUtf8(e.what()))};
        return status_;
    }
    status_ = {QString::fromUtf8(interop::displayPathName(sink_->path())),
               QString::fromStdString(sink_->reason())};
    return status_;
}

DeviceContext& DisplayLink::pipelineDevice() {
    Q_ASSERT(sinkDevice_);
    return sink_ ? sink_->pipelineDevice() : *sinkDevice_;
}

DisplayFrame DisplayLink::present(pipeline::Result& result, TimingLog& log) {
    DisplayFrame frame{result.image.width(), result.image.height(), nullptr, false, 0};
    const bool shared = sink_ && sink_->path() == interop::DisplayPath::Shared;
    // Beyond the texture limit the view's own upload subsamples the host pixels.
    const bool fits = std::max(frame.width, frame.height) <= maxTextureSide_;
    if (!shared || !fits) frame.pixels = std::make_shared<const ImageRGBA8>(result.readBack());
    if (!sink_ || !fits) return frame;

    const std::lock_guard lock(textureMutex_);
    CurrentScope current(*context_, *surface_);
    if (shared) {
        sink_->present(result.image, log);
    } else {
        PixelSource host(*frame.pixels);
        sink_->present(host, log);
    }
    // The view's context binds the texture next: it must be complete, which only a finish guarantees across
    // contexts without sync objects shared between them.
    const auto start = Clock::now();
    context_->functions()->glFinish();
    log.addHost(Stage::Interop, "glFinish before the view draws", start, Clock::now());
    texture_ = sink_->texture();
    frame.inTexture = true;
    frame.texture = texture_;
    return frame;
}

void DisplayLink::release() {
    sinkDevice_ = nullptr;
    if (!sink_) return;
    const std::lock_guard lock(textureMutex_);
    CurrentScope current(*context_, *surface_);
    sink_.reset();
    texture_ = 0;
}

std::unique_lock<std::mutex> DisplayLink::tryLockTexture() {
    return std::unique_lock(textureMutex_, std::try_to_lock);
}

}  // namespace hs::ui
