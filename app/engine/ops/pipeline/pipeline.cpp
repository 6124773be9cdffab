#include "ops/pipeline/pipeline.hpp"

#include <algorithm>

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

}  // namespace

std::vector<Timing> Result::timings() const {
    std::vector<Timing> all;
    for (const auto& report : stages) {
        for (auto timing : report.timings) {
            timing.name = report.stage + ": " + timing.name;
            all.push_back(std::move(timing));
        }
    }
    return all;
}

ImageRGBA8 Result::readBack() {
    TimingLog log;
    const std::uint8_t* pixels = image.host(log);
    ImageRGBA8 out(image.width(), image.height());
    std::copy(pixels, pixels + out.byteCount(), out.pixels.begin());
    stages.push_back({"readback", {}, {}, log.collect()});
    return out;
}

Result runPipeline(DeviceContext& device, PixelSource& input, const Spec& spec) {
    validate(spec);
    requirePixels(input.width(), input.height(), "pipeline");
    std::vector<StageReport> stages;
    std::optional<PixelSource> processed;
    const auto current = [&]() -> PixelSource& { return processed ? *processed : input; };

    if (spec.rotation) {
        auto result = rotate::rotate(device, current(), spec.rotation->params, *spec.rotation->strategy);
        stages.push_back(
            {"rotate", std::move(result.strategy), std::move(result.note), std::move(result.timings)});
        processed.emplace(std::move(result.image));
    }
    if (spec.convolution) {
        auto result =
            convolve::convolve(device, current(), spec.convolution->filter, *spec.convolution->strategy);
        stages.push_back(
            {"convolve", std::move(result.strategy), std::move(result.note), std::move(result.timings)});
        processed.emplace(std::move(result.image));
    }
    std::optional<histogram::Histogram> counts;
    std::optional<histogram::Histogram> values;
    if (spec.histogram) {
        auto result = histogram::computeHistogram(&device, current(), spec.histogram->params,
                                                  *spec.histogram->strategy);
        stages.push_back({"histogram", std::move(result.strategy), {}, std::move(result.timings)});
        counts = std::move(result.histogram);
        values = std::move(result.values);
    }
    if (!processed) {
        // No image stage: the input itself is the output, and it belongs on the device like any stage's
        // output.
        TimingLog log;
        const cl::Buffer& buffer = input.device(device, log);
        processed.emplace(device, buffer, input.width(), input.height());
        if (auto timings = log.collect(); !timings.empty())
            stages.push_back({"upload", {}, {}, std::move(timings)});
    }
    return {std::move(*processed), std::move(counts), std::move(values), std::move(stages)};
}

ImageRGBA8 referencePipeline(const ImageRGBA8& image, const Spec& spec) {
    validate(spec);
    ImageRGBA8 out = spec.rotation ? rotate::referenceRotate(image, spec.rotation->params) : image;
    if (spec.convolution) out = convolve::referenceConvolve(out, spec.convolution->filter);
    return out;
}

}  // namespace hs::pipeline
