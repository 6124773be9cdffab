#pragma once
// What the rotate, convolve and pipeline commands share: their options, and running a pipeline spec from an
// image file to an image file. All three are pipelines; rotate and convolve have one image stage.

#include <QString>
#include <optional>

#include "commands/command.hpp"
#include "ops/pipeline/pipeline.hpp"

namespace hs::cli::transform {

// IMAGE, --device, --out, --json.
void addImageInOut(ArgumentParser& parser);
// --angle, --sampling, and the rotation strategy option named `strategyOption`.
void addRotationOptions(ArgumentParser& parser, const QString& strategyOption);
// --filter and the convolution strategy option named `strategyOption`.
void addConvolutionOptions(ArgumentParser& parser, const QString& strategyOption);

// From the parsed options; throw UsageError "<command>: ..." on bad values. No rotation without --angle.
std::optional<pipeline::RotateStage> rotationFrom(const ArgumentParser& parser,
                                                  const QString& strategyOption);
pipeline::ConvolveStage convolutionFrom(const ArgumentParser& parser, const QString& strategyOption);

// Loads IMAGE, runs `spec` on the device, writes the processed image to --out (atomically), and prints a
// summary (or one JSON object with --json). Returns the exit code.
int runSpec(const ArgumentParser& parser, const pipeline::Spec& spec);

}  // namespace hs::cli::transform
