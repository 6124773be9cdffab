#pragma once
// An edited built-in strategy (docs/kernel-lab.md, "An edited built-in"): a configured stage (histogram,
// rotate, convolve) whose strategy builds its program from a user's text in place of the embedded
// kernels/<operation>.cl. The strategy's own host code runs unchanged, so the text must keep the kernels'
// names and arguments; what it computes is checked against the stage's CPU reference on every run (the
// StageRun's referenceCheck): an image stage's output against Stage::reference of its input, a histogram's
// 256 counted values against the same stage run with its first host strategy (serial, the golden loop).
//
// The edit lives in the stage, hence in the run's stage list: while that stage runs, its device context
// builds the text in place of the source (DeviceContext::SourceOverride); nothing else sees it.

#include <memory>
#include <string>

#include "engine/stages/stage.hpp"

namespace hs::lab {

// The kernels/ source a device strategy of `operation` builds its programs from: every image operation's
// device strategies build kernels/<operation>.cl ("histogram", "rotate", "convolve", "scope").
std::string kernelSourceOf(const StrategyInfo& strategy);

// `stage` with its requested strategy built from `text` (named `label` in build errors and reports). Throws
// UsageError when the stage has no strategy, its strategy runs on the host (there is no kernel to edit) or
// is `auto` (which strategy runs is its choice), or the stage is a scope (not checked yet).
std::shared_ptr<const stages::Stage> editedStrategy(std::shared_ptr<const stages::Stage> stage,
                                                    std::string label, std::string text);

}  // namespace hs::lab
