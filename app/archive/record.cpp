#include "archive/record.hpp"

#include <chrono>
#include <ctime>
#include <random>

#include "engine/runtime/kernel_sources.hpp"
#include "engine/util/hash.hpp"
#include "histoscope_version.hpp"
#include "io/decode/image_codecs.hpp"

namespace hs::archive {

namespace {

std::string utcNow() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

// 128 random bits as hex: unique without asking the database (a run kept pending has its uid before it has a
// number).
std::string freshUid() {
    std::random_device entropy;
    std::mt19937_64 bits((static_cast<std::uint64_t>(entropy()) << 32) ^ entropy());
    return toHex(bits()) + toHex(bits() ^ static_cast<std::uint64_t>(
                                              std::chrono::steady_clock::now().time_since_epoch().count()));
}

std::string sourceHash(const std::string& source) {
    for (const auto& embedded : kernelSources())
        if (embedded.name == source) return toHex(fnv1a64(embedded.text));
    return {};
}

}  // namespace

Record freshRecord(std::string command) {
    Record record;
    record.uid = freshUid();
    record.recordedAt = utcNow();
    record.version = HISTOSCOPE_VERSION_LINE;
    record.command = std::move(command);
    return record;
}

void setDevice(Record& record, const DeviceInfo& device) {
    record.device = device.name;
    record.driver = device.driverVersion;
    record.platform = device.platformName + " " + device.platformVersion;
}

void addTimings(Record& record, const std::vector<Timing>& timings, int repetition) {
    for (const auto& timing : timings)
        record.timings.push_back({repetition, timing.step, timing.name, std::string(stageName(timing.stage)),
                                  timing.device, timing.durationNs()});
}

std::string Record::strategies() const {
    std::string list;
    for (const auto& stage : stages) {
        if (stage.strategy.empty()) continue;
        if (!list.empty()) list += ',';
        list += stage.strategy;
    }
    return list;
}

std::string contentHash(int width, int height, const std::uint8_t* pixels) {
    const std::string size = std::to_string(width) + "x" + std::to_string(height);
    const std::uint64_t hash = fnv1a64(size);
    const auto bytes = static_cast<std::size_t>(width) * static_cast<std::size_t>(height) * 4;
    return toHex(fnv1a64({reinterpret_cast<const char*>(pixels), bytes}, hash));
}

std::string contentHash(const ImageRGBA8& image) {
    return contentHash(image.width, image.height, image.pixels.data());
}

ImageIdentity identify(std::string path, const ImageRGBA8& image) {
    return {std::move(path), image.width, image.height, contentHash(image)};
}

OutputImage outputOf(int width, int height, const std::uint8_t* pixels) {
    OutputImage output{contentHash(width, height, pixels), {}};
    if (static_cast<std::uint64_t>(width) * static_cast<std::uint64_t>(height) > kMaxEncodedOutputPixels)
        return output;
    std::string png = io::encodeImage("png", pixels, width, height, "output image");
    if (png.size() <= kMaxKeptOutputBytes) output.png = std::move(png);
    return output;
}

ImageRGBA8 keptOutput(const Record& record) {
    return io::decodeImage(reinterpret_cast<const std::uint8_t*>(record.outputPng.data()),
                           record.outputPng.size(), "run " + std::to_string(record.id) + "'s output image",
                           io::defaultMaxImageBytes());
}

Record recordOf(std::string command, ImageIdentity image, const stages::StageList& stages,
                const session::RunReport& first, OutputImage output) {
    Record record = freshRecord(std::move(command));
    if (first.onDevice())
        setDevice(record, first.device);
    else
        record.device = "host";
    record.image = std::move(image);
    for (const auto& stage : stages) {
        StageEntry entry;
        entry.kind = std::string(stage->kind().name());
        if (const auto* requested = stage->requestedStrategy())
            entry.requested = std::string(requested->name());
        entry.values.insert(stage->values().begin(), stage->values().end());
        for (const auto& ran : first.result.stages) {
            if (ran.configured != stage) continue;
            entry.strategy = ran.strategyName();
            entry.note = ran.note;
            for (const auto& build : ran.builds)
                entry.builds.push_back({build.source, build.options, sourceHash(build.source)});
        }
        record.stages.push_back(std::move(entry));
    }
    if (const auto& counted = first.result.histogram) {
        record.bins = counted->bins;
        for (const auto channel : histogram::kChannels)
            record.histogram[std::string(histogram::channelName(channel))] = (*counted)[channel];
    }
    record.outputHash = std::move(output.hash);
    record.outputPng = std::move(output.png);
    addRepetition(record, first);
    return record;
}

void addRepetition(Record& record, const session::RunReport& report) {
    addTimings(record, report.result.timings(), ++record.repetitions);
}

session::RunReport reportOfStage(const DeviceInfo& device, const std::shared_ptr<const stages::Stage>& stage,
                                 stages::StageRun run) {
    pipeline::Result result{
        PixelSource(ImageRGBA8()), device.name, std::move(run.histogram), std::move(run.values), {}};
    pipeline::StageReport report;
    static_cast<RunRecord&>(report) = std::move(run);
    report.stage = std::string(stage->kind().name());
    report.configured = stage;
    result.stages.push_back(std::move(report));
    return {device, std::move(result), {}, {}};
}

}  // namespace hs::archive
