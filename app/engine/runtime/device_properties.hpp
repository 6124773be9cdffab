#pragma once
// The one description of a device's properties that every front end renders: the device panel,
// `histoscope-cli devices` (text and --json), the "device" object of the CLI's JSON and of the exports, and
// the bench's JSON. A property added here appears in all of them.

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/runtime/device_info.hpp"

namespace hs {

class JsonWriter;

// A property's value as read from a DeviceInfo: text, a whole number, a flag or a list of words.
using DevicePropertyValue = std::variant<std::string, std::uint64_t, bool, std::vector<std::string>>;

struct DeviceProperty {
    // How the value reads for people; JSON writes the plain value whatever the kind.
    enum class Kind {
        Text,    // as it is
        Number,  // the number and its unit: "1980 MHz"
        Bytes,   // in binary units: "48 KiB", "79.1 GiB"
        Flag,    // yes / no
        List,    // the words, joined
    };

    std::string_view key;    // the JSON key
    std::string_view label;  // for people
    Kind kind;
    std::string_view unit;  // of a Number, for people ("MHz", "ns", "px"); empty: a plain count
    DevicePropertyValue (*read)(const DeviceInfo& device);
};

// Every property, in the order a person reads them: what the device is, where it sits, what it has, what it
// can do. JSON objects list their keys in this order.
const std::vector<DeviceProperty>& deviceProperties();

// The value for people: "1980 MHz", "48 KiB", "yes"; a list's words joined by `listSeparator`.
std::string displayValue(const DeviceProperty& property, const DeviceInfo& device,
                         std::string_view listSeparator = " ");
// "512 bytes", "48 KiB", "79.1 GiB": binary units, one decimal where the value is not whole.
std::string binarySize(std::uint64_t bytes);

// {"selector": ..., "name": ..., ...}: one object with every property, keys in the schema's order.
void writeDeviceJson(JsonWriter& json, const DeviceInfo& device);
// The same members inside an object the caller opened, for a front end that adds its own.
void writeDeviceMembers(JsonWriter& json, const DeviceInfo& device);

}  // namespace hs
