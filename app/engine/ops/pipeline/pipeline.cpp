#include "engine/ops/pipeline/pipeline.hpp"

#include <algorithm>

#include "engine/ops/device_launch.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"
#include "engine/stages/builtin.hpp"

namespace hs::pipeline {

namespace {

// The report of a transfer stage.
StageReport transfer(std::string_view name, std::vector<Timing> timings) {
    StageReport report;
    report.stage = std::string(name);
    report.timings = std::move(timings);
    return report;
}

}  // namespace

stages::StageList stagesOf(const Spec& spec) {
    stages::StageList list;
    if (spec.rotation) {
        rotate::validate(spec.rotation->params);
        if (!spec.rotation->strategy) throw UsageError("pipeline: the rotate stage has no strategy");
        list.push_back(stages::rotateStage(spec.rotation->params, *spec.rotation->strategy));
    }
    if (spec.convolution) {
        convolve::validate(spec.convolution->filter);
        if (!spec.convolution->strategy) throw UsageError("pipeline: the convolve stage has no strategy");
        list.push_back(stages::convolveStage(spec.convolution->filter, *spec.convolution->strategy,
                                             spec.convolution->spec));
    }
    if (spec.histogram) {
        histogram::validate(spec.histogram->params);
        if (!spec.histogram->strategy) throw UsageError("pipeline: the histogram stage has no strategy");
        list.push_back(stages::histogramStage(spec.histogram->params, *spec.histogram->strategy));
    }
    return list;
}

const StageReport* Result::stage(std::string_view name) const {
    const auto found = std::find_if(stages.begin(), stages.end(),
                                    [name](const StageReport& report) { return report.stage == name; });
    return found == stages.end() ? nullptr : &*found;
}

std::vector<Timing> Result::timings() const {
    std::vector<Timing> all;
    for (const auto& report : stages) {
        for (auto timing : report.timings) {
            timing.name = report.stage + ": " + timing.name;
            timing.step = report.stage;
            if (!timing.host && timing.device.empty())
                timing.device = device;  // a two-device run sets its own
            all.push_back(std::move(timing));
        }
    }
    return all;
}

ImageRGBA8 Result::readBack() {
    TimingLog log;
    ImageRGBA8 out(image.width(), image.height());
    image.copyTo(out.pixels.data(), log);
    stages.push_back(transfer(kReadback, log.collect()));
    return out;
}

void Result::withPixels(const std::function<void(const std::uint8_t*)>& use) {
    TimingLog log;
    image.withHostPixels(log, use);
    stages.push_back(transfer(kReadback, log.collect()));
}

namespace {

// runPipeline's stages on `input`, which `owner` holds when the run consumes it: then it goes once the first
// image stage has read it (its commands are enqueued; a released buffer lives until they complete).
Result runStages(DeviceContext& device, PixelSource& input, const stages::StageList& list,
                 std::optional<PixelSource>* owner) {
    stages::validateOrder(list);
    launch::requirePixels(input.width(), input.height(), "pipeline");
    Result result{
        PixelSource(ImageRGBA8()), device.info().name, std::nullopt, std::nullopt, {}, std::nullopt};
    std::optional<PixelSource> processed;
    const auto current = [&]() -> PixelSource& { return processed ? *processed : input; };

    for (const auto& stage : list) {
        stages::StageRun ran = stage->run(&device, current());
        if (ran.image) {
            if (!processed && owner) owner->reset();
            processed.emplace(std::move(*ran.image));
        }
        if (ran.histogram) result.histogram = std::move(ran.histogram);
        if (ran.values) result.values = std::move(ran.values);
        if (ran.scope) {
            result.scopes.push_back(*ran.scope);
            result.scope = std::move(ran.scope);
        }
        StageReport report;
        report.referenceCheck = std::move(ran.referenceCheck);
        static_cast<RunRecord&>(report) = std::move(ran);
        report.stage = std::string(stage->kind().name());
        report.configured = stage;
        result.stages.push_back(std::move(report));
    }
    if (!processed && !input.onDevice(device) &&
        !launch::pixelBufferProblem(device.info(), input.width(), input.height()).empty()) {
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
            result.stages.push_back(transfer(kUpload, std::move(timings)));
    }
    result.image = std::move(*processed);
    return result;
}

}  // namespace

Result runPipeline(DeviceContext& device, PixelSource& input, const stages::StageList& stages) {
    return runStages(device, input, stages, nullptr);
}

Result runPipeline(DeviceContext& device, PixelSource&& input, const stages::StageList& stages) {
    std::optional<PixelSource> owned(std::move(input));
    return runStages(device, *owned, stages, &owned);
}

ImageRGBA8 referencePipeline(const ImageRGBA8& image, const stages::StageList& stages) {
    stages::validateOrder(stages);
    ImageRGBA8 out = image;
    for (const auto& stage : stages) out = stage->reference(out);
    return out;
}

}  // namespace hs::pipeline
