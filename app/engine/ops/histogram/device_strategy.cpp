#include "engine/ops/histogram/device_strategy.hpp"

#include <algorithm>
#include <bit>
#include <limits>
#include <map>
#include <mutex>

#include "engine/ops/device_launch.hpp"
#include "engine/ops/tuning.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::histogram::device {

namespace {

// Work-groups for a persistent launch of kernels that take chunks from the ticket counter: as many as a
// device may hold at once (a GPU compute unit runs up to 2048 work-items, and more than 8 groups of such
// local memory do not fit; a CPU core one group at a time, two keep it busy), and never more than the
// chunks. Holding fewer at once costs nothing but partials: late groups find the chunks taken.
std::size_t persistentGroups(const DeviceInfo& device, std::size_t local, std::size_t chunks) {
    const std::size_t perUnit =
        device.type == DeviceType::Gpu ? std::clamp<std::size_t>(2048 / local, 1, 8) : 2;
    return std::clamp<std::size_t>(chunks, 1, std::max<std::size_t>(1, device.computeUnits) * perUnit);
}

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

}  // namespace

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

std::string kibibytes(std::uint64_t bytes) {
    return std::to_string(ceilDiv(bytes, 1024)) + " KiB";
}

std::size_t rememberedLimit(const DeviceInfo& device, const std::string& kernel, const Params& params) {
    return kernelLimits().get(device, kernel, params);
}

void rememberLimit(const DeviceInfo& device, const std::string& kernel, const Params& params,
                   std::size_t limit) {
    kernelLimits().set(device, kernel, params, limit);
}

std::optional<Bands> bandsFor(const DeviceContext& device, const PixelSource& pixels) {
    if (pixels.onDevice(device)) return std::nullopt;
    const DeviceInfo& info = device.info();
    if (auto problem = launch::allocationProblem(info, pixels.byteCount(), "the image"); !problem.empty())
        return Bands{info.maxAllocBytes, std::move(problem)};
    if (info.type == DeviceType::Cpu && pixels.byteCount() > kHostMemoryBandBytes)
        return Bands{kHostMemoryBandBytes,
                     "the device's memory is the host's, which would hold the whole image twice"};
    return std::nullopt;
}

Result DeviceStrategy::run(DeviceContext* device, PixelSource& pixels, const Params& params) const {
    const std::string where = "device " + device->info().name + ": histogram strategy " + std::string(name());
    if (const auto bands = bandsFor(*device, pixels)) return runInBands(*device, pixels, params, *bands);
    if (pixels.pixelCount() > std::numeric_limits<cl_uint>::max())
        throw OpenClError("running " + std::string(name()), 0,
                          where + ": more than 2^32-1 pixels overflow the device's 32-bit counters");
    TimingLog log;
    std::vector<KernelBuild> builds;
    const cl::Buffer& input = pixels.device(*device, log);
    const auto pixelCount = static_cast<cl_uint>(pixels.pixelCount());
    Histogram values = withClErrors(where, [&] {
        // The counters and, after them, local_atomic's ticket.
        cl::Buffer hist(device->context(), CL_MEM_READ_WRITE, histogramBytes(params) + kTicketBytes);
        count(*device, input, pixelCount, params, hist, log, builds);
        std::vector<cl_uint> flat(histogramSize(params));
        device->queue().enqueueReadBuffer(hist, CL_TRUE, 0, histogramBytes(params), flat.data(), nullptr,
                                          log.track(Stage::Readback, "read histogram"));
        return Histogram::fromFlat(flat, kMaxBins);
    });
    return Result::counted(std::move(values), params, {this, {}, log.collect(), std::move(builds)});
}

Result DeviceStrategy::runInBands(DeviceContext& device, PixelSource& pixels, const Params& params,
                                  const Bands& bands) const {
    const std::string where = "device " + device.info().name + ": histogram strategy " + std::string(name());
    if (bands.bytes < kMinimumBandBytes)
        throw OpenClError("counting in bands", 0,
                          where + ": " + bands.why + ", and bands of " + std::to_string(bands.bytes) +
                              " bytes are below the smallest band (" + std::to_string(kMinimumBandBytes) +
                              " bytes)");
    // Whole uint4 loads per band, and few enough pixels for the device's 32-bit counters.
    const std::uint64_t fit = std::min<std::uint64_t>(bands.bytes / 4, std::numeric_limits<cl_uint>::max());
    const std::size_t bandPixels = std::max<std::uint64_t>(fit / 4 * 4, 4);
    const std::size_t total = pixels.pixelCount();
    TimingLog log;
    std::vector<KernelBuild> builds;
    const std::uint8_t* host = pixels.host(log);
    Histogram values = withClErrors(where, [&] {
        cl::Buffer band(device.context(), CL_MEM_READ_ONLY, bandPixels * 4);
        cl::Buffer hist(device.context(), CL_MEM_READ_WRITE, histogramBytes(params) + kTicketBytes);
        std::vector<cl_uint> flat(histogramSize(params));
        Histogram sum(kMaxBins);
        // Every band builds what the first one did.
        std::vector<KernelBuild> sameBuilds;
        for (std::size_t first = 0; first < total; first += bandPixels) {
            const std::size_t count = std::min(bandPixels, total - first);
            device.queue().enqueueWriteBuffer(band, CL_FALSE, 0, count * 4, host + first * 4, nullptr,
                                              log.track(Stage::Upload, "upload pixels (band)"));
            this->count(device, band, static_cast<cl_uint>(count), params, hist, log,
                        first == 0 ? builds : sameBuilds);
            // Blocking: the band buffer and `flat` are reused by the next band.
            device.queue().enqueueReadBuffer(hist, CL_TRUE, 0, histogramBytes(params), flat.data(), nullptr,
                                             log.track(Stage::Readback, "read histogram (band)"));
            for (std::size_t c = 0; c < kChannelCount; ++c) {
                for (std::size_t v = 0; v < kMaxBins; ++v) sum.counts[c][v] += flat[c * kMaxBins + v];
            }
        }
        return sum;
    });
    const std::string note = "counted in " + std::to_string(ceilDiv(total, bandPixels)) +
                             " bands of at most " + std::to_string(bandPixels) + " pixels: " + bands.why;
    return Result::counted(std::move(values), params, {this, note, log.collect(), std::move(builds)});
}

cl::Program DeviceStrategy::program(DeviceContext& device, const KernelBuild& build,
                                    std::vector<KernelBuild>& builds) {
    cl::Program program = device.program(build.source, build.options);
    builds.push_back(build);
    return program;
}

void DeviceStrategy::launchCounting(DeviceContext& device, cl::Kernel& kernel, const cl::Buffer& pixels,
                                    cl_uint pixelCount, const cl::Buffer& counters, std::size_t groups,
                                    std::size_t local, TimingLog& log) const {
    setKernelArgs(kernel, 0, pixels, pixelCount, counters);
    device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(groups * local),
                                        cl::NDRange(local), nullptr, log.track(Stage::Kernel, kernelName()));
}

void DeviceStrategy::clear(DeviceContext& device, cl::Buffer& hist, const Params& params, TimingLog& log) {
    device.queue().enqueueFillBuffer(hist, cl_uint{0}, 0, histogramBytes(params) + kTicketBytes, nullptr,
                                     log.track(Stage::Other, "clear histogram"));
}

void DeviceStrategy::reducePartials(DeviceContext& device, const cl::Program& program,
                                    const cl::Buffer& partials, std::size_t partialCount,
                                    const Params& params, cl::Buffer& hist, TimingLog& log) {
    constexpr std::size_t kGroup = 256, kCounters = 32;
    cl::Kernel reduce(program, "reduce_partials");
    setKernelArgs(reduce, 0, partials, static_cast<cl_uint>(partialCount), hist);
    device.queue().enqueueNDRangeKernel(
        reduce, cl::NullRange, cl::NDRange(ceilDiv(histogramSize(params), kCounters) * kGroup),
        cl::NDRange(kGroup), nullptr, log.track(Stage::Kernel, "reduce_partials"));
}

Support SizedGroupStrategy::supported(const DeviceInfo* device, ImageShape, const Params& params) const {
    const std::uint64_t smallest = localBytes(*device, params, 1);
    if (device->localMemBytes < smallest)
        return Support::no("needs at least " + kibibytes(smallest) + " of local memory for " +
                           "the 256 values, the device has " + kibibytes(device->localMemBytes));
    return Support::yes();
}

std::optional<KernelBuild> SizedGroupStrategy::kernelBuild(const DeviceInfo& device, const Params& params,
                                                           ImageShape) const {
    return KernelBuild{std::string(kSource), options(device, params, workGroupSize(device, params))};
}

std::vector<Tunable> SizedGroupStrategy::tunables() const {
    return {{.name = "WG", .help = "work-items per work-group", .min = 1, .max = 4096}};
}

std::size_t SizedGroupStrategy::workGroupSize(const DeviceInfo& device, const Params& params) const {
    const auto preferred = static_cast<std::size_t>(
        tuning::valueOr(device, name(), "WG", static_cast<int>(preferredWorkGroup(device))));
    std::size_t size =
        std::min({preferred, device.maxWorkGroupSize, rememberedLimit(device, kernelName(), params)});
    while (size > 1 && localBytes(device, params, size) > device.localMemBytes) size /= 2;
    return std::max<std::size_t>(size, 1);
}

void SizedGroupStrategy::count(DeviceContext& device, const cl::Buffer& pixels, cl_uint pixelCount,
                               const Params& params, cl::Buffer& hist, TimingLog& log,
                               std::vector<KernelBuild>& builds) const {
    tuning::loadStored(device.programCache());
    // The kernel built for this device, and the work-group size it was built for: rebuilt smaller while the
    // compiled kernel accepts less than planned.
    cl::Kernel kernel;
    std::size_t local = 0;
    for (;;) {
        local = workGroupSize(device.info(), params);
        const KernelBuild build{std::string(kSource), options(device.info(), params, local)};
        kernel = cl::Kernel(device.program(build.source, build.options), kernelName());
        const std::size_t limit = kernelWorkGroupLimit(kernel, device.device());
        if (local <= limit) {
            builds.push_back(build);
            break;
        }
        rememberLimit(device.info(), kernelName(), params, limit);
    }
    const std::size_t chunks = ceilDiv(pixelCount / 4, local * quadsPerItem(device.info()));
    const std::size_t groups = persistentGroups(device.info(), local, chunks);
    if (mergesWithAtomics()) {
        clear(device, hist, params, log);
        launchCounting(device, kernel, pixels, pixelCount, hist, groups, local, log);
        return;
    }
    // One partial histogram per group, then the ticket.
    const std::size_t partialBytes = groups * histogramBytes(params);
    cl::Buffer partials(device.context(), CL_MEM_READ_WRITE, partialBytes + kTicketBytes);
    device.queue().enqueueFillBuffer(partials, cl_uint{0}, partialBytes, kTicketBytes, nullptr,
                                     log.track(Stage::Other, "clear ticket"));
    launchCounting(device, kernel, pixels, pixelCount, partials, groups, local, log);
    reducePartials(device, kernel.getInfo<CL_KERNEL_PROGRAM>(), partials, groups, params, hist, log);
}

std::vector<Tunable> SubHistogramStrategy::tunables() const {
    auto list = SizedGroupStrategy::tunables();
    list.push_back(
        {.name = "COPIES", .help = "sub-histograms per work-group", .min = 1, .max = 64, .powerOfTwo = true});
    list.push_back(
        {.name = "CHUNK_QUADS", .help = "uint4 loads per work-item in one chunk", .min = 1, .max = 256});
    return list;
}

std::size_t SubHistogramStrategy::copies(const DeviceInfo& device) const {
    // One sub-histogram a group unless tuned: on the H200 (3840x2160 frames, median of 20, one run) one copy
    // beat the four that half its local memory holds on every pattern, one colour included (local-atomic
    // 0.021-0.022 -> 0.019 ms on all-equal, 0.022-0.023 -> 0.019-0.020 on natural). A CPU runs a group's
    // items one after another: no contention to spread either.
    return static_cast<std::size_t>(tuning::valueOr(device, name(), "COPIES", 1));
}

std::size_t SubHistogramStrategy::quadsPerItem(const DeviceInfo& device) const {
    return static_cast<std::size_t>(
        tuning::valueOr(device, name(), "CHUNK_QUADS", chosenQuadsPerItem(device)));
}

std::uint64_t SubHistogramStrategy::localBytes(const DeviceInfo& device, const Params& params,
                                               std::size_t) const {
    return copies(device) * histogramBytes(params) + kTicketBytes;
}

std::string SubHistogramStrategy::options(const DeviceInfo& device, const Params& params,
                                          std::size_t workGroup) const {
    return countingOptions(params) + " -D WG=" + std::to_string(workGroup) +
           " -D COPIES=" + std::to_string(copies(device)) +
           " -D CHUNK_QUADS=" + std::to_string(quadsPerItem(device)) +
           (mergesWithAtomics() ? "" : " -D PARTIALS");
}

}  // namespace hs::histogram::device
