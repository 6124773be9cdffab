// One video frame end to end, as a live source hands it over: the frame in pinned host memory, uploaded to
// the device, processed, and its results read back (a blocking call), timed by the steady clock around the
// whole.
//   frame: the histogram alone, by every device strategy; beside it the pinned upload alone, the floor.
//   live:  the live view's pipeline: rotate (33.3 degrees, bilinear, buffer), 5x5 Gaussian (local-tiled) and
//          histogram (auto), the processed frame handed off by copying it back to the host; beside it the
//          pipeline's device time alone (its kernels and device copies, no transfers).
//
// Both run their stages through the session (session/session.hpp), the run path of every front end, on the
// frame uploaded from pinned memory.
//
// Patterns are measured at --frame's size (3840x2160) whatever --sizes says (once per pattern and suite), raw
// inputs at their own size.
#include <cstdlib>
#include <cstring>
#include <set>

#include "bench/inputs.hpp"
#include "bench/suite.hpp"
#include "ops/histogram/histogram.hpp"
#include "ops/pipeline/pipeline.hpp"
#include "runtime/error.hpp"
#include "runtime/runtime.hpp"
#include "session/session.hpp"
#include "stages/builtin.hpp"

namespace hs::bench {

namespace {

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

Row newRow(std::string suite, std::string subject, const Input& input, const ImageRGBA8& frame) {
    Row row;
    row.suite = std::move(suite);
    row.subject = std::move(subject);
    row.input = input.name;
    row.bytes = frame.byteCount();
    row.clock = measure::Clock::Wall;
    row.extra["width"] = frame.width;
    row.extra["height"] = frame.height;
    return row;
}

// `run` on the steady clock, after an untimed warm-up, for `row`.
measure::Summary measureWall(const SuiteContext& context, const Row& row, const measure::Run& run) {
    return measure::measure({measure::Clock::Wall, 1, context.options.repetitions, row.bytes}, run).summary;
}

void measureFrame(SuiteContext& context, const Input& input, const ImageRGBA8& frame) {
    DeviceContext& device = *context.device;
    const histogram::Params params{context.options.bins};
    const auto expected = histogram::referenceHistogram(frame.pixels.data(), frame.pixelCount(), params.bins);
    PinnedFrame pinned(device, frame);

    auto upload = newRow("frame", "pinned-upload", input, frame);
    upload.summary = measureWall(context, upload, [&] {
        TimingLog log;
        pinned.upload(log);
        device.queue().finish();
        return log.collect();
    });
    context.report.add(std::move(upload));

    for (const histogram::Strategy* strategy : histogram::strategies()) {
        if (!strategy->runsOnDevice() ||
            !Options::selected(context.options.strategies, std::string(strategy->name())))
            continue;
        auto row = newRow("frame", std::string(strategy->name()), input, frame);
        const auto support = strategy->supported(&device.info(), {frame.width, frame.height}, params);
        if (!support.ok) {
            row.detail = support.reason;
            context.report.add(std::move(row));
            continue;
        }
        try {
            bool exact = true;
            std::string ranAs;
            const stages::StageList counting{stages::histogramStage(params, *strategy)};
            row.summary = measureWall(context, row, [&] {
                TimingLog log;
                const auto result =
                    context.session
                        .run(device, PixelSource(device, pinned.upload(log), frame.width, frame.height),
                             counting)
                        .result;
                exact = exact && result.histogram == expected;
                ranAs = result.stage(counting.front()->kind().name())->strategyName();
                return log.collect();
            });
            row.detail = ranAs == strategy->name() ? "" : "chose " + ranAs;
            if (!exact) row.detail = "WRONG RESULT (differs from serial); " + row.detail;
        } catch (const Error& error) {
            row.summary.reset();
            row.detail = error.what();
        }
        context.report.add(std::move(row));
    }
}

void measureLive(SuiteContext& context, const Input& input, const ImageRGBA8& frame) {
    DeviceContext& device = *context.device;
    // The convolution and the histogram run their stage kinds' defaults, as every front end does; the
    // rotation runs the float buffer kernel, whose bilinear result is within 1 of the reference (a texture
    // unit's may be off by 2), so that the check below holds on every device.
    const auto& convolution = convolve::findStrategy(defaultStrategyOf("convolve"));
    const auto& counting = histogram::findStrategy(defaultStrategyOf("histogram"));
    const stages::StageList live{
        stages::rotateStage({33.3, rotate::FilterMode::Linear}, rotate::findStrategy("buffer")),
        stages::convolveStage(convolve::gaussianFilter(5 / 6.0, 5), convolution),
        stages::histogramStage({context.options.bins}, counting)};
    // The bilinear rotation is within 1 of its CPU reference and the Gaussian carries that through, within 2
    // (tests/engine/pipeline_test.cpp); the histogram is exact for the pixels the pipeline produced.
    const ImageRGBA8 expected = pipeline::referencePipeline(frame, live);
    const auto withinTolerance = [&](const ImageRGBA8& processed) {
        for (std::size_t i = 0; i < expected.pixels.size(); ++i) {
            if (std::abs(int{processed.pixels[i]} - int{expected.pixels[i]}) > 2) return false;
        }
        return true;
    };
    PinnedFrame pinned(device, frame);

    // Checked on the untimed warm-up run only: the host-side check would dwarf the frame's time.
    bool checked = false, exact = true;
    auto handOff = newRow("live", "copy hand-off", input, frame);
    handOff.summary = measureWall(context, handOff, [&] {
        TimingLog log;
        pipeline::Result result =
            context.session
                .run(device, PixelSource(device, pinned.upload(log), frame.width, frame.height), live)
                .result;
        const ImageRGBA8 processed = result.readBack();
        std::vector<Timing> timings = log.collect();
        if (checked) return timings;
        checked = true;
        exact =
            processed.pixels.size() == expected.pixels.size() && withinTolerance(processed) &&
            result.histogram == histogram::referenceHistogram(processed.pixels.data(), processed.pixelCount(),
                                                              context.options.bins);
        return timings;
    });
    if (!exact) handOff.detail = "WRONG RESULT (differs from the CPU references)";
    handOff.detail += (handOff.detail.empty() ? "" : "; ") + std::string("rotate buffer, 5x5 ") +
                      std::string(convolution.name()) + ", " + std::string(counting.name());
    context.report.add(std::move(handOff));

    auto onDevice = newRow("live", "device time", input, frame);
    onDevice.clock = measure::Clock::Kernel;
    onDevice.summary =
        measure::measure({onDevice.clock, 1, context.options.repetitions, onDevice.bytes}, [&] {
            TimingLog log;
            PixelSource pixels(device, pinned.upload(log), frame.width, frame.height);
            log.collect();  // the upload is not device work of the pipeline
            std::vector<Timing> work = context.session.run(device, std::move(pixels), live).result.timings();
            for (auto& timing : work) {
                if (timing.stage == Stage::Other) timing.stage = Stage::Kernel;
            }
            return work;
        }).summary;
    context.report.add(std::move(onDevice));
}

// Runs `measure` on the frame of `input` once per pattern (see the top of this file); an Error becomes a
// skipped row naming it.
void runOnFrame(SuiteContext& context, Input& input, const std::string& suite,
                std::set<std::string>& measured,
                void (*measure)(SuiteContext&, const Input&, const ImageRGBA8&)) {
    if (!context.options.raw && !measured.insert(input.name).second) return;
    auto skipped = newRow(suite, suite == "frame" ? "pinned-upload" : "copy hand-off", input, input.image);
    if (context.device == nullptr) {
        skipped.detail = context.deviceProblem;
        context.report.add(std::move(skipped));
        return;
    }
    try {
        withClErrors("device " + context.device->info().name + ": " + suite + " suite", [&] {
            if (context.options.raw) {
                measure(context, input, input.image);
            } else {
                measure(context, input,
                        makePattern(input.name, context.options.frameWidth, context.options.frameHeight));
            }
        });
    } catch (const Error& error) {
        skipped.detail = error.what();
        context.report.add(std::move(skipped));
    }
}

void runFrame(SuiteContext& context, Input& input) {
    static std::set<std::string> measured;
    runOnFrame(context, input, "frame", measured, measureFrame);
}

void runLive(SuiteContext& context, Input& input) {
    static std::set<std::string> measured;
    runOnFrame(context, input, "live", measured, measureLive);
}

const RegisterSuite frameSuite("frame", runFrame);
const RegisterSuite liveSuite("live", runLive);

}  // namespace

}  // namespace hs::bench
