// histoscope-cli strategies [--json] [--device SEL] [--bins N]: the histogram strategies and whether each
// runs on the device.
#include <QJsonArray>

#include "commands/command.hpp"
#include "io/export.hpp"
#include "ops/histogram/histogram.hpp"
#include "runtime/device_info.hpp"

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
    const DeviceInfo* device = devices.empty() && !parser.isSet("device")
                                   ? nullptr
                                   : &selectDevice(devices, parser.value("device").toStdString());

    QJsonArray list;
    QString table = device ? "device " + text(device->selector()) + "  " + text(device->name) + "\n"
                           : QString("no OpenCL device: only host strategies can run\n");
    for (const auto* strategy : histogram::strategies()) {
        const auto support = device || !strategy->runsOnDevice() ? strategy->supported(device, {}, params)
                                                                 : Support::no("no OpenCL device");
        list.append(QJsonObject{{"name", text(strategy->name())},
                                {"description", text(strategy->description())},
                                {"runs_on", strategy->runsOnDevice() ? "device" : "host"},
                                {"supported", support.ok},
                                {"reason", text(support.reason)}});
        table +=
            QString("  %1 %2 %3  %4\n")
                .arg(text(strategy->name()), -16)
                .arg(strategy->runsOnDevice() ? "device" : "host", -7)
                .arg(support.ok ? "yes" : "no", -4)
                .arg(support.ok ? text(strategy->description()) : "unsupported: " + text(support.reason));
    }
    if (parser.isSet("json")) {
        printJson(QJsonObject{{"device", device ? QJsonValue(io::deviceJson(*device)) : QJsonValue()},
                              {"bins", params.bins},
                              {"strategies", list}});
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
