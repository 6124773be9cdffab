#pragma once
// Whether OpenCL can write a GL texture directly, asked of the driver. Qt-free: it takes the native GLX
// handles that a bare X11 program or Qt's native interface (QGLXContext, QX11Application) supplies.

#include <string>
#include <string_view>
#include <vector>

#include "engine/runtime/cl.hpp"

// Xlib's Display and what GLX's GLXContext points to, declared here so that this header pulls in neither
// Xlib nor GL (a Qt/GLEW translation unit must control which GL header comes first).
struct _XDisplay;
struct __GLXcontextRec;

namespace hs::interop {

struct GlxHandles {
    _XDisplay* display = nullptr;
    __GLXcontextRec* context = nullptr;
};

enum class DisplayPath {
    Shared,  // OpenCL writes the GL texture itself (clCreateFromGLTexture, acquire/release)
    Copy,    // pixels go through the host: read back from OpenCL, then glTexSubImage2D
};

std::string_view displayPathName(DisplayPath path);

struct SharingDecision {
    DisplayPath path = DisplayPath::Copy;
    // One line for the UI saying why this path, naming the device and the GL renderer.
    std::string reason;
    // The device that shares with the GL context: the chosen one on the shared path; on the copy path the one
    // the driver named instead (a device the UI could offer to switch to), or none.
    cl::Device glDevice;
};

// Asks the driver of `device`'s platform, through clGetGLContextInfoKHR, which devices can share with the
// GL context (CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR, then CL_DEVICES_FOR_GL_CONTEXT_KHR). The extension
// string is not consulted: NVIDIA's driver shares over GLX without listing cl_khr_gl_sharing. Shared only
// when `device` is among the answers and supports images. The GL context must be current on this thread.
SharingDecision decideSharing(const GlxHandles& gl, const cl::Device& device);

// The properties that tie an OpenCL context to the GL context: GL context, GLX display (NVIDIA refuses
// without it) and platform, zero-terminated.
std::vector<cl_context_properties> glSharingProperties(const GlxHandles& gl, const cl::Platform& platform);

// Throws UsageError unless both handles are set and `gl.context` is current on the calling thread.
void requireCurrent(const GlxHandles& gl);

}  // namespace hs::interop
