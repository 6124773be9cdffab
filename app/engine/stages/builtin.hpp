#pragma once
// The built-in image stages made from typed parameters, for the callers that hold them typed (the app's
// transform panel, the bench's suites, tests). Front ends that read text configure stages through their kind
// (stages::findKind("rotate").configure(...)), which ends in the same objects.

#include <memory>
#include <string>

#include "engine/ops/convolve/convolve.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/rotate/rotate.hpp"
#include "engine/ops/scope/scope.hpp"
#include "engine/stages/stage.hpp"

namespace hs::stages {

std::shared_ptr<const Stage> rotateStage(const rotate::Params& params, const rotate::Strategy& strategy);
// `spec`: the --filter spec `filter` was made from, which the stage's values keep; empty: its label.
std::shared_ptr<const Stage> convolveStage(convolve::Filter filter, const convolve::Strategy& strategy,
                                           std::string spec = {});
std::shared_ptr<const Stage> histogramStage(const histogram::Params& params,
                                            const histogram::Strategy& strategy);
std::shared_ptr<const Stage> scopeStage(const scope::Params& params, const scope::Strategy& strategy);

// The typed parameters of a configured convolve or histogram stage, for an execution mode that runs them
// itself (the two-device producer–consumer); null when `stage` is of another kind.
const convolve::Filter* filterOf(const Stage& stage);
const histogram::Params* histogramParamsOf(const Stage& stage);
// The typed parameters of a configured scope stage (the CLI's report); null when `stage` is of another kind.
const scope::Params* scopeParamsOf(const Stage& stage);

// A stage's report of an image operation's result (rotate, convolve): what ran, and its output image.
StageRun imageRun(pipeline::StageResult&& result);

// A number as the stages' values hold it: the shortest text that reads back as `value` ("30", "1.5").
std::string numberText(double value);

}  // namespace hs::stages
