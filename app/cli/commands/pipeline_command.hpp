#pragma once
// What the rotate, convolve and pipeline commands share: their option groups (an image in, an image out, a
// device, the report, and the stage groups each adds itself) and running a list of stages from an image file
// to an image file. All three are pipelines; rotate and convolve have one image stage.

#include "cli/commands/option_groups.hpp"

namespace hs::cli::transform {

// IMAGE, --out OUT, --device.
void addImageInOut(ArgumentParser& parser);
// --json / --json-out, of what runStages reports.
void addStagesReport(ArgumentParser& parser);

// Loads IMAGE, runs `stages` on the device, writes the processed image to --out (atomically), and reports
// what ran (a summary, or one JSON object with --json). Returns the exit code.
int runStages(const ArgumentParser& parser, const stages::StageList& stages);

// The command named after the image stage kind `kind` that runs it alone (rotate, convolve): IMAGE, --out,
// the device, the report, and the kind's group with --strategy, its trigger (--angle, --filter) required.
Command imageStageCommand(std::string_view kind, QString summary, QString description);

}  // namespace hs::cli::transform
