#pragma once
// A list of stages (stages/stage.hpp: rotate, convolve, equalize, histogram, ...) run in order on one device.
// The pixels stay on the device between stages (each stage hands the next a device PixelSource); the
// processed image stays there too, for display (a shared GL texture) or a readback on request.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/image/image.hpp"
#include "engine/image/pixel_source.hpp"
#include "engine/ops/convolve/convolve.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/rotate/rotate.hpp"
#include "engine/runtime/timing.hpp"
#include "engine/stages/stage.hpp"

namespace hs {
class DeviceContext;
}

namespace hs::pipeline {

struct RotateStage {
    rotate::Params params;
    const rotate::Strategy* strategy = rotate::strategies().front();
};

struct ConvolveStage {
    convolve::Filter filter;
    const convolve::Strategy* strategy = convolve::strategies().front();
    // The --filter spec `filter` was made from (convolve::filterSpec, a filter file's path), which the
    // stage's values keep so that a record or a session names it as a command line would; empty for a
    // matrix of no spec (typed in the app): the values then hold its label.
    std::string spec{};
};

struct HistogramStage {
    histogram::Params params;
    const histogram::Strategy* strategy = histogram::strategies().front();
};

// The classic image -> rotate -> convolve -> histogram, for callers that hold those stages typed; it runs as
// the stage list stagesOf makes.
struct Spec {
    std::optional<RotateStage> rotation;
    std::optional<ConvolveStage> convolution;
    std::optional<HistogramStage> histogram;
};

// The stages of `spec`, in its order.
stages::StageList stagesOf(const Spec& spec);

// The names of the transfers around the stages: the pixels uploaded when no image stage ran, read back on
// request, handed to the display.
inline constexpr std::string_view kUpload = "upload";
inline constexpr std::string_view kReadback = "readback";
inline constexpr std::string_view kDisplay = "display";

// One stage as it ran: for a stage, its kind's name and what ran (strategy, note, builds); for a transfer,
// its name (kUpload, ...) and its timings only.
struct StageReport : RunRecord {
    std::string stage;
    std::shared_ptr<const stages::Stage> configured;    // null for a transfer
    std::optional<lab::ReferenceCheck> referenceCheck;  // an edited built-in's (StageRun::referenceCheck)
};

struct Result {
    PixelSource image;   // the processed image (the last image stage's output buffer), on the device
    std::string device;  // the name of the device that ran it
    std::optional<histogram::Histogram> histogram;  // the requested bins (the last measurement's)
    std::optional<histogram::Histogram> values;     // the 256 values (histogram::Result::values)
    std::vector<StageReport> stages;
    std::optional<scope::Counts> scope = std::nullopt;  // the last scope stage's counts
    // Every scope stage's counts, in stage order (the app's Scopes dock shows several at once).
    std::vector<scope::Counts> scopes = {};

    // The report of the first stage called `name` (a kind's name or a transfer's), or null when none ran.
    const StageReport* stage(std::string_view name) const;
    // Every command of every stage in order, each with its stage (Timing::step) and its name prefixed by it
    // for display ("rotate: rotate_image").
    std::vector<Timing> timings() const;
    // The processed pixels on the host; the transfer is recorded as a "readback" stage.
    ImageRGBA8 readBack();
    // Lends `use` the processed pixels on the host without a copy of ours (PixelSource::withHostPixels: the
    // device buffer mapped), for an encoder that only reads them; recorded as a "readback" stage.
    void withPixels(const std::function<void(const std::uint8_t*)>& use);
};

// Validates the order (stages::validateOrder: UsageError before anything runs), then runs the stages in order
// on `device`, each from the image the one before left on the device. An `input` that borrows its pixels
// stays as it was (a caller may run again on it); pixels it owns go where the first stage uploads them
// (PixelSource::device, writeTo).
Result runPipeline(DeviceContext& device, PixelSource& input, const stages::StageList& stages);
// The same, consuming `input`: its pixels (host or device) go once the first image stage has read them, so
// that a big image is not held as the input beside every later stage's output.
Result runPipeline(DeviceContext& device, PixelSource&& input, const stages::StageList& stages);
inline Result runPipeline(DeviceContext& device, PixelSource& input, const Spec& spec) {
    return runPipeline(device, input, stagesOf(spec));
}
inline Result runPipeline(DeviceContext& device, PixelSource&& input, const Spec& spec) {
    return runPipeline(device, std::move(input), stagesOf(spec));
}

// What the stages compute, from their CPU references, in order (a histogram of the result is
// histogram::referenceHistogram of this image).
ImageRGBA8 referencePipeline(const ImageRGBA8& image, const stages::StageList& stages);
inline ImageRGBA8 referencePipeline(const ImageRGBA8& image, const Spec& spec) {
    return referencePipeline(image, stagesOf(spec));
}

}  // namespace hs::pipeline
