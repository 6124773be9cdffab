#pragma once
// Internal to ops/produce_consume: what the buffer and pipe modes share (the double-buffered schedule over
// two host threads, the producer's chunk convolution, timing labels).

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/image/image.hpp"
#include "engine/image/pixel_source.hpp"
#include "engine/ops/produce_consume/produce_consume.hpp"
#include "engine/runtime/cl.hpp"
#include "engine/runtime/timing.hpp"

namespace hs::produce_consume::detail {

// Enqueues chunk k's production on the producer's queue after the events in `slotFree` (the consumer done
// with the hand-over slot k reuses) and returns the event that completes when the chunk is handed over.
using Produce = std::function<cl::Event(int chunk, const std::vector<cl::Event>& slotFree)>;
// Enqueues chunk k's consumption on the consumer's queue after `handedOver` and returns the event that
// completes when the consumer is done with the chunk's slot.
using Consume = std::function<cl::Event(int chunk, const cl::Event& handedOver)>;

// Two hand-over slots: chunk k uses slot k % 2, so chunk k + 2 waits for the consumer's chunk k.
inline constexpr int kSlots = 2;

// Runs produce(0..chunks-1) on this thread and consume(0..chunks-1) on a second one, each chunk's consumption
// once its hand-over event exists, each production from chunk 2 on once the consumption of its slot's
// previous chunk was enqueued. The first exception of either side stops both and is rethrown here.
void runDoubleBuffered(int chunks, const Produce& produce, const Consume& consume);

// What one mode ran: each device's commands, the 256 values counted, the strategies that ran.
struct ModeRun {
    std::vector<Timing> producer;
    std::vector<Timing> consumer;
    // The programs each device used, each once (addBuilds).
    std::vector<KernelBuild> producerBuilds;
    std::vector<KernelBuild> consumerBuilds;
    histogram::Histogram values{histogram::kMaxBins};
    // Each once, in the order they first ran (a fallback can differ from chunk to chunk: image limits).
    std::vector<std::string> convolutionStrategies;
    std::vector<std::string> histogramStrategies;
    std::vector<std::string> notes;
};

// "chunk 3/7" (1-based): names the chunk in errors and, with ": ", prefixes its records.
std::string chunkLabel(int chunk, int chunks);
// Appends `records` to `into`, each name prefixed with `prefix`.
void appendPrefixed(std::vector<Timing>& into, std::vector<Timing> records, const std::string& prefix);
// Appends `item` unless it is empty or already there.
void addOnce(std::vector<std::string>& list, const std::string& item);
// Appends each of `builds` not already in `into`: every chunk builds (or reuses) the same programs.
void addBuilds(std::vector<KernelBuild>& into, const std::vector<KernelBuild>& builds);

// The producer's work on one chunk: uploads its rows with their halo into `input` (after the events in
// `waitFor`), convolves them with the requested strategy (which waits for its commands) and returns the
// convolved rows, halo included, on the producer. Records go to `run.producer`.
PixelSource convolveChunk(DeviceContext& producer, const ImageRGBA8& image, const ChunkRows& rows,
                          const cl::Buffer& input, const std::vector<cl::Event>& waitFor,
                          const Params& params, const std::string& label, TimingLog& log, ModeRun& run);

// Bytes of `rows` rows of an image `width` pixels wide.
std::size_t rowBytes(int width, int rows);
// The most rows any chunk reads (with its halo) and writes: what the chunk buffers are sized for.
struct LargestChunk {
    int inputRows = 0;
    int outputRows = 0;
};
LargestChunk largestChunk(const std::vector<ChunkRows>& chunks);

ModeRun runBufferMode(DeviceContext& producer, DeviceContext& consumer, const ImageRGBA8& image,
                      const Params& params, const std::vector<ChunkRows>& chunks);
ModeRun runPipeMode(DeviceContext& producer, DeviceContext& consumer, const ImageRGBA8& image,
                    const Params& params, const std::vector<ChunkRows>& chunks);

}  // namespace hs::produce_consume::detail
