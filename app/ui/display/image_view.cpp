#include "ui/display/image_view.hpp"

#include <QGuiApplication>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QResizeEvent>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <functional>

#include "engine/ops/histogram/histogram.hpp"
#include "ui/display/gl_canvas.hpp"
#include "ui/display/gl_image_renderer.hpp"
#include "ui/display/image_canvas.hpp"

namespace hs::ui {

namespace {

const QColor kBackground(kBackgroundGrey, kBackgroundGrey, kBackgroundGrey);

QPixmap checkerTile() {
    QPixmap tile(2 * kCheckerCell, 2 * kCheckerCell);
    tile.fill(QColor(kCheckerLightGrey, kCheckerLightGrey, kCheckerLightGrey));
    QPainter painter(&tile);
    const QColor dark(kCheckerDarkGrey, kCheckerDarkGrey, kCheckerDarkGrey);
    painter.fillRect(0, 0, kCheckerCell, kCheckerCell, dark);
    painter.fillRect(kCheckerCell, kCheckerCell, kCheckerCell, kCheckerCell, dark);
    return tile;
}

class RasterCanvas final : public QWidget, public ImageCanvas {
  public:
    RasterCanvas(QWidget* parent, std::function<void()> shown)
        : QWidget(parent), ImageCanvas(std::move(shown)), checker_(checkerTile()) {
        setAttribute(Qt::WA_OpaquePaintEvent);
    }

    QWidget* widget() override { return this; }
    Kind kind() const override { return Kind::Raster; }
    void setImage(std::shared_ptr<const ImageRGBA8> image) override {
        image_ = std::move(image);
        wrapped_ = image_ ? QImage(image_->pixels.data(), image_->width, image_->height, image_->width * 4,
                                   QImage::Format_RGBA8888)
                          : QImage();
        update();
        shown_();
    }
    // Without a display link no frame arrives in a texture; the host pixels are the frame.
    void showTexture(const DisplayFrame& frame) override { setImage(frame.pixels); }
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
    QImage wrapped_;  // borrows image_'s pixels
    QPixmap checker_;
    double zoom_ = 1;
    QPointF offset_;
};

// No OpenGL on these platforms: Qt 6.4 has no GL integration for them (a QOpenGLWidget even crashes there,
// see shared/PLATFORM.md).
bool platformHostsOpenGl() {
    const QString platform = QGuiApplication::platformName();
    return platform != QLatin1String("offscreen") && platform != QLatin1String("minimal");
}

}  // namespace

ImageView::ImageView(QWidget* parent, Renderer renderer) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(200, 150);
    if (renderer == Renderer::Automatic && platformHostsOpenGl()) {
        const GlCanvasChoice choice = chooseGlCanvas();
        QString problem;
        auto canvas = createGlCanvas(
            choice.kind, this, [this] { imageShown(); },
            [this](DisplayLink* link) { emit displayLinkReady(link); }, problem);
        if (canvas)
            installCanvas(std::move(canvas));
        else
            qWarning("histoscope: OpenGL image view unavailable (%s); drawing without OpenGL",
                     qUtf8Printable(problem));
    }
    if (!canvas_) installCanvas(std::make_unique<RasterCanvas>(this, [this] { imageShown(); }));

    placeholder_ = new QLabel(tr("Open an image (Ctrl+O) or drop one here"), this);
    placeholder_->setAlignment(Qt::AlignCenter);
    placeholder_->setWordWrap(true);  // a narrow view (1280 px screens) breaks the line instead of cutting it
    placeholder_->setStyleSheet(QStringLiteral("color: #9a9a9a; font-size: 13pt; background: transparent;"));
    placeholder_->setAttribute(Qt::WA_TransparentForMouseEvents);
}

ImageView::~ImageView() = default;

void ImageView::imageShown() {
    imageReady_ = true;
    emit imageDisplayed();
}

bool ImageView::usesOpenGl() const {
    return canvas_->kind() != ImageCanvas::Kind::Raster;
}

ImageCanvas::Kind ImageView::canvasKind() const {
    return canvas_->kind();
}

DisplayLink* ImageView::displayLink() const {
    return canvas_->displayLink();
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

void ImageView::setImage(std::shared_ptr<const ImageRGBA8> image) {
    image_ = std::move(image);
    imageReady_ = false;
    canvas_->setImage(image_);
    adoptSize(image_ ? QSize(image_->width, image_->height) : QSize(), false);
}

void ImageView::replaceImage(std::shared_ptr<const ImageRGBA8> image) {
    image_ = std::move(image);
    imageReady_ = false;
    canvas_->setImage(image_);
    adoptSize(image_ ? QSize(image_->width, image_->height) : QSize(), true);
}

void ImageView::showFrame(const DisplayFrame& frame) {
    image_ = frame.pixels;
    imageReady_ = false;
    if (frame.inTexture)
        canvas_->showTexture(frame);
    else
        canvas_->setImage(image_);
    adoptSize(QSize(frame.width, frame.height), true);
}

void ImageView::adoptSize(QSize size, bool keepView) {
    const bool sameSize = size == imageSize_;
    imageSize_ = size;
    placeholder_->setVisible(imageSize_.isEmpty());
    if (!keepView || !sameSize || fitting_) fitToWindow();
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
    if (imageSize_.isEmpty()) {
        setView(1, {}, true);
        return;
    }
    const double zoom = std::clamp(std::min(width() / static_cast<double>(imageSize_.width()),
                                            height() / static_cast<double>(imageSize_.height())),
                                   kMinZoom, kMaxZoom);
    setView(zoom, {(width() - imageSize_.width() * zoom) / 2, (height() - imageSize_.height() * zoom) / 2},
            true);
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
    if (imageSize_.isEmpty()) return std::nullopt;
    const QPointF imagePosition = (widgetPosition - offset_) / zoom_;
    const int x = static_cast<int>(std::floor(imagePosition.x()));
    const int y = static_cast<int>(std::floor(imagePosition.y()));
    if (x < 0 || y < 0 || x >= imageSize_.width() || y >= imageSize_.height()) return std::nullopt;
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
    if (!pixel)
        emit pixelHovered(QString());
    else if (image_)
        emit pixelHovered(describePixel(*image_, *pixel));
    else
        emit pixelHovered(
            tr("x %1  y %2    (the processed pixels stay on the device)").arg(pixel->x()).arg(pixel->y()));
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
    if (!imageSize_.isEmpty() && notches != 0) zoomBy(std::pow(1.25, notches), event->position());
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
    if (dragStart_ && !imageSize_.isEmpty())
        setView(zoom_, dragStartOffset_ + (event->position() - *dragStart_), false);
    updateReadout(event->position());
}

void ImageView::mouseReleaseEvent(QMouseEvent* event) {
    if (!dragStart_) return QWidget::mouseReleaseEvent(event);
    dragStart_.reset();
    unsetCursor();
}

void ImageView::mouseDoubleClickEvent(QMouseEvent* event) {
    // Double click toggles between the whole image and 1:1 at the clicked point.
    if (imageSize_.isEmpty()) return;
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
