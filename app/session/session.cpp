#include "session/session.hpp"

#include "engine/ops/device_launch.hpp"
#include "engine/runtime/error.hpp"
#include "engine/stages/builtin.hpp"

namespace hs::session {

namespace {

// The registered strategy called `name` (what ran: a fallback or auto's choice included), else `requested`
// (pipe mode's own consumer kernel, which no registry lists).
template <typename List>
const StrategyInfo* ranOr(const List& strategies, const std::string& name, const StrategyInfo* requested) {
    for (const auto* strategy : strategies)
        if (strategy->name() == name) return strategy;
    return requested;
}

// One device's records of a two-device run as the report of the stage it ran.
pipeline::StageReport stageOnDevice(const std::shared_ptr<const stages::Stage>& stage,
                                    const StrategyInfo* strategy, const produce_consume::DeviceTimings& ran) {
    pipeline::StageReport report;
    report.stage = std::string(stage->kind().name());
    report.configured = stage;
    report.strategy = strategy;
    report.builds = ran.builds;
    report.timings = ran.timings;
    for (auto& timing : report.timings)
        if (!timing.host) timing.device = ran.device;
    return report;
}

}  // namespace

Session::Session(ProgramCacheSettings cacheSettings) : runtime_(std::move(cacheSettings)) {}

DeviceContext& Session::device(std::string_view selector) {
    return runtime_.open(selector);
}

RunReport Session::run(const RunSpec& spec) {
    if (!spec.image) throw UsageError("run: no image");
    if (spec.onHost) return runOnHost(spec);
    if (spec.twoDevices) return runTwoDevices(spec);
    return runOnDevice(spec, spec.context ? *spec.context : device(spec.device));
}

RunReport Session::run(DeviceContext& device, PixelSource&& input, const stages::StageList& stages) {
    return {device.info(), pipeline::runPipeline(device, std::move(input), stages), {}, {}};
}

std::optional<measure::Measurement> Session::measure(const RunSpec& spec, const measure::Plan& plan,
                                                     const std::function<bool()>& proceed,
                                                     const std::function<void(RunReport&)>& each) {
    int runs = 0;
    return measure::measureWhile(
        plan,
        [&] {
            RunReport report = run(spec);
            std::vector<Timing> timings = report.result.timings();
            if (++runs > plan.warmUps) each(report);
            return timings;
        },
        proceed);
}

RunReport Session::runOnDevice(const RunSpec& spec, DeviceContext& device) {
    TimingLog uploadLog;
    PixelSource input = inputFor(spec.image, device, uploadLog);
    pipeline::Result result = pipeline::runPipeline(device, input, spec.stages);
    if (auto timings = uploadLog.collect(); !timings.empty()) {
        pipeline::StageReport upload;
        upload.stage = std::string(pipeline::kUpload);
        upload.timings = std::move(timings);
        result.stages.insert(result.stages.begin(), std::move(upload));
    }
    return {device.info(), std::move(result), {}, {}};
}

RunReport Session::runOnHost(const RunSpec& spec) {
    stages::validateOrder(spec.stages);
    PixelSource input(*spec.image);
    pipeline::Result result{PixelSource(*spec.image), {}, std::nullopt, std::nullopt, {}, std::nullopt, {}};
    for (const auto& stage : spec.stages) {
        stages::StageRun ran = stage->run(nullptr, input);  // an image stage refuses: it needs a device
        if (ran.histogram) result.histogram = std::move(ran.histogram);
        if (ran.values) result.values = std::move(ran.values);
        if (ran.scope) {
            result.scopes.push_back(*ran.scope);
            result.scope = std::move(ran.scope);
        }
        pipeline::StageReport report;
        static_cast<RunRecord&>(report) = std::move(ran);
        report.stage = std::string(stage->kind().name());
        report.configured = stage;
        result.stages.push_back(std::move(report));
    }
    return {DeviceInfo{}, std::move(result), {}, {}};
}

RunReport Session::runTwoDevices(const RunSpec& spec) {
    const stages::StageList& list = spec.stages;
    const convolve::Filter* filter = list.size() == 2 ? stages::filterOf(*list[0]) : nullptr;
    const histogram::Params* counting = list.size() == 2 ? stages::histogramParamsOf(*list[1]) : nullptr;
    if (!filter || !counting)
        throw UsageError("two devices run a convolution, then a histogram, and no other stage");
    // The consumer counts the producer's chunks as they come; a region would need its rows picked from them.
    if (counting->roi) throw UsageError("two devices count the whole image: --roi runs on one device");
    DeviceContext& producer = device(spec.device);
    DeviceContext& consumer = device(spec.twoDevices->consumer);
    produce_consume::Params params;
    params.filter = *filter;
    params.convolution = dynamic_cast<const convolve::Strategy*>(list[0]->requestedStrategy());
    params.histogram = *counting;
    params.histogramStrategy = dynamic_cast<const histogram::Strategy*>(list[1]->requestedStrategy());
    params.mode = spec.twoDevices->mode;
    params.chunks = spec.twoDevices->chunks;
    // The convolved image the histogram describes, on the producer, as a one-device run reports its image.
    PixelSource convolved{ImageRGBA8()};
    produce_consume::Result ran = produce_consume::run(producer, consumer, *spec.image, params, &convolved);

    pipeline::Result result{std::move(convolved), producer.info().name, ran.histogram, ran.values, {},
                            std::nullopt};
    result.stages.push_back(stageOnDevice(
        list[0], ranOr(convolve::strategies(), ran.convolutionStrategy, params.convolution), ran.devices[0]));
    result.stages.push_back(stageOnDevice(
        list[1], ranOr(histogram::strategies(), ran.histogramStrategy, params.histogramStrategy),
        ran.devices[1]));
    for (const auto& note : ran.notes)
        result.stages.back().note += (result.stages.back().note.empty() ? "" : "; ") + note;
    return {producer.info(), std::move(result), consumer.info(), std::move(ran)};
}

PixelSource Session::inputFor(const std::shared_ptr<const ImageRGBA8>& image, DeviceContext& device,
                              TimingLog& log) {
    // The image stays on the device between runs of the same image there: uploaded once instead of every run
    // (4.7 of a 4K run's 8.4 ms on the H100). Only where that copy is small beside the device's memory (a CPU
    // device's is the host's) and fits one buffer; otherwise the stages take the host pixels (bands, tiles).
    const DeviceInfo& info = device.info();
    if (image->byteCount() > info.globalMemBytes / 8 ||
        !launch::pixelBufferProblem(info, image->width, image->height).empty()) {
        cachedInput_.reset();
        return PixelSource(*image);
    }
    if (!cachedInput_ || cachedInput_->image != image || cachedInput_->context != device.context()()) {
        cachedInput_.reset();  // the previous image's pixels go before the new ones arrive
        PixelSource host(*image);
        const cl::Buffer& buffer = host.device(device, log);
        cachedInput_ = CachedInput{image, device.context()(), buffer};
    }  // `host` waited for its upload as it went: the buffer holds the pixels for every later command
    return PixelSource(device, cachedInput_->buffer, image->width, image->height);
}

}  // namespace hs::session
