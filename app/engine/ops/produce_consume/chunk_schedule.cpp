#include "engine/ops/produce_consume/chunk_schedule.hpp"

#include <algorithm>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::produce_consume::detail {

void runDoubleBuffered(int chunks, const Produce& produce, const Consume& consume) {
    const auto count = static_cast<std::size_t>(chunks);
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<std::optional<cl::Event>> handedOver(count);
    std::vector<std::optional<cl::Event>> done(count);
    std::exception_ptr error;

    const auto fail = [&](std::exception_ptr failure) {
        std::lock_guard lock(mutex);
        if (!error) error = std::move(failure);
        changed.notify_all();
    };
    // The event of `events[k]` once the other side has posted it; nothing when the other side failed.
    const auto awaitEvent = [&](std::vector<std::optional<cl::Event>>& events,
                                std::size_t k) -> std::optional<cl::Event> {
        std::unique_lock lock(mutex);
        changed.wait(lock, [&] { return events[k].has_value() || error; });
        if (error) return std::nullopt;
        return events[k];
    };
    const auto post = [&](std::vector<std::optional<cl::Event>>& events, std::size_t k, cl::Event event) {
        std::lock_guard lock(mutex);
        events[k] = std::move(event);
        changed.notify_all();
    };

    std::thread consumer([&] {
        try {
            for (std::size_t k = 0; k < count; ++k) {
                const auto ready = awaitEvent(handedOver, k);
                if (!ready) return;
                post(done, k, consume(static_cast<int>(k), *ready));
            }
        } catch (...) {
            fail(std::current_exception());
        }
    });
    try {
        for (std::size_t k = 0; k < count; ++k) {
            std::vector<cl::Event> slotFree;
            if (k >= kSlots) {
                const auto free = awaitEvent(done, k - kSlots);
                if (!free) break;
                slotFree.push_back(*free);
            }
            post(handedOver, k, produce(static_cast<int>(k), slotFree));
        }
    } catch (...) {
        fail(std::current_exception());
    }
    consumer.join();
    if (error) std::rethrow_exception(error);
}

std::string chunkLabel(int chunk, int chunks) {
    return "chunk " + std::to_string(chunk + 1) + "/" + std::to_string(chunks);
}

void appendPrefixed(std::vector<Timing>& into, std::vector<Timing> records, const std::string& prefix) {
    for (auto& record : records) {
        record.name = prefix + record.name;
        into.push_back(std::move(record));
    }
}

void addOnce(std::vector<std::string>& list, const std::string& item) {
    if (!item.empty() && std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

void addBuilds(std::vector<KernelBuild>& into, const std::vector<KernelBuild>& builds) {
    for (const auto& build : builds)
        if (std::find(into.begin(), into.end(), build) == into.end()) into.push_back(build);
}

std::size_t rowBytes(int width, int rows) {
    return static_cast<std::size_t>(width) * static_cast<std::size_t>(rows) * 4;
}

LargestChunk largestChunk(const std::vector<ChunkRows>& chunks) {
    LargestChunk largest;
    for (const auto& rows : chunks) {
        largest.inputRows = std::max(largest.inputRows, rows.inputCount);
        largest.outputRows = std::max(largest.outputRows, rows.count);
    }
    return largest;
}

PixelSource convolveChunk(DeviceContext& producer, const ImageRGBA8& image, const ChunkRows& rows,
                          const cl::Buffer& input, const std::vector<cl::Event>& waitFor,
                          const Params& params, const std::string& label, TimingLog& log, ModeRun& run) {
    withClErrors("device " + producer.info().name + ": uploading " + label, [&] {
        if (!waitFor.empty()) producer.queue().enqueueBarrierWithWaitList(&waitFor);
        // Not blocking: the caller's image outlives the run.
        producer.queue().enqueueWriteBuffer(input, CL_FALSE, 0, rowBytes(image.width, rows.inputCount),
                                            image.pixel(0, rows.inputFirst), nullptr,
                                            log.track(Stage::Upload, label + ": upload rows"));
    });
    PixelSource pixels(producer, input, image.width, rows.inputCount);
    convolve::Result convolved = convolve::convolve(producer, pixels, params.filter, *params.convolution);
    addOnce(run.convolutionStrategies, convolved.strategyName());
    addOnce(run.notes, convolved.note);
    addBuilds(run.producerBuilds, convolved.builds);
    appendPrefixed(run.producer, std::move(convolved.timings), label + ": ");
    return std::move(convolved.image);
}

}  // namespace hs::produce_consume::detail
