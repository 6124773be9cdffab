// Device selectors as typed on a command line or in HISTOSCOPE_DEVICE: a device of the list or one
// OpenClError, against a fixed list of three devices (no OpenCL needed).
#include <cstdint>
#include <cstdlib>
#include <string>

#include "engine/runtime/device_info.hpp"
#include "engine/runtime/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    static const std::vector<hs::DeviceInfo> devices = [] {
        std::vector<hs::DeviceInfo> list(3);
        list[0].name = "pthread-cpu";
        list[1].name = "Fancy GPU 9000";
        list[1].type = hs::DeviceType::Gpu;
        list[2].platformIndex = 1;
        list[2].name = "accelerator card";
        return list;
    }();
    const std::string selector(reinterpret_cast<const char*>(data), size);
    if (selector.empty()) return 0;  // the default reads HISTOSCOPE_DEVICE, not the input
    try {
        const hs::DeviceInfo& chosen = hs::selectDevice(devices, selector);
        if (&chosen < devices.data() || &chosen >= devices.data() + devices.size()) std::abort();
    } catch (const hs::OpenClError&) {
    }
    return 0;
}
