#include "engine/runtime/device_properties.hpp"

#include <cstdio>
#include <iterator>
#include <type_traits>

#include "engine/util/json_writer.hpp"

namespace hs {

namespace {

using Kind = DeviceProperty::Kind;

DevicePropertyValue count(std::uint64_t value) {
    return value;
}

}  // namespace

const std::vector<DeviceProperty>& deviceProperties() {
    static const std::vector<DeviceProperty> properties{
        {"selector", "Selector", Kind::Text, "",
         [](const DeviceInfo& d) -> DevicePropertyValue { return d.selector(); }},
        {"name", "Device", Kind::Text, "", [](const DeviceInfo& d) -> DevicePropertyValue { return d.name; }},
        {"type", "Type", Kind::Text, "",
         [](const DeviceInfo& d) -> DevicePropertyValue { return std::string(deviceTypeName(d.type)); }},
        {"vendor", "Vendor", Kind::Text, "",
         [](const DeviceInfo& d) -> DevicePropertyValue { return d.vendor; }},
        {"driver", "Driver version", Kind::Text, "",
         [](const DeviceInfo& d) -> DevicePropertyValue { return d.driverVersion; }},
        {"opencl", "OpenCL version", Kind::Text, "",
         [](const DeviceInfo& d) -> DevicePropertyValue { return d.openclVersion; }},
        {"opencl_c", "OpenCL C version", Kind::Text, "",
         [](const DeviceInfo& d) -> DevicePropertyValue { return d.openclCVersion; }},
        {"platform", "Platform", Kind::Text, "",
         [](const DeviceInfo& d) -> DevicePropertyValue { return d.platformName; }},
        {"platform_vendor", "Platform vendor", Kind::Text, "",
         [](const DeviceInfo& d) -> DevicePropertyValue { return d.platformVendor; }},
        {"platform_version", "Platform version", Kind::Text, "",
         [](const DeviceInfo& d) -> DevicePropertyValue { return d.platformVersion; }},
        {"platform_index", "Platform index", Kind::Number, "",
         [](const DeviceInfo& d) { return count(static_cast<std::uint64_t>(d.platformIndex)); }},
        {"device_index", "Device index", Kind::Number, "",
         [](const DeviceInfo& d) { return count(static_cast<std::uint64_t>(d.deviceIndex)); }},
        {"compute_units", "Compute units", Kind::Number, "",
         [](const DeviceInfo& d) { return count(d.computeUnits); }},
        {"max_clock_mhz", "Max clock", Kind::Number, "MHz",
         [](const DeviceInfo& d) { return count(d.maxClockMHz); }},
        {"global_mem_bytes", "Global memory", Kind::Bytes, "",
         [](const DeviceInfo& d) { return count(d.globalMemBytes); }},
        {"max_alloc_bytes", "Max allocation", Kind::Bytes, "",
         [](const DeviceInfo& d) { return count(d.maxAllocBytes); }},
        {"local_mem_bytes", "Local memory", Kind::Bytes, "",
         [](const DeviceInfo& d) { return count(d.localMemBytes); }},
        {"constant_mem_bytes", "Constant memory", Kind::Bytes, "",
         [](const DeviceInfo& d) { return count(d.constantMemBytes); }},
        {"max_work_group_size", "Max work-group size", Kind::Number, "",
         [](const DeviceInfo& d) { return count(d.maxWorkGroupSize); }},
        {"image_support", "Image support", Kind::Flag, "",
         [](const DeviceInfo& d) -> DevicePropertyValue { return d.imageSupport; }},
        {"image2d_max_width", "Max 2D image width", Kind::Number, "px",
         [](const DeviceInfo& d) { return count(d.image2dMaxWidth); }},
        {"image2d_max_height", "Max 2D image height", Kind::Number, "px",
         [](const DeviceInfo& d) { return count(d.image2dMaxHeight); }},
        {"pipe_support", "Pipes", Kind::Flag, "",
         [](const DeviceInfo& d) -> DevicePropertyValue { return d.pipeSupport; }},
        {"fp64", "Double precision", Kind::Flag, "",
         [](const DeviceInfo& d) -> DevicePropertyValue { return d.fp64; }},
        {"gl_sharing", "GL sharing", Kind::Flag, "",
         [](const DeviceInfo& d) -> DevicePropertyValue { return d.hasExtension("cl_khr_gl_sharing"); }},
        {"profiling_resolution_ns", "Profiling resolution", Kind::Number, "ns",
         [](const DeviceInfo& d) { return count(d.profilingResolutionNs); }},
        {"extensions", "Extensions", Kind::List, "",
         [](const DeviceInfo& d) -> DevicePropertyValue { return d.extensions; }},
    };
    return properties;
}

std::string binarySize(std::uint64_t bytes) {
    static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (bytes < 1024) return std::to_string(bytes).append(" bytes");
    double value = static_cast<double>(bytes) / 1024;
    std::size_t unit = 0;
    while (value >= 1024 && unit + 1 < std::size(kUnits)) {
        value /= 1024;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.1f", value);
    std::string number = text;
    if (number.ends_with(".0")) number.resize(number.size() - 2);
    return number.append(" ").append(kUnits[unit]);
}

std::string displayValue(const DeviceProperty& property, const DeviceInfo& device,
                         std::string_view listSeparator) {
    const DevicePropertyValue value = property.read(device);
    switch (property.kind) {
        case Kind::Text:
            return std::get<std::string>(value);
        case Kind::Number: {
            std::string text = std::to_string(std::get<std::uint64_t>(value));
            if (!property.unit.empty()) text.append(" ").append(property.unit);
            return text;
        }
        case Kind::Bytes:
            return binarySize(std::get<std::uint64_t>(value));
        case Kind::Flag:
            return std::get<bool>(value) ? "yes" : "no";
        case Kind::List: {
            std::string text;
            for (const auto& word : std::get<std::vector<std::string>>(value)) {
                if (!text.empty()) text += listSeparator;
                text += word;
            }
            return text;
        }
    }
    return {};
}

void writeDeviceJson(JsonWriter& json, const DeviceInfo& device) {
    json.beginObject();
    writeDeviceMembers(json, device);
    json.endObject();
}

void writeDeviceMembers(JsonWriter& json, const DeviceInfo& device) {
    for (const auto& property : deviceProperties()) {
        json.key(property.key);
        std::visit(
            [&](const auto& value) {
                using Value = std::decay_t<decltype(value)>;
                if constexpr (std::is_same_v<Value, std::vector<std::string>>) {
                    json.beginArray();
                    for (const auto& word : value) json.value(word);
                    json.endArray();
                } else {
                    json.value(value);
                }
            },
            property.read(device));
    }
}

}  // namespace hs
