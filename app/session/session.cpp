#include "session/session.hpp"

#include "ops/pipeline/stage_launch.hpp"
#include "runtime/error.hpp"

namespace hs::session {

Session::Session(ProgramCacheSettings cacheSettings) : runtime_(std::move(cacheSettings)) {}

DeviceContext& Session::device(std::string_view selector) {
    return runtime_.open(selector);
}

RunReport Session::run(const RunSpec& spec) {
    return run(spec, device(spec.device));
}

RunReport Session::run(const RunSpec& spec, DeviceContext& device) {
    if (!spec.image) throw UsageError("run: no image");
    TimingLog uploadLog;
    PixelSource input = inputFor(spec.image, device, uploadLog);
    pipeline::Result result = pipeline::runPipeline(device, input, spec.stages);
    if (auto timings = uploadLog.collect(); !timings.empty()) {
        pipeline::StageReport upload;
        upload.stage = std::string(pipeline::kUpload);
        upload.timings = std::move(timings);
        result.stages.insert(result.stages.begin(), std::move(upload));
    }
    return {device.info(), std::move(result)};
}

RunReport Session::run(DeviceContext& device, PixelSource&& input, const stages::StageList& stages) {
    return {device.info(), pipeline::runPipeline(device, std::move(input), stages)};
}

PixelSource Session::inputFor(const std::shared_ptr<const ImageRGBA8>& image, DeviceContext& device,
                              TimingLog& log) {
    // The image stays on the device between runs of the same image there: uploaded once instead of every run
    // (4.7 of a 4K run's 8.4 ms on the H100). Only where that copy is small beside the device's memory (a CPU
    // device's is the host's) and fits one buffer; otherwise the stages take the host pixels (bands, tiles).
    const DeviceInfo& info = device.info();
    if (image->byteCount() > info.globalMemBytes / 8 ||
        !pipeline::pixelBufferProblem(info, image->width, image->height).empty()) {
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
