#include "ops/pipeline/pipeline.hpp"

#include <algorithm>
#include <stdexcept>

#include "ops/pipeline/stage_launch.hpp"
#include "runtime/error.hpp"
#include "runtime/runtime.hpp"

namespace hs::pipeline {

namespace {

void validate(const Spec& spec) {
    if (spec.rotation) {
        rotate::validate(spec.rotation->params);
        if (!spec.rotation->strategy) throw UsageError("pipeline: the rotate stage has no strategy");
    }
    if (spec.convolution) {
        convolve::validate(spec.convolution->filter);
        if (!spec.convolution->strategy) throw UsageError("pipeline: the convolve stage has no strategy");
    }
    if (spec.histogram) {
        histogram::validate(spec.histogram->params);
        if (!spec.histogram->strategy) throw UsageError("pipeline: the histogram stage has no strategy");
    }
}

// The report of a transfer stage.
StageReport transfer(StageKind kind, std::vector<Timing> timings) {
    StageReport report;
    report.stage = kind;
    report.timings = std::move(timings);
    return report;
}

// The report of an operation's stage: the RunRecord part of its result (the output stays where it is).
StageReport ran(RunRecord&& record) {
    const StageKind kind = stageOf(record.strategy->operation());
    return {std::move(record), kind};
}

}  // namespace

std::string_view stageKindName(StageKind kind) {
    switch (kind) {
        case StageKind::Upload:
            return "upload";
        case StageKind::Rotate:
            return "rotate";
        case StageKind::Convolve:
            return "convolve";
        case StageKind::Histogram:
            return "histogram";
        case StageKind::Readback:
            return "readback";
        case StageKind::Display:
            break;
    }
    return "display";
}

StageKind stageOf(OperationKind operation) {
    switch (operation) {
        case OperationKind::Rotate:
            return StageKind::Rotate;
        case OperationKind::Convolve:
            return StageKind::Convolve;
        case OperationKind::Bow:
            throw std::logic_error("visual words are not a stage of the pipeline");
        case OperationKind::Histogram:
            break;
    }
    return StageKind::Histogram;
}

const StageReport* Result::stage(StageKind kind) const {
    const auto found = std::find_if(stages.begin(), stages.end(),
                                    [kind](const StageReport& report) { return report.stage == kind; });
    return found == stages.end() ? nullptr : &*found;
}

std::vector<Timing> Result::timings() const {
    std::vector<Timing> all;
    for (const auto& report : stages) {
        for (auto timing : report.timings) {
            timing.name = std::string(stageKindName(report.stage)) + ": " + timing.name;
            all.push_back(std::move(timing));
        }
    }
    return all;
}

ImageRGBA8 Result::readBack() {
    TimingLog log;
    ImageRGBA8 out(image.width(), image.height());
    image.copyTo(out.pixels.data(), log);
    stages.push_back(transfer(StageKind::Readback, log.collect()));
    return out;
}

void Result::withPixels(const std::function<void(const std::uint8_t*)>& use) {
    TimingLog log;
    image.withHostPixels(log, use);
    stages.push_back(transfer(StageKind::Readback, log.collect()));
}

namespace {

// runPipeline's stages on `input`, which `owner` holds when the run consumes it: then it goes once the first
// image stage has read it (its commands are enqueued; a released buffer lives until they complete).
Result runStages(DeviceContext& device, PixelSource& input, const Spec& spec,
                 std::optional<PixelSource>* owner) {
    validate(spec);
    requirePixels(input.width(), input.height(), "pipeline");
    std::vector<StageReport> stages;
    std::optional<PixelSource> processed;
    const auto current = [&]() -> PixelSource& { return processed ? *processed : input; };
    const auto output = [&](PixelSource&& image) {
        if (!processed && owner) owner->reset();
        processed.emplace(std::move(image));
    };

    if (spec.rotation) {
        auto result = rotate::rotate(device, current(), spec.rotation->params, *spec.rotation->strategy);
        stages.push_back(ran(std::move(result)));
        output(std::move(result.image));
    }
    if (spec.convolution) {
        auto result =
            convolve::convolve(device, current(), spec.convolution->filter, *spec.convolution->strategy);
        stages.push_back(ran(std::move(result)));
        output(std::move(result.image));
    }
    std::optional<histogram::Histogram> counts;
    std::optional<histogram::Histogram> values;
    if (spec.histogram) {
        auto result = histogram::computeHistogram(&device, current(), spec.histogram->params,
                                                  *spec.histogram->strategy);
        stages.push_back(ran(std::move(result)));
        counts = std::move(result.histogram);
        values = std::move(result.values);
    }
    if (!processed && !input.onDevice(device) &&
        !pixelBufferProblem(device.info(), input.width(), input.height()).empty()) {
        // No image stage, and an input too big for the device: the output stays on the host with it (the
        // histogram counted it in bands).
        if (owner)
            processed.emplace(std::move(input));
        else
            processed.emplace(input);
    }
    if (!processed) {
        // No image stage: the input itself is the output, and it belongs on the device like any stage's
        // output.
        TimingLog log;
        const cl::Buffer& buffer = input.device(device, log);
        processed.emplace(device, buffer, input.width(), input.height());
        if (auto timings = log.collect(); !timings.empty())
            stages.push_back(transfer(StageKind::Upload, std::move(timings)));
    }
    return {std::move(*processed), std::move(counts), std::move(values), std::move(stages)};
}

}  // namespace

Result runPipeline(DeviceContext& device, PixelSource& input, const Spec& spec) {
    return runStages(device, input, spec, nullptr);
}

Result runPipeline(DeviceContext& device, PixelSource&& input, const Spec& spec) {
    std::optional<PixelSource> owned(std::move(input));
    return runStages(device, *owned, spec, &owned);
}

ImageRGBA8 referencePipeline(const ImageRGBA8& image, const Spec& spec) {
    validate(spec);
    ImageRGBA8 out = spec.rotation ? rotate::referenceRotate(image, spec.rotation->params) : image;
    if (spec.convolution) out = convolve::referenceConvolve(out, spec.convolution->filter);
    return out;
}

}  // namespace hs::pipeline
