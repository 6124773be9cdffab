// histoscope-cli rotate IMAGE --angle DEG [--sampling linear|nearest] [--fit-canvas] [--strategy S] --out OUT
// [--json]
#include "commands/pipeline_command.hpp"

namespace hs::cli::transform {

namespace {

int run(const QStringList& arguments) {
    ArgumentParser parser(
        "rotate",
        "Rotates an image about its centre on an OpenCL device (the output keeps the input's size, so what "
        "leaves the frame is cut off, unless --fit-canvas enlarges it; what enters is transparent black).");
    addImageInOut(parser);
    const auto& kind = stages::findKind("rotate");
    addStageOptions(parser, kind, "strategy");
    if (!parser.parse(arguments)) return 0;
    parser.required("angle", "DEG");
    return runStages(parser, {stageFrom(parser, kind, "strategy")});
}

[[maybe_unused]] const bool registered = registerCommand(
    {"rotate",
     "IMAGE --angle DEG [--sampling linear|nearest] [--fit-canvas] [--strategy S] --out OUT [--json]",
     "rotate an image about its centre", run});

}  // namespace

}  // namespace hs::cli::transform
