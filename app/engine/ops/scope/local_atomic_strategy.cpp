// local-atomic: counts in local memory per work-group, then adds the group's non-zero counters to the global
// counts. Waveform and parade: a work-group per strip of column bins and band of rows (scope_strips);
// vectorscope: a private window of the Cb/Cr counters around grey per work-group, the rest straight to the
// global counts (scope_window). Both add runs of equal values along a column as one count.
#include <algorithm>

#include "engine/ops/histogram/device_strategy.hpp"
#include "engine/ops/scope/device_strategy.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::scope::device {

namespace {

constexpr std::size_t kWorkGroup = 256;
// A group's local table at most: 32 KiB lets a GPU compute unit (64 KiB or more of local memory) hold
// several groups, and fits the 48 KiB a work-group may have on NVIDIA's OpenCL.
constexpr std::uint64_t kTableBudget = 32 * 1024;
// The vectorscope's window: 64 x 64 counters (16 KiB) hold the chroma within 32 of grey, where most of a
// photograph's pixels are; smaller where local memory is short.
constexpr int kLargestWindow = 64;
constexpr int kSmallestWindow = 8;
constexpr std::uint64_t kBinBytes = kValues * sizeof(cl_uint);  // one column bin of one plane

std::uint64_t budget(const DeviceInfo& device) {
    return std::min(kTableBudget, device.localMemBytes);
}

int planes(const Params& params) {
    return params.kind == Kind::Parade ? 3 : 1;
}

// Column bins per work-group: as many as the budget holds, whatever the columns (one build serves every
// column count; a table wider than the columns costs only its clearing).
std::size_t strip(const DeviceInfo& device, const Params& params) {
    const std::uint64_t fit = budget(device) / (static_cast<std::uint64_t>(planes(params)) * kBinBytes);
    return static_cast<std::size_t>(std::max<std::uint64_t>(fit, 1));
}

int window(const DeviceInfo& device) {
    int side = kLargestWindow;
    while (side > kSmallestWindow &&
           static_cast<std::uint64_t>(side) * side * sizeof(cl_uint) > budget(device))
        side /= 2;
    return side;
}

std::size_t workGroup(const DeviceInfo& device) {
    return std::min(kWorkGroup, device.maxWorkGroupSize);
}

// Work-groups to aim for: enough to fill every compute unit a few times over (a GPU runs several at once, a
// CPU core one after another).
std::size_t targetGroups(const DeviceInfo& device) {
    return std::max<std::size_t>(1, device.computeUnits) * (device.type == DeviceType::Gpu ? 4 : 2);
}

// Bands of rows so that `across` groups per band make about the target, and the rows of each.
std::pair<std::size_t, cl_uint> bands(const DeviceInfo& device, std::size_t across, int rows) {
    const std::size_t wanted = std::clamp<std::size_t>(
        histogram::device::ceilDiv(targetGroups(device), across), 1, static_cast<std::size_t>(rows));
    const std::size_t perBand = histogram::device::ceilDiv(static_cast<std::size_t>(rows), wanted);
    return {histogram::device::ceilDiv(static_cast<std::size_t>(rows), perBand),
            static_cast<cl_uint>(perBand)};
}

class LocalAtomicStrategy final : public DeviceStrategy {
  public:
    std::string_view name() const override { return "local-atomic"; }
    std::string_view description() const override {
        return "local counters per work-group (a strip of column bins; the vectorscope's window around "
               "grey), "
               "runs of equal values counted once, merged with global atomics";
    }
    std::optional<KernelBuild> kernelBuild(const DeviceInfo& device, const Params& params,
                                           ImageShape) const override {
        return build(device, params);
    }

  protected:
    Support supportedHere(const DeviceInfo& device, const Params& params) const override {
        const std::uint64_t smallest =
            params.kind == Kind::Vectorscope
                ? std::uint64_t{kSmallestWindow} * kSmallestWindow * sizeof(cl_uint)
                : static_cast<std::uint64_t>(planes(params)) * kBinBytes;
        if (device.localMemBytes < smallest)
            return Support::no("needs at least " + histogram::device::kibibytes(smallest) +
                               " of local memory, the device has " +
                               histogram::device::kibibytes(device.localMemBytes));
        return Support::yes();
    }

    void count(DeviceContext& device, const cl::Buffer& pixels, const Launch& launch, const Params& params,
               const cl::Buffer& counts, TimingLog& log, std::vector<KernelBuild>& builds) const override {
        const DeviceInfo& info = device.info();
        const KernelBuild made = build(info, params);
        const bool vectorscope = params.kind == Kind::Vectorscope;
        const char* kernelName = vectorscope ? "scope_window" : "scope_strips";
        cl::Kernel kernel(program(device, made, builds), kernelName);
        const std::size_t local = workGroup(info);
        // The kernel strides by WG, so it runs in groups of exactly that size or not at all.
        if (const std::size_t limit = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device.device());
            limit < local)
            throw OpenClError("running " + std::string(kernelName), 0,
                              "device " + info.name + ": " + kernelName + " runs in work-groups of " +
                                  std::to_string(local) + ", the compiled kernel allows " +
                                  std::to_string(limit));
        // Groups across: strips of column bins, or blocks of a work-group's columns.
        const std::size_t across =
            vectorscope
                ? std::min(histogram::device::ceilDiv(static_cast<std::size_t>(launch.region.width), local),
                           targetGroups(info))
                : histogram::device::ceilDiv(launch.columns, strip(info, params));
        const auto [bandCount, rowsPerBand] = bands(info, across, launch.region.height);
        setKernelArgs(kernel, setLaunchArgs(kernel, pixels, launch, counts), rowsPerBand);
        device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(across * local, bandCount),
                                            cl::NDRange(local, 1), nullptr,
                                            log.track(Stage::Kernel, kernelName));
    }

  private:
    static KernelBuild build(const DeviceInfo& device, const Params& params) {
        std::string options = scopeOptions(params) + " -D WG=" + std::to_string(workGroup(device));
        if (params.kind == Kind::Vectorscope)
            options += " -D WINDOW=" + std::to_string(window(device));
        else
            options += " -D STRIP=" + std::to_string(strip(device, params));
        return {std::string(kSource), options};
    }
};

const LocalAtomicStrategy strategy;
const Registration<Operation> registration(strategy, 40);

}  // namespace

}  // namespace hs::scope::device
