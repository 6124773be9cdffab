#include "interop/gl_sharing.hpp"

#include <GL/glx.h>

#include <algorithm>
#include <tuple>

#include "engine/runtime/error.hpp"

namespace hs::interop {

namespace {

std::string glRenderer() {
    const auto* renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    return renderer ? renderer : "unknown";
}

std::string quoted(const std::string& text) {
    return "'" + text + "'";
}

std::string deviceName(cl_device_id device) {
    return withClErrors("naming a device",
                        [&] { return cl::Device(device, true).getInfo<CL_DEVICE_NAME>(); });
}

struct GlQuery {
    cl_int status = CL_SUCCESS;
    std::vector<cl_device_id> devices;
};

// One clGetGLContextInfoKHR question; an empty answer is a valid "none".
GlQuery askDriver(clGetGLContextInfoKHR_fn getGlContextInfo,
                  const std::vector<cl_context_properties>& properties, cl_gl_context_info question) {
    GlQuery query;
    std::size_t bytes = 0;
    query.status = getGlContextInfo(properties.data(), question, 0, nullptr, &bytes);
    if (query.status != CL_SUCCESS || bytes == 0) return query;
    query.devices.resize(bytes / sizeof(cl_device_id));
    query.status = getGlContextInfo(properties.data(), question, bytes, query.devices.data(), nullptr);
    if (query.status != CL_SUCCESS) query.devices.clear();
    return query;
}

bool contains(const std::vector<cl_device_id>& devices, cl_device_id device) {
    return std::find(devices.begin(), devices.end(), device) != devices.end();
}

}  // namespace

std::string_view displayPathName(DisplayPath path) {
    return path == DisplayPath::Shared ? "shared" : "copy";
}

std::vector<cl_context_properties> glSharingProperties(const GlxHandles& gl, const cl::Platform& platform) {
    return {CL_GL_CONTEXT_KHR,
            reinterpret_cast<cl_context_properties>(gl.context),
            CL_GLX_DISPLAY_KHR,
            reinterpret_cast<cl_context_properties>(gl.display),
            CL_CONTEXT_PLATFORM,
            reinterpret_cast<cl_context_properties>(platform()),
            0};
}

void requireCurrent(const GlxHandles& gl) {
    if (gl.display == nullptr || gl.context == nullptr)
        throw UsageError("GL display: the X display and GLX context handles must both be set");
    if (glXGetCurrentContext() != gl.context)
        throw UsageError("GL display: the GLX context is not current on this thread");
}

SharingDecision decideSharing(const GlxHandles& gl, const cl::Device& device) {
    requireCurrent(gl);
    const std::string renderer = quoted(glRenderer());
    const auto [platform, platformName, name, imageSupport] = withClErrors("inspecting a device", [&] {
        cl::Platform owner(device.getInfo<CL_DEVICE_PLATFORM>(), true);
        return std::tuple(owner, owner.getInfo<CL_PLATFORM_NAME>(), device.getInfo<CL_DEVICE_NAME>(),
                          device.getInfo<CL_DEVICE_IMAGE_SUPPORT>() == CL_TRUE);
    });
    const auto copy = [](std::string reason) {
        return SharingDecision{DisplayPath::Copy, std::move(reason), cl::Device()};
    };

    auto* getGlContextInfo = reinterpret_cast<clGetGLContextInfoKHR_fn>(
        clGetExtensionFunctionAddressForPlatform(platform(), "clGetGLContextInfoKHR"));
    if (getGlContextInfo == nullptr)
        return copy("platform " + quoted(platformName) + " offers no clGetGLContextInfoKHR");

    const auto properties = glSharingProperties(gl, platform);
    const GlQuery current = askDriver(getGlContextInfo, properties, CL_CURRENT_DEVICE_FOR_GL_CONTEXT_KHR);
    const GlQuery all = askDriver(getGlContextInfo, properties, CL_DEVICES_FOR_GL_CONTEXT_KHR);
    if (current.status != CL_SUCCESS && all.status != CL_SUCCESS)
        return copy("platform " + quoted(platformName) + " cannot share with GL renderer " + renderer +
                    " (clGetGLContextInfoKHR: " + clErrorName(all.status) + ")");
    if (current.devices.empty() && all.devices.empty())
        return copy("platform " + quoted(platformName) + " has no device that shares with GL renderer " +
                    renderer);

    const bool isCurrent = contains(current.devices, device());
    if (!isCurrent && !contains(all.devices, device())) {
        const cl_device_id other = current.devices.empty() ? all.devices.front() : current.devices.front();
        return {DisplayPath::Copy,
                "GL renderer " + renderer + " shares with " + quoted(deviceName(other)) +
                    ", not with the chosen device " + quoted(name),
                cl::Device(other, true)};
    }
    if (!imageSupport) return copy("device " + quoted(name) + " shares with GL but has no image support");
    return {DisplayPath::Shared,
            "device " + quoted(name) + " writes the GL texture of renderer " + renderer +
                (isCurrent ? " directly" : " directly (it is not the renderer's own device)"),
            device};
}

}  // namespace hs::interop
