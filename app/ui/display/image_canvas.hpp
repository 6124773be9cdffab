#pragma once

#include <QPointF>
#include <functional>
#include <memory>

#include "image/image.hpp"
#include "ui/display/display_link.hpp"

class QWidget;

namespace hs::ui {

// Draws the image under the view transform that ImageView owns; it takes no input of its own. A canvas calls
// `shown` once the latest image it was given is ready to draw (at once, or after a background upload).
class ImageCanvas {
  public:
    enum class Kind {
        Raster,       // QPainter drawing a QImage
        OffscreenGl,  // OpenGL into a framebuffer object, read back and painted (the default on software GL)
        WidgetGl,     // a QOpenGLWidget drawing on screen (the default on hardware GL)
    };

    explicit ImageCanvas(std::function<void()> shown) : shown_(std::move(shown)) {}
    virtual ~ImageCanvas() = default;
    virtual QWidget* widget() = 0;
    virtual Kind kind() const = 0;
    virtual void setImage(std::shared_ptr<const ImageRGBA8> image) = 0;
    // A processed image that the display link put into its texture.
    virtual void showTexture(const DisplayFrame& frame) = 0;
    virtual void setView(double zoom, QPointF offset) = 0;
    // The link for processed images; null for a canvas without OpenGL, and until an on-screen canvas has its
    // context.
    virtual DisplayLink* displayLink() { return nullptr; }

  protected:
    std::function<void()> shown_;
};

}  // namespace hs::ui
