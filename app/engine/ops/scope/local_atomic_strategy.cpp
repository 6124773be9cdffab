// local-atomic: counts in local memory per work-group, then adds the group's non-zero counters to the global
// counts. Waveform and parade: a work-group per strip of column bins and band of rows (scope_strips);
// vectorscope: a private window of the Cb/Cr counters around grey per work-group, what falls outside in a few
// local slots or straight to the global counts (scope_window). Both add runs of equal values along a column
// as one count and load several rows at once. WIDE=4 loads 4 adjacent pixels of a row at once (16 bytes), for
// more bytes in flight per work-item than one 4-byte pixel a load; it falls back to one pixel a load where
// the image's rows are not 16-byte aligned (a pitch not a multiple of 4) or a 4-pixel quad may span more
// column bins than a strip's table holds (more columns than pixels, a tiny STRIP). Its tunables (a sweep's
// axes, ops/tuning.hpp) are read per run.
#include <algorithm>
#include <bit>

#include "engine/ops/histogram/device_strategy.hpp"
#include "engine/ops/scope/device_strategy.hpp"
#include "engine/ops/tuning.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::scope::device {

namespace {

using histogram::device::ceilDiv;

constexpr std::string_view kName = "local-atomic";
constexpr int kWorkGroup = 256;
// Rows a work-item loads before it counts them: one, as batches of 2 to 32 measured no faster on the H200
// (bench/results/h200-2026-11-27-scopes), the tunable stays for other devices.
constexpr int kUnroll = 1;
constexpr int kLargestUnroll = 16;  // kernels/scope.cl batches 1, 2, 4, 8 or 16 rows
// Pixels a work-item loads from a row at once: 4 (a uint4), faster on the H200 for every scope and frame
// (natural 4K frame: waveform 0.030 -> 0.025 ms, parade 0.049 -> 0.037, vectorscope 0.037 -> 0.031;
// bench/results/h200-2026-11-27-scopes/scope-tunings-wide-summary.txt); 1 where the pitch is not a multiple
// of 4.
constexpr int kWide = 4;
constexpr int kQuad = 4;               // WIDE=4's pixels a load
constexpr int kLargestWideUnroll = 4;  // a batch of WIDE=4's rows is at most a uint16
// A group's local table at most: 32 KiB lets a GPU compute unit (64 KiB or more of local memory) hold
// several groups, and fits the 48 KiB a work-group may have on NVIDIA's OpenCL.
constexpr std::uint64_t kTableBudget = 32 * 1024;
// A GPU's waveform strips: 18 column bins (18 KiB), faster than the 32 the budget holds on every pattern of
// the 4K frame, on the H200 (bench/results/h200-2026-11-27-scopes) and the H100
// (bench/results/h100-2026-12-07-session13): natural frame 0.025 -> 0.023 ms on both.
constexpr std::uint64_t kGpuWaveformStrip = 18;
// The vectorscope's window and slots at most: 128 x 128 16-bit counters (32 KiB, the chroma within 64 of
// grey, where most of a photograph's pixels are) and the slots beside them.
constexpr std::uint64_t kWindowBudget = 40 * 1024;
constexpr int kLargestWindow = 128;
constexpr int kSmallestWindow = 8;
constexpr int kCounterBits = 16;
constexpr int kOutsideSlots = 256;
// Runs of equal values down a column counted with one atomic: kept by a CPU and by a GPU's vectorscope, off
// for a GPU's waveform and parade. There a warp's work-items add to different columns' counters, so a pixel's
// own atomic costs less than the compare and the divergent flush of runs: on the H100 (4 groups per compute
// unit) the natural 4K frame's waveform took 0.0235 -> 0.0203 ms (0.47 -> 0.54 x the streaming read), its
// parade 0.0365 -> 0.0317, the uniform frame's alike faster, the all-equal frame's waveform the same and its
// parade 0.0259 -> 0.0308 (bench/results/h100-2026-12-07-session17). The vectorscope's work-items meet on one
// counter wherever the chroma is flat: without runs its all-equal frame took twice as long.
constexpr int kGpuStripRuns = 0;
constexpr int kRuns = 1;
// The most pixels one group may count into 16-bit counters: a counter can then never carry.
constexpr std::size_t kSixteenBitPixels = 65535;
constexpr std::uint64_t kBinBytes = kValues * sizeof(cl_uint);  // one column bin of one plane

int planes(const Params& params) {
    return params.kind == Kind::Parade ? 3 : 1;
}

// Under "scope/local-atomic": the histogram's local-atomic has tunables of the same names (WG) and other
// sizes.
int tuned(const DeviceInfo& device, std::string_view tunable, int chosen) {
    static const std::string key = tuning::key("scope", kName);
    return tuning::valueOr(device, key, tunable, chosen);
}

// What one run builds and launches, the tunables applied and fitted to the device.
struct Plan {
    std::size_t workGroup = 0;
    int unroll = 1;
    int wide = 1;                   // pixels a work-item loads from a row at once: 1 or kQuad
    std::size_t stripQuads = 0;     // waveform, parade with WIDE=4: quads of a row per group
    std::size_t groupsPerUnit = 1;  // work-groups to aim for per compute unit
    std::size_t strip = 0;          // waveform, parade: column bins per group
    int window = 0;                 // vectorscope: the window's side
    int counterBits = 32;           // vectorscope: of the window's counters
    int outsideSlots = 0;           // vectorscope: a power of two, or none
    int runs = kRuns;               // 1: a run of equal values down a column is one atomic, 0: none

    std::uint64_t windowBytes() const {
        return static_cast<std::uint64_t>(window) * static_cast<std::uint64_t>(window) *
                   static_cast<std::uint64_t>(counterBits) / 8 +
               static_cast<std::uint64_t>(outsideSlots) * 2 * sizeof(cl_uint);
    }
};

// The quads (4-pixel columns, aligned to the image) that the rectangle touches.
std::size_t spanQuads(const Launch& launch) {
    const auto x = static_cast<std::size_t>(launch.region.x);
    return ceilDiv(x + static_cast<std::size_t>(launch.region.width), kQuad) - x / kQuad;
}

// WIDE=4's strip for scope_strips: the most quads of a row whose pixels' column bins fit a table of
// `strip` bins wherever the strip starts, at most a group's work-items; 0 where not even one quad fits.
// P adjacent pixels span at most floor((P - 1) * columns / width) + 2 bins (+1 for the first bin, +1 as
// the start need not be a bin's first column), which stays within `strip` while
// (P - 1) * columns < (strip - 1) * width.
std::size_t stripQuads(std::size_t strip, std::size_t workGroup, const Launch& launch) {
    if (strip < 2) return 0;
    const auto width = static_cast<std::uint64_t>(launch.region.width);
    const std::uint64_t pixels = ((strip - 1) * width - 1) / launch.columns + 1;
    return static_cast<std::size_t>(std::min<std::uint64_t>(pixels / kQuad, workGroup));
}

// The vectorscope's window, counters and slots: the tuned ones, halved until they fit the budget.
void fitWindow(const DeviceInfo& device, Plan& p) {
    p.counterBits = tuned(device, "COUNTER_BITS", kCounterBits) == 16 ? 16 : 32;
    const int slots = tuned(device, "OUTSIDE_SLOTS", kOutsideSlots);
    p.outsideSlots = slots > 0 ? static_cast<int>(std::bit_floor(static_cast<unsigned>(slots))) : 0;
    p.window = static_cast<int>(std::bit_floor(
        static_cast<unsigned>(std::clamp(tuned(device, "WINDOW", kLargestWindow), kSmallestWindow, 256))));
    const std::uint64_t budget = std::min(kWindowBudget, device.localMemBytes);
    while (p.window > kSmallestWindow && p.windowBytes() > budget) p.window /= 2;
    while (p.outsideSlots > 0 && p.windowBytes() > budget) p.outsideSlots /= 2;
}

Plan plan(const DeviceInfo& device, const Params& params, const Launch& launch) {
    Plan p;
    p.workGroup =
        std::min(static_cast<std::size_t>(tuned(device, "WG", kWorkGroup)), device.maxWorkGroupSize);
    p.unroll = static_cast<int>(std::bit_floor(
        static_cast<unsigned>(std::clamp(tuned(device, "UNROLL", kUnroll), 1, kLargestUnroll))));
    p.wide = tuned(device, "WIDE", kWide) == kQuad && launch.pitch % kQuad == 0 ? kQuad : 1;
    // A GPU runs several groups per compute unit at once, a CPU core one after another.
    p.groupsPerUnit = static_cast<std::size_t>(
        std::max(1, tuned(device, "GROUPS_PER_CU", device.type == DeviceType::Gpu ? 4 : 2)));
    const bool gpuStrips = device.type == DeviceType::Gpu && params.kind != Kind::Vectorscope;
    p.runs = tuned(device, "RUNS", gpuStrips ? kGpuStripRuns : kRuns) == 0 ? 0 : 1;
    if (params.kind != Kind::Vectorscope) {
        // As many column bins as the budget holds (a GPU's waveform: fewer), whatever the columns (one build
        // serves every column count; a table wider than the columns costs only its clearing); a tuned strip
        // up to what the device's local memory holds.
        const std::uint64_t binBytes = static_cast<std::uint64_t>(planes(params)) * kBinBytes;
        const std::uint64_t fit = std::min(kTableBudget, device.localMemBytes) / binBytes;
        const std::uint64_t most = std::max<std::uint64_t>(device.localMemBytes / binBytes, 1);
        const std::uint64_t chosen =
            device.type == DeviceType::Gpu && planes(params) == 1 ? std::min(fit, kGpuWaveformStrip) : fit;
        p.strip = static_cast<std::size_t>(std::clamp<std::uint64_t>(
            static_cast<std::uint64_t>(std::max(1, tuned(device, "STRIP", static_cast<int>(chosen)))), 1,
            most));
        if (p.wide == kQuad) {
            p.stripQuads = stripQuads(p.strip, p.workGroup, launch);
            if (p.stripQuads == 0) p.wide = 1;
        }
    } else {
        fitWindow(device, p);
    }
    if (p.wide == kQuad) p.unroll = std::min(p.unroll, kLargestWideUnroll);
    return p;
}

// Bands of rows so that `across` groups per band make about `target`, at most `maxRows` rows each: the
// bands and the rows of each.
std::pair<std::size_t, cl_uint> bands(std::size_t target, std::size_t across, int rows, std::size_t maxRows) {
    const std::size_t wanted =
        std::clamp<std::size_t>(ceilDiv(target, across), 1, static_cast<std::size_t>(rows));
    const std::size_t perBand = std::min(ceilDiv(static_cast<std::size_t>(rows), wanted), maxRows);
    return {ceilDiv(static_cast<std::size_t>(rows), perBand), static_cast<cl_uint>(perBand)};
}

KernelBuild build(const Params& params, const Plan& p) {
    std::string options = scopeOptions(params) + " -D WG=" + std::to_string(p.workGroup) +
                          " -D UNROLL=" + std::to_string(p.unroll) + " -D WIDE=" + std::to_string(p.wide) +
                          " -D RUNS=" + std::to_string(p.runs);
    if (params.kind == Kind::Vectorscope)
        options += " -D WINDOW=" + std::to_string(p.window) +
                   " -D COUNTER_BITS=" + std::to_string(p.counterBits) +
                   " -D OUTSIDE_SLOTS=" + std::to_string(p.outsideSlots);
    else
        options += " -D STRIP=" + std::to_string(p.strip);
    return {std::string(kSource), options};
}

class LocalAtomicStrategy final : public DeviceStrategy {
  public:
    std::string_view name() const override { return kName; }
    std::string_view description() const override {
        return "local counters per work-group (a strip of column bins; the vectorscope's window around "
               "grey), runs of equal values counted once (on a GPU the vectorscope's only), merged with "
               "global atomics";
    }
    std::vector<Tunable> tunables() const override {
        return {
            {.name = "WG", .help = "work-items per work-group", .min = 1, .max = 1024},
            {.name = "UNROLL",
             .help = "rows a work-item loads before counting them",
             .min = 1,
             .max = kLargestUnroll,
             .powerOfTwo = true},
            {.name = "WIDE",
             .help = "pixels a work-item loads from a row at once: 4 (16 bytes, UNROLL up to 4), else 1",
             .min = 1,
             .max = kQuad,
             .powerOfTwo = true},
            {.name = "RUNS",
             .help = "1: a run of equal values down a column is one atomic; 0: every pixel its own",
             .min = 0,
             .max = 1},
            {.name = "GROUPS_PER_CU", .help = "work-groups to aim for per compute unit", .min = 1, .max = 64},
            {.name = "WINDOW",
             .help = "the vectorscope's local window side around grey",
             .min = kSmallestWindow,
             .max = 256,
             .powerOfTwo = true},
            {.name = "COUNTER_BITS",
             .help = "the vectorscope window's counters: 16 or 32 bits",
             .min = 16,
             .max = 32},
            {.name = "OUTSIDE_SLOTS",
             .help = "the vectorscope's local slots for chroma outside the window (0: none)",
             .min = 0,
             .max = 1024}};
    }
    std::optional<KernelBuild> kernelBuild(const DeviceInfo& device, const Params& params,
                                           ImageShape shape) const override {
        const Region region = countedRegion(params, shape.width, shape.height);
        const Launch launch{static_cast<cl_uint>(shape.width), region,
                            static_cast<cl_uint>(columnsFor(params, region.width))};
        return build(params, plan(device, params, launch));
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
        tuning::loadStored(device.programCache());
        const DeviceInfo& info = device.info();
        Plan p = plan(info, params, launch);
        const bool vectorscope = params.kind == Kind::Vectorscope;
        const char* kernelName = vectorscope ? "scope_window" : "scope_strips";
        // The kernel strides by WG, so it runs in groups of exactly that size: built again for the size the
        // compiled kernel allows where a tuned WG (the histogram's local-atomic shares the name) asks for
        // more.
        cl::Kernel kernel;
        for (;;) {
            const KernelBuild made = build(params, p);
            kernel = cl::Kernel(device.program(made.source, made.options), kernelName);
            const std::size_t limit = kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device.device());
            if (p.workGroup <= limit || p.workGroup == 1) {
                builds.push_back(made);
                break;
            }
            p.workGroup = std::bit_floor(std::max<std::size_t>(limit, 1));
            p.stripQuads = std::min(p.stripQuads, p.workGroup);
        }
        const std::size_t local = p.workGroup;
        const std::size_t target = std::max<std::size_t>(1, info.computeUnits) * p.groupsPerUnit;
        // What a work-item walks down: columns of pixels, or of quads (WIDE=4).
        const std::size_t units =
            p.wide == kQuad ? spanQuads(launch) : static_cast<std::size_t>(launch.region.width);
        const auto unitPixels = static_cast<std::size_t>(p.wide);
        std::size_t across = 0;
        std::size_t maxRows = static_cast<std::size_t>(launch.region.height);
        if (vectorscope) {
            // Blocks of a work-group's columns; with 16-bit counters a group counts fewer than 65536 pixels
            // (enough groups across that a work-item's columns times the group fit, then bands that short).
            across = std::min(ceilDiv(units, local), target);
            if (p.counterBits == 16) {
                across = std::max(across, ceilDiv(units, local * (kSixteenBitPixels / (local * unitPixels))));
                maxRows = kSixteenBitPixels / (local * unitPixels * ceilDiv(units, across * local));
            }
        } else if (p.wide == kQuad) {
            across = ceilDiv(units, p.stripQuads);  // strips of quads
        } else {
            across = ceilDiv(launch.columns, p.strip);  // strips of column bins
        }
        const auto [bandCount, rowsPerBand] = bands(target, across, launch.region.height, maxRows);
        const cl_uint next =
            setKernelArgs(kernel, setLaunchArgs(kernel, pixels, launch, counts), rowsPerBand);
        if (!vectorscope && p.wide == kQuad) setKernelArgs(kernel, next, static_cast<cl_uint>(p.stripQuads));
        device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(across * local, bandCount),
                                            cl::NDRange(local, 1), nullptr,
                                            log.track(Stage::Kernel, kernelName));
    }
};

const LocalAtomicStrategy strategy;
const Registration<Operation> registration(strategy, 40);

}  // namespace

}  // namespace hs::scope::device
