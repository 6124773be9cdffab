// One video frame end to end, as a live source hands it over: the frame in pinned host memory, uploaded to
// the device, its histogram counted by a device strategy and read back (a blocking call), timed by the steady
// clock around the whole. Beside it, the pinned upload alone: the floor of the end-to-end figure.
//
// Patterns are measured at 3840x2160 whatever --sizes says (once per pattern), raw inputs at their own size.
#include <cstring>
#include <set>

#include "bench/inputs.hpp"
#include "bench/suite.hpp"
#include "ops/histogram/histogram.hpp"
#include "runtime/error.hpp"
#include "runtime/runtime.hpp"

namespace hs::bench {

namespace {

constexpr int kFrameWidth = 3840;
constexpr int kFrameHeight = 2160;

// Host memory the driver pins (CL_MEM_ALLOC_HOST_PTR, mapped), holding a copy of a frame, and a device
// buffer of the same size to upload it to.
class PinnedFrame {
  public:
    PinnedFrame(DeviceContext& device, const ImageRGBA8& frame)
        : device_(device),
          bytes_(frame.byteCount()),
          pinned_(device.context(), CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_ONLY, bytes_),
          onDevice_(device.context(), CL_MEM_READ_ONLY, bytes_) {
        host_ = device.queue().enqueueMapBuffer(pinned_, CL_TRUE, CL_MAP_WRITE, 0, bytes_);
        std::memcpy(host_, frame.pixels.data(), bytes_);
    }
    ~PinnedFrame() {
        device_.queue().enqueueUnmapMemObject(pinned_, host_);
        device_.queue().finish();
    }
    PinnedFrame(const PinnedFrame&) = delete;
    PinnedFrame& operator=(const PinnedFrame&) = delete;

    // Enqueues the upload; the device buffer holds the frame once it completes.
    const cl::Buffer& upload(TimingLog& log) {
        device_.queue().enqueueWriteBuffer(onDevice_, CL_FALSE, 0, bytes_, host_, nullptr,
                                           log.track(Stage::Upload, "upload frame"));
        return onDevice_;
    }

  private:
    DeviceContext& device_;
    std::size_t bytes_;
    cl::Buffer pinned_;
    cl::Buffer onDevice_;
    void* host_ = nullptr;
};

Measurement newRow(std::string subject, const Input& input, const ImageRGBA8& frame) {
    Measurement row;
    row.suite = "frame";
    row.subject = std::move(subject);
    row.input = input.name;
    row.bytes = frame.byteCount();
    row.clock = "host";
    row.extra["width"] = frame.width;
    row.extra["height"] = frame.height;
    return row;
}

void measureFrame(SuiteContext& context, const Input& input, const ImageRGBA8& frame) {
    DeviceContext& device = *context.device;
    const histogram::Params params{context.options.bins};
    const auto expected = histogram::referenceHistogram(frame.pixels.data(), frame.pixelCount(), params.bins);
    PinnedFrame pinned(device, frame);

    auto upload = newRow("pinned-upload", input, frame);
    upload.stats = measureHost(context.options.repetitions, [&] {
        TimingLog log;
        pinned.upload(log);
        device.queue().finish();
        log.collect();
    });
    context.report.add(std::move(upload));

    for (const histogram::Strategy* strategy : histogram::strategies()) {
        if (!strategy->runsOnDevice() ||
            !Options::selected(context.options.strategies, std::string(strategy->name())))
            continue;
        auto row = newRow(std::string(strategy->name()), input, frame);
        const auto support = strategy->supported(&device.info(), params);
        if (!support.ok) {
            row.detail = support.reason;
            context.report.add(std::move(row));
            continue;
        }
        try {
            bool exact = true;
            std::string ranAs;
            row.stats = measureHost(context.options.repetitions, [&] {
                TimingLog log;
                PixelSource pixels(device, pinned.upload(log), frame.width, frame.height);
                auto result = histogram::computeHistogram(&device, pixels, params, *strategy);
                exact = exact && result.histogram == expected;
                ranAs = result.strategy;
                log.collect();
            });
            row.detail = ranAs == strategy->name() ? "" : "chose " + ranAs;
            if (!exact) row.detail = "WRONG RESULT (differs from serial); " + row.detail;
        } catch (const Error& error) {
            row.stats.reset();
            row.detail = error.what();
        }
        context.report.add(std::move(row));
    }
}

void runFrame(SuiteContext& context, Input& input) {
    // A pattern's frame does not depend on --sizes: measure it with the first input of that pattern.
    static std::set<std::string> measuredPatterns;
    if (!context.options.raw && !measuredPatterns.insert(input.name).second) return;
    if (context.device == nullptr) {
        Measurement row;
        row.suite = "frame";
        row.subject = "pinned-upload";
        row.input = input.name;
        row.detail = context.deviceProblem;
        context.report.add(std::move(row));
        return;
    }
    try {
        withClErrors("device " + context.device->info().name + ": frame suite", [&] {
            if (context.options.raw) {
                measureFrame(context, input, input.image);
            } else {
                measureFrame(context, input, makePattern(input.name, kFrameWidth, kFrameHeight));
            }
        });
    } catch (const Error& error) {
        auto row = newRow("pinned-upload", input, input.image);
        row.detail = error.what();
        context.report.add(std::move(row));
    }
}

const RegisterSuite frameSuite("frame", runFrame);

}  // namespace

}  // namespace hs::bench
