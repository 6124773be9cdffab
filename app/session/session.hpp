#pragma once
// The one run path of every front end (the app, histoscope-cli, histoscope-bench, batch): a run spec goes in,
// a run report comes out. Qt-free, like the engine below it.
//
//     session::Session session;
//     session::RunReport report = session.run({image, "0:1", {rotate, equalize, histogram}});
//
// The session owns the OpenCL runtime (devices, contexts, the program cache) and the device-input cache: an
// image run again on the same device (Run ×N, a dragged slider, another strategy) is uploaded once. A spec
// runs in one of three execution modes: on one device (the default), on the host alone (measurements with
// host strategies, no device opened), or over two devices as producer and consumer.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "image/image.hpp"
#include "image/pixel_source.hpp"
#include "measure/measure.hpp"
#include "ops/pipeline/pipeline.hpp"
#include "ops/produce_consume/produce_consume.hpp"
#include "runtime/runtime.hpp"
#include "stages/stage.hpp"

namespace hs::session {

// The two-device execution mode (ops/produce_consume): the spec's stages are a convolution and a histogram;
// the convolution runs on the spec's device, the histogram on `consumer`, chunk by chunk.
struct TwoDevices {
    std::string consumer;  // a selector as RunSpec::device; may name the producer itself
    produce_consume::Mode mode = produce_consume::Mode::Auto;
    int chunks = 4;
};

// What to run: an image, where, through which stages (in order; stages::validateOrder).
struct RunSpec {
    std::shared_ptr<const ImageRGBA8> image;
    // P:D or part of a device's name; empty: $HISTOSCOPE_DEVICE, else the first GPU, else the first device.
    std::string device;
    stages::StageList stages;
    // Set: the two-device producer–consumer instead of one device.
    std::optional<TwoDevices> twoDevices;
    // The host alone, no device opened: only measurement stages with host strategies run (the app before a
    // device is chosen); any other stage throws UsageError.
    bool onHost = false;
    // Set: the stages run on this context of the caller's instead of the one `device` names (the app's
    // display shares a GL context with one); it must outlive the run.
    DeviceContext* context = nullptr;
};

// What ran: on which device, and per stage its kind, strategy, note, builds and timings (each timing with
// its stage and device, Timing::step and Timing::device); the processed image, still on the device; the
// histogram of the last measurement stage. A two-device run also reports the consumer and the run over both
// devices (each device's records, the mode that ran, the overlap).
struct RunReport {
    DeviceInfo device;  // empty on the host alone; the producer of a two-device run
    pipeline::Result result;
    std::optional<DeviceInfo> consumer;
    std::optional<produce_consume::Result> twoDevices;

    bool onDevice() const { return !device.name.empty(); }
};

class Session {
  public:
    explicit Session(ProgramCacheSettings cacheSettings = ProgramCacheSettings::fromEnvironment());
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    Runtime& runtime() { return runtime_; }
    // The device `selector` names (the rules of RunSpec::device); throws OpenClError naming it.
    DeviceContext& device(std::string_view selector);

    // Runs `spec` in its execution mode. On one device, the image is uploaded once per image and context and
    // stays there for the next run of the same image, where that copy is small beside the device's memory and
    // fits one buffer; otherwise the stages take the host pixels (bands, tiles).
    RunReport run(const RunSpec& spec);
    // Runs `stages` on `device`, consuming `input`: its pixels go once the first image stage has read it, so
    // that a big image is held once (histoscope-cli's path; nothing is cached).
    RunReport run(DeviceContext& device, PixelSource&& input, const stages::StageList& stages);

    // Repetitions, the one way (measure::measureWhile): `plan.warmUps` untimed runs of `spec`, then
    // `plan.repetitions` timed ones, each report handed to `each` as it completes (on the caller's thread,
    // before the next run starts); nothing when `proceed` answers false before a timed run (superseded or
    // cancelled).
    std::optional<measure::Measurement> measure(const RunSpec& spec, const measure::Plan& plan,
                                                const std::function<bool()>& proceed,
                                                const std::function<void(RunReport&)>& each);

    // Forgets the cached input (its device memory goes).
    void dropCachedInput() { cachedInput_.reset(); }

  private:
    RunReport runOnDevice(const RunSpec& spec, DeviceContext& device);
    RunReport runOnHost(const RunSpec& spec);
    RunReport runTwoDevices(const RunSpec& spec);
    // The input of a run of `image` on `device`; `log` records its upload when it happens now.
    PixelSource inputFor(const std::shared_ptr<const ImageRGBA8>& image, DeviceContext& device,
                         TimingLog& log);

    struct CachedInput {
        std::shared_ptr<const ImageRGBA8> image;
        cl_context context = nullptr;
        cl::Buffer buffer;
    };

    Runtime runtime_;
    std::optional<CachedInput> cachedInput_;
};

}  // namespace hs::session
