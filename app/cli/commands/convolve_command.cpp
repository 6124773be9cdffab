// histoscope-cli convolve IMAGE --filter SPEC --out OUT [--strategy S] [--json]
#include "cli/commands/pipeline_command.hpp"

namespace hs::cli::transform {

namespace {

[[maybe_unused]] const bool registered =
    registerCommand(imageStageCommand("convolve", "filter an image",
                                      "Filters an image on an OpenCL device (a correlation like OpenCV's "
                                      "filter2D, edges clamped, alpha kept)."));

}  // namespace

}  // namespace hs::cli::transform
