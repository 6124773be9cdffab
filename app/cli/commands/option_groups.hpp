#pragma once
// The option groups of histoscope-cli's commands. A group is the options one concern needs, declared once and
// composed per command: add...() declares them on a command's parser (their synopsis and help follow from
// that), and ...From() reads them back, typed, with the rules every command shares. The stage groups are made
// from the registered stage kinds (stages/stage.hpp); the others are written here:
//
//     void declare(ArgumentParser& parser, const QStringList&) {
//         addImageInput(parser);                  // IMAGE
//         addImageOutput(parser);                 // --out OUT (required)
//         addDeviceOption(parser);                // --device SEL
//         addReportOptions(parser, "...");        // --json, --json-out PATH
//         addStageOptions(parser, stages::findKind("rotate"), "strategy");
//     }

#include <QString>
#include <functional>
#include <memory>
#include <string>

#include "cli/commands/command.hpp"
#include "engine/stages/stage.hpp"

namespace hs::cli {

// --device SEL, with the selection rules every command shares.
void addDeviceOption(ArgumentParser& parser);
// The selector as given; empty: $HISTOSCOPE_DEVICE, else the first GPU, else the first device.
std::string deviceFrom(const ArgumentParser& parser);

// IMAGE, the one image a command reads.
void addImageInput(ArgumentParser& parser);
QString imageFrom(const ArgumentParser& parser);

// --out OUT, the image a command writes (required).
void addImageOutput(ArgumentParser& parser);
// The path, checked before any work (a suffix no writer knows, a folder or FIFO in its place), so that none
// is wasted on an output that cannot be written.
QString imageOutputFrom(const ArgumentParser& parser);

// Where a command's report goes: a text report on stdout by default; --json prints one JSON object there
// instead (--csv, where a command offers one, a CSV); --json-out PATH (also --json=PATH) writes the same JSON
// to PATH atomically, beside the text report. histoscope-bench takes --json and --json-out alike.
struct Report {
    bool jsonOnStdout = false;
    QString jsonPath;  // empty: none
    bool csv = false;

    // Prints `text()` (or `csv()` with --csv) unless --json; writes `json` wherever JSON is asked for.
    void publish(const std::function<void(JsonWriter&)>& json, const std::function<QString()>& text,
                 const std::function<QString()>& csv = {}) const;
};
// `what` says what the JSON object holds ("stages, device, timings"); `withCsv` adds --csv.
void addReportOptions(ArgumentParser& parser, const QString& what, bool withCsv = false);
// The report asked for; a --json-out that cannot be written is refused now, before any work.
Report reportFrom(const ArgumentParser& parser);

// What the stages read from files (a filter file, a user kernel), through io's bounded reader.
std::string readStageFile(const std::string& path, std::uint64_t maxBytes, std::string_view what);

// The group of a stage kind: one option per parameter (--angle, --filter, --bins, ...), its strategy option
// `strategyOption` (default: the kind's defaultStrategy(), as in every front end) where it has strategies,
// and --<kind> itself where no parameter adds the stage (--equalize). An empty `strategyOption` adds no
// strategy option (a command with one of its own).
void addStageOptions(ArgumentParser& parser, const stages::StageKind& kind, const QString& strategyOption);
// Whether the command line asks for `kind`: one of its options (--angle, --filter) or its own flag is set.
bool asksFor(const ArgumentParser& parser, const stages::StageKind& kind);
// `kind` configured from the parsed options; a bad value is a UsageError naming the command.
std::shared_ptr<const stages::Stage> stageFrom(const ArgumentParser& parser, const stages::StageKind& kind,
                                               const QString& strategyOption);

}  // namespace hs::cli
