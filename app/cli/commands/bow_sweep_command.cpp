// histoscope-cli bow-sweep [--device SEL] [--descriptors LIST] [--centroids LIST] [--strategy LIST]
//                          [--repeat N] [--json]
// The book's table (ops/bow/sweep.hpp): synthetic descriptors x centroids x builder strategies, kernel time
// min / median / max, the transpose apart, speed-up over bow-gpu1-baseline, each result checked.

#include <algorithm>

#include "cli/commands/option_groups.hpp"
#include "cli/commands/work_bounds.hpp"
#include "io/bow_export.hpp"
#include "ops/bow/sweep.hpp"
#include "runtime/runtime.hpp"

namespace hs::cli {

namespace {

QString joined(const std::vector<std::size_t>& counts) {
    QStringList parts;
    for (const auto count : counts) parts += QString::number(count);
    return parts.join(',');
}

std::vector<std::size_t> counts(const ArgumentParser& parser, const QString& name) {
    std::vector<std::size_t> values;
    for (const QString& part : parser.value(name).split(',')) {
        bool ok = false;
        const qulonglong value = part.trimmed().toULongLong(&ok);
        if (!ok)
            throw parser.usageError("--" + name + " takes counts separated by commas, not '" + part + "'");
        values.push_back(static_cast<std::size_t>(value));
    }
    return values;
}

QString table(const DeviceInfo& device, const std::vector<bow::SweepRow>& rows) {
    QString out = "device    " + text(device.name) + "\n\n";
    out += QString("%1 %2 %3 %4 %5 %6 %7 %8  %9\n")
               .arg("descriptors", 11)
               .arg("k", 5)
               .arg("strategy", -20)
               .arg("min", 11)
               .arg("median", 11)
               .arg("max", 11)
               .arg("transpose", 11)
               .arg("vs GPU1", 8)
               .arg("detail");
    const auto ms = [](const std::optional<measure::Summary>& summary, double measure::Summary::*figure) {
        return summary ? milliseconds((*summary).*figure) : QString("-");
    };
    for (const auto& row : rows) {
        out += QString("%1 %2 %3 %4 %5 %6 %7 %8  %9\n")
                   .arg(row.descriptors, 11)
                   .arg(row.centroids, 5)
                   .arg(text(row.strategy), -20)
                   .arg(ms(row.kernel, &measure::Summary::min), 11)
                   .arg(ms(row.kernel, &measure::Summary::median), 11)
                   .arg(ms(row.kernel, &measure::Summary::max), 11)
                   .arg(ms(row.transpose, &measure::Summary::median), 11)
                   .arg(row.speedupOverGpu1 ? QString::number(*row.speedupOverGpu1, 'f', 2) + "x" : "-", 8)
                   .arg(text(row.detail));
    }
    return out;
}

// The sweep's memory (its largest descriptors and centroids, each with a transposed copy, and the
// memberships) and time (every row's warm-up and repetitions, each a multiply-add per dimension of every
// descriptor and centroid), estimated before any row runs.
WorkEstimate estimate(const bow::SweepParams& params, const DeviceInfo& device) {
    std::vector<const bow::Strategy*> strategies;
    for (const auto& name : params.strategies) strategies.push_back(&bow::findStrategy(name));
    if (params.strategies.empty()) strategies = bow::strategies();
    WorkEstimate work;
    for (const double descriptors : params.descriptorCounts) {
        for (const double centroids : params.centroidCounts) {
            const double matrices = 2 * (descriptors + centroids) * bow::kDimensions * sizeof(float);
            work.bytes = std::max(work.bytes, matrices + descriptors * sizeof(std::uint32_t));
            const double multiplyAdds = descriptors * centroids * bow::kDimensions * (params.repetitions + 1);
            for (const auto* strategy : strategies)
                work.seconds +=
                    multiplyAdds / multiplyAddsPerSecond(strategy->runsOnDevice() ? &device : nullptr);
        }
    }
    return work;
}

QString request(const bow::SweepParams& params) {
    return QString("the sweep of up to %1 descriptors x %2 centroids, %3 run(s) a row")
        .arg(*std::max_element(params.descriptorCounts.begin(), params.descriptorCounts.end()))
        .arg(*std::max_element(params.centroidCounts.begin(), params.centroidCounts.end()))
        .arg(params.repetitions + 1);
}

void declare(ArgumentParser& parser, const QStringList&) {
    const bow::SweepParams defaults;
    addDeviceOption(parser);
    parser.addOption("descriptors", "LIST", "Descriptor counts, separated by commas.",
                     joined(defaults.descriptorCounts));
    parser.addOption("centroids", "LIST", "Centroid counts, separated by commas.",
                     joined(defaults.centroidCounts));
    parser.addOption("strategy", "LIST", "Builder strategies, separated by commas (all when not given).");
    parser.addOption("repeat", "N", "Timed repetitions per row, after one untimed warm-up.",
                     QString::number(defaults.repetitions));
    addForceOption(parser);
    addReportOptions(parser, "device, repetitions, rows");
}

int run(const ArgumentParser& parser) {
    bow::SweepParams params;
    params.descriptorCounts = counts(parser, "descriptors");
    params.centroidCounts = counts(parser, "centroids");
    params.repetitions = parser.integer("repeat", 1, 1'000'000);
    if (parser.isSet("strategy")) {
        for (const QString& name : parser.value("strategy").split(','))
            params.strategies.push_back(name.trimmed().toStdString());
    }
    for (const auto& name : params.strategies) bow::findStrategy(name);  // unknown names before the device

    const Report report = reportFrom(parser);

    Runtime runtime;
    DeviceContext& device = runtime.open(deviceFrom(parser));
    refuseUnlessItFits(parser, request(params), estimate(params, device.info()));
    const auto rows = bow::sweep(&device, params);
    report.publish([&](JsonWriter& json) { io::writeSweepJson(json, &device.info(), params, rows); },
                   [&] { return table(device.info(), rows); });
    return 0;
}

[[maybe_unused]] const bool registered = registerCommand(
    {"bow-sweep", "time the visual-word builders on synthetic descriptors",
     "Times every visual-word builder on synthetic descriptors (the book's table).", declare, run});

}  // namespace

}  // namespace hs::cli
