#pragma once
// The OpenGL half of the image view, apart from Qt's OpenGL headers: GLEW and qopenglcontext.h cannot share a
// translation unit (see shared/PLATFORM.md), so ImageView owns the context and this class makes the GL calls.

#include <cstdint>
#include <memory>
#include <string>

#include "image/image.hpp"

namespace hs::ui {

// The look shared by both canvases: a dark neutral grey around the image, as darktable and GIMP use (colours
// are judged against it), and a checkerboard behind transparent pixels.
inline constexpr std::uint8_t kBackgroundGrey = 43;
inline constexpr std::uint8_t kCheckerDarkGrey = 102;
inline constexpr std::uint8_t kCheckerLightGrey = 153;
inline constexpr int kCheckerCell = 8;  // logical pixels

// Where the image lies in the frame, in frame pixels from the top-left corner.
struct ImagePlacement {
    double x = 0;
    double y = 0;
    double width = 0;
    double height = 0;
};

// A mipmapped RGBA8 texture holding an image (subsampled where the image exceeds the GL texture size limit),
// or one borrowed from its owner (the display link's interop texture), which the renderer then never deletes.
struct ImageTexture {
    unsigned id = 0;  // 0: no texture
    int width = 0;    // of the image, not of the texture
    int height = 0;
    bool owned = true;
};

// Uploads `image` into a new texture in the current context and waits until GL has finished with it, so that
// a context sharing objects with this one may use it at once. Opening a large image costs hundreds of
// milliseconds under software OpenGL (upload and mipmaps), so ImageView does this on a thread of its own.
ImageTexture uploadImageTexture(const ImageRGBA8& image);
// Deletes an owned texture; a borrowed one is left to its owner.
void deleteImageTexture(const ImageTexture& texture);

// Draws an image texture on a quad (core-profile GL 3.3: a VAO, a VBO, one tiny shader) into a framebuffer
// object and reads the frame back. Every call needs the caller's GL 3.3 core context current.
class GlImageRenderer {
  public:
    // Loads OpenGL through GLEW and creates the GL objects; null with `problem` set when it cannot.
    static std::unique_ptr<GlImageRenderer> create(std::string& problem);
    ~GlImageRenderer();
    GlImageRenderer(const GlImageRenderer&) = delete;
    GlImageRenderer& operator=(const GlImageRenderer&) = delete;

    // Draws `texture` from now on (it may come from a sharing context), taking ownership of an owned one, and
    // deletes the previous one if it owned it.
    void setTexture(const ImageTexture& texture);
    // Largest frame side render() accepts.
    int maxFrameSide() const { return maxFrameSide_; }
    // Renders a width × height frame and writes it to `rgba` (width * height * 4 bytes), top row first.
    void render(int width, int height, const ImagePlacement& placement, double checkerCell,
                std::uint8_t* rgba);
    // Draws a width × height frame into `framebuffer` as a window shows it (its last row on top), leaving
    // that framebuffer bound: a QOpenGLWidget's, in paintGL().
    void draw(int width, int height, const ImagePlacement& placement, double checkerCell,
              unsigned framebuffer);

  private:
    GlImageRenderer() = default;
    bool createObjects(std::string& problem);
    // Draws into the bound framebuffer; `topRowFirst` puts the image's top row in framebuffer row 0, as
    // glReadPixels returns first.
    void drawBound(int width, int height, const ImagePlacement& placement, double checkerCell,
                   bool topRowFirst);

    ImageTexture texture_;
    int maxFrameSide_ = 0;
    int framebufferWidth_ = 0;
    int framebufferHeight_ = 0;
    unsigned program_ = 0;
    unsigned vertexArray_ = 0;
    unsigned vertexBuffer_ = 0;
    unsigned framebuffer_ = 0;
    unsigned colourBuffer_ = 0;
    int imageRectLocation_ = -1;
    int checkerCellLocation_ = -1;
};

}  // namespace hs::ui
