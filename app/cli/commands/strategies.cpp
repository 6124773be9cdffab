// histoscope-cli strategies [--json] [--device SEL] [--bins N]: the histogram strategies and whether each
// runs on the device.

#include "commands/command.hpp"
#include "ops/histogram/histogram.hpp"
#include "runtime/device_properties.hpp"

namespace hs::cli {

namespace {

int run(const QStringList& arguments) {
    ArgumentParser parser("strategies",
                          "Lists the histogram strategies and whether each runs on the device.");
    parser.addFlag("json", "Print one JSON object.");
    parser.addDeviceOption();
    parser.addOption(options::kBins);
    if (!parser.parse(arguments)) return 0;
    const histogram::Params params{parser.bins()};

    const auto devices = enumerateDevices();
    // Without any OpenCL device the host strategies still run; asking for a device that is missing is an
    // error.
    const DeviceInfo* device = devices.empty() && !parser.isSet(options::kDevice)
                                   ? nullptr
                                   : &selectDevice(devices, parser.value(options::kDevice).toStdString());

    std::vector<Support> supports;
    QString table = device ? "device " + text(device->selector()) + "  " + text(device->name) + "\n"
                           : QString("no OpenCL device: only host strategies can run\n");
    for (const auto* strategy : histogram::strategies()) {
        const auto support = device || !strategy->runsOnDevice() ? strategy->supported(device, {}, params)
                                                                 : Support::no("no OpenCL device");
        supports.push_back(support);
        table +=
            QString("  %1 %2 %3  %4\n")
                .arg(text(strategy->name()), -16)
                .arg(strategy->runsOnDevice() ? "device" : "host", -7)
                .arg(support.ok ? "yes" : "no", -4)
                .arg(support.ok ? text(strategy->description()) : "unsupported: " + text(support.reason));
    }
    if (parser.isSet("json")) {
        printJson([&](JsonWriter& json) {
            json.beginObject().key("device");
            if (device)
                writeDeviceJson(json, *device);
            else
                json.null();
            json.field("bins", params.bins).key("strategies").beginArray();
            const auto& registry = histogram::strategies();
            for (std::size_t i = 0; i < registry.size(); ++i) {
                json.beginObject().field("name", registry[i]->name());
                json.field("description", registry[i]->description());
                json.field("runs_on", registry[i]->runsOnDevice() ? "device" : "host");
                json.field("supported", supports[i].ok).field("reason", supports[i].reason).endObject();
            }
            json.endArray().endObject();
        });
    } else {
        printText(table);
    }
    return 0;
}

[[maybe_unused]] const bool registered =
    registerCommand({"strategies", "[--json] [--device SEL] [--bins N]",
                     "list the histogram strategies and their support", run});

}  // namespace

}  // namespace hs::cli
