#pragma once
// What the rotate, convolve and pipeline commands share: the options of stage kinds, made from their
// declarations (stages/stage.hpp), and running a list of stages from an image file to an image file. All
// three are pipelines; rotate and convolve have one image stage.

#include <QString>
#include <QStringList>

#include "commands/command.hpp"
#include "stages/stage.hpp"

namespace hs::cli::transform {

// IMAGE, --device, --out, --json.
void addImageInOut(ArgumentParser& parser);

// The options of `kind`: one per parameter (--angle, --filter, --bins, ...), its strategy option
// `strategyOption` where it has strategies, and --<kind> itself where no parameter adds the stage
// (--equalize).
void addStageOptions(ArgumentParser& parser, const stages::StageKind& kind, const QString& strategyOption);
// Whether the command line asks for `kind`: one of its options (--angle, --filter) or its own flag is set.
bool asksFor(const ArgumentParser& parser, const stages::StageKind& kind);
// `kind` configured from the parsed options; a bad value is a UsageError naming the command.
std::shared_ptr<const stages::Stage> stageFrom(const ArgumentParser& parser, const stages::StageKind& kind,
                                               const QString& strategyOption);

// Loads IMAGE, runs `stages` on the device, writes the processed image to --out (atomically), and prints a
// summary (or one JSON object with --json). Returns the exit code.
int runStages(const ArgumentParser& parser, const stages::StageList& stages);

}  // namespace hs::cli::transform
