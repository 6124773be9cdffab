// histoscope-cli devices [--json]: every OpenCL device with every DeviceInfo field.
#include <QJsonArray>

#include "commands/command.hpp"
#include "io/export.hpp"
#include "runtime/device_info.hpp"

namespace hs::cli {

namespace {

QString yesNo(bool value) {
    return value ? "yes" : "no";
}
QString mebibytes(std::uint64_t bytes) {
    return QString("%1 MiB").arg(static_cast<double>(bytes) / (1 << 20), 0, 'f', 1);
}

QString describe(const DeviceInfo& device) {
    QStringList extensions;
    for (const auto& extension : device.extensions) extensions += text(extension);
    const std::vector<std::pair<QString, QString>> rows{
        {"platform", text(device.platformName) + " (" + text(device.platformVendor) + ")"},
        {"platform version", text(device.platformVersion)},
        {"vendor", text(device.vendor)},
        {"type", text(deviceTypeName(device.type))},
        {"driver", text(device.driverVersion)},
        {"OpenCL", text(device.openclVersion)},
        {"OpenCL C", text(device.openclCVersion)},
        {"compute units", QString::number(device.computeUnits)},
        {"max clock", QString("%1 MHz").arg(device.maxClockMHz)},
        {"global memory", mebibytes(device.globalMemBytes)},
        {"max allocation", mebibytes(device.maxAllocBytes)},
        {"local memory", QString("%1 KiB").arg(device.localMemBytes / 1024)},
        {"constant memory", QString("%1 KiB").arg(device.constantMemBytes / 1024)},
        {"max work-group size", QString::number(device.maxWorkGroupSize)},
        {"images",
         device.imageSupport
             ? QString("yes, 2-D up to %1x%2").arg(device.image2dMaxWidth).arg(device.image2dMaxHeight)
             : QString("no")},
        {"pipes", yesNo(device.pipeSupport)},
        {"fp64", yesNo(device.fp64)},
        {"GL sharing", yesNo(device.hasExtension("cl_khr_gl_sharing"))},
        {"timer resolution", QString("%1 ns").arg(device.profilingResolutionNs)},
        {"extensions", extensions.join(' ')},
    };
    QString block = text(device.selector()) + "  " + text(device.name) + "\n";
    for (const auto& [label, value] : rows) block += QString("    %1  %2\n").arg(label + ":", -21).arg(value);
    return block;
}

int run(const QStringList& arguments) {
    ArgumentParser parser("devices", "Lists every OpenCL device of every platform.");
    parser.addFlag("json", "Print one JSON object {\"devices\": [...]}.");
    if (!parser.parse(arguments)) return 0;

    const auto devices = enumerateDevices();
    if (parser.isSet("json")) {
        QJsonArray list;
        for (const auto& device : devices) list.append(io::deviceJson(device));
        printJson(QJsonObject{{"devices", list}});
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
