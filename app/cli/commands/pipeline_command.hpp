#pragma once
// What the rotate, convolve and pipeline commands share: their option groups (an image in, an image out, a
// device, the report, and the stage groups each adds itself) and running a list of stages from an image file
// to an image file. All three are pipelines; rotate and convolve have one image stage.

#include "cli/commands/option_groups.hpp"
#include "engine/ops/pipeline/pipeline.hpp"

namespace hs::cli::transform {

// IMAGE, --out OUT, --device.
void addImageInOut(ArgumentParser& parser);
// --json / --json-out, of what runStages reports.
void addStagesReport(ArgumentParser& parser);

// Loads IMAGE, runs `stages` on the device, writes the processed image to --out (atomically), and reports
// what ran (a summary, or one JSON object with --json). Returns the exit code.
int runStages(const ArgumentParser& parser, const stages::StageList& stages);

// One image run through a stage list: what `pipeline --json` prints and each line of `batch` holds.
struct StagesRun {
    const QString& path;  // the input and its size
    int width = 0;
    int height = 0;
    const QString& out;  // the written image; empty: none was written
    const DeviceInfo& device;
    const pipeline::Result& result;
    const stages::StageList& stages;
};
// The members of pipeline's JSON object (image, output, device, stages, timings, and for a histogram bins,
// histograms and context) inside an object the caller opened, so that batch adds its own beside them.
void writeStagesRunMembers(JsonWriter& json, const StagesRun& run);

// pipeline's stage options: every image stage kind's group (a strategy option each), then the histogram's.
void addPipelineStageOptions(ArgumentParser& parser);
// The stages those options ask for: the image stages in the order their options are written, then the
// histogram.
stages::StageList pipelineStagesFrom(const ArgumentParser& parser);

// The command named after the image stage kind `kind` that runs it alone (rotate, convolve): IMAGE, --out,
// the device, the report, and the kind's group with --strategy, its trigger (--angle, --filter) required.
Command imageStageCommand(std::string_view kind, QString summary, QString description);

}  // namespace hs::cli::transform
