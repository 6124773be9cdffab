#pragma once

#include <QPointF>
#include <QString>
#include <QWidget>
#include <memory>
#include <optional>

#include "image/image.hpp"
#include "ui/display/display_link.hpp"
#include "ui/display/image_canvas.hpp"

class QLabel;

namespace hs::ui {

// The central image: fit, zoom with the wheel about the cursor, pan by dragging, 1:1, and a readout of the
// pixel under the cursor. Drawing is done by a canvas child: the image as an OpenGL texture (GL through GLEW)
// rendered offscreen and read back on software OpenGL, drawn on screen by a QOpenGLWidget on hardware OpenGL
// (gl_canvas.hpp says why and how to choose); QPainter drawing a QImage on the offscreen/minimal platforms,
// or when OpenGL cannot start. This widget keeps the view state and handles the input.
class ImageView : public QWidget {
    Q_OBJECT

  public:
    static constexpr double kMinZoom = 1.0 / 64;
    static constexpr double kMaxZoom = 64;

    enum class Renderer {
        Automatic,  // OpenGL where the platform can host it
        Raster,     // always the plain widget
    };

    explicit ImageView(QWidget* parent = nullptr, Renderer renderer = Renderer::Automatic);
    ~ImageView() override;

    // Shows `image` fitted to the view. A null pointer clears the view.
    void setImage(std::shared_ptr<const ImageRGBA8> image);
    void setImage(const ImageRGBA8& image);
    // Shows another version of the image shown (processed, or back to the original): zoom and position stay
    // while the size is the same.
    void replaceImage(std::shared_ptr<const ImageRGBA8> image);
    // Shows a processed image from the pipeline: from the display link's texture, or from its host pixels.
    // Zoom and position stay as with replaceImage().
    void showFrame(const DisplayFrame& frame);
    // The host pixels shown; null when none are shown, or when the pixels of the frame shown stayed on the
    // device (shared display path).
    const ImageRGBA8* image() const { return image_.get(); }
    QSize imageSize() const { return imageSize_; }
    // The OpenGL canvas's link for processed images (see DisplayLink); null for the raster canvas, and for
    // the on-screen canvas until displayLinkReady().
    DisplayLink* displayLink() const;
    // Whether the canvas draws the current image yet: the OpenGL canvas uploads it in the background.
    bool imageReady() const { return imageReady_; }
    bool usesOpenGl() const;
    ImageCanvas::Kind canvasKind() const;

    // Image pixels per widget pixel is 1 / zoom; zoom 1 is 1:1.
    double zoom() const { return zoom_; }
    // Where the image's top-left corner lies, in widget coordinates.
    QPointF offset() const { return offset_; }
    bool fitsWindow() const { return fitting_; }
    void fitToWindow();
    void zoomToActualSize();
    // Multiplies the zoom by `factor`, keeping the image point under `anchor` (widget coordinates) in place.
    void zoomBy(double factor, QPointF anchor);
    void zoomIn();
    void zoomOut();

    // The image pixel under a widget position, if any.
    std::optional<QPoint> pixelAt(QPointF widgetPosition) const;
    // "x 12  y 40   R 255  G 0  B 0  A 255   luma 76"
    static QString describePixel(const ImageRGBA8& image, QPoint pixel);

  signals:
    // The readout of the pixel under the cursor; empty when the cursor leaves the image.
    void pixelHovered(const QString& readout);
    void zoomChanged(double zoom);
    // The canvas draws the image last given to setImage().
    void imageDisplayed();
    // The on-screen OpenGL canvas got its context, and with it the link for processed images.
    void displayLinkReady(hs::ui::DisplayLink* link);

  protected:
    void resizeEvent(QResizeEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

  private:
    void installCanvas(std::unique_ptr<ImageCanvas> canvas);
    void imageShown();
    // Takes `size` as the image's, refitting unless the user's view of an image of that size can stay.
    void adoptSize(QSize size, bool keepView);
    void setView(double zoom, QPointF offset, bool fitting);
    void updateReadout(QPointF widgetPosition);

    std::unique_ptr<ImageCanvas> canvas_;
    QLabel* placeholder_ = nullptr;
    std::shared_ptr<const ImageRGBA8> image_;
    QSize imageSize_;  // of what is shown, host pixels or not
    bool imageReady_ = false;
    double zoom_ = 1;
    QPointF offset_;
    bool fitting_ = true;
    std::optional<QPointF> dragStart_;
    QPointF dragStartOffset_;
};

}  // namespace hs::ui
