// histoscope-cli devices [--json]: every OpenCL device with every property of the schema
// (runtime/device_properties.hpp).
#include <algorithm>

#include "commands/command.hpp"
#include "runtime/device_properties.hpp"

namespace hs::cli {

namespace {

// "0:1  <name>", then one "label:  value" line per property of the schema.
QString describe(const DeviceInfo& device) {
    int labelWidth = 0;
    for (const auto& property : deviceProperties())
        labelWidth = std::max(labelWidth, static_cast<int>(property.label.size()) + 1);
    QString block = text(device.selector()) + "  " + text(device.name) + "\n";
    for (const auto& property : deviceProperties())
        block += QString("    %1  %2\n")
                     .arg(text(property.label) + ":", -labelWidth)
                     .arg(text(displayValue(property, device)));
    return block;
}

int run(const QStringList& arguments) {
    ArgumentParser parser("devices", "Lists every OpenCL device of every platform.");
    parser.addFlag("json", "Print one JSON object {\"devices\": [...]}.");
    if (!parser.parse(arguments)) return 0;

    const auto devices = enumerateDevices();
    if (parser.isSet("json")) {
        printJson([&](JsonWriter& json) {
            json.beginObject().key("devices").beginArray();
            for (const auto& device : devices) writeDeviceJson(json, device);
            json.endArray().endObject();
        });
        return 0;
    }
    if (devices.empty()) printText("no OpenCL device found (is an ICD such as pocl-opencl-icd installed?)\n");
    QStringList blocks;
    for (const auto& device : devices) blocks += describe(device);
    printText(blocks.join('\n'));
    return 0;
}

[[maybe_unused]] const bool registered =
    registerCommand({"devices", "[--json]", "list the OpenCL devices and their capabilities", run});

}  // namespace

}  // namespace hs::cli
