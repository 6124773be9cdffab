// Pipe mode: the producer writes each chunk's own rows (halo dropped) into one of two pipes of the shared
// context; a parallel consumer kernel on the other device reads the pipe empty and adds its counts to one
// histogram of the 256 values, read back once at the end. See kernels/produce_consume_pipe.cl.
#include <algorithm>
#include <array>
#include <optional>

#include "engine/ops/produce_consume/chunk_schedule.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/kernel_sources.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::produce_consume::detail {

namespace {

constexpr std::size_t kGroupSize = 64;

// OpenCL C 2.0 for pipes; a 3.0 compiler takes 3.0, where pipes are an optional feature the device reported.
std::string pipeBuildOptions(const DeviceInfo& device, const histogram::Params& params) {
    std::string options = device.openclCVersionNumber() >= 300 ? "-cl-std=CL3.0" : "-cl-std=CL2.0";
    options += " -D BINS=" + std::to_string(histogram::kMaxBins);
    if (params.ignoreTransparent) options += " -D IGNORE_TRANSPARENT";
    return options;
}

// The pipe kernels with the histogram's helpers before them; recorded in `builds` under the pipe kernels'
// source, the one a reader of the Kernel view wants to see.
cl::Program pipeProgram(DeviceContext& device, const histogram::Params& params,
                        std::vector<KernelBuild>& builds) {
    const std::string text =
        std::string(kernelSource("histogram")) + "\n" + std::string(kernelSource("produce_consume_pipe"));
    const std::string options = pipeBuildOptions(device.info(), params);
    cl::Program program = device.programFromText("histogram.cl + produce_consume_pipe.cl", text, options);
    addBuilds(builds, {KernelBuild{"produce_consume_pipe", options}});
    return program;
}

std::size_t roundUp(std::size_t value, std::size_t multiple) {
    return (value + multiple - 1) / multiple * multiple;
}

}  // namespace

ModeRun runPipeMode(DeviceContext& producer, DeviceContext& consumer, const ImageRGBA8& image,
                    const Params& params, const std::vector<ChunkRows>& chunks) {
    const int chunkCount = static_cast<int>(chunks.size());
    const LargestChunk largest = largestChunk(chunks);
    const int largestInput = largest.inputRows;
    const int largestRows = largest.outputRows;
    const auto pixelsPerPipe = static_cast<cl_uint>(static_cast<std::size_t>(image.width) * largestRows);

    ModeRun run;
    run.histogramStrategies.push_back("pipe-consumer");
    TimingLog producerLog;  // the producer's thread only
    TimingLog consumerLog;  // the consumer's thread, then this one after it ended
    const std::string producerWhere = "device " + producer.info().name;
    const std::string consumerWhere = "device " + consumer.info().name;

    cl::Buffer input;
    cl::Buffer lost;
    cl::Buffer hist;
    std::array<cl::Pipe, kSlots> pipes;
    std::array<std::optional<PixelSource>, kSlots> convolved;
    cl::Kernel intoPipe;
    cl::Kernel fromPipe;
    withClErrors(producerWhere + ": preparing pipe mode", [&] {
        input = cl::Buffer(producer.context(), CL_MEM_READ_ONLY, rowBytes(image.width, largestInput));
        lost = cl::Buffer(producer.context(), CL_MEM_READ_WRITE, sizeof(cl_uint));
        producer.queue().enqueueFillBuffer(lost, cl_uint{0}, 0, sizeof(cl_uint), nullptr,
                                           producerLog.track(Stage::Other, "clear lost-pixel counter"));
        for (auto& pipe : pipes) pipe = cl::Pipe(producer.context(), sizeof(cl_uint), pixelsPerPipe);
        intoPipe = cl::Kernel(pipeProgram(producer, params.histogram, run.producerBuilds), "rows_into_pipe");
    });
    std::size_t consumerGroups = 1;
    withClErrors(consumerWhere + ": preparing pipe mode", [&] {
        hist = cl::Buffer(consumer.context(), CL_MEM_READ_WRITE,
                          sizeof(cl_uint) * histogram::kChannelCount * histogram::kMaxBins);
        consumer.queue().enqueueFillBuffer(hist, cl_uint{0}, 0,
                                           sizeof(cl_uint) * histogram::kChannelCount * histogram::kMaxBins,
                                           nullptr, consumerLog.track(Stage::Other, "clear counts"));
        fromPipe = cl::Kernel(pipeProgram(consumer, params.histogram, run.consumerBuilds), "count_from_pipe");
        setKernelArgs(fromPipe, 1, hist);
        // Enough work-groups to occupy the device; each work-item reads until the pipe is empty.
        consumerGroups = std::max<std::size_t>(1, consumer.info().computeUnits) * 4;
    });

    const Produce produce = [&](int k, const std::vector<cl::Event>& slotFree) {
        const ChunkRows& rows = chunks[static_cast<std::size_t>(k)];
        const std::string label = chunkLabel(k, chunkCount);
        const auto slot = static_cast<std::size_t>(k % kSlots);
        convolved[slot] =
            convolveChunk(producer, image, rows, input, slotFree, params, label, producerLog, run);
        return withClErrors(producerWhere + ": writing " + label + " into a pipe", [&] {
            const auto count = static_cast<cl_uint>(static_cast<std::size_t>(image.width) * rows.count);
            const auto first =
                static_cast<cl_uint>(static_cast<std::size_t>(image.width) * (rows.first - rows.inputFirst));
            // One kernel object, set and enqueued by this thread only.
            setKernelArgs(intoPipe, 0, convolved[slot]->device(producer, producerLog), first, count,
                          pipes[slot], lost);
            cl::Event* written = producerLog.track(Stage::Kernel, label + ": rows_into_pipe");
            producer.queue().enqueueNDRangeKernel(intoPipe, cl::NullRange,
                                                  cl::NDRange(roundUp(count, kGroupSize)),
                                                  cl::NDRange(kGroupSize), nullptr, written);
            return *written;
        });
    };

    const Consume consume = [&](int k, const cl::Event& handedOver) {
        const std::string label = chunkLabel(k, chunkCount);
        return withClErrors(consumerWhere + ": reading " + label + " from a pipe", [&] {
            const std::vector<cl::Event> waitFor{handedOver};
            setKernelArgs(fromPipe, 0, pipes[static_cast<std::size_t>(k % kSlots)]);
            cl::Event* counted = consumerLog.track(Stage::Kernel, label + ": count_from_pipe");
            consumer.queue().enqueueNDRangeKernel(fromPipe, cl::NullRange,
                                                  cl::NDRange(consumerGroups * kGroupSize),
                                                  cl::NDRange(kGroupSize), &waitFor, counted);
            return *counted;
        });
    };

    runDoubleBuffered(chunkCount, produce, consume);

    std::vector<cl_uint> flat(static_cast<std::size_t>(histogram::kChannelCount) * histogram::kMaxBins);
    cl_uint lostPixels = 0;
    withClErrors(consumerWhere + ": reading the pipe consumer's counts", [&] {
        consumer.queue().enqueueReadBuffer(hist, CL_TRUE, 0, flat.size() * sizeof(cl_uint), flat.data(),
                                           nullptr, consumerLog.track(Stage::Readback, "read counts"));
        producer.queue().enqueueReadBuffer(lost, CL_TRUE, 0, sizeof(cl_uint), &lostPixels, nullptr,
                                           producerLog.track(Stage::Readback, "read lost-pixel counter"));
    });
    if (lostPixels != 0)
        throw OpenClError("write_pipe", 0,
                          producerWhere + ": a pipe refused " + std::to_string(lostPixels) +
                              " pixels although it holds a whole chunk");
    run.values = histogram::Histogram::fromFlat(std::vector<std::uint32_t>(flat.begin(), flat.end()),
                                                histogram::kMaxBins);
    appendPrefixed(run.producer, producerLog.collect(), "");
    appendPrefixed(run.consumer, consumerLog.collect(), "");
    return run;
}

}  // namespace hs::produce_consume::detail
