#pragma once
// What the image stage kinds without parameters or strategies share (equalize, grayscale): a kind that takes
// no values and makes its one stage, and the frame of a run that maps the input's pixels into a new buffer of
// the same size on one device, so that such a stage's file holds only its kernels' launches and its
// reference.

#include <functional>
#include <memory>
#include <string_view>
#include <vector>

#include "engine/runtime/cl.hpp"
#include "engine/runtime/timing.hpp"
#include "engine/stages/stage.hpp"

namespace hs::stages {

class FixedImageKind : public StageKind {
  public:
    bool producesImage() const final { return true; }
    const std::vector<Parameter>& parameters() const final;
    // Refuses any value and any strategy (UsageError naming the kind), else make().
    std::shared_ptr<const Stage> configure(const Values& values, std::string_view strategy,
                                           const FileReader& readFile) const final;

  protected:
    virtual std::shared_ptr<const Stage> make() const = 0;
};

// Enqueues a stage's kernels from `pixels` (its input on the device, `pixelCount` RGBA8 pixels) into `output`
// (as many), each command tracked in `log`.
using EnqueuePixelMap =
    std::function<void(DeviceContext& device, const cl::Program& program, const cl::Buffer& pixels,
                       cl_uint pixelCount, const cl::Buffer& output, TimingLog& log)>;

// Runs `enqueue` on the device (an image stage of `kind` needs one), its program built from `build`: the
// input's size and the device's buffer limit checked first, OpenCL errors named after the kind and device.
StageRun runPixelMap(DeviceContext* on, const StageKind& kind, PixelSource& input, const KernelBuild& build,
                     const EnqueuePixelMap& enqueue);

}  // namespace hs::stages
