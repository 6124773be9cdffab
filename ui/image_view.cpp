// GLEW must come before every header that includes GL/gl.h (Qt's OpenGL headers among them).
#include <GL/glew.h>

#include "ui/image_view.hpp"

#include <QGuiApplication>
#include <QLabel>
#include <QMetaObject>
#include <QMouseEvent>
#include <QOpenGLWidget>
#include <QPainter>
#include <QResizeEvent>
#include <QSurfaceFormat>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <functional>

#include "ops/histogram/histogram.hpp"

namespace hs::ui {

// Draws the image under the view transform that ImageView owns; it takes no input of its own.
class ImageCanvas {
  public:
    virtual ~ImageCanvas() = default;
    virtual QWidget* widget() = 0;
    virtual bool usesOpenGl() const = 0;
    virtual void setImage(std::shared_ptr<const ImageRGBA8> image) = 0;
    virtual void setView(double zoom, QPointF offset) = 0;
};

namespace {

// A dark neutral grey around the image, as darktable and GIMP use: colours are judged against it.
const QColor kBackground(43, 43, 43);
// Transparent pixels are shown over a checkerboard of this cell size (logical pixels).
constexpr int kCheckerCell = 8;
const QColor kCheckerDark(102, 102, 102);
const QColor kCheckerLight(153, 153, 153);

QImage wrapPixels(const ImageRGBA8& image) {
    return QImage(image.pixels.data(), image.width, image.height, image.width * 4, QImage::Format_RGBA8888);
}

QPixmap checkerTile() {
    QPixmap tile(2 * kCheckerCell, 2 * kCheckerCell);
    tile.fill(kCheckerLight);
    QPainter painter(&tile);
    painter.fillRect(0, 0, kCheckerCell, kCheckerCell, kCheckerDark);
    painter.fillRect(kCheckerCell, kCheckerCell, kCheckerCell, kCheckerCell, kCheckerDark);
    return tile;
}

class RasterCanvas final : public QWidget, public ImageCanvas {
  public:
    explicit RasterCanvas(QWidget* parent) : QWidget(parent), checker_(checkerTile()) {
        setAttribute(Qt::WA_OpaquePaintEvent);
    }

    QWidget* widget() override { return this; }
    bool usesOpenGl() const override { return false; }
    void setImage(std::shared_ptr<const ImageRGBA8> image) override {
        image_ = std::move(image);
        wrapped_ = image_ ? wrapPixels(*image_) : QImage();
        update();
    }
    void setView(double zoom, QPointF offset) override {
        zoom_ = zoom;
        offset_ = offset;
        update();
    }

  protected:
    void paintEvent(QPaintEvent*) override {
        QPainter painter(this);
        painter.fillRect(rect(), kBackground);
        if (wrapped_.isNull()) return;
        const QRectF imageRect(offset_, QSizeF(wrapped_.width() * zoom_, wrapped_.height() * zoom_));
        // Only the visible part is scaled: at high zoom the whole image would be enormous.
        const QRectF visible = imageRect.intersected(QRectF(rect()));
        if (visible.isEmpty()) return;
        const QRectF source((visible.topLeft() - offset_) / zoom_, visible.size() / zoom_);
        painter.setBrushOrigin(imageRect.topLeft());
        painter.fillRect(visible, QBrush(checker_));
        painter.setRenderHint(QPainter::SmoothPixmapTransform, zoom_ < 1);
        painter.drawImage(visible, wrapped_, source);
    }

  private:
    std::shared_ptr<const ImageRGBA8> image_;
    QImage wrapped_;
    QPixmap checker_;
    double zoom_ = 1;
    QPointF offset_;
};

const char* const kVertexShader = R"(#version 330 core
layout(location = 0) in vec2 corner;  // of the unit square
uniform vec4 imageRect;               // top-left corner and size in normalised device coordinates
out vec2 texCoord;
void main() {
    texCoord = corner;
    gl_Position = vec4(imageRect.xy + corner * imageRect.zw, 0.0, 1.0);
}
)";

const char* const kFragmentShader = R"(#version 330 core
in vec2 texCoord;
uniform sampler2D image;
uniform float checkerCell;  // device pixels
uniform vec3 checkerDark;
uniform vec3 checkerLight;
out vec4 colour;
void main() {
    vec4 texel = texture(image, texCoord);
    vec2 cell = floor(gl_FragCoord.xy / checkerCell);
    vec3 checker = mod(cell.x + cell.y, 2.0) < 1.0 ? checkerLight : checkerDark;
    colour = vec4(mix(checker, texel.rgb, texel.a), 1.0);
}
)";

// The image as one texture on a quad; core-profile GL 3.3 (a VAO and a VBO, one tiny shader program).
class GlCanvas final : public QOpenGLWidget, public ImageCanvas {
  public:
    GlCanvas(QWidget* parent, std::function<void(const QString&)> onFailure)
        : QOpenGLWidget(parent), onFailure_(std::move(onFailure)) {
        QSurfaceFormat format = QSurfaceFormat::defaultFormat();
        format.setVersion(3, 3);
        format.setProfile(QSurfaceFormat::CoreProfile);
        setFormat(format);
    }

    ~GlCanvas() override {
        if (!ready_) return;
        makeCurrent();
        glDeleteTextures(1, &texture_);
        glDeleteBuffers(1, &vertexBuffer_);
        glDeleteVertexArrays(1, &vertexArray_);
        glDeleteProgram(program_);
        doneCurrent();
    }

    QWidget* widget() override { return this; }
    bool usesOpenGl() const override { return true; }
    void setImage(std::shared_ptr<const ImageRGBA8> image) override {
        image_ = std::move(image);
        textureDirty_ = true;
        update();
    }
    void setView(double zoom, QPointF offset) override {
        zoom_ = zoom;
        offset_ = offset;
        update();
    }

  protected:
    void initializeGL() override {
        glewExperimental = GL_TRUE;
        const GLenum status = glewInit();
        // Debian's GLEW is GLX-only: on EGL it reports "no GLX display" although the entry points loaded.
        if (status != GLEW_OK && status != GLEW_ERROR_NO_GLX_DISPLAY)
            return fail(QStringLiteral("GLEW could not load OpenGL: %1")
                            .arg(reinterpret_cast<const char*>(glewGetErrorString(status))));
        // glewInit queries extensions the compatibility way, which leaves GL_INVALID_ENUM on core profiles.
        while (glGetError() != GL_NO_ERROR) {
        }
        if (!GLEW_VERSION_3_3)
            return fail(QStringLiteral("OpenGL 3.3 is not available (got %1)")
                            .arg(reinterpret_cast<const char*>(glGetString(GL_VERSION))));
        QString problem;
        program_ = linkProgram(problem);
        if (!program_) return fail(problem);
        imageRectLocation_ = glGetUniformLocation(program_, "imageRect");
        checkerCellLocation_ = glGetUniformLocation(program_, "checkerCell");
        glUseProgram(program_);
        glUniform1i(glGetUniformLocation(program_, "image"), 0);
        glUniform3f(glGetUniformLocation(program_, "checkerDark"), kCheckerDark.redF(), kCheckerDark.greenF(),
                    kCheckerDark.blueF());
        glUniform3f(glGetUniformLocation(program_, "checkerLight"), kCheckerLight.redF(),
                    kCheckerLight.greenF(), kCheckerLight.blueF());

        const GLfloat corners[] = {0, 0, 1, 0, 0, 1, 1, 1};
        glGenVertexArrays(1, &vertexArray_);
        glBindVertexArray(vertexArray_);
        glGenBuffers(1, &vertexBuffer_);
        glBindBuffer(GL_ARRAY_BUFFER, vertexBuffer_);
        glBufferData(GL_ARRAY_BUFFER, sizeof(corners), corners, GL_STATIC_DRAW);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
        glBindVertexArray(0);

        glGenTextures(1, &texture_);
        glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxTextureSize_);
        textureDirty_ = true;
        ready_ = true;
    }

    void paintGL() override {
        glClearColor(kBackground.redF(), kBackground.greenF(), kBackground.blueF(), 1);
        glClear(GL_COLOR_BUFFER_BIT);
        if (!ready_ || !image_) return;
        glActiveTexture(GL_TEXTURE0);
        glBindTexture(GL_TEXTURE_2D, texture_);
        if (textureDirty_) upload();

        const double w = width();
        const double h = height();
        glUseProgram(program_);
        glUniform4f(imageRectLocation_, static_cast<GLfloat>(2 * offset_.x() / w - 1),
                    static_cast<GLfloat>(1 - 2 * offset_.y() / h),
                    static_cast<GLfloat>(2 * image_->width * zoom_ / w),
                    static_cast<GLfloat>(-2 * image_->height * zoom_ / h));
        glUniform1f(checkerCellLocation_, static_cast<GLfloat>(kCheckerCell * devicePixelRatioF()));
        glBindVertexArray(vertexArray_);
        glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
        glBindVertexArray(0);
    }

  private:
    void fail(const QString& reason) {
        // The canvas cannot be replaced from inside its own initializeGL.
        QMetaObject::invokeMethod(
            this, [this, reason] { onFailure_(reason); }, Qt::QueuedConnection);
    }

    static GLuint compileShader(GLenum type, const char* source, QString& problem) {
        const GLuint shader = glCreateShader(type);
        glShaderSource(shader, 1, &source, nullptr);
        glCompileShader(shader);
        GLint ok = GL_FALSE;
        glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
        if (ok) return shader;
        char log[1024] = {};
        glGetShaderInfoLog(shader, sizeof(log), nullptr, log);
        problem =
            QStringLiteral("the image shader does not compile: %1").arg(QString::fromUtf8(log).trimmed());
        glDeleteShader(shader);
        return 0;
    }

    static GLuint linkProgram(QString& problem) {
        const GLuint vertex = compileShader(GL_VERTEX_SHADER, kVertexShader, problem);
        const GLuint fragment = vertex ? compileShader(GL_FRAGMENT_SHADER, kFragmentShader, problem) : 0;
        if (!fragment) {
            glDeleteShader(vertex);
            return 0;
        }
        const GLuint program = glCreateProgram();
        glAttachShader(program, vertex);
        glAttachShader(program, fragment);
        glLinkProgram(program);
        glDeleteShader(vertex);
        glDeleteShader(fragment);
        GLint ok = GL_FALSE;
        glGetProgramiv(program, GL_LINK_STATUS, &ok);
        if (ok) return program;
        char log[1024] = {};
        glGetProgramInfoLog(program, sizeof(log), nullptr, log);
        problem = QStringLiteral("the image shader does not link: %1").arg(QString::fromUtf8(log).trimmed());
        glDeleteProgram(program);
        return 0;
    }

    // Images larger than the GL texture limit are shown subsampled; the readout still uses the full image.
    void upload() {
        const ImageRGBA8* pixels = image_.get();
        ImageRGBA8 reduced;
        const int step = (std::max(image_->width, image_->height) + maxTextureSize_ - 1) / maxTextureSize_;
        if (step > 1) {
            reduced = ImageRGBA8((image_->width + step - 1) / step, (image_->height + step - 1) / step);
            for (int y = 0; y < reduced.height; ++y) {
                for (int x = 0; x < reduced.width; ++x)
                    std::copy_n(image_->pixel(x * step, y * step), 4, reduced.pixel(x, y));
            }
            pixels = &reduced;
        }
        glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, pixels->width, pixels->height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                     pixels->pixels.data());
        glGenerateMipmap(GL_TEXTURE_2D);
        // Zoomed in, pixels stay crisp squares, as in every image tool; zoomed out, mipmaps avoid aliasing.
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
        glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
        textureDirty_ = false;
    }

    std::function<void(const QString&)> onFailure_;
    std::shared_ptr<const ImageRGBA8> image_;
    double zoom_ = 1;
    QPointF offset_;
    bool ready_ = false;
    bool textureDirty_ = true;
    GLint maxTextureSize_ = 0;
    GLuint program_ = 0;
    GLuint vertexArray_ = 0;
    GLuint vertexBuffer_ = 0;
    GLuint texture_ = 0;
    GLint imageRectLocation_ = -1;
    GLint checkerCellLocation_ = -1;
};

// Qt 6.4 crashes when a QOpenGLWidget is shown on these platforms (see shared/PLATFORM.md).
bool platformHostsOpenGl() {
    const QString platform = QGuiApplication::platformName();
    return platform != QLatin1String("offscreen") && platform != QLatin1String("minimal");
}

}  // namespace

ImageView::ImageView(QWidget* parent, Renderer renderer) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(200, 150);
    if (renderer == Renderer::Automatic && platformHostsOpenGl())
        installCanvas(
            std::make_unique<GlCanvas>(this, [this](const QString& reason) { fallBackToRaster(reason); }));
    else
        installCanvas(std::make_unique<RasterCanvas>(this));

    placeholder_ = new QLabel(tr("Open an image (Ctrl+O) or drop one here"), this);
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setStyleSheet(QStringLiteral("color: #9a9a9a; font-size: 13pt; background: transparent;"));
    placeholder_->setAttribute(Qt::WA_TransparentForMouseEvents);
}

ImageView::~ImageView() = default;

bool ImageView::usesOpenGl() const {
    return canvas_->usesOpenGl();
}

void ImageView::installCanvas(std::unique_ptr<ImageCanvas> canvas) {
    canvas_ = std::move(canvas);
    QWidget* widget = canvas_->widget();
    // Input goes to this widget, which owns the view state, whichever canvas draws.
    widget->setAttribute(Qt::WA_TransparentForMouseEvents);
    widget->setGeometry(rect());
    widget->lower();
    widget->show();
    canvas_->setImage(image_);
    canvas_->setView(zoom_, offset_);
}

void ImageView::fallBackToRaster(const QString& reason) {
    qWarning("histoscope: OpenGL image view unavailable (%s); drawing without OpenGL",
             qUtf8Printable(reason));
    installCanvas(std::make_unique<RasterCanvas>(this));
}

void ImageView::setImage(std::shared_ptr<const ImageRGBA8> image) {
    image_ = std::move(image);
    canvas_->setImage(image_);
    placeholder_->setVisible(!image_);
    fitToWindow();
    updateReadout(mapFromGlobal(QCursor::pos()));
}

void ImageView::setImage(const ImageRGBA8& image) {
    setImage(std::make_shared<const ImageRGBA8>(image));
}

void ImageView::setView(double zoom, QPointF offset, bool fitting) {
    const bool zoomChanged = zoom != zoom_;
    zoom_ = zoom;
    offset_ = offset;
    fitting_ = fitting;
    canvas_->setView(zoom_, offset_);
    if (zoomChanged) emit this->zoomChanged(zoom_);
}

void ImageView::fitToWindow() {
    if (!image_ || image_->width == 0 || image_->height == 0) {
        setView(1, {}, true);
        return;
    }
    const double zoom = std::clamp(std::min(width() / static_cast<double>(image_->width),
                                            height() / static_cast<double>(image_->height)),
                                   kMinZoom, kMaxZoom);
    setView(zoom, {(width() - image_->width * zoom) / 2, (height() - image_->height * zoom) / 2}, true);
}

void ImageView::zoomToActualSize() {
    zoomBy(1 / zoom_, QRectF(rect()).center());
}

void ImageView::zoomBy(double factor, QPointF anchor) {
    const double zoom = std::clamp(zoom_ * factor, kMinZoom, kMaxZoom);
    setView(zoom, anchor - (anchor - offset_) * (zoom / zoom_), false);
}

void ImageView::zoomIn() {
    zoomBy(1.25, QRectF(rect()).center());
}
void ImageView::zoomOut() {
    zoomBy(1 / 1.25, QRectF(rect()).center());
}

std::optional<QPoint> ImageView::pixelAt(QPointF widgetPosition) const {
    if (!image_) return std::nullopt;
    const QPointF imagePosition = (widgetPosition - offset_) / zoom_;
    const int x = static_cast<int>(std::floor(imagePosition.x()));
    const int y = static_cast<int>(std::floor(imagePosition.y()));
    if (x < 0 || y < 0 || x >= image_->width || y >= image_->height) return std::nullopt;
    return QPoint(x, y);
}

QString ImageView::describePixel(const ImageRGBA8& image, QPoint pixel) {
    const std::uint8_t* p = image.pixel(pixel.x(), pixel.y());
    return QStringLiteral("x %1  y %2    R %3  G %4  B %5  A %6    luma %7")
        .arg(pixel.x())
        .arg(pixel.y())
        .arg(p[0])
        .arg(p[1])
        .arg(p[2])
        .arg(p[3])
        .arg(histogram::luma(p[0], p[1], p[2]));
}

void ImageView::updateReadout(QPointF widgetPosition) {
    const auto pixel = rect().contains(widgetPosition.toPoint()) ? pixelAt(widgetPosition) : std::nullopt;
    emit pixelHovered(pixel ? describePixel(*image_, *pixel) : QString());
}

void ImageView::resizeEvent(QResizeEvent* event) {
    canvas_->widget()->setGeometry(rect());
    placeholder_->setGeometry(rect());
    if (fitting_) {
        fitToWindow();
    } else {
        // Keep what was at the centre at the centre.
        setView(zoom_,
                offset_ + QPointF(event->size().width() - event->oldSize().width(),
                                  event->size().height() - event->oldSize().height()) /
                              2,
                false);
    }
}

void ImageView::wheelEvent(QWheelEvent* event) {
    // One notch (120) zooms by 25 %; touchpads send fractions of a notch.
    const double notches = event->angleDelta().y() / 120.0;
    if (image_ && notches != 0) zoomBy(std::pow(1.25, notches), event->position());
    event->accept();
}

void ImageView::mousePressEvent(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton && event->button() != Qt::MiddleButton)
        return QWidget::mousePressEvent(event);
    dragStart_ = event->position();
    dragStartOffset_ = offset_;
    setCursor(Qt::ClosedHandCursor);
}

void ImageView::mouseMoveEvent(QMouseEvent* event) {
    if (dragStart_ && image_) setView(zoom_, dragStartOffset_ + (event->position() - *dragStart_), false);
    updateReadout(event->position());
}

void ImageView::mouseReleaseEvent(QMouseEvent* event) {
    if (!dragStart_) return QWidget::mouseReleaseEvent(event);
    dragStart_.reset();
    unsetCursor();
}

void ImageView::mouseDoubleClickEvent(QMouseEvent* event) {
    // Double click toggles between the whole image and 1:1 at the clicked point.
    if (!image_) return;
    if (fitting_)
        zoomBy(1 / zoom_, event->position());
    else
        fitToWindow();
}

void ImageView::leaveEvent(QEvent* event) {
    emit pixelHovered(QString());
    QWidget::leaveEvent(event);
}

}  // namespace hs::ui
