#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hs {

enum class DeviceType { Cpu, Gpu, Accelerator, Other };

std::string_view deviceTypeName(DeviceType type);

// Everything the UI and the strategies need to know about one OpenCL device, as a plain value.
struct DeviceInfo {
    int platformIndex = 0;
    int deviceIndex = 0;  // within its platform

    std::string platformName;
    std::string platformVendor;
    std::string platformVersion;

    std::string name;
    std::string vendor;
    std::string driverVersion;
    std::string openclVersion;   // CL_DEVICE_VERSION, e.g. "OpenCL 3.0 CUDA"
    std::string openclCVersion;  // CL_DEVICE_OPENCL_C_VERSION, e.g. "OpenCL C 1.2"
    DeviceType type = DeviceType::Other;

    std::uint32_t computeUnits = 0;
    std::uint32_t maxClockMHz = 0;
    std::uint64_t globalMemBytes = 0;
    std::uint64_t maxAllocBytes = 0;
    std::uint64_t localMemBytes = 0;
    std::uint64_t constantMemBytes = 0;
    std::size_t maxWorkGroupSize = 0;

    bool imageSupport = false;
    std::size_t image2dMaxWidth = 0;
    std::size_t image2dMaxHeight = 0;
    bool pipeSupport = false;
    bool fp64 = false;
    std::size_t profilingResolutionNs = 0;
    std::vector<std::string> extensions;
    // NVIDIA's compute capability as 10 * major + minor (90 for an H100), from cl_nv_device_attribute_query;
    // 0 on other devices.
    int nvidiaComputeCapability = 0;

    // "P:D", the stable selector of this device.
    std::string selector() const;
    bool hasExtension(std::string_view extension) const;
    // The OpenCL C version as 100 * major + 10 * minor (120 for "OpenCL C 1.2").
    int openclCVersionNumber() const;
};

// Every device of every platform, in platform then device order. An empty list when there is no
// OpenCL platform at all (that is not an error here; selecting a device from it is).
std::vector<DeviceInfo> enumerateDevices();

// Resolves a selector: "P:D" indices, or a case-insensitive substring of the device name. An empty
// selector means the default: $HISTOSCOPE_DEVICE if set, else the first GPU, else the first device.
// Throws OpenClError naming the selector when nothing matches.
const DeviceInfo& selectDevice(const std::vector<DeviceInfo>& devices, std::string_view selector);

}  // namespace hs
