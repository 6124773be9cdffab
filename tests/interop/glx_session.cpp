#include "glx_session.hpp"

#include <GL/gl.h>
#include <GL/glx.h>

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

#include "engine/runtime/error.hpp"

namespace {

// Keeps the GL driver Mesa loaded (its DRI module) mapped until the process ends. Mesa unloads it when the
// display closes, and LeakSanitizer then meets the driver's own lifetime allocations with an "<unknown
// module>" frame that no suppression can name (scripts/sanitizers/lsan.supp names swrast_dri); kept, the
// frame names it.
void keepDriverModulesLoaded() {
    dl_iterate_phdr(
        [](dl_phdr_info* module, std::size_t, void*) {
            if (module->dlpi_name && std::strstr(module->dlpi_name, "/dri/"))
                dlopen(module->dlpi_name, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
            return 0;
        },
        nullptr);
}

}  // namespace

GlxSession::GlxSession() {
    const char* name = std::getenv("DISPLAY");
    const std::string where = "X display '" + std::string(name ? name : "") + "'";
    display_ = XOpenDisplay(nullptr);
    if (display_ == nullptr)
        throw std::runtime_error(where + ": cannot open it (is DISPLAY set, Xvfb running?)");

    const int attributes[] = {GLX_DRAWABLE_TYPE,
                              GLX_WINDOW_BIT,
                              GLX_RENDER_TYPE,
                              GLX_RGBA_BIT,
                              GLX_RED_SIZE,
                              8,
                              GLX_GREEN_SIZE,
                              8,
                              GLX_BLUE_SIZE,
                              8,
                              None};
    int count = 0;
    GLXFBConfig* configs = glXChooseFBConfig(display_, DefaultScreen(display_), attributes, &count);
    if (configs == nullptr || count == 0) {
        release();
        throw std::runtime_error(where + ": no GLX RGBA window configuration (is +extension GLX on?)");
    }
    const GLXFBConfig config = configs[0];
    XFree(configs);

    XVisualInfo* visual = glXGetVisualFromFBConfig(display_, config);
    const Window root = RootWindow(display_, visual->screen);
    colormap_ = XCreateColormap(display_, root, visual->visual, AllocNone);
    XSetWindowAttributes windowAttributes{};
    windowAttributes.colormap = colormap_;
    window_ = XCreateWindow(display_, root, 0, 0, 16, 16, 0, visual->depth, InputOutput, visual->visual,
                            CWColormap, &windowAttributes);
    XFree(visual);

    context_ = glXCreateNewContext(display_, config, GLX_RGBA_TYPE, nullptr, True);
    idleContext_ = glXCreateNewContext(display_, config, GLX_RGBA_TYPE, nullptr, True);
    if (context_ == nullptr || idleContext_ == nullptr ||
        !glXMakeContextCurrent(display_, window_, window_, context_)) {
        release();
        throw std::runtime_error(where + ": cannot create and make current a GLX context");
    }
    keepDriverModulesLoaded();
}

GlxSession::~GlxSession() {
    release();
}

void GlxSession::release() noexcept {
    glXMakeContextCurrent(display_, None, None, nullptr);
    if (idleContext_) glXDestroyContext(display_, idleContext_);
    if (context_) glXDestroyContext(display_, context_);
    if (window_) XDestroyWindow(display_, window_);
    if (colormap_) XFreeColormap(display_, colormap_);
    XCloseDisplay(display_);
}

hs::ImageRGBA8 readTexture(const hs::interop::TextureSink& sink) {
    hs::ImageRGBA8 image(sink.width(), sink.height());
    glBindTexture(GL_TEXTURE_2D, sink.texture());
    glPixelStorei(GL_PACK_ALIGNMENT, 1);
    glGetTexImage(GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, image.pixels.data());
    glBindTexture(GL_TEXTURE_2D, 0);
    if (const GLenum code = glGetError(); code != GL_NO_ERROR)
        throw hs::Error(hs::ErrorKind::OpenCl, "glGetTexImage failed with GL error " + std::to_string(code));
    return image;
}
