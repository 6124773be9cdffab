#pragma once
// The one run path of every front end (the app, histoscope-cli, histoscope-bench, batch): a run spec goes in,
// a run report comes out. Qt-free, like the engine below it.
//
//     session::Session session;
//     session::RunReport report = session.run({image, "0:1", {rotate, equalize, histogram}});
//
// The session owns the OpenCL runtime (devices, contexts, the program cache) and the device-input cache: an
// image run again on the same device (Run ×N, a dragged slider, another strategy) is uploaded once.

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "image/image.hpp"
#include "image/pixel_source.hpp"
#include "ops/pipeline/pipeline.hpp"
#include "runtime/runtime.hpp"
#include "stages/stage.hpp"

namespace hs::session {

// What to run: an image, on which device, through which stages (in order; stages::validateOrder).
struct RunSpec {
    std::shared_ptr<const ImageRGBA8> image;
    // P:D or part of a device's name; empty: $HISTOSCOPE_DEVICE, else the first GPU, else the first device.
    std::string device;
    stages::StageList stages;
};

// What ran: on which device, and per stage its kind, strategy, note, builds and timings (each timing with
// its stage and device, Timing::step and Timing::device); the processed image, still on the device; the
// histogram of the last measurement stage.
struct RunReport {
    DeviceInfo device;
    pipeline::Result result;
};

class Session {
  public:
    explicit Session(ProgramCacheSettings cacheSettings = ProgramCacheSettings::fromEnvironment());
    Session(const Session&) = delete;
    Session& operator=(const Session&) = delete;

    Runtime& runtime() { return runtime_; }
    // The device `selector` names (the rules of RunSpec::device); throws OpenClError naming it.
    DeviceContext& device(std::string_view selector);

    // Runs `spec` on its device.
    RunReport run(const RunSpec& spec);
    // Runs `spec` on `device`, a context of the caller's (the app's display shares a GL context with one):
    // the image is uploaded once per image and context and stays there for the next run of the same image,
    // where that copy is small beside the device's memory and fits one buffer; otherwise the stages take the
    // host pixels (bands, tiles).
    RunReport run(const RunSpec& spec, DeviceContext& device);
    // Runs `stages` on `device`, consuming `input`: its pixels go once the first image stage has read them,
    // so that a big image is held once (histoscope-cli's path; nothing is cached).
    RunReport run(DeviceContext& device, PixelSource&& input, const stages::StageList& stages);

    // Forgets the cached input (its device memory goes).
    void dropCachedInput() { cachedInput_.reset(); }

  private:
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
