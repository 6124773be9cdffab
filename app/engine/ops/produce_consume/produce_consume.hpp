#pragma once
// Two devices, one pipeline: a convolution on the producer device, the histogram of its output on the
// consumer device, chunk by chunk so that producing chunk k + 1 overlaps consuming chunk k.
//
// Both devices share their platform's context (Runtime makes one per platform), so a chunk passes from one
// to the other without a host round trip; each device keeps its own in-order profiling queue.
//
// Buffer mode: the image in row chunks, each uploaded with the convolution's halo (the filter's rows above
// and below, cut at the image edge, where the convolution clamps as on the whole image), convolved on the
// producer with the requested convolution strategy, its own rows copied into one of two hand-over buffers
// (double buffering), and counted on the consumer with the requested histogram strategy. The consumer's
// queue waits on the producer's copy event; the producer's queue waits on the consumer's "chunk k - 2 done"
// event before it refills that buffer. Each device is driven by its own host thread, because today's
// strategies wait for their commands before they return.
//
// Pipe mode (OpenCL C 2.0 pipes, only where both devices report pipe support): the same chunks, the
// convolved rows written into one of two pipes on the producer, read by a parallel consumer kernel that
// counts into work-group histograms (bins clamped) and adds them to one result on the consumer.
//
// The result equals histogram(convolve(image)) on one device bit for bit, for every chunk count.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/image/image.hpp"
#include "engine/image/pixel_source.hpp"
#include "engine/ops/convolve/convolve.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/strategy.hpp"
#include "engine/runtime/device_info.hpp"
#include "engine/runtime/timing.hpp"

namespace hs {
class DeviceContext;
}

namespace hs::produce_consume {

enum class Mode { Auto, Buffer, Pipe };

std::string_view modeName(Mode mode);
// "auto", "buffer" or "pipe" in any case; throws UsageError naming the three otherwise.
Mode parseMode(std::string_view name);

// The rule for a producer/consumer pair: two devices of one platform (one context), or one device twice.
// Throws OpenClError naming both devices and their platforms when they are on two platforms. Returns a note
// for the report: empty for two devices, "the same device ... runs both stages; nothing can overlap" when
// both are one device.
std::string checkPair(const DeviceInfo& producer, const DeviceInfo& consumer);

// Why pipe mode cannot run on the pair (the first device without CL_DEVICE_PIPE_SUPPORT, named); empty when
// it can.
std::string pipeProblem(const DeviceInfo& producer, const DeviceInfo& consumer);

// The mode that runs: `auto` takes pipes where both devices have them, buffers otherwise; `pipe` where a
// device has none throws OpenClError with pipeProblem()'s reason.
Mode resolveMode(Mode requested, const DeviceInfo& producer, const DeviceInfo& consumer);

// The rows of one chunk: its own rows [first, first + count) and the rows uploaded for it, its own plus the
// filter's halo cut at the image edge [inputFirst, inputFirst + inputCount).
struct ChunkRows {
    int first = 0;
    int count = 0;
    int inputFirst = 0;
    int inputCount = 0;
};

// `chunks` chunks of rows as equal as can be (the first height % chunks get one row more), each with the
// halo of `filter`. Throws UsageError unless 1 <= chunks <= height.
std::vector<ChunkRows> splitRows(int height, int chunks, const convolve::Filter& filter);

struct Params {
    convolve::Filter filter;
    const convolve::Strategy* convolution = &convolve::bufferStrategy();
    histogram::Params histogram;
    const histogram::Strategy* histogramStrategy = histogram::strategies().front();
    Mode mode = Mode::Auto;
    int chunks = 2;
};

// The commands of one device's queue, that device, and the programs the run used on it.
struct DeviceTimings {
    std::string role;      // "producer" or "consumer"
    std::string selector;  // "P:D"
    std::string device;    // the device's name
    std::vector<Timing> timings;
    // Each program once, in the order first used, as RunRecord::builds reports them: the producer's
    // convolution (and in pipe mode the pipe writer's), the consumer's histogram strategy (or pipe reader's).
    std::vector<KernelBuild> builds{};
};

// The two stages run one after the other on the same two devices (the whole image convolved on the
// producer, then counted on the consumer): what the pipeline is measured against.
struct Baseline {
    std::vector<DeviceTimings> devices;
    std::uint64_t spanNs = 0;
};

struct Result {
    Mode mode = Mode::Buffer;         // the mode that ran
    histogram::Histogram histogram;   // params.histogram.bins bins
    histogram::Histogram values;      // the 256 values
    std::string convolutionStrategy;  // what ran (a fallback may replace the requested one)
    std::string histogramStrategy;    // what ran; "pipe-consumer" in pipe mode
    std::vector<std::string> notes;   // the pair's note, fallbacks, ignored options
    std::vector<ChunkRows> chunks;
    std::vector<DeviceTimings> devices;  // producer, then consumer
    std::uint64_t spanNs = 0;            // first command's start to last command's end, both devices
    std::uint64_t overlapNs = 0;         // time both devices were busy at once
    Baseline baseline;
    // baseline.spanNs / spanNs: above 1 when the pipeline beat the stages one after the other.
    double speedUp() const;
};

// Validates (UsageError), checks the pair and the mode (OpenClError), measures the baseline, then runs the
// pipeline. `producer` and `consumer` may be one device. Where a chunk of `params.chunks` would not fit in
// one allocation of either device (HISTOSCOPE_MAX_ALLOC_BYTES lowers it), the image runs in as many more,
// smaller chunks as it takes, and a note says so; where not even one row with the filter's halo fits, it
// throws OpenClError naming the device and the sizes.
// Where `convolved` is given, it receives the baseline's convolved image, still on the producer: the image
// the pipeline counted, for a front end to show. It costs no copy (the baseline convolves the whole image
// anyway), only that image's device memory held until the caller lets it go instead of before the pipeline
// runs; the pipeline's own chunks stay on the devices, as reading them back would add a device-to-host copy
// per chunk.
Result run(DeviceContext& producer, DeviceContext& consumer, const ImageRGBA8& image, const Params& params,
           PixelSource* convolved = nullptr);

// How long both lists were busy at once: the length of the intersection of the union of one list's
// start -> end intervals with the union of the other's, on the host clock (Timing::hostStartNs), where two
// devices' times compare. Host records are left out.
std::uint64_t overlapNs(const std::vector<Timing>& a, const std::vector<Timing>& b);
// The earliest start to the latest end of the device records of every list, on the host clock; 0 when there
// are none.
std::uint64_t spanNs(const std::vector<DeviceTimings>& devices);

}  // namespace hs::produce_consume
