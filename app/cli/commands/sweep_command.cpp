// histoscope-cli sweep IMAGE [--stage histogram|rotate|convolve [--strategy NAME] | --kernel FILE.cl [...]]
//                          --tune NAME=V1,V2,... [--tune ...] [--repeat N] [--store] [--json|--csv]
// Every combination of the tunables' values, run by session::runSweep (the app's heat map runs the same):
// each point measured through Session::measure (one untimed run, then N timed ones: the kernel time, min /
// median / max), checked against the stage's CPU reference, and labelled by the values its build says it
// built (a strategy lowers what the device cannot take); points that built the same values are marked. The
// fastest median is the best, and --store keeps its built values for the device (ops/tuning.hpp), so that
// the strategy, `auto`'s trial and choice included, runs with them from then on.
#include <QFile>
#include <memory>

#include "cli/commands/option_groups.hpp"
#include "engine/lab/sweep.hpp"
#include "engine/ops/tuning.hpp"
#include "engine/runtime/device_properties.hpp"
#include "io/image_io.hpp"
#include "session/session.hpp"
#include "session/sweep.hpp"

namespace hs::cli {

namespace {

// The stage kinds whose strategies declare tunables, and the user kernel.
const char* const kSweptKinds[] = {"histogram", "rotate", "convolve", "kernel"};

void declare(ArgumentParser& parser, const QStringList&) {
    addImageInput(parser);
    addDeviceOption(parser);
    parser.addOption("stage", "KIND",
                     "What to sweep: histogram, rotate, convolve, or kernel (implied by --kernel).",
                     "histogram");
    parser.addOption("strategy", "NAME",
                     "The strategy whose tunables are swept (histoscope-cli strategies lists them); default "
                     "local-atomic for the histogram, the stage's default otherwise.");
    for (const char* kind : kSweptKinds) addStageOptions(parser, stages::findKind(kind), {});
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
    session::SweepSpec spec;
    spec.stage = parser.isSet("kernel") ? "kernel" : parser.value("stage").toStdString();
    if (std::find(std::begin(kSweptKinds), std::end(kSweptKinds), spec.stage) == std::end(kSweptKinds))
        throw parser.usageError(
            "--stage: only histogram, rotate and convolve strategies and user kernels "
            "(--kernel) have tunables");
    const bool userKernel = spec.stage == "kernel";
    if (userKernel && parser.isSet("store"))
        throw parser.usageError("--store keeps a strategy's best; a user kernel's is printed only");
    const stages::StageKind& kind = stages::findKind(spec.stage);
    spec.values = stageFrom(parser, kind, {})->values();
    spec.strategy = parser.value("strategy").toStdString();
    if (spec.strategy.empty() && spec.stage == "histogram") spec.strategy = "local-atomic";
    for (const QString& tune : parser.values("tune"))
        spec.axes.push_back(parser.withCommand([&] { return lab::parseAxis(tune.toStdString()); }));
    spec.repetitions = parser.integer("repeat", 1, 1000);
    // Every point's stage and values checked before anything is read or run.
    parser.withCommand([&] { return session::sweepStages(spec, readStageFile); });

    const QString path = imageFrom(parser);
    spec.image = std::make_shared<const ImageRGBA8>(io::loadImage(path));
    spec.device = deviceFrom(parser);
    session::Session session;
    DeviceContext& device = session.device(spec.device);
    spec.context = &device;
    const lab::Sweep sweep =
        *parser.withCommand([&] { return session::runSweep(session, spec, readStageFile, {}); });
    const auto best = sweep.best();
    if (!best) throw OpenClError("sweep", 0, "device " + device.info().name + ": no point of the grid ran");
    if (parser.isSet("store")) {
        tuning::Values values;
        for (const auto& [name, value] : sweep.points[*best].built) values[name] = std::stoi(value);
        tuning::store(device.programCache(), device.info(), sweep.tuningKey, values);
    }

    const auto writeJson = [&](JsonWriter& json) {
        json.beginObject().key("image");
        writeImageJson(json, path, spec.image->width, spec.image->height);
        json.key("device");
        writeDeviceJson(json, device.info());
        lab::writeJson(json, sweep);
        json.field("stored", parser.isSet("store")).endObject();
    };
    const auto table = [&] {
        QString out = imageAndDeviceLines(path, *spec.image, device.info());
        out += QString("sweep     %1 %2, %3 timed run(s) a point, kernel time\n\n")
                   .arg(text(sweep.stage), text(sweep.strategy))
                   .arg(sweep.repetitions);
        out += QString("%1 %2 %3 %4 %5 %6 %7  %8\n")
                   .arg("built (asked, where it differs)", -36)
                   .arg("min", 11)
                   .arg("median", 11)
                   .arg("max", 11)
                   .arg("GB/s", 8)
                   .arg("x read", 7)
                   .arg("diff", 5)
                   .arg("build");
        for (std::size_t p = 0; p < sweep.points.size(); ++p) {
            const auto& point = sweep.points[p];
            QString label = valueText(point.built);
            if (point.built != point.asked) label += " (" + valueText(point.asked) + ")";
            if (!point.ns) {
                out += QString("%1 %2\n").arg(label, -36).arg(text(point.error));
                continue;
            }
            const auto times = sweep.timesRead(point);
            out += QString("%1 %2 %3 %4 %5 %6 %7  %8\n")
                       .arg(label, -36)
                       .arg(milliseconds(point.ns->min), 11)
                       .arg(milliseconds(point.ns->median), 11)
                       .arg(milliseconds(point.ns->max), 11)
                       .arg(point.gbps, 8, 'f', 2)
                       .arg(times ? QString::number(*times, 'g', 3) : QString("-"), 7)
                       .arg(point.maxDifference ? QString::number(*point.maxDifference) : QString("-"), 5)
                       .arg(point.sameBuildAs
                                ? "same build as " + valueText(sweep.points[*point.sameBuildAs].asked)
                                : text(point.builds));
        }
        out += "\nbest      " + valueText(sweep.points[*best].built) + " (median " +
               milliseconds(sweep.points[*best].ns->median) + ")";
        out += parser.isSet("store") ? ", stored for this device\n" : "\n";
        return out;
    };
    const auto csv = [&] { return QString::fromStdString(lab::csv(sweep)); };
    wanted.publish(writeJson, table, csv);
    return 0;
}

[[maybe_unused]] const bool registered = registerCommand(
    {"sweep", "time every combination of a strategy's or user kernel's tunables; keep the best",
     "Runs the histogram, rotate or convolve strategy (--stage, --strategy) or the user kernel (--kernel "
     "FILE.cl) on IMAGE for every combination of the --tune values, each point timed by the device (one "
     "untimed run, then --repeat runs: min, median, max), checked against the stage's CPU reference (diff: "
     "the largest difference of a pixel channel or bin), labelled by the values it built; the fastest median "
     "is the best. --store keeps it for this device, in tuning.txt beside the program cache: the strategy "
     "then runs with it, auto included.",
     declare, run});

}  // namespace

}  // namespace hs::cli
