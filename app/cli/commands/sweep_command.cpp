// histoscope-cli sweep IMAGE [--stage histogram --strategy NAME | --kernel FILE.cl [--param ...]]
//                          --tune NAME=V1,V2,... [--tune ...] [--repeat N] [--store] [--json|--csv]
// Every combination of the tunables' values (lab/sweep.hpp), each measured through Session::measure (one
// untimed run, then N timed ones: the kernel time, min / median / max); the fastest median is the best, and
// --store keeps it for the device (ops/tuning.hpp), so that the strategy, `auto`'s trial and choice included,
// runs with it from then on. A histogram strategy's tunables are the -D values it declares (WG, COPIES, ...);
// a user kernel's are `group` (its work-group size) and its @params.
#include <QFile>
#include <QJsonValue>
#include <limits>
#include <memory>

#include "cli/commands/option_groups.hpp"
#include "engine/lab/sweep.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/tuning.hpp"
#include "engine/runtime/device_properties.hpp"
#include "io/image_io.hpp"
#include "io/native_path.hpp"
#include "session/session.hpp"

namespace hs::cli {

namespace {

struct Row {
    lab::Point point;
    std::optional<measure::Summary> ns;  // none: the point failed
    double gbps = 0;
    std::string builds;  // the measured stage's build options; or why the point failed
};

void declare(ArgumentParser& parser, const QStringList&) {
    addImageInput(parser);
    addDeviceOption(parser);
    parser.addOption("stage", "KIND", "What to sweep: histogram, or kernel (implied by --kernel).",
                     "histogram");
    parser.addOption("strategy", "NAME", "The histogram strategy whose tunables are swept.", "local-atomic");
    addStageOptions(parser, stages::findKind("kernel"), {});
    parser.addOption("tune", "NAME=V1,V2,...",
                     "A tunable and its values (repeatable; every combination runs): a strategy's -D values "
                     "(histoscope-cli strategies names them), or a user kernel's group and @params.");
    parser.require("tune");
    parser.addOption("repeat", "N", "Timed runs per point, after one untimed.", "5");
    parser.addFlag("store",
                   "Keep the best point for this device: the strategy (and auto) then runs with it.");
    addReportOptions(parser, "image, device, the grid's points and the best");
    parser.addFlag("csv", "Print the grid as CSV, a row per point.");
    parser.addExclusive({"json", "csv"});
}

QString valueText(const lab::Point& point) {
    QStringList parts;
    for (const auto& [name, value] : point) parts += text(name) + "=" + text(value);
    return parts.join(' ');
}

int run(const ArgumentParser& parser) {
    const Report wanted = reportFrom(parser);
    const bool userKernel = parser.isSet("kernel") || parser.value("stage") == "kernel";
    if (!userKernel && parser.value("stage") != "histogram")
        throw parser.usageError(
            "--stage: only histogram strategies and user kernels (--kernel) have tunables");
    if (userKernel && parser.isSet("store"))
        throw parser.usageError("--store keeps a histogram strategy's best; a user kernel's is printed only");
    const std::string strategy =
        userKernel ? std::string()
                   : std::string(histogram::findStrategy(parser.value("strategy").toStdString()).name());

    std::vector<lab::Axis> axes;
    for (const QString& tune : parser.values("tune"))
        axes.push_back(parser.withCommand([&] { return lab::parseAxis(tune.toStdString()); }));
    const auto points = parser.withCommand([&] { return lab::grid(axes); });
    // Each point's stage: the strategy's with the point's values in force, or the user kernel configured
    // with them (its configure() checks names and ranges).
    const stages::StageKind& kind = stages::findKind(userKernel ? "kernel" : "histogram");
    const auto given = userKernel ? stageFrom(parser, kind, {}) : nullptr;
    const auto stageFor = [&](const lab::Point& point) {
        if (!userKernel)
            return parser.withCommand([&] { return kind.configure({}, strategy, readStageFile); });
        stages::Values values = given->values();
        std::string params = values.contains("param") ? values["param"] : std::string();
        for (const auto& [name, value] : point) {
            if (name == "group") {
                values["kernel-group"] = value;
                continue;
            }
            params += (params.empty() ? "" : "\n") + name + '=' + value;
        }
        if (!params.empty()) values["param"] = params;
        return parser.withCommand([&] { return kind.configure(values, "", readStageFile); });
    };
    if (!userKernel) {
        const auto tunables = histogram::findStrategy(strategy).tunables();
        for (const auto& axis : axes) parser.withCommand([&] { lab::checkAxis(axis, tunables, strategy); });
    }
    // Every point's stage, its values checked, before any runs.
    stages::StageList pointStages;
    for (const auto& point : points) pointStages.push_back(stageFor(point));

    const int repeat = parser.integer("repeat", 1, 1000);
    const QString path = imageFrom(parser);
    auto image = std::make_shared<const ImageRGBA8>(io::loadImage(path));
    session::Session session;
    DeviceContext& device = session.device(deviceFrom(parser));
    const measure::Plan plan{measure::Clock::Kernel, 1, repeat,
                             static_cast<std::uint64_t>(image->pixelCount()) * 4};

    std::vector<Row> rows;
    std::optional<std::size_t> best;
    for (std::size_t p = 0; p < points.size(); ++p) {
        const lab::Point& point = points[p];
        Row row{point, {}, 0, {}};
        tuning::Values scoped;
        if (!userKernel)
            for (const auto& [name, value] : point) scoped[name] = std::stoi(value);
        const tuning::ScopedTuning tuned(strategy, scoped);
        session::RunSpec spec{image, deviceFrom(parser), {pointStages[p]}, std::nullopt, false, &device};
        try {
            const auto measurement = session.measure(
                spec, plan, [] { return true; },
                [&](session::RunReport& report) {
                    row.builds.clear();
                    for (const auto& stage : report.result.stages)
                        for (const auto& build : stage.builds)
                            row.builds += (row.builds.empty() ? "" : "; ") + build.options;
                });
            row.ns = measurement->summary;
            row.gbps = measurement->gbps();
        } catch (const OpenClError& error) {
            row.builds = std::string("failed: ") + error.what();
        }
        if (row.ns && (!best || row.ns->median < rows[*best].ns->median)) best = rows.size();
        rows.push_back(std::move(row));
    }
    if (!best) throw OpenClError("sweep", 0, "device " + device.info().name + ": no point of the grid ran");
    if (parser.isSet("store")) {
        tuning::Values values;
        for (const auto& [name, value] : rows[*best].point) values[name] = std::stoi(value);
        tuning::store(device.programCache(), device.info(), strategy, values);
    }

    const QString what = userKernel ? "kernel " + parser.value("kernel") : "histogram " + text(strategy);
    const auto writeJson = [&](JsonWriter& json) {
        json.beginObject().key("image");
        writeImageJson(json, path, image->width, image->height);
        json.key("device");
        writeDeviceJson(json, device.info());
        json.field("stage", userKernel ? "kernel" : "histogram");
        if (userKernel)
            json.field("kernel", io::nativePath(parser.value("kernel")).native());
        else
            json.field("strategy", strategy);
        json.field("repetitions", repeat).field("clock", "kernel");
        json.key("tunables").beginArray();
        for (const auto& axis : axes) json.value(axis.name);
        json.endArray().key("points").beginArray();
        for (const auto& row : rows) {
            json.beginObject().key("values").beginObject();
            for (const auto& [name, value] : row.point) json.field(name, std::stod(value));
            json.endObject();
            if (row.ns) {
                json.field("min_ns", row.ns->min)
                    .field("median_ns", row.ns->median)
                    .field("max_ns", row.ns->max);
                json.field("gbps", row.gbps).field("builds", row.builds);
            } else {
                json.field("error", row.builds);
            }
            json.endObject();
        }
        json.endArray().key("best").beginObject();
        for (const auto& [name, value] : rows[*best].point) json.field(name, std::stod(value));
        json.endObject().field("stored", parser.isSet("store")).endObject();
    };
    const auto table = [&] {
        QString out = imageAndDeviceLines(path, *image, device.info());
        out += QString("sweep     %1, %2 timed run(s) a point, kernel time\n\n").arg(what).arg(repeat);
        out += QString("%1 %2 %3 %4 %5  %6\n")
                   .arg("point", -28)
                   .arg("min", 11)
                   .arg("median", 11)
                   .arg("max", 11)
                   .arg("GB/s", 8)
                   .arg("build");
        for (const auto& row : rows) {
            if (!row.ns) {
                out += QString("%1 %2\n").arg(valueText(row.point), -28).arg(text(row.builds));
                continue;
            }
            out += QString("%1 %2 %3 %4 %5  %6\n")
                       .arg(valueText(row.point), -28)
                       .arg(milliseconds(row.ns->min), 11)
                       .arg(milliseconds(row.ns->median), 11)
                       .arg(milliseconds(row.ns->max), 11)
                       .arg(row.gbps, 8, 'f', 2)
                       .arg(text(row.builds));
        }
        out += "\nbest      " + valueText(rows[*best].point) + " (median " +
               milliseconds(rows[*best].ns->median) + ")";
        out += parser.isSet("store") ? ", stored for this device\n" : "\n";
        return out;
    };
    const auto csv = [&] {
        QStringList header;
        for (const auto& axis : axes) header += text(axis.name);
        QString out = header.join(',') + ",min_ns,median_ns,max_ns,gbps\n";
        for (const auto& row : rows) {
            QStringList cells;
            for (const auto& entry : row.point) cells += text(entry.second);
            if (row.ns)
                cells << QString::number(row.ns->min, 'f', 0) << QString::number(row.ns->median, 'f', 0)
                      << QString::number(row.ns->max, 'f', 0) << QString::number(row.gbps, 'f', 3);
            else
                cells << ""
                      << ""
                      << ""
                      << "";
            out += cells.join(',') + '\n';
        }
        return out;
    };
    wanted.publish(writeJson, table, csv);
    return 0;
}

[[maybe_unused]] const bool registered = registerCommand(
    {"sweep", "time every combination of a strategy's or user kernel's tunables; keep the best",
     "Runs the histogram strategy (--strategy) or the user kernel (--kernel FILE.cl) on IMAGE for every "
     "combination of the --tune values, each point timed by the device (one untimed run, then --repeat "
     "runs: min, median, max), and names the fastest median. --store keeps it for this device, in "
     "tuning.txt beside the program cache: the strategy then runs with it, auto included.",
     declare, run});

}  // namespace

}  // namespace hs::cli
