// histoscope-cli convolve IMAGE --filter SPEC [--strategy S] --out OUT [--json]
#include "commands/pipeline_command.hpp"

namespace hs::cli::transform {

namespace {

int run(const QStringList& arguments) {
    ArgumentParser parser("convolve",
                          "Filters an image on an OpenCL device (a correlation like OpenCV's filter2D, edges "
                          "clamped, alpha kept).");
    addImageInOut(parser);
    const auto& kind = stages::findKind("convolve");
    addStageOptions(parser, kind, "strategy");
    if (!parser.parse(arguments)) return 0;
    parser.required("filter", "SPEC");
    return runStages(parser, {stageFrom(parser, kind, "strategy")});
}

[[maybe_unused]] const bool registered = registerCommand(
    {"convolve", "IMAGE --filter SPEC [--strategy S] --out OUT [--json]", "filter an image", run});

}  // namespace

}  // namespace hs::cli::transform
