#include "engine/runtime/device_info.hpp"

#include <dlfcn.h>
#include <sys/resource.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "engine/runtime/cl.hpp"
#include "engine/runtime/error.hpp"

namespace hs {

namespace {

std::string trimmed(std::string text) {
    // Drivers pad strings with NULs and spaces.
    while (!text.empty() && (text.back() == '\0' || std::isspace(static_cast<unsigned char>(text.back()))))
        text.pop_back();
    std::size_t start = 0;
    while (start < text.size() && std::isspace(static_cast<unsigned char>(text[start]))) ++start;
    return text.substr(start);
}

std::vector<std::string> splitWords(const std::string& text) {
    std::vector<std::string> words;
    std::istringstream stream(text);
    for (std::string word; stream >> word;) words.push_back(word);
    std::sort(words.begin(), words.end());
    return words;
}

DeviceType typeOf(cl_device_type type) {
    if (type & CL_DEVICE_TYPE_GPU) return DeviceType::Gpu;
    if (type & CL_DEVICE_TYPE_CPU) return DeviceType::Cpu;
    if (type & CL_DEVICE_TYPE_ACCELERATOR) return DeviceType::Accelerator;
    return DeviceType::Other;
}

std::string lowercase(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

bool pipesSupported(const cl::Device& device, const std::string& version) {
    // CL_DEVICE_PIPE_SUPPORT exists from OpenCL 3.0; a 2.x device supports pipes by definition.
    if (version.rfind("OpenCL 2.", 0) == 0) return true;
    if (version.rfind("OpenCL 3.", 0) != 0) return false;
    cl_bool supported = CL_FALSE;
    if (clGetDeviceInfo(device(), CL_DEVICE_PIPE_SUPPORT, sizeof(supported), &supported, nullptr) !=
        CL_SUCCESS)
        return false;
    return supported == CL_TRUE;
}

// HISTOSCOPE_MAX_ALLOC_BYTES lowers every device's largest allocation (never raises it): tests and
// measurements make an ordinary image too big for the device that way, so that it runs in tiles.
std::uint64_t allocationLimit(std::uint64_t deviceLimit) {
    const char* env = std::getenv("HISTOSCOPE_MAX_ALLOC_BYTES");
    if (env == nullptr || *env == '\0') return deviceLimit;
    const std::string text(env);
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value == 0)
        throw UsageError("HISTOSCOPE_MAX_ALLOC_BYTES='" + text + "': expected a positive number of bytes");
    return std::min(deviceLimit, value);
}

// Through cl_nv_device_attribute_query; 0 where the device does not have it.
int nvidiaComputeCapability(const DeviceInfo& info, const cl::Device& device) {
    if (!info.hasExtension("cl_nv_device_attribute_query")) return 0;
    cl_uint major = 0, minor = 0;
    if (clGetDeviceInfo(device(), CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV, sizeof major, &major, nullptr) !=
            CL_SUCCESS ||
        clGetDeviceInfo(device(), CL_DEVICE_COMPUTE_CAPABILITY_MINOR_NV, sizeof minor, &minor, nullptr) !=
            CL_SUCCESS)
        return 0;
    return static_cast<int>(10 * major + minor);
}

DeviceInfo describe(const cl::Platform& platform, const cl::Device& device, int platformIndex,
                    int deviceIndex) {
    DeviceInfo info;
    info.platformIndex = platformIndex;
    info.deviceIndex = deviceIndex;
    info.platformName = trimmed(platform.getInfo<CL_PLATFORM_NAME>());
    info.platformVendor = trimmed(platform.getInfo<CL_PLATFORM_VENDOR>());
    info.platformVersion = trimmed(platform.getInfo<CL_PLATFORM_VERSION>());
    info.name = trimmed(device.getInfo<CL_DEVICE_NAME>());
    info.vendor = trimmed(device.getInfo<CL_DEVICE_VENDOR>());
    info.driverVersion = trimmed(device.getInfo<CL_DRIVER_VERSION>());
    info.openclVersion = trimmed(device.getInfo<CL_DEVICE_VERSION>());
    info.openclCVersion = trimmed(device.getInfo<CL_DEVICE_OPENCL_C_VERSION>());
    info.type = typeOf(device.getInfo<CL_DEVICE_TYPE>());
    info.computeUnits = device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
    info.maxClockMHz = device.getInfo<CL_DEVICE_MAX_CLOCK_FREQUENCY>();
    info.globalMemBytes = device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
    info.maxAllocBytes = allocationLimit(device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>());
    info.localMemBytes = device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
    info.constantMemBytes = device.getInfo<CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE>();
    info.maxWorkGroupSize = device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
    info.imageSupport = device.getInfo<CL_DEVICE_IMAGE_SUPPORT>() == CL_TRUE;
    if (info.imageSupport) {
        info.image2dMaxWidth = device.getInfo<CL_DEVICE_IMAGE2D_MAX_WIDTH>();
        info.image2dMaxHeight = device.getInfo<CL_DEVICE_IMAGE2D_MAX_HEIGHT>();
    }
    info.pipeSupport = pipesSupported(device, info.openclVersion);
    info.fp64 = device.getInfo<CL_DEVICE_DOUBLE_FP_CONFIG>() != 0;
    info.profilingResolutionNs = device.getInfo<CL_DEVICE_PROFILING_TIMER_RESOLUTION>();
    info.extensions = splitWords(device.getInfo<CL_DEVICE_EXTENSIONS>());
    info.nvidiaComputeCapability = nvidiaComputeCapability(info, device);
    return info;
}

// A string of decimal digits as an index; nothing when it exceeds int.
std::optional<int> index(const std::string& digits) {
    int value = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (error != std::errc() || end != digits.data() + digits.size()) return std::nullopt;
    return value;
}

// The driver libraries the ICD loader loads: those OCL_ICD_FILENAMES lists (separated by ':'), and each
// vendor file's first line (OCL_ICD_VENDORS, a folder or one file, else /etc/OpenCL/vendors).
std::vector<std::string> icdLibraries() {
    namespace fs = std::filesystem;
    std::vector<std::string> libraries;
    if (const char* named = std::getenv("OCL_ICD_FILENAMES"); named != nullptr) {
        std::istringstream list(named);
        for (std::string library; std::getline(list, library, ':');)
            if (!library.empty()) libraries.push_back(library);
    }
    const char* vendors = std::getenv("OCL_ICD_VENDORS");
    const fs::path where = vendors != nullptr && *vendors != '\0' ? fs::path(vendors) : "/etc/OpenCL/vendors";
    std::vector<fs::path> files;
    std::error_code error;
    if (fs::is_directory(where, error)) {
        for (fs::directory_iterator entry(where, error), end; !error && entry != end; entry.increment(error))
            if (entry->path().extension() == ".icd") files.push_back(entry->path());
    } else {
        files.push_back(where);
    }
    for (const auto& file : files) {
        std::ifstream in(file);
        std::string library;
        if (std::getline(in, library) && !trimmed(library).empty()) libraries.push_back(trimmed(library));
    }
    return libraries;
}

// Why the ICD loader found no platform when the cause is the process's resources, not a missing driver
// (empty otherwise): `loaderError` is errno after the loader's call. The loader drops a driver it cannot
// load without a word, so each driver is loaded again here for the system's reason.
std::string platformLoadProblem(int loaderError) {
    const auto descriptors = [] {
        rlimit limit{};
        const bool known = ::getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY;
        return "out of file descriptors while loading the OpenCL drivers" +
               (known ? " (the limit is " + std::to_string(limit.rlim_cur) + ", ulimit -n)" : std::string());
    };
    if (loaderError == EMFILE || loaderError == ENFILE) return descriptors();
    for (const auto& library : icdLibraries()) {
        errno = 0;
        void* handle = ::dlopen(library.c_str(), RTLD_LAZY | RTLD_LOCAL);
        const int openError = errno;
        if (handle != nullptr) {
            ::dlclose(handle);
            continue;
        }
        const char* text = ::dlerror();
        const std::string reason = text != nullptr ? text : "";
        if (openError == EMFILE || openError == ENFILE ||
            reason.find(std::strerror(EMFILE)) != std::string::npos)
            return descriptors();
        if (openError == ENOMEM || reason.find("failed to map segment") != std::string::npos ||
            reason.find(std::strerror(ENOMEM)) != std::string::npos)
            return "out of memory: the OpenCL driver " + library + " could not be loaded (" + reason + ")";
    }
    return {};
}

std::vector<cl::Platform> platformsOrNone() {
    std::vector<cl::Platform> platforms;
    // The ICD loader reports "no platforms" as an error; for us it is an empty list, unless the process ran
    // out of descriptors or memory, which would otherwise read as a machine without OpenCL.
    cl_uint count = 0;
    errno = 0;
    const cl_int status = clGetPlatformIDs(0, nullptr, &count);
    const int loaderError = errno;
    if (status == CL_OUT_OF_HOST_MEMORY)
        throw OpenClError("clGetPlatformIDs", status, "out of memory while loading the OpenCL drivers");
    if (status != CL_SUCCESS || count == 0) {
        if (const auto problem = platformLoadProblem(loaderError); !problem.empty())
            throw OpenClError("enumerating OpenCL devices", 0, problem);
        return platforms;
    }
    cl::Platform::get(&platforms);
    return platforms;
}

}  // namespace

std::string_view deviceTypeName(DeviceType type) {
    switch (type) {
        case DeviceType::Cpu:
            return "CPU";
        case DeviceType::Gpu:
            return "GPU";
        case DeviceType::Accelerator:
            return "accelerator";
        case DeviceType::Other:
            break;
    }
    return "other";
}

std::string DeviceInfo::selector() const {
    return std::to_string(platformIndex) + ":" + std::to_string(deviceIndex);
}

bool DeviceInfo::hasExtension(std::string_view extension) const {
    return std::find(extensions.begin(), extensions.end(), extension) != extensions.end();
}

int DeviceInfo::openclCVersionNumber() const {
    // "OpenCL C 1.2 ..." -> 120
    const auto pos = openclCVersion.find_first_of("0123456789");
    if (pos == std::string::npos) return 0;
    const int major = openclCVersion[pos] - '0';
    int minor = 0;
    if (pos + 2 < openclCVersion.size() && openclCVersion[pos + 1] == '.')
        minor = openclCVersion[pos + 2] - '0';
    return major * 100 + minor * 10;
}

std::vector<DeviceInfo> enumerateDevices() {
    return withClErrors("enumerating OpenCL devices", [] {
        std::vector<DeviceInfo> devices;
        const auto platforms = platformsOrNone();
        for (std::size_t p = 0; p < platforms.size(); ++p) {
            std::vector<cl::Device> platformDevices;
            cl_uint count = 0;
            if (clGetDeviceIDs(platforms[p](), CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS ||
                count == 0)
                continue;
            platforms[p].getDevices(CL_DEVICE_TYPE_ALL, &platformDevices);
            for (std::size_t d = 0; d < platformDevices.size(); ++d)
                devices.push_back(
                    describe(platforms[p], platformDevices[d], static_cast<int>(p), static_cast<int>(d)));
        }
        return devices;
    });
}

const DeviceInfo& selectDevice(const std::vector<DeviceInfo>& devices, std::string_view selector) {
    std::string wanted(selector);
    // How a failure names the selector, so that a stale variable is recognised as the culprit.
    std::string named = "device '" + wanted + "'";
    if (wanted.empty()) {
        if (const char* env = std::getenv("HISTOSCOPE_DEVICE"); env && *env) {
            wanted = env;
            named = "HISTOSCOPE_DEVICE='" + wanted + "'";
        }
    }
    if (devices.empty()) {
        throw OpenClError("selecting a device", 0,
                          "no OpenCL device found (is an ICD such as pocl-opencl-icd installed?)");
    }
    if (wanted.empty()) {
        for (const auto& device : devices) {
            if (device.type == DeviceType::Gpu) return device;
        }
        return devices.front();
    }
    if (const auto colon = wanted.find(':'); colon != std::string::npos) {
        const std::string platformPart = wanted.substr(0, colon);
        const std::string devicePart = wanted.substr(colon + 1);
        const bool numeric = !platformPart.empty() && !devicePart.empty() &&
                             std::all_of(platformPart.begin(), platformPart.end(), ::isdigit) &&
                             std::all_of(devicePart.begin(), devicePart.end(), ::isdigit);
        if (numeric) {
            // Indices of any length are digits all the same: one too large for an int names no device.
            const auto p = index(platformPart);
            const auto d = index(devicePart);
            for (const auto& device : devices) {
                if (p && d && device.platformIndex == *p && device.deviceIndex == *d) return device;
            }
            throw OpenClError("selecting a device", 0,
                              named + ": no device matches: no such platform:device (" +
                                  std::to_string(devices.size()) +
                                  " device(s); see 'histoscope-cli devices')");
        }
    }
    const std::string needle = lowercase(wanted);
    for (const auto& device : devices) {
        if (lowercase(device.name).find(needle) != std::string::npos) return device;
    }
    throw OpenClError(
        "selecting a device", 0,
        named + ": no device matches: no device name contains it (see 'histoscope-cli devices')");
}

}  // namespace hs
