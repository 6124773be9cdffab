// histoscope-cli runs list|show|diff|export|delete: the run archive (archive/archive.hpp) that --record
// writes, at $HISTOSCOPE_ARCHIVE, else $XDG_DATA_HOME/histoscope/runs.sqlite.

#include <algorithm>

#include "archive/archive.hpp"
#include "archive/diff.hpp"
#include "archive/export.hpp"
#include "cli/commands/command.hpp"
#include "engine/measure/measure.hpp"
#include "io/export.hpp"

namespace hs::cli {

namespace {

const QStringList kActions{"list", "show", "diff", "export", "delete"};

void declare(ArgumentParser& parser, const QStringList& arguments);

// "runs ACTION": the actions' synopses, from their own parsers, for the help of the command without one.
QString actionsHelp() {
    QString lines = "One of:";
    for (const QString& action : kActions) {
        ArgumentParser form("runs", {});
        declare(form, {action});
        lines += "\n  runs " + form.synopsis();
    }
    return lines + "\n('runs ACTION --help' for its options)";
}

// An action is chosen by its first argument, a positional one, so the overview shows the one form
// "runs ACTION" (an overview's forms are chosen by options) and its help each action's synopsis.
void declare(ArgumentParser& parser, const QStringList& arguments) {
    const QString action = arguments.value(0);
    if (action == "list") {
        parser.addPositional("list", "List the recorded runs, oldest first.");
        parser.addOption("image", "TEXT",
                         "Only runs of an image whose path contains TEXT, or whose content hash is TEXT.");
        parser.addOption("device", "TEXT", "Only runs on a device whose name contains TEXT (any case).");
        parser.addOption("strategy", "NAME", "Only runs in which the strategy NAME ran.");
        parser.addOption("since", "DATE",
                         "Only runs recorded at or after DATE (UTC, 2026-11-27 or 2026-11-27T05:00).");
        parser.addOption("until", "DATE", "Only runs recorded before DATE.");
        parser.addFlag("json", "Print one JSON object instead of the table.");
    } else if (action == "show") {
        parser.addPositional("show", "Show one recorded run.");
        parser.addPositional("ID", "The run's number (runs list).");
        parser.addFlag("json", "Print the whole record, every repetition's timings included, as JSON.");
    } else if (action == "diff") {
        parser.addPositional("diff", "Compare run A with run B, or group A with group B.");
        parser.addPositional("A", "A run's number, or a group of runs: 3,4,5.");
        parser.addPositional("B", "The same for the other side.");
        parser.addFlag(
            "json", "Print one JSON object: both distributions, ratios, intervals, verdicts, differences.");
    } else if (action == "export") {
        // One positional that may repeat: the runs' numbers may be left out.
        parser.addRepeatedPositional("export [ID...]",
                                     "Export the runs named by their numbers; none: every run.");
        parser.addFlag("csv",
                       "Every timing record as CSV (run, repetition, step, name, kind, device, duration_ns) "
                       "instead of JSON.");
        parser.addOption("out", "PATH", "Write to PATH (atomically) instead of stdout.");
    } else if (action == "delete") {
        parser.addPositional("delete", "Delete recorded runs.");
        parser.addRepeatedPositional("ID...", "The runs' numbers.");
    } else {
        parser.addRepeatedPositional("ACTION", actionsHelp());
    }
}

std::int64_t idFrom(const ArgumentParser& parser, const QString& text) {
    bool ok = false;
    const qlonglong id = text.toLongLong(&ok);
    if (!ok || id <= 0) throw parser.usageError("'" + text + "' is not a run's number");
    return id;
}

std::vector<archive::Record> loadAll(const ArgumentParser& parser, const archive::Archive& runs,
                                     const QString& list) {
    std::vector<archive::Record> loaded;
    for (const QString& id : list.split(',')) loaded.push_back(runs.load(idFrom(parser, id)));
    return loaded;
}

QString listText(const std::vector<archive::Listed>& listed) {
    QString out = QString("%1  %2  %3  %4  %5  %6\n")
                      .arg("id", 5)
                      .arg("recorded at", -20)
                      .arg("device", -24)
                      .arg("image", -32)
                      .arg("strategies", -28)
                      .arg("reps");
    for (const auto& run : listed)
        out += QString("%1  %2  %3  %4  %5  %6\n")
                   .arg(run.id, 5)
                   .arg(text(run.recordedAt), -20)
                   .arg(text(run.device), -24)
                   .arg(QString("%1 (%2x%3)")
                            .arg(text(run.image.path))
                            .arg(run.image.width)
                            .arg(run.image.height),
                        -32)
                   .arg(text(run.strategies), -28)
                   .arg(run.repetitions);
    return out;
}

QString showText(const archive::Record& run) {
    QString out = QString("run %1, recorded %2 by %3, HistoScope %4\n")
                      .arg(run.id)
                      .arg(text(run.recordedAt), text(run.command), text(run.version));
    out +=
        QString("device    %1 (driver %2, %3)\n").arg(text(run.device), text(run.driver), text(run.platform));
    out += QString("image     %1 (%2x%3, content %4)\n")
               .arg(text(run.image.path))
               .arg(run.image.width)
               .arg(run.image.height)
               .arg(text(run.image.hash));
    for (std::size_t i = 0; i < run.stages.size(); ++i) {
        const auto& stage = run.stages[i];
        QString values;
        for (const auto& [name, value] : stage.values)
            values += QString(" %1=%2").arg(text(name), text(value));
        out += QString("stage %1   %2 %3%4\n").arg(i + 1).arg(text(stage.kind), text(stage.strategy), values);
        if (!stage.note.empty()) out += "          note: " + text(stage.note) + "\n";
        for (const auto& build : stage.builds)
            out += QString("          build %1 %2\n").arg(text(build.source), text(build.options));
    }
    std::vector<double> kernelNs(static_cast<std::size_t>(std::max(run.repetitions, 0)), 0.0);
    for (const auto& timing : run.timings)
        if (timing.kind == "kernel" && timing.repetition >= 1 && timing.repetition <= run.repetitions)
            kernelNs[static_cast<std::size_t>(timing.repetition - 1)] +=
                static_cast<double>(timing.durationNs);
    if (!kernelNs.empty()) {
        const auto summary = measure::Summary::of(kernelNs);
        out += QString("kernel time over %1 repetition(s): min %2, median %3, max %4 (each one: --json)\n")
                   .arg(run.repetitions)
                   .arg(milliseconds(summary.min), milliseconds(summary.median), milliseconds(summary.max));
    }
    if (run.bins > 0) out += QString("histogram %1 bins (the counts: --json)\n").arg(run.bins);
    if (!run.outputHash.empty())
        out +=
            "output    content " + text(run.outputHash) +
            (run.outputPng.empty() ? QString(" (pixels not kept)")
                                   : QString(" (pixels kept: %1 bytes of PNG)").arg(run.outputPng.size())) +
            "\n";
    return out;
}

// Writes `document` to --out (atomically) or prints it.
void writeOut(const ArgumentParser& parser, const std::string& document) {
    if (parser.isSet("out"))
        io::writeFileAtomically(parser.value("out"), QByteArray::fromStdString(document));
    else
        printText(QString::fromStdString(document));
}

int run(const ArgumentParser& parser) {
    const QString action = parser.positional(0);
    if (!kActions.contains(action))
        throw parser.usageError("unknown action '" + action + "' (" + kActions.join(", ") + ")");
    archive::Archive runs(archive::Settings::fromEnvironment());
    if (action == "list") {
        const archive::Filter filter{
            parser.value("image").toStdString(), parser.value("device").toStdString(),
            parser.value("strategy").toStdString(), parser.value("since").toStdString(),
            parser.value("until").toStdString()};
        const auto listed = runs.list(filter);
        if (parser.isSet("json")) {
            printJson([&](JsonWriter& json) {
                json.beginObject().field("archive", runs.settings().path.string()).key("runs").beginArray();
                for (const auto& run : listed) archive::writeListedJson(json, run);
                json.endArray().endObject();
            });
        } else {
            printText(listText(listed));
        }
    } else if (action == "show") {
        const archive::Record run = runs.load(idFrom(parser, parser.positional(1)));
        if (parser.isSet("json"))
            printJson([&](JsonWriter& json) { archive::writeRecordJson(json, run); });
        else
            printText(showText(run));
    } else if (action == "diff") {
        const archive::Diff diff = archive::diff(loadAll(parser, runs, parser.positional(1)),
                                                 loadAll(parser, runs, parser.positional(2)));
        if (parser.isSet("json"))
            printJson([&](JsonWriter& json) { archive::writeDiffJson(json, diff); });
        else
            printText(QString::fromStdString(archive::diffText(diff)));
    } else if (action == "export") {
        std::vector<archive::Record> chosen;
        const QStringList ids = parser.positionals().mid(1);
        if (ids.isEmpty())
            for (const auto& listed : runs.list()) chosen.push_back(runs.load(listed.id));
        else
            chosen = loadAll(parser, runs, ids.join(','));
        if (parser.isSet("csv")) {
            writeOut(parser, archive::timingsCsv(chosen));
        } else {
            writeOut(parser, jsonDocument([&](JsonWriter& json) {
                         json.beginObject().key("runs").beginArray();
                         for (const auto& run : chosen) archive::writeRecordJson(json, run);
                         json.endArray().endObject();
                     }));
        }
    } else {
        const QStringList ids = parser.positionals().mid(1);
        if (ids.isEmpty()) throw parser.usageError("delete: name the runs to delete");
        std::vector<std::int64_t> numbers;
        for (const auto& id : ids)
            numbers.push_back(runs.load(idFrom(parser, id)).id);  // all there, or none goes
        QString out;
        for (const auto id : numbers)
            if (runs.remove(id)) out += QString("deleted run %1\n").arg(id);
        printText(out);
    }
    return 0;
}

[[maybe_unused]] const bool registered = registerCommand(
    {"runs", "list, show, compare, export and delete recorded runs",
     "The run archive that --record writes ($HISTOSCOPE_ARCHIVE, else "
     "$XDG_DATA_HOME/histoscope/runs.sqlite). "
     "diff compares per kernel, per stage and in total the ratio of median times B/A with a bootstrap 95 % "
     "interval (seeded: the same runs give the same answer) and says faster, slower or no difference at this "
     "noise, beside what else differs (spec, build options, device, driver, image, results).",
     declare, run});

}  // namespace

}  // namespace hs::cli
