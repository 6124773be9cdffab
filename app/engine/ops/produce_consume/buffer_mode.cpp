// Buffer mode: the producer copies each chunk's own rows out of its convolved rows (halo dropped) into one of
// two hand-over buffers of the shared context; the consumer counts that buffer with the requested histogram
// strategy and the counts of the 256 values add up over the chunks.
#include <algorithm>
#include <array>
#include <optional>

#include "engine/ops/produce_consume/chunk_schedule.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::produce_consume::detail {

namespace {

void addCounts(histogram::Histogram& total, const histogram::Histogram& part) {
    for (const auto channel : histogram::kChannels) {
        auto& into = total[channel];
        const auto& from = part[channel];
        for (std::size_t bin = 0; bin < into.size(); ++bin) into[bin] += from[bin];
    }
}

}  // namespace

ModeRun runBufferMode(DeviceContext& producer, DeviceContext& consumer, const ImageRGBA8& image,
                      const Params& params, const std::vector<ChunkRows>& chunks) {
    const int chunkCount = static_cast<int>(chunks.size());
    const LargestChunk largest = largestChunk(chunks);
    const int largestInput = largest.inputRows;
    const int largestRows = largest.outputRows;

    ModeRun run;
    TimingLog producerLog;  // used by the producer's thread only
    const std::string producerWhere = "device " + producer.info().name;
    // The chunk's rows with their halo (the queue is in order: chunk k + 1's upload follows chunk k's
    // convolution), the two hand-over slots, and the convolved rows each slot was filled from, held until the
    // slot's next use proves the copy finished.
    cl::Buffer input;
    std::array<cl::Buffer, kSlots> slots;
    std::array<std::optional<PixelSource>, kSlots> convolved;
    withClErrors(producerWhere + ": allocating chunk buffers", [&] {
        input = cl::Buffer(producer.context(), CL_MEM_READ_ONLY, rowBytes(image.width, largestInput));
        for (auto& slot : slots)
            slot = cl::Buffer(producer.context(), CL_MEM_READ_WRITE, rowBytes(image.width, largestRows));
    });

    const Produce produce = [&](int k, const std::vector<cl::Event>& slotFree) {
        const ChunkRows& rows = chunks[static_cast<std::size_t>(k)];
        const std::string label = chunkLabel(k, chunkCount);
        const auto slot = static_cast<std::size_t>(k % kSlots);
        convolved[slot] =
            convolveChunk(producer, image, rows, input, slotFree, params, label, producerLog, run);
        return withClErrors(producerWhere + ": handing over " + label, [&] {
            cl::Event* copied = producerLog.track(Stage::Other, label + ": hand over rows");
            producer.queue().enqueueCopyBuffer(convolved[slot]->device(producer, producerLog), slots[slot],
                                               rowBytes(image.width, rows.first - rows.inputFirst), 0,
                                               rowBytes(image.width, rows.count), nullptr, copied);
            return *copied;
        });
    };

    const std::string consumerWhere = "device " + consumer.info().name;
    const Consume consume = [&](int k, const cl::Event& handedOver) {
        const ChunkRows& rows = chunks[static_cast<std::size_t>(k)];
        const std::string label = chunkLabel(k, chunkCount);
        const std::vector<cl::Event> waitFor{handedOver};
        withClErrors(consumerWhere + ": waiting for " + label,
                     [&] { consumer.queue().enqueueBarrierWithWaitList(&waitFor); });
        PixelSource counted(consumer, slots[static_cast<std::size_t>(k % kSlots)], image.width, rows.count);
        histogram::Result result =
            histogram::computeHistogram(&consumer, counted, params.histogram, *params.histogramStrategy);
        addCounts(run.values, result.values);
        addOnce(run.histogramStrategies, result.strategyName());
        addBuilds(run.consumerBuilds, result.builds);
        appendPrefixed(run.consumer, std::move(result.timings), label + ": ");
        return withClErrors(consumerWhere + ": marking " + label, [&] {
            cl::Event done;
            consumer.queue().enqueueMarkerWithWaitList(nullptr, &done);
            return done;
        });
    };

    runDoubleBuffered(chunkCount, produce, consume);
    appendPrefixed(run.producer, producerLog.collect(), "");
    return run;
}

}  // namespace hs::produce_consume::detail
