// Two devices, one pipeline (ops/produce_consume), swept over the chunk count: a 5x5 Gaussian on the bench's
// device producing, the histogram on the next device of its platform consuming (the same device when
// it is alone there, which the row's detail says), the frame cut into 1, 2, 4, ... 32 chunks of rows.
//
// A row's time is the pipeline's span on the device clocks (the first command's start to the last command's
// end over both devices). Its extras, medians over the same repetitions: the overlap (both devices busy at
// once), the span of the two stages run one after the other on the same devices (measured in every
// repetition), and the speed-up (that span over the pipeline's). Every chunk count's histogram is checked
// against one chunk's.
//
// Measured at --frame's size once per pattern, like the frame suite (raw inputs as they are).
#include <cstdio>
#include <set>

#include "bench/inputs.hpp"
#include "bench/suite.hpp"
#include "ops/produce_consume/produce_consume.hpp"
#include "runtime/error.hpp"
#include "runtime/runtime.hpp"

namespace hs::bench {

namespace {

constexpr int kChunkCounts[] = {1, 2, 4, 8, 16, 32};

// The device after `producer` among its platform's devices, wrapping round; `producer` itself when it is
// alone.
const DeviceInfo& consumerFor(const std::vector<DeviceInfo>& devices, const DeviceInfo& producer) {
    const DeviceInfo* first = nullptr;
    for (const auto& device : devices) {
        if (device.platformIndex != producer.platformIndex) continue;
        if (first == nullptr) first = &device;
        if (device.deviceIndex == producer.deviceIndex + 1) return device;
    }
    return first != nullptr ? *first : producer;
}

void measurePipeline(SuiteContext& context, const Input& input, const ImageRGBA8& frame) {
    // A runtime of its own: both devices must share one context, which the bench's runtime made for its
    // device alone.
    static Runtime runtime;
    DeviceContext& producer = runtime.open(context.device->info().selector());
    DeviceContext& consumer = runtime.open(consumerFor(runtime.devices(), producer.info()));

    produce_consume::Params params;
    params.filter = convolve::gaussianFilter(5 / 6.0, 5);
    params.convolution = &convolve::findStrategy(defaultStrategyOf("convolve"));
    params.histogramStrategy = &histogram::findStrategy(defaultStrategyOf("histogram"));
    params.histogram.bins = context.options.bins;
    params.mode = produce_consume::Mode::Buffer;

    std::optional<histogram::Histogram> oneChunk;
    for (const int chunks : kChunkCounts) {
        if (chunks > frame.height) break;
        Row row;
        row.suite = "produce-consume";
        row.subject = "buffer " + std::to_string(chunks) + (chunks == 1 ? " chunk" : " chunks");
        row.input = input.name;
        row.bytes = frame.byteCount();
        // The span is on the device clocks, like a kernel time (measure::Clock::Kernel is named "device").
        row.clock = measure::Clock::Kernel;
        row.extra["chunks"] = chunks;
        row.extra["width"] = frame.width;
        row.extra["height"] = frame.height;
        params.chunks = chunks;
        try {
            const auto warmUp = produce_consume::run(producer, consumer, frame, params);
            if (!oneChunk) oneChunk = warmUp.histogram;
            std::vector<double> spans;
            std::vector<double> overlaps;
            std::vector<double> sequential;
            std::vector<double> speedUps;
            for (int i = 0; i < context.options.repetitions; ++i) {
                const auto result = produce_consume::run(producer, consumer, frame, params);
                spans.push_back(static_cast<double>(result.spanNs));
                overlaps.push_back(static_cast<double>(result.overlapNs));
                sequential.push_back(static_cast<double>(result.baseline.spanNs));
                speedUps.push_back(result.speedUp());
            }
            row.summary = measure::Summary::of(spans);
            row.extra["overlap_ns"] = measure::Summary::of(overlaps).median;
            row.extra["sequential_ns"] = measure::Summary::of(sequential).median;
            row.extra["speed_up"] = measure::Summary::of(speedUps).median;
            char text[96];
            std::snprintf(text, sizeof text, "speed-up %.2f, overlap %.1f%% of the span; ",
                          row.extra["speed_up"], 100.0 * row.extra["overlap_ns"] / row.summary->median);
            row.detail = text;
            if (warmUp.histogram != *oneChunk) row.detail += "WRONG RESULT (differs from one chunk); ";
            row.detail += "gaussian 5x5 " + warmUp.convolutionStrategy + " on " + producer.info().selector() +
                          ", histogram " + warmUp.histogramStrategy + " on " + consumer.info().selector();
            for (const auto& note : warmUp.notes) {
                if (note.find("same device") != std::string::npos) row.detail += "; " + note;
            }
        } catch (const Error& error) {
            row.summary.reset();
            row.detail = error.what();
        }
        context.report.add(std::move(row));
    }
}

void runProduceConsume(SuiteContext& context, Input& input) {
    static std::set<std::string> measured;
    if (!context.options.raw && !measured.insert(input.name).second) return;
    Row skipped;
    skipped.suite = "produce-consume";
    skipped.subject = "buffer";
    skipped.input = input.name;
    if (context.device == nullptr) {
        skipped.detail = context.deviceProblem;
        context.report.add(std::move(skipped));
        return;
    }
    try {
        measurePipeline(context, input,
                        context.options.raw ? input.image
                                            : makePattern(input.name, context.options.frameWidth,
                                                          context.options.frameHeight));
    } catch (const Error& error) {
        // Opening the devices failed: the rows that were measured stand, this one says why the rest are not.
        skipped.detail = error.what();
        context.report.add(std::move(skipped));
    }
}

const RegisterSuite produceConsumeSuite("produce-consume", runProduceConsume);

}  // namespace

}  // namespace hs::bench
