// histoscope-cli strategies [--json] [--device SEL] [--bins N] [--centroids K]: the histogram, scope and
// visual-words strategies and whether each runs on the device (the contract's supportOn, ops/operation.hpp).

#include "cli/commands/option_groups.hpp"
#include "engine/ops/bow/bow.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/scope/scope.hpp"
#include "engine/runtime/device_properties.hpp"

namespace hs::cli {

namespace {

QString tableRows(const std::vector<StrategySupport>& rows) {
    QString table;
    for (const auto& [strategy, support] : rows) {
        table +=
            QString("  %1 %2 %3  %4\n")
                .arg(text(strategy->name()), -19)
                .arg(strategy->runsOnDevice() ? "device" : "host", -7)
                .arg(support.ok ? "yes" : "no", -4)
                .arg(support.ok ? text(strategy->description()) : "unsupported: " + text(support.reason));
        // What histoscope-cli sweep --tune may set.
        for (const auto& tunable : strategy->tunables())
            table += QString("  %1 tunable %2 %3..%4%5: %6\n")
                         .arg("", -27)
                         .arg(text(tunable.name))
                         .arg(tunable.min)
                         .arg(tunable.max)
                         .arg(tunable.powerOfTwo ? ", a power of two" : "")
                         .arg(text(tunable.help));
    }
    return table;
}

void writeRows(JsonWriter& json, const std::vector<StrategySupport>& rows) {
    json.beginArray();
    for (const auto& [strategy, support] : rows) {
        json.beginObject().field("name", strategy->name());
        json.field("description", strategy->description());
        json.field("runs_on", strategy->runsOnDevice() ? "device" : "host");
        json.field("supported", support.ok).field("reason", support.reason);
        json.key("tunables").beginArray();
        for (const auto& tunable : strategy->tunables()) {
            json.beginObject().field("name", tunable.name).field("help", tunable.help);
            json.field("min", tunable.min)
                .field("max", tunable.max)
                .field("power_of_two", tunable.powerOfTwo);
            json.endObject();
        }
        json.endArray().endObject();
    }
    json.endArray();
}

void declare(ArgumentParser& parser, const QStringList&) {
    addDeviceOption(parser);
    parser.addOption(options::kBins);
    parser.addOption("centroids", "K", "Vocabulary size the visual-words strategies are asked about.", "256");
    addReportOptions(parser, "the device, every strategy with its support");
}

int run(const ArgumentParser& parser) {
    const histogram::Params params{
        parser.withCommand([&] { return options::parseBins(parser.value(options::kBins).toStdString()); })};
    const auto centroidCount = static_cast<std::size_t>(parser.integer("centroids", 1, 1 << 20));
    const Report report = reportFrom(parser);

    const auto devices = enumerateDevices();
    // Without any OpenCL device the host strategies still run; asking for a device that is missing is an
    // error.
    const DeviceInfo* device = devices.empty() && !parser.isSet(options::kDevice)
                                   ? nullptr
                                   : &selectDevice(devices, deviceFrom(parser));

    const auto histogramRows = supportList<histogram::Operation>(device, {}, params);
    const auto scopeRows = supportList<scope::Operation>(device, {}, scope::Params{});
    // Support depends on the vocabulary's size only, not on its values or on the number of descriptors.
    const bow::Matrix vocabulary(std::vector<float>(centroidCount * bow::kDimensions));
    const auto bowRows = supportList<bow::Operation>(device, {0, centroidCount}, vocabulary);
    report.publish(
        [&](JsonWriter& json) {
            json.beginObject().key("device");
            if (device)
                writeDeviceJson(json, *device);
            else
                json.null();
            json.field("bins", params.bins).key("strategies");
            writeRows(json, histogramRows);
            json.key("scope").beginObject().key("strategies");
            writeRows(json, scopeRows);
            json.endObject();
            json.key("bow").beginObject().field("centroids", static_cast<std::uint64_t>(centroidCount));
            json.key("strategies");
            writeRows(json, bowRows);
            json.endObject().endObject();
        },
        [&] {
            return (device ? "device " + text(device->selector()) + "  " + text(device->name) + "\n"
                           : QString("no OpenCL device: only host strategies can run\n")) +
                   QString("histogram, %1 bins\n").arg(params.bins) + tableRows(histogramRows) +
                   "scope (waveform, parade, vectorscope)\n" + tableRows(scopeRows) +
                   QString("visual words (bow), %1 centroids\n").arg(centroidCount) + tableRows(bowRows);
        });
    return 0;
}

[[maybe_unused]] const bool registered = registerCommand(
    {"strategies", "list the histogram, scope and visual-words strategies and their support",
     "Lists the histogram, scope and visual-words strategies and whether each runs on the device.", declare,
     run});

}  // namespace

}  // namespace hs::cli
