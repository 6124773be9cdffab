// histoscope-cli rotate IMAGE --angle DEG --out OUT [--sampling linear|nearest] [--fit-canvas] [--strategy S]
// [--json]
#include "cli/commands/pipeline_command.hpp"

namespace hs::cli::transform {

namespace {

[[maybe_unused]] const bool registered = registerCommand(imageStageCommand(
    "rotate", "rotate an image about its centre",
    "Rotates an image about its centre on an OpenCL device (the output keeps the input's size, so what "
    "leaves "
    "the frame is cut off, unless --fit-canvas enlarges it; what enters is transparent black)."));

}  // namespace

}  // namespace hs::cli::transform
