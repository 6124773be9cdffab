#pragma once
// Internal: what the OpenCL histogram strategies share (kernels/histogram.cl specialised per device and bin
// count): the frame of a run (pixels to the device once, count, read back, every command tracked) and the
// planning of work-group sizes and persistent launches. Each strategy lives in its own .cpp.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/ops/histogram/histogram.hpp"
#include "engine/runtime/cl.hpp"

namespace hs::histogram::device {

inline constexpr std::string_view kSource = "histogram";

// The kernels count the 256 values whatever params.bins is (Result::counted() groups them into bins on the
// host), so the statistics see exact values.
std::size_t histogramSize(const Params& params);
std::size_t histogramBytes(const Params& params);
std::string countingOptions(const Params& params);
std::size_t ceilDiv(std::size_t a, std::size_t b);
std::string kibibytes(std::uint64_t bytes);

// The persistent kernels' ticket counter (kernels/histogram.cl) is the uint after their output.
inline constexpr std::size_t kTicketBytes = sizeof(cl_uint);

// The largest work-group size a compiled kernel accepts on a device (CL_KERNEL_WORK_GROUP_SIZE), remembered
// per device and build so that planning (and kernelBuild()) can respect it before the next build; unknown:
// the largest size_t.
std::size_t rememberedLimit(const DeviceInfo& device, const std::string& kernel, const Params& params);
void rememberLimit(const DeviceInfo& device, const std::string& kernel, const Params& params,
                   std::size_t limit);

// Pixels on the host are counted in bands (uploaded band by band into one buffer, the counts summed on the
// host) when the whole image exceeds the device's largest allocation, and on a CPU device when it exceeds
// kHostMemoryBandBytes: its memory is the host's, so an upload of the whole image would hold it there twice.
// A band is held beside the image: 16 MiB keeps that small (a 16th of an 8000 x 8000 image) while a band's
// launch and readback stay negligible beside counting its 4 Mi pixels.
inline constexpr std::uint64_t kHostMemoryBandBytes = std::uint64_t{16} << 20;
// The smallest band counted: a device whose largest allocation is smaller (HISTOSCOPE_MAX_ALLOC_BYTES=1
// pretends one) is refused, rather than counting an image a few pixels at a time in a band launch each.
inline constexpr std::uint64_t kMinimumBandBytes = 1024;
struct Bands {
    std::uint64_t bytes = 0;  // at most, per band
    std::string why;
};
// The bands `pixels` are counted in on `device`; none when they are counted at once.
std::optional<Bands> bandsFor(const DeviceContext& device, const PixelSource& pixels);

// The common frame of a device strategy: pixels to the device (once), count, read the histogram back, every
// command tracked, every program it builds recorded.
class DeviceStrategy : public Strategy {
  public:
    bool runsOnDevice() const override { return true; }
    Result run(DeviceContext* device, PixelSource& pixels, const Params& params) const override;

  protected:
    // run() for pixels counted in `bands`; the note says so and why.
    Result runInBands(DeviceContext& device, PixelSource& pixels, const Params& params,
                      const Bands& bands) const;
    // The counting kernel in kernels/histogram.cl; its arguments are (pixels, pixel count, counters).
    virtual const char* kernelName() const = 0;
    // Enqueues the kernels that leave the histogram of `pixelCount` pixels in `hist` (uninitialised on
    // entry; histogramBytes() and the ticket), building its programs through program().
    virtual void count(DeviceContext& device, const cl::Buffer& pixels, cl_uint pixelCount,
                       const Params& params, cl::Buffer& hist, TimingLog& log,
                       std::vector<KernelBuild>& builds) const = 0;

    // `build`'s program on `device`, recorded in `builds`.
    static cl::Program program(DeviceContext& device, const KernelBuild& build,
                               std::vector<KernelBuild>& builds);
    void launchCounting(DeviceContext& device, cl::Kernel& kernel, const cl::Buffer& pixels,
                        cl_uint pixelCount, const cl::Buffer& counters, std::size_t groups, std::size_t local,
                        TimingLog& log) const;
    // Clears the histogram and the ticket after it.
    static void clear(DeviceContext& device, cl::Buffer& hist, const Params& params, TimingLog& log);
    // reduce_partials: work-groups of 256 work-items, 32 counters each (REDUCE_WG, REDUCE_COUNTERS).
    static void reducePartials(DeviceContext& device, const cl::Program& program, const cl::Buffer& partials,
                               std::size_t partialCount, const Params& params, cl::Buffer& hist,
                               TimingLog& log);
};

// Strategies whose kernels size local arrays by the work-group size (-D WG) and take chunks of
// quadsPerItem() uint4 loads per work-item from the ticket counter (persistent work-groups): a plan from the
// device's limits, checked against the compiled kernel's CL_KERNEL_WORK_GROUP_SIZE and rebuilt smaller when
// the kernel allows less than the device.
class SizedGroupStrategy : public DeviceStrategy {
  public:
    Support supported(const DeviceInfo* device, ImageShape shape, const Params& params) const override;
    // WG: the work-group size, which a sweep (ops/tuning.hpp) may set in place of preferredWorkGroup().
    std::vector<Tunable> tunables() const override;
    std::optional<KernelBuild> kernelBuild(const DeviceInfo& device, const Params& params,
                                           ImageShape shape) const override;

  protected:
    // Local memory a work-group of `workGroup` work-items needs.
    virtual std::uint64_t localBytes(const DeviceInfo& device, const Params& params,
                                     std::size_t workGroup) const = 0;
    virtual std::size_t preferredWorkGroup(const DeviceInfo& device) const = 0;
    virtual std::string options(const DeviceInfo& device, const Params& params,
                                std::size_t workGroup) const = 0;
    // uint4 loads per work-item in one chunk.
    virtual std::size_t quadsPerItem(const DeviceInfo& device) const = 0;
    // Whether the kernel adds its groups' counts to the histogram with global atomics; otherwise it writes
    // one partial histogram per group, which reduce_partials adds up.
    virtual bool mergesWithAtomics() const = 0;

    std::size_t workGroupSize(const DeviceInfo& device, const Params& params) const;
    void count(DeviceContext& device, const cl::Buffer& pixels, cl_uint pixelCount, const Params& params,
               cl::Buffer& hist, TimingLog& log, std::vector<KernelBuild>& builds) const final;
};

// local_atomic and partial_reduce: COPIES interleaved sub-histograms per work-group counted with local
// atomics (count_chunks in the kernel); they differ in how a group's counts reach the histogram.
class SubHistogramStrategy : public SizedGroupStrategy {
  public:
    // WG, COPIES and CHUNK_QUADS.
    std::vector<Tunable> tunables() const override;

  protected:
    std::uint64_t localBytes(const DeviceInfo& device, const Params& params, std::size_t) const override;
    std::size_t preferredWorkGroup(const DeviceInfo&) const override { return 256; }
    std::size_t quadsPerItem(const DeviceInfo& device) const override;
    // CHUNK_QUADS unless tuned.
    virtual std::size_t chosenQuadsPerItem(const DeviceInfo&) const { return 16; }
    std::string options(const DeviceInfo& device, const Params& params, std::size_t workGroup) const override;

  private:
    std::size_t copies(const DeviceInfo& device) const;
};

}  // namespace hs::histogram::device
