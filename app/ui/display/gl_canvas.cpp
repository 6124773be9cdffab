#include "ui/display/gl_canvas.hpp"

#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QOpenGLWidget>
#include <QPainter>
#include <QSurfaceFormat>
#include <QThread>
#include <algorithm>
#include <atomic>

#include "ui/display/gl_image_renderer.hpp"

namespace hs::ui {

namespace {

const QColor kBackground(kBackgroundGrey, kBackgroundGrey, kBackgroundGrey);

QSurfaceFormat glFormat() {
    QSurfaceFormat format = QSurfaceFormat::defaultFormat();
    format.setVersion(3, 3);
    format.setProfile(QSurfaceFormat::CoreProfile);
    return format;
}

QString currentRenderer(QOpenGLContext& context) {
    const auto* renderer = reinterpret_cast<const char*>(context.functions()->glGetString(GL_RENDERER));
    return renderer ? QString::fromLatin1(renderer) : QString();
}

// What both canvases share: the renderer, opened images uploaded on a thread of their own in a context of
// the view's share group (newest image first), and the display link whose texture shows processed images.
class GlCanvasCore : public ImageCanvas {
  public:
    GlCanvasCore(QObject& owner, std::function<void()> shown, std::function<void(DisplayLink*)> linkReady)
        : ImageCanvas(std::move(shown)), owner_(owner), linkReady_(std::move(linkReady)) {}

    ~GlCanvasCore() override {
        uploadThread_.quit();
        uploadThread_.wait();
        delete uploader_;
    }

    DisplayLink* displayLink() override { return link_.get(); }

    void setImage(std::shared_ptr<const ImageRGBA8> image) override {
        const quint64 generation = ++latestImage_;
        if (!uploader_) {
            // The widget has no context yet: createGl() uploads it.
            pendingImage_ = std::move(image);
            return;
        }
        if (!image) {
            adopt({}, generation);
            return;
        }
        QMetaObject::invokeMethod(
            uploader_,
            [this, image = std::move(image), generation] {
                if (generation != latestImage_.load()) return;  // a newer image is on its way
                uploadContext_->makeCurrent(&uploadSurface_);
                const ImageTexture texture = uploadImageTexture(*image);
                uploadContext_->doneCurrent();
                QMetaObject::invokeMethod(
                    &owner_, [this, texture, generation] { adopt(texture, generation); },
                    Qt::QueuedConnection);
            },
            Qt::QueuedConnection);
    }

    void showTexture(const DisplayFrame& frame) override {
        ++latestImage_;  // uploads still on their way are older than this frame
        if (!renderer_ || !makeViewCurrent()) return;
        renderer_->setTexture({frame.texture, frame.width, frame.height, false});
        doneViewCurrent();
        shownSize_ = QSize(frame.width, frame.height);
        linkTexture_ = frame.texture;
        viewChanged();
        shown_();
    }

    void setView(double zoom, QPointF offset) override {
        zoom_ = zoom;
        offset_ = offset;
        viewChanged();
    }

  protected:
    // With `view` current on the GUI thread: loads OpenGL and creates the renderer, then the upload context
    // and the display link, both sharing objects with `view`.
    bool createGl(QOpenGLContext& view, QString& problem) {
        std::string reason;
        renderer_ = GlImageRenderer::create(reason);
        if (!renderer_) {
            problem = QString::fromStdString(reason);
            return false;
        }
        uploadSurface_.setFormat(view.format());
        uploadSurface_.create();
        uploadContext_ = std::make_unique<QOpenGLContext>();
        uploadContext_->setFormat(view.format());
        uploadContext_->setShareContext(&view);
        if (!uploadSurface_.isValid() || !uploadContext_->create() || !uploadContext_->shareContext()) {
            problem = QStringLiteral("no OpenGL context sharing objects with the image view's for uploads");
            renderer_.reset();
            return false;
        }
        QString linkProblem;
        link_ = DisplayLink::create(view, linkProblem);
        if (!link_)
            qWarning("histoscope: processed images will be uploaded from the host (%s)",
                     qUtf8Printable(linkProblem));

        uploader_ = new QObject;
        uploader_->moveToThread(&uploadThread_);
        uploadContext_->moveToThread(&uploadThread_);
        uploadThread_.setObjectName(QStringLiteral("histoscope-texture-upload"));
        uploadThread_.start();
        if (link_) linkReady_(link_.get());
        if (pendingImage_) setImage(std::move(pendingImage_));
        return true;
    }

    // Draws the frame (`frameSize` device pixels) into `framebuffer` of the current view context, or, with
    // `readBack`, renders it and reads it back there. False, drawing nothing, while the worker writes the
    // link's texture or a sink for another device replaced it: the caller keeps its last frame until the
    // result that announces the new content arrives.
    bool drawFrame(QSize frameSize, qreal ratio, unsigned framebuffer, std::uint8_t* readBack) {
        std::unique_lock<std::mutex> linkLock;
        if (linkTexture_ != 0) {
            linkLock = link_->tryLockTexture();
            if (!linkLock || link_->texture() != linkTexture_) return false;
        }
        const ImagePlacement placement{offset_.x() * ratio, offset_.y() * ratio,
                                       shownSize_.width() * zoom_ * ratio,
                                       shownSize_.height() * zoom_ * ratio};
        if (readBack)
            renderer_->render(frameSize.width(), frameSize.height(), placement, kCheckerCell * ratio,
                              readBack);
        else
            renderer_->draw(frameSize.width(), frameSize.height(), placement, kCheckerCell * ratio,
                            framebuffer);
        return true;
    }

    virtual bool makeViewCurrent() = 0;
    virtual void doneViewCurrent() = 0;
    // The frame must be drawn again.
    virtual void viewChanged() = 0;

    std::unique_ptr<GlImageRenderer> renderer_;

  private:
    void adopt(const ImageTexture& texture, quint64 generation) {
        if (!renderer_ || !makeViewCurrent()) return;
        const bool latest = generation == latestImage_.load();
        if (latest) {
            renderer_->setTexture(texture);
            shownSize_ = QSize(texture.width, texture.height);
            linkTexture_ = 0;
        } else {
            deleteImageTexture(texture);
        }
        doneViewCurrent();
        if (!latest) return;
        viewChanged();
        shown_();
    }

    QObject& owner_;  // the canvas widget: adopt() runs on its thread
    std::function<void(DisplayLink*)> linkReady_;
    std::unique_ptr<DisplayLink> link_;
    unsigned linkTexture_ = 0;  // the link's texture while the renderer draws it, else 0
    QSize shownSize_;           // of the image whose texture the renderer holds
    double zoom_ = 1;
    QPointF offset_;

    QThread uploadThread_;
    QObject* uploader_ = nullptr;                    // lives on uploadThread_
    std::unique_ptr<QOpenGLContext> uploadContext_;  // current on uploadThread_ only while uploading
    QOffscreenSurface uploadSurface_;
    std::atomic<quint64> latestImage_{0};
    std::shared_ptr<const ImageRGBA8> pendingImage_;
};

class OffscreenGlCanvas final : public QWidget, public GlCanvasCore {
  public:
    OffscreenGlCanvas(QWidget* parent, std::function<void()> shown,
                      std::function<void(DisplayLink*)> linkReady)
        : QWidget(parent), GlCanvasCore(*this, std::move(shown), std::move(linkReady)) {
        setAttribute(Qt::WA_OpaquePaintEvent);
    }

    ~OffscreenGlCanvas() override {
        if (renderer_ && context_.makeCurrent(&surface_)) {
            renderer_.reset();
            context_.doneCurrent();
        }
    }

    bool initialise(QString& problem) {
        context_.setFormat(glFormat());
        surface_.setFormat(glFormat());
        surface_.create();
        if (!context_.create() || !surface_.isValid() || !context_.makeCurrent(&surface_)) {
            problem = QStringLiteral("no OpenGL 3.3 core context");
            return false;
        }
        const bool created = createGl(context_, problem);
        context_.doneCurrent();
        return created;
    }

    QWidget* widget() override { return this; }
    Kind kind() const override { return Kind::OffscreenGl; }

  protected:
    void resizeEvent(QResizeEvent*) override { frameDirty_ = true; }

    void paintEvent(QPaintEvent*) override {
        const qreal ratio = devicePixelRatioF();
        const QSize frameSize = (QSizeF(size()) * ratio).toSize();
        if (frameDirty_ || frame_.size() != frameSize) render(frameSize, ratio);
        QPainter painter(this);
        painter.drawImage(rect(), frame_);
    }

    bool makeViewCurrent() override { return context_.makeCurrent(&surface_); }
    void doneViewCurrent() override { context_.doneCurrent(); }
    void viewChanged() override {
        frameDirty_ = true;
        update();
    }

  private:
    void render(QSize frameSize, qreal ratio) {
        QImage frame(frameSize, QImage::Format_RGBA8888);
        frame.setDevicePixelRatio(ratio);
        frame.fill(kBackground);
        if (!frameSize.isEmpty() &&
            std::max(frameSize.width(), frameSize.height()) <= renderer_->maxFrameSide() &&
            makeViewCurrent()) {
            const bool drawn = drawFrame(frameSize, ratio, 0, frame.bits());
            doneViewCurrent();
            if (!drawn && !frame_.isNull()) return;  // frameDirty_ stays: drawn at the next paint
        }
        frame_ = std::move(frame);
        frameDirty_ = false;
    }

    QOpenGLContext context_;
    QOffscreenSurface surface_;
    QImage frame_;
    bool frameDirty_ = true;
};

class WidgetGlCanvas final : public QOpenGLWidget, public GlCanvasCore {
  public:
    WidgetGlCanvas(QWidget* parent, std::function<void()> shown, std::function<void(DisplayLink*)> linkReady)
        : QOpenGLWidget(parent), GlCanvasCore(*this, std::move(shown), std::move(linkReady)) {
        setFormat(glFormat());
        // The last frame stays in the widget's framebuffer when drawFrame() cannot draw a new one.
        setUpdateBehavior(QOpenGLWidget::PartialUpdate);
    }

    ~WidgetGlCanvas() override {
        disconnect(contextGone_);
        releaseRenderer();
    }

    QWidget* widget() override { return this; }
    Kind kind() const override { return Kind::WidgetGl; }

  protected:
    void initializeGL() override {
        // A context of its own per top-level window: once, as this view is never moved to another window.
        if (renderer_) return;
        QString problem;
        if (!createGl(*context(), problem))
            qWarning("histoscope: the on-screen OpenGL image view cannot draw (%s)", qUtf8Printable(problem));
        contextGone_ =
            connect(context(), &QOpenGLContext::aboutToBeDestroyed, this, [this] { releaseRenderer(); });
    }

    void paintGL() override {
        const qreal ratio = devicePixelRatioF();
        if (renderer_) {
            drawFrame((QSizeF(size()) * ratio).toSize(), ratio, defaultFramebufferObject(), nullptr);
            return;
        }
        QOpenGLFunctions* gl = context()->functions();
        gl->glClearColor(kBackground.redF(), kBackground.greenF(), kBackground.blueF(), 1);
        gl->glClear(GL_COLOR_BUFFER_BIT);
    }

    bool makeViewCurrent() override {
        makeCurrent();
        return context() != nullptr;
    }
    void doneViewCurrent() override { doneCurrent(); }
    void viewChanged() override { update(); }

  private:
    void releaseRenderer() {
        if (!renderer_) return;
        makeCurrent();
        renderer_.reset();
        doneCurrent();
    }

    QMetaObject::Connection contextGone_;
};

}  // namespace

GlCanvasChoice chooseGlCanvas() {
    const QString forced = qEnvironmentVariable("HISTOSCOPE_IMAGE_VIEW");
    if (forced == QLatin1String("widget"))
        return {ImageCanvas::Kind::WidgetGl, QStringLiteral("HISTOSCOPE_IMAGE_VIEW=widget")};
    if (forced == QLatin1String("offscreen"))
        return {ImageCanvas::Kind::OffscreenGl, QStringLiteral("HISTOSCOPE_IMAGE_VIEW=offscreen")};
    if (!forced.isEmpty())
        qWarning(
            "histoscope: HISTOSCOPE_IMAGE_VIEW=%s is neither 'widget' nor 'offscreen'; choosing by the GL "
            "renderer",
            qUtf8Printable(forced));
    QOpenGLContext probe;
    QOffscreenSurface surface;
    probe.setFormat(glFormat());
    surface.setFormat(glFormat());
    surface.create();
    if (!probe.create() || !probe.makeCurrent(&surface))
        return {ImageCanvas::Kind::OffscreenGl, QStringLiteral("no OpenGL context to ask for its renderer")};
    const QString renderer = currentRenderer(probe);
    probe.doneCurrent();
    const bool software = renderer.isEmpty() ||
                          renderer.contains(QLatin1String("llvmpipe"), Qt::CaseInsensitive) ||
                          renderer.contains(QLatin1String("softpipe"), Qt::CaseInsensitive) ||
                          renderer.contains(QLatin1String("swrast"), Qt::CaseInsensitive);
    return {software ? ImageCanvas::Kind::OffscreenGl : ImageCanvas::Kind::WidgetGl,
            QStringLiteral("GL renderer '%1' is %2")
                .arg(renderer, software ? QStringLiteral("software") : QStringLiteral("hardware"))};
}

std::unique_ptr<ImageCanvas> createGlCanvas(ImageCanvas::Kind kind, QWidget* parent,
                                            std::function<void()> shown,
                                            std::function<void(DisplayLink*)> linkReady, QString& problem) {
    if (kind == ImageCanvas::Kind::WidgetGl)
        return std::make_unique<WidgetGlCanvas>(parent, std::move(shown), std::move(linkReady));
    auto canvas = std::make_unique<OffscreenGlCanvas>(parent, std::move(shown), std::move(linkReady));
    if (!canvas->initialise(problem)) return nullptr;
    return canvas;
}

}  // namespace hs::ui
