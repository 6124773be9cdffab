// histoscope-cli devices [--json]: every OpenCL device with every property of the schema
// (runtime/device_properties.hpp).
#include <algorithm>

#include "cli/commands/option_groups.hpp"
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

void declare(ArgumentParser& parser, const QStringList&) {
    addReportOptions(parser, "{\"devices\": [...]}");
}

int run(const ArgumentParser& parser) {
    const Report report = reportFrom(parser);
    const auto devices = enumerateDevices();
    report.publish(
        [&](JsonWriter& json) {
            json.beginObject().key("devices").beginArray();
            for (const auto& device : devices) writeDeviceJson(json, device);
            json.endArray().endObject();
        },
        [&] {
            if (devices.empty())
                return QString("no OpenCL device found (is an ICD such as pocl-opencl-icd installed?)\n");
            QStringList blocks;
            for (const auto& device : devices) blocks += describe(device);
            return blocks.join('\n');
        });
    return 0;
}

[[maybe_unused]] const bool registered =
    registerCommand({"devices", "list the OpenCL devices and their capabilities",
                     "Lists every OpenCL device of every platform.", declare, run});

}  // namespace

}  // namespace hs::cli
