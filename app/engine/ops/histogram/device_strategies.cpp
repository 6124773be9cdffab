// The OpenCL strategies: kernels/histogram.cl specialised per device and bin count.
#include <algorithm>
#include <limits>
#include <map>
#include <mutex>

#include "ops/histogram/histogram.hpp"
#include "ops/histogram/strategy_list.hpp"
#include "runtime/error.hpp"
#include "runtime/runtime.hpp"

namespace hs::histogram {

namespace {

constexpr std::string_view kSource = "histogram";

// The kernels count the 256 values whatever params.bins is (Result::counted() groups them into bins on the
// host), so the statistics see exact values.
std::size_t histogramSize(const Params&) {
    return kChannelCount * static_cast<std::size_t>(kMaxBins);
}
std::size_t histogramBytes(const Params& params) {
    return histogramSize(params) * sizeof(cl_uint);
}

std::string countingOptions(const Params& params) {
    return "-D BINS=" + std::to_string(kMaxBins) + (params.ignoreTransparent ? " -D IGNORE_TRANSPARENT" : "");
}

std::size_t ceilDiv(std::size_t a, std::size_t b) {
    return (a + b - 1) / b;
}

// Work-groups to launch for a grid of `wanted` groups: enough to keep every compute unit busy and balanced,
// few enough that per-group merging stays small beside the counting.
std::size_t groupCount(const DeviceInfo& device, std::size_t wanted) {
    const std::size_t perUnit = device.type == DeviceType::Gpu ? 16 : 8;
    return std::clamp<std::size_t>(wanted, 1, std::max<std::size_t>(1, device.computeUnits) * perUnit);
}

std::string kibibytes(std::uint64_t bytes) {
    return std::to_string(ceilDiv(bytes, 1024)) + " KiB";
}

// The largest work-group size a compiled kernel accepts on a device (CL_KERNEL_WORK_GROUP_SIZE), remembered
// per device and build so that planning (and kernelBuild()) can respect it before the next build.
class KernelLimits {
  public:
    std::size_t get(const DeviceInfo& device, const std::string& kernel, const Params& params) const {
        std::lock_guard lock(mutex_);
        const auto found = limits_.find(key(device, kernel, params));
        return found == limits_.end() ? std::numeric_limits<std::size_t>::max() : found->second;
    }
    void set(const DeviceInfo& device, const std::string& kernel, const Params& params, std::size_t limit) {
        std::lock_guard lock(mutex_);
        limits_[key(device, kernel, params)] = limit;
    }

  private:
    static std::string key(const DeviceInfo& device, const std::string& kernel, const Params& params) {
        return device.platformName + '\n' + device.name + '\n' + device.driverVersion + '\n' + kernel + '\n' +
               countingOptions(params);
    }
    mutable std::mutex mutex_;
    std::map<std::string, std::size_t> limits_;
};

KernelLimits& kernelLimits() {
    static KernelLimits limits;
    return limits;
}

std::size_t kernelWorkGroupLimit(const cl::Kernel& kernel, const cl::Device& device) {
    return kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device);
}

// The common frame of a device strategy: pixels to the device (once), count, read the histogram back, every
// command tracked.
class DeviceStrategy : public Strategy {
  public:
    bool runsOnDevice() const override { return true; }

    Result run(DeviceContext* device, PixelSource& pixels, const Params& params) const override {
        const std::string where =
            "device " + device->info().name + ": histogram strategy " + std::string(name());
        if (pixels.pixelCount() > std::numeric_limits<cl_uint>::max())
            throw OpenClError("running " + std::string(name()), 0,
                              where + ": more than 2^32-1 pixels overflow the device's 32-bit counters");
        TimingLog log;
        const cl::Buffer& input = pixels.device(*device, log);
        const auto pixelCount = static_cast<cl_uint>(pixels.pixelCount());
        Histogram values = withClErrors(where, [&] {
            cl::Buffer hist(device->context(), CL_MEM_READ_WRITE, histogramBytes(params));
            count(*device, input, pixelCount, params, hist, log);
            std::vector<cl_uint> flat(histogramSize(params));
            device->queue().enqueueReadBuffer(hist, CL_TRUE, 0, histogramBytes(params), flat.data(), nullptr,
                                              log.track(Stage::Readback, "read histogram"));
            return Histogram::fromFlat(flat, kMaxBins);
        });
        return Result::counted(std::move(values), params, log.collect(), name());
    }

  protected:
    // The counting kernel in kernels/histogram.cl; its arguments are (pixels, pixel count, counters).
    virtual const char* kernelName() const = 0;
    // Enqueues the kernels that leave the histogram of `pixelCount` pixels in `hist` (uninitialised on
    // entry).
    virtual void count(DeviceContext& device, const cl::Buffer& pixels, cl_uint pixelCount,
                       const Params& params, cl::Buffer& hist, TimingLog& log) const = 0;

    void launchCounting(DeviceContext& device, cl::Kernel& kernel, const cl::Buffer& pixels,
                        cl_uint pixelCount, const cl::Buffer& counters, std::size_t groups, std::size_t local,
                        TimingLog& log) const {
        setKernelArgs(kernel, 0, pixels, pixelCount, counters);
        device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(groups * local),
                                            cl::NDRange(local), nullptr,
                                            log.track(Stage::Kernel, kernelName()));
    }

    static void clear(DeviceContext& device, cl::Buffer& hist, const Params& params, TimingLog& log) {
        device.queue().enqueueFillBuffer(hist, cl_uint{0}, 0, histogramBytes(params), nullptr,
                                         log.track(Stage::Other, "clear histogram"));
    }

    static void reducePartials(DeviceContext& device, const cl::Program& program, const cl::Buffer& partials,
                               std::size_t partialCount, const Params& params, cl::Buffer& hist,
                               TimingLog& log) {
        cl::Kernel reduce(program, "reduce_partials");
        setKernelArgs(reduce, 0, partials, static_cast<cl_uint>(partialCount), hist);
        const std::size_t local = std::min<std::size_t>(64, kernelWorkGroupLimit(reduce, device.device()));
        device.queue().enqueueNDRangeKernel(
            reduce, cl::NullRange, cl::NDRange(ceilDiv(histogramSize(params), local) * local),
            cl::NDRange(local), nullptr, log.track(Stage::Kernel, "reduce_partials"));
    }
};

// global_atomic and local_atomic size no local array by the work-group, so any work-group size works.
class FreeGroupStrategy : public DeviceStrategy {
  public:
    std::optional<KernelBuild> kernelBuild(const DeviceInfo&, const Params& params) const override {
        return KernelBuild{std::string(kSource), countingOptions(params)};
    }

  protected:
    static constexpr std::size_t kPreferredGroup = 256;

    // Work-groups of `local` work-items to launch for `pixelCount` pixels.
    virtual std::size_t groups(const DeviceInfo& device, cl_uint pixelCount, std::size_t local) const = 0;

    // The kernels add to the histogram with atomics, so it starts cleared.
    void count(DeviceContext& device, const cl::Buffer& pixels, cl_uint pixelCount, const Params& params,
               cl::Buffer& hist, TimingLog& log) const final {
        clear(device, hist, params, log);
        if (pixelCount == 0) return;
        cl::Kernel kernel(device.program(kSource, countingOptions(params)), kernelName());
        const std::size_t local = std::min(
            {kPreferredGroup, device.info().maxWorkGroupSize, kernelWorkGroupLimit(kernel, device.device())});
        launchCounting(device, kernel, pixels, pixelCount, hist, groups(device.info(), pixelCount, local),
                       local, log);
    }
};

class GlobalAtomicStrategy final : public FreeGroupStrategy {
  public:
    std::string_view name() const override { return "global-atomic"; }
    std::string_view description() const override {
        return "one work-item per pixel, atomic_inc on the global histogram";
    }
    Support supported(const DeviceInfo*, const Params&) const override { return Support::yes(); }

  protected:
    const char* kernelName() const override { return "global_atomic"; }
    // One work-item per pixel.
    std::size_t groups(const DeviceInfo&, cl_uint pixelCount, std::size_t local) const override {
        return ceilDiv(pixelCount, local);
    }
};

class LocalAtomicStrategy final : public FreeGroupStrategy {
  public:
    std::string_view name() const override { return "local-atomic"; }
    std::string_view description() const override {
        return "a local-memory histogram per work-group with local atomics, merged with global atomics";
    }
    Support supported(const DeviceInfo* device, const Params& params) const override {
        if (device->localMemBytes < histogramBytes(params))
            return Support::no("needs " + kibibytes(histogramBytes(params)) + " of local memory for " +
                               "the 256 values, the device has " + kibibytes(device->localMemBytes));
        return Support::yes();
    }

  protected:
    const char* kernelName() const override { return "local_atomic"; }
    // Each work-item strides over the pixels, so the grid need not cover them one to one.
    std::size_t groups(const DeviceInfo& device, cl_uint pixelCount, std::size_t local) const override {
        return groupCount(device, ceilDiv(pixelCount, local));
    }
};

// Strategies whose local arrays are sized by the work-group size (-D WG): a plan from the device's limits,
// checked against the compiled kernel's CL_KERNEL_WORK_GROUP_SIZE and rebuilt smaller when the kernel allows
// less than the device.
class SizedGroupStrategy : public DeviceStrategy {
  public:
    Support supported(const DeviceInfo* device, const Params& params) const override {
        const std::uint64_t smallest = localBytes(*device, params, 1);
        if (device->localMemBytes < smallest)
            return Support::no("needs at least " + kibibytes(smallest) + " of local memory for " +
                               "the 256 values, the device has " + kibibytes(device->localMemBytes));
        return Support::yes();
    }
    std::optional<KernelBuild> kernelBuild(const DeviceInfo& device, const Params& params) const override {
        return KernelBuild{std::string(kSource), options(device, params, workGroupSize(device, params))};
    }

  protected:
    // Local memory a work-group of `workGroup` work-items needs.
    virtual std::uint64_t localBytes(const DeviceInfo& device, const Params& params,
                                     std::size_t workGroup) const = 0;
    virtual std::size_t preferredWorkGroup(const DeviceInfo& device) const = 0;
    virtual std::string options(const DeviceInfo& device, const Params& params,
                                std::size_t workGroup) const = 0;
    // Work-groups of `local` work-items that `pixelCount` pixels ask for, before groupCount() caps them.
    virtual std::size_t groupsWanted(const DeviceInfo& device, cl_uint pixelCount,
                                     std::size_t local) const = 0;

    std::size_t workGroupSize(const DeviceInfo& device, const Params& params) const {
        std::size_t size = std::min({preferredWorkGroup(device), device.maxWorkGroupSize,
                                     kernelLimits().get(device, kernelName(), params)});
        while (size > 1 && localBytes(device, params, size) > device.localMemBytes) size /= 2;
        return std::max<std::size_t>(size, 1);
    }

    // The kernel built for this device, and the work-group size it was built for.
    std::pair<cl::Kernel, std::size_t> kernel(DeviceContext& device, const Params& params) const {
        for (;;) {
            const std::size_t size = workGroupSize(device.info(), params);
            cl::Kernel kernel(device.program(kSource, options(device.info(), params, size)), kernelName());
            const std::size_t limit = kernelWorkGroupLimit(kernel, device.device());
            if (size <= limit) return {kernel, size};
            kernelLimits().set(device.info(), kernelName(), params, limit);
        }
    }

    // One partial histogram per work-group, summed on the device.
    void count(DeviceContext& device, const cl::Buffer& pixels, cl_uint pixelCount, const Params& params,
               cl::Buffer& hist, TimingLog& log) const final {
        auto [kernel, local] = SizedGroupStrategy::kernel(device, params);
        const std::size_t groups = groupCount(device.info(), groupsWanted(device.info(), pixelCount, local));
        cl::Buffer partials(device.context(), CL_MEM_READ_WRITE, groups * histogramBytes(params));
        launchCounting(device, kernel, pixels, pixelCount, partials, groups, local, log);
        reducePartials(device, kernel.getInfo<CL_KERNEL_PROGRAM>(), partials, groups, params, hist, log);
    }
};

class PartialReduceStrategy final : public SizedGroupStrategy {
  public:
    std::string_view name() const override { return "partial-reduce"; }
    std::string_view description() const override {
        return "per-group partial histograms written without global atomics, summed by a second kernel";
    }

  protected:
    // One sub-histogram per this many work-items (a GPU warp's worth), as local memory allows.
    static constexpr std::size_t kItemsPerCopy = 32;

    static std::size_t copies(const DeviceInfo& device, const Params& params, std::size_t workGroup) {
        const std::size_t fit = device.localMemBytes / histogramBytes(params);
        return std::clamp<std::size_t>(std::min(ceilDiv(workGroup, kItemsPerCopy), fit), 1, workGroup);
    }
    std::uint64_t localBytes(const DeviceInfo&, const Params& params, std::size_t) const override {
        return histogramBytes(params);
    }
    std::size_t preferredWorkGroup(const DeviceInfo&) const override { return 256; }
    std::string options(const DeviceInfo& device, const Params& params,
                        std::size_t workGroup) const override {
        return countingOptions(params) + " -D WG=" + std::to_string(workGroup) +
               " -D COPIES=" + std::to_string(copies(device, params, workGroup));
    }
    const char* kernelName() const override { return "partial_reduce"; }
    std::size_t groupsWanted(const DeviceInfo&, cl_uint pixelCount, std::size_t local) const override {
        return ceilDiv(pixelCount, local);
    }
};

class PrivateUcharStrategy final : public SizedGroupStrategy {
  public:
    std::string_view name() const override { return "private-uchar"; }
    std::string_view description() const override {
        return "per-work-item uchar counters in local memory, uint4 loads, merged per group, reduced on the "
               "device";
    }

  protected:
    // Bank-aware interleaving for GPUs; on a CPU a work-item's counters stay together in its core's cache.
    static bool interleaved(const DeviceInfo& device, std::size_t workGroup) {
        return device.type != DeviceType::Cpu && workGroup % 16 == 0;
    }
    // A CPU runs a work-item's increments one after another: four rows keep runs of equal pixels from waiting
    // on each other's stores. GPU work-items interleave by themselves.
    static std::size_t lanes(const DeviceInfo& device) { return device.type == DeviceType::Cpu ? 4 : 1; }
    // The most uint4 loads between flushes: a row takes 4 / lanes counts per load, a uchar at most 255.
    static std::size_t itemQuads(const DeviceInfo& device) { return 255 * lanes(device) / 4; }
    // Counter rows are padded to 16-byte blocks (HIST_PAD in the kernel).
    static std::size_t paddedSize(const Params& params) { return ceilDiv(histogramSize(params), 16) * 16; }
    std::uint64_t localBytes(const DeviceInfo& device, const Params& params,
                             std::size_t workGroup) const override {
        return paddedSize(params) * (workGroup * lanes(device) + sizeof(cl_uint));
    }
    // On a CPU, 4 work-items of 4 rows at 256 bins are 20 KiB of counters: they stay in the L1 cache.
    std::size_t preferredWorkGroup(const DeviceInfo& device) const override {
        return device.type == DeviceType::Cpu ? 4 : 256;
    }
    std::string options(const DeviceInfo& device, const Params& params,
                        std::size_t workGroup) const override {
        return countingOptions(params) + " -D WG=" + std::to_string(workGroup) +
               " -D ITEM_QUADS=" + std::to_string(itemQuads(device)) +
               " -D INTERLEAVED=" + (interleaved(device, workGroup) ? "1" : "0") +
               " -D LANES=" + std::to_string(lanes(device));
    }
    const char* kernelName() const override { return "private_uchar"; }
    // A work-group takes segments of `local` work-items times itemQuads() uint4 loads of four pixels each.
    std::size_t groupsWanted(const DeviceInfo& device, cl_uint pixelCount, std::size_t local) const override {
        return ceilDiv(pixelCount / 4, local * itemQuads(device));
    }
};

}  // namespace

const Strategy& globalAtomicStrategy() {
    static const GlobalAtomicStrategy strategy;
    return strategy;
}

const Strategy& localAtomicStrategy() {
    static const LocalAtomicStrategy strategy;
    return strategy;
}

const Strategy& privateUcharStrategy() {
    static const PrivateUcharStrategy strategy;
    return strategy;
}

const Strategy& partialReduceStrategy() {
    static const PartialReduceStrategy strategy;
    return strategy;
}

}  // namespace hs::histogram
