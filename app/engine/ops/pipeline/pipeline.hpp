#pragma once
// image -> rotate -> convolve -> histogram on one device, each stage optional. The pixels stay on the device
// between stages (each stage hands the next a device PixelSource); the processed image stays there too, for
// display (a shared GL texture) or a readback on request.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "image/image.hpp"
#include "image/pixel_source.hpp"
#include "ops/convolve/convolve.hpp"
#include "ops/histogram/histogram.hpp"
#include "ops/rotate/rotate.hpp"
#include "runtime/timing.hpp"

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
};

struct HistogramStage {
    histogram::Params params;
    const histogram::Strategy* strategy = histogram::strategies().front();
};

struct Spec {
    std::optional<RotateStage> rotation;
    std::optional<ConvolveStage> convolution;
    std::optional<HistogramStage> histogram;
};

// What a stage of a run is: an operation, or a transfer around them (the pixels uploaded when no image stage
// ran, read back on request, handed to the display).
enum class StageKind { Upload, Rotate, Convolve, Histogram, Readback, Display };

// "upload", "rotate", "convolve", "histogram", "readback", "display": the JSON's and the timings' names.
std::string_view stageKindName(StageKind kind);
// The stage an operation runs as.
StageKind stageOf(OperationKind operation);

// One stage as it ran: for an operation, its strategy (what ran, the note, the builds it used); for a
// transfer, no strategy and its timings only.
struct StageReport : RunRecord {
    StageKind stage = StageKind::Upload;
};

struct Result {
    PixelSource image;  // the processed image (the last image stage's output buffer), on the device
    std::optional<histogram::Histogram> histogram;  // the requested bins
    std::optional<histogram::Histogram> values;     // the 256 values (histogram::Result::values)
    std::vector<StageReport> stages;

    // The report of the `kind` stage, or null when none ran.
    const StageReport* stage(StageKind kind) const;
    // Every command of every stage in order, each name prefixed by its stage ("rotate: rotate_image").
    std::vector<Timing> timings() const;
    // The processed pixels on the host; the transfer is recorded as a "readback" stage.
    ImageRGBA8 readBack();
    // Lends `use` the processed pixels on the host without a copy of ours (PixelSource::withHostPixels: the
    // device buffer mapped), for an encoder that only reads them; recorded as a "readback" stage.
    void withPixels(const std::function<void(const std::uint8_t*)>& use);
};

// Validates every stage first (UsageError before anything runs), then runs them in order on `device`. An
// `input` that borrows its pixels stays as it was (a caller may run again on it); pixels it owns go where the
// first stage uploads them (PixelSource::device, writeTo).
Result runPipeline(DeviceContext& device, PixelSource& input, const Spec& spec);
// The same, consuming `input`: its pixels (host or device) go once the first image stage has read them, so
// that a big image is not held as the input beside every later stage's output.
Result runPipeline(DeviceContext& device, PixelSource&& input, const Spec& spec);

// What the pipeline computes, from the CPU references: rotate, then convolve (the histogram of the result is
// histogram::referenceHistogram of this image).
ImageRGBA8 referencePipeline(const ImageRGBA8& image, const Spec& spec);

}  // namespace hs::pipeline
