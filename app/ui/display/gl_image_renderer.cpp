// GLEW must come before every header that includes GL/gl.h; this file includes no Qt OpenGL header.
#include <GL/glew.h>

#include "ui/display/gl_image_renderer.hpp"

#include <algorithm>

namespace hs::ui {

namespace {

const char* const kVertexShader = R"(#version 330 core
layout(location = 0) in vec2 corner;  // of the unit square
uniform vec4 imageRect;               // corner and size of the image in normalised device coordinates
out vec2 texCoord;
void main() {
    texCoord = corner;
    gl_Position = vec4(imageRect.xy + corner * imageRect.zw, 0.0, 1.0);
}
)";

const char* const kFragmentShader = R"(#version 330 core
in vec2 texCoord;
uniform sampler2D image;
uniform float checkerCell;  // frame pixels
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

constexpr GLfloat unit(std::uint8_t grey) {
    return static_cast<GLfloat>(grey) / 255.0f;
}

GLuint compileShader(GLenum type, const char* source, std::string& problem) {
    const GLuint shader = glCreateShader(type);
    glShaderSource(shader, 1, &source, nullptr);
    glCompileShader(shader);
    GLint ok = GL_FALSE;
    glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
    if (ok) return shader;
    char log[1024] = {};
    glGetShaderInfoLog(shader, sizeof(log), nullptr, log);
    problem = std::string("the image shader does not compile: ") + log;
    glDeleteShader(shader);
    return 0;
}

GLuint linkProgram(std::string& problem) {
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
    problem = std::string("the image shader does not link: ") + log;
    glDeleteProgram(program);
    return 0;
}

}  // namespace

std::unique_ptr<GlImageRenderer> GlImageRenderer::create(std::string& problem) {
    glewExperimental = GL_TRUE;
    const GLenum status = glewInit();
    // Debian's GLEW is GLX-only: on EGL it reports "no GLX display" although the entry points loaded.
    if (status != GLEW_OK && status != GLEW_ERROR_NO_GLX_DISPLAY) {
        problem = std::string("GLEW could not load OpenGL: ") +
                  reinterpret_cast<const char*>(glewGetErrorString(status));
        return nullptr;
    }
    // glewInit queries extensions the compatibility way, which leaves GL_INVALID_ENUM on core profiles.
    while (glGetError() != GL_NO_ERROR) {
    }
    if (!GLEW_VERSION_3_3) {
        const auto* version = reinterpret_cast<const char*>(glGetString(GL_VERSION));
        problem = std::string("OpenGL 3.3 is not available (got ") + (version ? version : "none") + ")";
        return nullptr;
    }
    std::unique_ptr<GlImageRenderer> renderer(new GlImageRenderer);
    if (!renderer->createObjects(problem)) return nullptr;
    return renderer;
}

bool GlImageRenderer::createObjects(std::string& problem) {
    program_ = linkProgram(problem);
    if (!program_) return false;
    imageRectLocation_ = glGetUniformLocation(program_, "imageRect");
    checkerCellLocation_ = glGetUniformLocation(program_, "checkerCell");
    glUseProgram(program_);
    glUniform1i(glGetUniformLocation(program_, "image"), 0);
    glUniform3f(glGetUniformLocation(program_, "checkerDark"), unit(kCheckerDarkGrey), unit(kCheckerDarkGrey),
                unit(kCheckerDarkGrey));
    glUniform3f(glGetUniformLocation(program_, "checkerLight"), unit(kCheckerLightGrey),
                unit(kCheckerLightGrey), unit(kCheckerLightGrey));

    const GLfloat corners[] = {0, 0, 1, 0, 0, 1, 1, 1};
    glGenVertexArrays(1, &vertexArray_);
    glBindVertexArray(vertexArray_);
    glGenBuffers(1, &vertexBuffer_);
    glBindBuffer(GL_ARRAY_BUFFER, vertexBuffer_);
    glBufferData(GL_ARRAY_BUFFER, sizeof(corners), corners, GL_STATIC_DRAW);
    glEnableVertexAttribArray(0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, nullptr);
    glBindVertexArray(0);

    glGenFramebuffers(1, &framebuffer_);
    glGenRenderbuffers(1, &colourBuffer_);
    glGetIntegerv(GL_MAX_RENDERBUFFER_SIZE, &maxFrameSide_);
    if (glGetError() == GL_NO_ERROR) return true;
    problem = "creating the image view's GL objects failed";
    return false;
}

GlImageRenderer::~GlImageRenderer() {
    deleteImageTexture(texture_);
    glDeleteRenderbuffers(1, &colourBuffer_);
    glDeleteFramebuffers(1, &framebuffer_);
    glDeleteBuffers(1, &vertexBuffer_);
    glDeleteVertexArrays(1, &vertexArray_);
    glDeleteProgram(program_);
}

void GlImageRenderer::setTexture(const ImageTexture& texture) {
    deleteImageTexture(texture_);
    texture_ = texture;
}

void GlImageRenderer::render(int width, int height, const ImagePlacement& placement, double checkerCell,
                             std::uint8_t* rgba) {
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
    if (width != framebufferWidth_ || height != framebufferHeight_) {
        glBindRenderbuffer(GL_RENDERBUFFER, colourBuffer_);
        glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
        glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, colourBuffer_);
        framebufferWidth_ = width;
        framebufferHeight_ = height;
    }
    drawBound(width, height, placement, checkerCell, true);
    glPixelStorei(GL_PACK_ALIGNMENT, 4);
    glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, rgba);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

void GlImageRenderer::draw(int width, int height, const ImagePlacement& placement, double checkerCell,
                           unsigned framebuffer) {
    glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
    drawBound(width, height, placement, checkerCell, false);
}

void GlImageRenderer::drawBound(int width, int height, const ImagePlacement& placement, double checkerCell,
                                bool topRowFirst) {
    glViewport(0, 0, width, height);
    glClearColor(unit(kBackgroundGrey), unit(kBackgroundGrey), unit(kBackgroundGrey), 1);
    glClear(GL_COLOR_BUFFER_BIT);
    if (!texture_.id) return;
    glActiveTexture(GL_TEXTURE0);
    glBindTexture(GL_TEXTURE_2D, texture_.id);
    glUseProgram(program_);
    // Normalised device y grows upwards, and framebuffer row 0 is at y = -1: top row first means the image
    // drawn upside down in GL terms.
    const double top = 2 * placement.y / height - 1;
    const double down = 2 * placement.height / height;
    glUniform4f(imageRectLocation_, static_cast<GLfloat>(2 * placement.x / width - 1),
                static_cast<GLfloat>(topRowFirst ? top : -top),
                static_cast<GLfloat>(2 * placement.width / width),
                static_cast<GLfloat>(topRowFirst ? down : -down));
    glUniform1f(checkerCellLocation_, static_cast<GLfloat>(checkerCell));
    glBindVertexArray(vertexArray_);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glBindVertexArray(0);
}

ImageTexture uploadImageTexture(const ImageRGBA8& image) {
    GLint maxSide = 0;
    glGetIntegerv(GL_MAX_TEXTURE_SIZE, &maxSide);
    const ImageRGBA8* pixels = &image;
    ImageRGBA8 reduced;
    const int step = (std::max(image.width, image.height) + maxSide - 1) / maxSide;
    if (step > 1) {
        reduced = ImageRGBA8((image.width + step - 1) / step, (image.height + step - 1) / step);
        for (int y = 0; y < reduced.height; ++y) {
            for (int x = 0; x < reduced.width; ++x)
                std::copy_n(image.pixel(x * step, y * step), 4, reduced.pixel(x, y));
        }
        pixels = &reduced;
    }
    ImageTexture texture{0, image.width, image.height};
    glGenTextures(1, &texture.id);
    glBindTexture(GL_TEXTURE_2D, texture.id);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, pixels->width, pixels->height, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                 pixels->pixels.data());
    glGenerateMipmap(GL_TEXTURE_2D);
    // Zoomed in, pixels stay crisp squares, as in every image tool; zoomed out, mipmaps avoid aliasing.
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    glBindTexture(GL_TEXTURE_2D, 0);
    glFinish();
    return texture;
}

void deleteImageTexture(const ImageTexture& texture) {
    if (texture.id && texture.owned) glDeleteTextures(1, &texture.id);
}

}  // namespace hs::ui
