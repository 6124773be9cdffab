#include "engine/ops/produce_consume/produce_consume.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <utility>

#include "engine/ops/device_launch.hpp"
#include "engine/ops/produce_consume/chunk_schedule.hpp"
#include "engine/ops/strategy.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::produce_consume {

namespace {

constexpr std::array<std::pair<Mode, std::string_view>, 3> kModes{
    {{Mode::Auto, "auto"}, {Mode::Buffer, "buffer"}, {Mode::Pipe, "pipe"}}};

std::string describe(const DeviceInfo& device) {
    return device.selector() + " (" + device.name + ")";
}

using Interval = std::pair<std::uint64_t, std::uint64_t>;

// The device records' start -> end intervals on the host clock (two devices' clocks differ), merged into
// disjoint ones, in order.
std::vector<Interval> busyIntervals(const std::vector<Timing>& timings) {
    std::vector<Interval> intervals;
    for (const auto& timing : timings) {
        if (!timing.host && timing.endNs > timing.startNs)
            intervals.emplace_back(timing.hostStartNs(), timing.hostEndNs());
    }
    std::sort(intervals.begin(), intervals.end());
    std::vector<Interval> merged;
    for (const auto& interval : intervals) {
        if (!merged.empty() && interval.first <= merged.back().second)
            merged.back().second = std::max(merged.back().second, interval.second);
        else
            merged.push_back(interval);
    }
    return merged;
}

// Sorted by when they were queued: a mode's records come from the strategies and its own log.
std::vector<Timing> inQueueOrder(std::vector<Timing> timings) {
    std::stable_sort(timings.begin(), timings.end(),
                     [](const Timing& a, const Timing& b) { return a.hostQueuedNs() < b.hostQueuedNs(); });
    return timings;
}

DeviceTimings deviceTimings(std::string role, const DeviceInfo& device, std::vector<Timing> timings,
                            std::vector<KernelBuild> builds) {
    return {std::move(role), device.selector(), device.name, std::move(timings), std::move(builds)};
}

// The whole image convolved on the producer, then counted on the consumer, nothing overlapping.
Baseline measureBaseline(DeviceContext& producer, DeviceContext& consumer, const ImageRGBA8& image,
                         const Params& params, PixelSource* convolvedOut) {
    PixelSource pixels(image);
    convolve::Result convolved = convolve::convolve(producer, pixels, params.filter, *params.convolution);
    // The convolved pixels are in the shared context: the consumer reads them without a transfer.
    histogram::Result counted =
        histogram::computeHistogram(&consumer, convolved.image, params.histogram, *params.histogramStrategy);
    Baseline baseline;
    baseline.devices.push_back(deviceTimings("producer", producer.info(), std::move(convolved.timings),
                                             std::move(convolved.builds)));
    baseline.devices.push_back(
        deviceTimings("consumer", consumer.info(), std::move(counted.timings), std::move(counted.builds)));
    baseline.spanNs = spanNs(baseline.devices);
    if (convolvedOut) *convolvedOut = std::move(convolved.image);
    return baseline;
}

// The chunks the run uses: `requested` of them, or more, each smaller, where a chunk's rows (with the
// filter's halo) would not fit in one allocation of both devices, as the README promises for images beyond a
// device's largest allocation. `note` then says so. Throws OpenClError when not even chunks of one row fit.
std::vector<ChunkRows> fittingChunks(const DeviceInfo& producer, const DeviceInfo& consumer, int width,
                                     int height, int requested, const convolve::Filter& filter,
                                     std::string& note) {
    auto chunks = splitRows(height, requested, filter);
    const DeviceInfo& smaller =
        consumer.maxAllocBytes != 0 &&
                (producer.maxAllocBytes == 0 || consumer.maxAllocBytes < producer.maxAllocBytes)
            ? consumer
            : producer;
    const std::uint64_t limit = smaller.maxAllocBytes;
    // The largest buffer a chunk needs: its rows with the halo (uploaded and convolved); its own rows, handed
    // over, are fewer.
    const auto needs = [&](const std::vector<ChunkRows>& split) {
        return static_cast<std::uint64_t>(detail::rowBytes(width, detail::largestChunk(split).inputRows));
    };
    if (limit == 0 || needs(chunks) <= limit) return chunks;
    const std::uint64_t requestedBytes = needs(chunks);
    const std::uint64_t row = detail::rowBytes(width, 1);
    const auto halo = static_cast<std::uint64_t>(filter.height - 1);
    if (row * (1 + halo) > limit)
        throw OpenClError("cutting the image into chunks", 0,
                          "device " + describe(smaller) + ": a chunk of one row of " + std::to_string(width) +
                              " pixels with the filter's " + std::to_string(halo) + " rows of halo needs " +
                              std::to_string(row * (1 + halo)) +
                              " bytes, more than the device's largest allocation (" + std::to_string(limit) +
                              " bytes); produce-consume cuts images into rows only");
    // As many rows per chunk as fit beside the halo, then one chunk more until the uneven split fits too.
    const std::uint64_t rowsPerChunk = limit / row - halo;
    auto count = static_cast<int>(
        std::min<std::uint64_t>(static_cast<std::uint64_t>(height),
                                (static_cast<std::uint64_t>(height) + rowsPerChunk - 1) / rowsPerChunk));
    count = std::max(count, requested);
    while (needs(chunks = splitRows(height, count, filter)) > limit && count < height) ++count;
    note = "chunks of " + std::to_string(requestedBytes) + " bytes exceed device " + describe(smaller) +
           "'s largest allocation (" + std::to_string(limit) + " bytes): ran in " + std::to_string(count) +
           " chunks instead of " + std::to_string(requested);
    return chunks;
}

std::string joined(const std::vector<std::string>& items) {
    std::string text;
    for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
    return text;
}

}  // namespace

std::string_view modeName(Mode mode) {
    for (const auto& [value, name] : kModes) {
        if (value == mode) return name;
    }
    return "auto";
}

Mode parseMode(std::string_view name) {
    for (const auto& [value, known] : kModes) {
        if (sameNameIgnoringCase(known, name)) return value;
    }
    throw UsageError("unknown mode '" + std::string(name) + "' (known: auto, buffer, pipe)");
}

std::string checkPair(const DeviceInfo& producer, const DeviceInfo& consumer) {
    if (producer.platformIndex != consumer.platformIndex)
        throw OpenClError("pairing devices", 0,
                          "devices " + describe(producer) + " and " + describe(consumer) +
                              " are on two platforms (" + producer.platformName + ", " +
                              consumer.platformName +
                              "): a chunk passes between devices only within one platform's context");
    if (producer.deviceIndex == consumer.deviceIndex)
        return "the same device " + describe(producer) +
               " produces and consumes: one in-order queue runs both stages, so nothing overlaps";
    return {};
}

std::string pipeProblem(const DeviceInfo& producer, const DeviceInfo& consumer) {
    for (const DeviceInfo* device : {&producer, &consumer}) {
        if (!device->pipeSupport)
            return "device " + describe(*device) + " has no pipe support (CL_DEVICE_PIPE_SUPPORT is false, " +
                   device->openclVersion + ")";
    }
    return {};
}

Mode resolveMode(Mode requested, const DeviceInfo& producer, const DeviceInfo& consumer) {
    const std::string problem = pipeProblem(producer, consumer);
    switch (requested) {
        case Mode::Auto:
            return problem.empty() ? Mode::Pipe : Mode::Buffer;
        case Mode::Pipe:
            if (!problem.empty()) throw OpenClError("choosing pipe mode", 0, problem);
            return Mode::Pipe;
        case Mode::Buffer:
            break;
    }
    return Mode::Buffer;
}

std::vector<ChunkRows> splitRows(int height, int chunks, const convolve::Filter& filter) {
    if (chunks < 1 || chunks > height)
        throw UsageError("chunks must lie within 1.." + std::to_string(height) +
                         " (one chunk per row at most), got " + std::to_string(chunks));
    const int above = filter.anchorY();
    const int below = filter.height - 1 - filter.anchorY();
    std::vector<ChunkRows> rows;
    int first = 0;
    for (int k = 0; k < chunks; ++k) {
        const int count = height / chunks + (k < height % chunks ? 1 : 0);
        const int inputFirst = std::max(0, first - above);
        const int inputEnd = std::min(height, first + count + below);
        rows.push_back({first, count, inputFirst, inputEnd - inputFirst});
        first += count;
    }
    return rows;
}

std::uint64_t overlapNs(const std::vector<Timing>& a, const std::vector<Timing>& b) {
    const auto left = busyIntervals(a);
    const auto right = busyIntervals(b);
    std::uint64_t overlap = 0;
    std::size_t i = 0;
    std::size_t j = 0;
    while (i < left.size() && j < right.size()) {
        const std::uint64_t from = std::max(left[i].first, right[j].first);
        const std::uint64_t to = std::min(left[i].second, right[j].second);
        if (to > from) overlap += to - from;
        // The interval that ends first cannot meet any later one of the other list.
        if (left[i].second < right[j].second)
            ++i;
        else
            ++j;
    }
    return overlap;
}

std::uint64_t spanNs(const std::vector<DeviceTimings>& devices) {
    std::uint64_t first = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t last = 0;
    for (const auto& device : devices) {
        for (const auto& timing : device.timings) {
            if (timing.host) continue;
            first = std::min(first, timing.hostStartNs());
            last = std::max(last, timing.hostEndNs());
        }
    }
    return last > first ? last - first : 0;
}

double Result::speedUp() const {
    return spanNs == 0 ? 0.0 : static_cast<double>(baseline.spanNs) / static_cast<double>(spanNs);
}

Result run(DeviceContext& producer, DeviceContext& consumer, const ImageRGBA8& image, const Params& params,
           PixelSource* convolved) {
    convolve::validate(params.filter);
    histogram::validate(params.histogram);
    launch::requirePixels(image.width, image.height, "produce-consume");
    std::string chunkNote;
    const auto chunks = fittingChunks(producer.info(), consumer.info(), image.width, image.height,
                                      params.chunks, params.filter, chunkNote);
    const std::string pairNote = checkPair(producer.info(), consumer.info());
    const Mode mode = resolveMode(params.mode, producer.info(), consumer.info());

    Result result;
    result.mode = mode;
    result.chunks = chunks;
    result.baseline = measureBaseline(producer, consumer, image, params, convolved);
    detail::ModeRun ran = mode == Mode::Pipe
                              ? detail::runPipeMode(producer, consumer, image, params, chunks)
                              : detail::runBufferMode(producer, consumer, image, params, chunks);

    result.values = std::move(ran.values);
    result.histogram = result.values.rebinned(params.histogram.bins);
    result.convolutionStrategy = joined(ran.convolutionStrategies);
    result.histogramStrategy = joined(ran.histogramStrategies);
    detail::addOnce(result.notes, pairNote);
    detail::addOnce(result.notes, chunkNote);
    for (const auto& note : ran.notes) detail::addOnce(result.notes, note);
    if (params.mode == Mode::Auto && mode == Mode::Buffer)
        result.notes.push_back("auto chose buffer mode: " + pipeProblem(producer.info(), consumer.info()));
    if (mode == Mode::Pipe)
        result.notes.push_back("pipe mode counts with its own consumer kernel; histogram strategy " +
                               std::string(params.histogramStrategy->name()) + " not used");
    result.devices.push_back(deviceTimings("producer", producer.info(), inQueueOrder(std::move(ran.producer)),
                                           std::move(ran.producerBuilds)));
    result.devices.push_back(deviceTimings("consumer", consumer.info(), inQueueOrder(std::move(ran.consumer)),
                                           std::move(ran.consumerBuilds)));
    result.spanNs = spanNs(result.devices);
    result.overlapNs = overlapNs(result.devices[0].timings, result.devices[1].timings);
    return result;
}

}  // namespace hs::produce_consume
