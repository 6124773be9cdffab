#pragma once
// The image view's OpenGL canvases. Both draw with GlImageRenderer, upload opened images on a thread of their
// own, and show processed images from the texture of their DisplayLink; they differ in where the frame goes.
//
// Offscreen (the default on software OpenGL): a framebuffer object of an offscreen context, read back and
// painted as a QImage by a plain widget. A QOpenGLWidget makes Qt compose the whole top-level window with
// OpenGL on every repaint of any widget in it; under software OpenGL (Mesa llvmpipe, as on Xvfb and GPU-less
// machines) that costs 20-45 ms per repaint, and a result that updates the plots and tables would stall the
// event loop beyond the 50 ms the app promises. Offscreen, only changes of this view touch OpenGL, the rest
// of the window stays on Qt's raster backing store, and the read-back of a view-sized frame costs about a
// millisecond.
//
// Widget (the default on hardware OpenGL): a QOpenGLWidget drawing the frame where Qt composes the window.
// On a GPU the composition is cheap and the read-back is the cost worth avoiding, for 4K views above all.
//
// The rule: HISTOSCOPE_IMAGE_VIEW=widget or =offscreen decides; otherwise the GL renderer does, software
// (llvmpipe, softpipe, swrast) meaning offscreen.

#include <QString>
#include <functional>
#include <memory>

#include "ui/display/image_canvas.hpp"

class QWidget;

namespace hs::ui {

struct GlCanvasChoice {
    ImageCanvas::Kind kind = ImageCanvas::Kind::OffscreenGl;
    QString why;  // for the log: the variable, or the renderer
};

// Applies the rule above; without the variable it asks OpenGL for its renderer (a short-lived context).
GlCanvasChoice chooseGlCanvas();

// A canvas of `kind` (OffscreenGl or WidgetGl); null, with `problem` set, when OpenGL 3.3 core cannot be
// used. `linkReady` is called on the GUI thread when the canvas's display link comes to exist: during this
// call for the offscreen canvas, when the widget first gets its context for the on-screen one.
std::unique_ptr<ImageCanvas> createGlCanvas(ImageCanvas::Kind kind, QWidget* parent,
                                            std::function<void()> shown,
                                            std::function<void(DisplayLink*)> linkReady, QString& problem);

}  // namespace hs::ui
