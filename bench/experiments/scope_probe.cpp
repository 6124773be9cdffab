// Issue 25 experiment (bench/experiments/scope_probe.sh): where the scope kernels' time goes on a GPU. On the
// bench's 3840x2160 frames (natural, all-equal, uniform) it times, in one run and by the kernels' profiling
// events (an untimed warm-up, then min / median / max of REPS):
//   - the streaming read of the frame (kernels/bench.cl stream_read, its fastest shape, as the bench does);
//   - the local-atomic waveform (luma), parade and vectorscope as the product launches them on a GPU (its
//     defaults: WG 256, UNROLL 1, WIDE 4, strips of 18 and 10 bins without runs, a 128 x 128 window of 16-bit
//     counters, 256 slots and runs, 4 groups per compute unit; the geometry mirrors
//     app/engine/ops/scope/local_atomic_strategy.cpp), once per VARIANT, each checked against a CPU
//     reference. A VARIANT is LABEL:DIR[:NAME=V,NAME=V...]: DIR's scope.cl, built with the product's -D
//     options, NAME=V replacing or adding one (WG comes from the shape below: the launch is built for it);
//   - the same walks with nothing counted (scope_probe.cl, including KERNELS/scope.cl), in the product's
//     geometry and in others.
//   scope_probe REPS KERNELS PROBE_DIR VARIANT...
// It writes out the strategy's launch geometry (bands, strips) and the scopes' definitions for its reference
// instead of linking the engine (scope::referenceScope, local_atomic_strategy.cpp), so that it builds from
// one g++ line in seconds on the GPU machine, where the engine takes minutes; the engine's own scope tests
// check the product's geometry and reference. PROBE_SHAPES (default "256/4": a list such as "256/6,1024/2")
// runs the product's kernels once per shape WG/G: work-groups of WG items, about G of them per compute unit;
// PROBE_WALKS=0 leaves the walks out.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engine/image/image.hpp"
#include "experiment_support.hpp"

namespace hs::bench {
// bench/inputs.hpp's (compiled in from app/bench/inputs.cpp; its header brings the bench's options along).
ImageRGBA8 makePattern(const std::string& name, int width, int height);
}  // namespace hs::bench

namespace {

constexpr int kWidth = 3840, kHeight = 2160, kColumns = 1024, kWalkGroup = 256;

struct Gpu {
    cl_context context = nullptr;
    cl_device_id device = nullptr;
    cl_command_queue queue = nullptr;
    cl_uint units = 0;
};

Gpu openDevice() {
    cl_uint platformCount = 0;
    check(clGetPlatformIDs(0, nullptr, &platformCount), "platforms");
    std::vector<cl_platform_id> platforms(platformCount);
    check(clGetPlatformIDs(platformCount, platforms.data(), nullptr), "platforms");
    Gpu gpu;
    for (cl_device_type type : {cl_device_type{CL_DEVICE_TYPE_GPU}, cl_device_type{CL_DEVICE_TYPE_ALL}}) {
        for (auto platform : platforms)
            if (clGetDeviceIDs(platform, type, 1, &gpu.device, nullptr) == CL_SUCCESS) break;
        if (gpu.device) break;
    }
    if (!gpu.device) {
        std::fprintf(stderr, "no OpenCL device\n");
        std::exit(3);
    }
    char name[256] = {};
    clGetDeviceInfo(gpu.device, CL_DEVICE_NAME, sizeof name, name, nullptr);
    clGetDeviceInfo(gpu.device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof gpu.units, &gpu.units, nullptr);
    std::printf("device %s, %u compute units\n", name, gpu.units);
    cl_int status = CL_SUCCESS;
    gpu.context = clCreateContext(nullptr, 1, &gpu.device, nullptr, nullptr, &status);
    check(status, "context");
    gpu.queue = clCreateCommandQueue(gpu.context, gpu.device, CL_QUEUE_PROFILING_ENABLE, &status);
    check(status, "queue");
    return gpu;
}

cl_kernel kernelOf(const Gpu& gpu, const std::string& dir, const std::string& file,
                   const std::string& options, const char* name) {
    const std::string source = readFile(dir + "/" + file);
    const char* text = source.c_str();
    cl_int status = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(gpu.context, 1, &text, nullptr, &status);
    check(status, "program");
    const std::string all = options + " -I " + dir;
    if (clBuildProgram(program, 1, &gpu.device, all.c_str(), nullptr, nullptr) != CL_SUCCESS) {
        std::vector<char> log(1 << 16);
        clGetProgramBuildInfo(program, gpu.device, CL_PROGRAM_BUILD_LOG, log.size(), log.data(), nullptr);
        std::fprintf(stderr, "build of %s/%s (%s) failed:\n%s\n", dir.c_str(), file.c_str(), options.c_str(),
                     log.data());
        std::exit(5);
    }
    cl_kernel kernel = clCreateKernel(program, name, &status);
    check(status, name);
    return kernel;
}

template <typename T>
void setArgs(cl_kernel kernel, cl_uint index, const T& value) {
    check(clSetKernelArg(kernel, index, sizeof(T), &value), "argument");
}
template <typename T, typename... Rest>
void setArgs(cl_kernel kernel, cl_uint index, const T& value, const Rest&... rest) {
    setArgs(kernel, index, value);
    setArgs(kernel, index + 1, rest...);
}

struct Summary {
    double min = 0, median = 0, max = 0;
};

// Kernel time in ms from the events, REPS runs after a warm-up; `before` runs untimed ahead of each.
template <typename Before>
Summary timeKernel(const Gpu& gpu, cl_kernel kernel, size_t gx, size_t gy, size_t lx, int reps,
                   Before before) {
    std::vector<double> ms;
    for (int i = -1; i < reps; ++i) {
        before();
        const size_t global[2] = {gx, gy}, local[2] = {lx, 1};
        cl_event event = nullptr;
        check(clEnqueueNDRangeKernel(gpu.queue, kernel, 2, nullptr, global, local, 0, nullptr, &event),
              "run");
        check(clWaitForEvents(1, &event), "wait");
        cl_ulong start = 0, end = 0;
        clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
        clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
        clReleaseEvent(event);
        if (i >= 0) ms.push_back(static_cast<double>(end - start) * 1e-6);
    }
    std::sort(ms.begin(), ms.end());
    return {ms.front(), ms[ms.size() / 2], ms.back()};
}

void report(const std::string& frame, const std::string& what, const Summary& s, double read) {
    std::printf("%-10s %-44s %8.4f %8.4f %8.4f  %5.2fx read\n", frame.c_str(), what.c_str(), s.min, s.median,
                s.max, read / s.median);
    std::fflush(stdout);
}

// The definitions of engine/ops/scope/scope.hpp for the whole frame.
std::vector<cl_uint> reference(const hs::ImageRGBA8& image, int kind) {
    const int planes = kind == 1 ? 3 : 1;
    std::vector<cl_uint> counts(kind == 2 ? 65536 : static_cast<size_t>(planes) * 256 * kColumns, 0);
    for (int y = 0; y < image.height; ++y)
        for (int x = 0; x < image.width; ++x) {
            const std::uint8_t* p = image.pixel(x, y);
            const int r = p[0], g = p[1], b = p[2];
            if (kind == 2) {
                const int cb = (-11059 * r - 21709 * g + 32768 * b + 8421375) >> 16;
                const int cr = (32768 * r - 27439 * g - 5329 * b + 8421375) >> 16;
                ++counts[static_cast<size_t>(cr * 256 + cb)];
                continue;
            }
            const size_t bin = static_cast<size_t>(x) * kColumns / static_cast<size_t>(image.width);
            if (kind == 0) {
                ++counts[static_cast<size_t>((299 * r + 587 * g + 114 * b + 500) / 1000) * kColumns + bin];
            } else {
                for (int c = 0; c < 3; ++c) ++counts[(static_cast<size_t>(c) * 256 + p[c]) * kColumns + bin];
            }
        }
    return counts;
}

size_t ceilDiv(size_t a, size_t b) {
    return (a + b - 1) / b;
}

// local_atomic_strategy.cpp's bands(): `across` groups per band, about `target` groups in all.
std::pair<size_t, cl_uint> bands(size_t target, size_t across, size_t rows, size_t maxRows) {
    const size_t wanted = std::clamp<size_t>(ceilDiv(target, across), 1, rows);
    const size_t perBand = std::min(ceilDiv(rows, wanted), maxRows);
    return {ceilDiv(rows, perBand), static_cast<cl_uint>(perBand)};
}

// WIDE=4 strip of `strip` bins for work-groups of `workGroup`: local_atomic_strategy.cpp's stripQuads().
size_t stripQuadsFor(size_t strip, size_t workGroup) {
    const size_t pixels = ((strip - 1) * kWidth - 1) / kColumns + 1;
    return std::min<size_t>(pixels / 4, workGroup);
}

// A kernel folder and the -D options that differ from the product's.
struct Variant {
    std::string label, dir;
    std::map<std::string, std::string> options;
};

Variant variantOf(const std::string& spec) {
    std::stringstream parts(spec);
    Variant variant;
    std::string overrides;
    std::getline(parts, variant.label, ':');
    std::getline(parts, variant.dir, ':');
    std::getline(parts, overrides);
    std::stringstream list(overrides);
    for (std::string item; std::getline(list, item, ',');) {
        const size_t equals = item.find('=');
        if (equals == std::string::npos) {
            std::fprintf(stderr, "variant %s: %s is not NAME=VALUE\n", spec.c_str(), item.c_str());
            std::exit(2);
        }
        variant.options[item.substr(0, equals)] = item.substr(equals + 1);
    }
    return variant;
}

// -D NAME=V for each of `defaults`, the variant's values replacing them, its other names added.
std::string optionsOf(std::map<std::string, std::string> defaults, const Variant& variant) {
    for (const auto& [name, value] : variant.options) defaults[name] = value;
    std::string options;
    for (const auto& [name, value] : defaults) options += " -D " + name + "=" + value;
    return options;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 5) {
        std::fprintf(stderr, "usage: scope_probe REPS KERNELS PROBE_DIR LABEL:DIR[:NAME=V,...]...\n");
        return 2;
    }
    const int reps = std::max(1, std::atoi(argv[1]));
    const std::string kernels = argv[2], probeDir = argv[3];
    std::vector<Variant> variants;
    for (int i = 4; i < argc; ++i) variants.push_back(variantOf(argv[i]));
    const Gpu gpu = openDevice();
    struct Shape {
        size_t workGroup, groupsPerUnit;
    };
    std::vector<Shape> shapes;
    {
        std::stringstream list(std::getenv("PROBE_SHAPES") ? std::getenv("PROBE_SHAPES") : "256/4");
        for (std::string item; std::getline(list, item, ',');) {
            const size_t slash = item.find('/');
            if (slash == std::string::npos) {
                std::fprintf(stderr, "PROBE_SHAPES: %s is not WG/G\n", item.c_str());
                return 2;
            }
            shapes.push_back({std::stoul(item.substr(0, slash)), std::stoul(item.substr(slash + 1))});
        }
    }
    const bool walks = !std::getenv("PROBE_WALKS") || std::string(std::getenv("PROBE_WALKS")) != "0";
    const size_t target = static_cast<size_t>(gpu.units) * 4;
    const size_t quads = kWidth / 4;
    const cl_uint pitch = kWidth, zero = 0, width = kWidth, height = kHeight, columns = kColumns;
    cl_int status = CL_SUCCESS;
    cl_mem counts = clCreateBuffer(gpu.context, CL_MEM_READ_WRITE, 3 * 256 * kColumns * 4, nullptr, &status);
    check(status, "counts");
    cl_mem sink = clCreateBuffer(gpu.context, CL_MEM_READ_WRITE, 1 << 24, nullptr, &status);
    check(status, "sink");
    const auto clearCounts = [&] {
        const cl_uint nothing = 0;
        check(clEnqueueFillBuffer(gpu.queue, counts, &nothing, 4, 0, 3 * 256 * kColumns * 4, 0, nullptr,
                                  nullptr),
              "clear");
    };
    const auto noop = [] {};

    cl_kernel read = kernelOf(gpu, kernels, "bench.cl", "", "stream_read");
    int failures = 0;
    for (const std::string frameName : {"natural", "all-equal", "uniform"}) {
        const hs::ImageRGBA8 image = hs::bench::makePattern(frameName, kWidth, kHeight);
        const size_t bytes = image.pixels.size();
        cl_mem pixels = clCreateBuffer(gpu.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                                       const_cast<std::uint8_t*>(image.pixels.data()), &status);
        check(status, "pixels");

        // The read's fastest shape of the bench's (local 256; 4, 16 or 64 uint4s a work-item).
        Summary readBest{};
        for (cl_uint perItem : {4u, 16u, 64u}) {
            const size_t groups = ceilDiv(bytes / 16, 256 * size_t{perItem});
            setArgs(read, 0, pixels, static_cast<cl_uint>(bytes), perItem, sink);
            const Summary s = timeKernel(gpu, read, groups * 256, 1, 256, reps, noop);
            if (readBest.median == 0 || s.median < readBest.median) readBest = s;
        }
        const double readMs = readBest.median;
        report(frameName, "stream_read", readBest, readMs);

        // The product's kernels, once per variant.
        struct Scope {
            const char* name;
            int kind;
            const char* strip;  // nullptr: the vectorscope
        };
        for (const Scope scope :
             {Scope{"waveform luma", 0, "18"}, Scope{"parade", 1, "10"}, Scope{"vectorscope", 2, nullptr}}) {
            const std::vector<cl_uint> expected = reference(image, scope.kind);
            std::map<std::string, std::string> defaults{
                {"SCOPE", std::to_string(scope.kind)}, {"UNROLL", "1"}, {"WIDE", "4"}};
            if (scope.kind == 0) defaults["CHANNEL"] = "4";
            if (scope.strip)
                defaults.insert({{"STRIP", scope.strip}, {"RUNS", "0"}});
            else
                defaults.insert(
                    {{"WINDOW", "128"}, {"COUNTER_BITS", "16"}, {"OUTSIDE_SLOTS", "256"}, {"RUNS", "1"}});
            for (const Shape shape : shapes)
                for (const Variant& variant : variants) {
                    const size_t groupTarget = static_cast<size_t>(gpu.units) * shape.groupsPerUnit;
                    const size_t workGroup = shape.workGroup;
                    defaults["WG"] = std::to_string(workGroup);
                    const std::string options = optionsOf(defaults, variant);
                    size_t across = 0, maxRows = kHeight, stripQuads = 0;
                    if (scope.strip) {
                        const auto strip = variant.options.find("STRIP");
                        stripQuads = stripQuadsFor(
                            std::stoul(strip == variant.options.end() ? scope.strip : strip->second),
                            workGroup);
                        across = ceilDiv(quads, stripQuads);
                    } else {
                        across = std::min(ceilDiv(quads, workGroup), groupTarget);
                        across = std::max(across, ceilDiv(quads, workGroup * (65535 / (workGroup * 4))));
                        maxRows = 65535 / (workGroup * 4 * ceilDiv(quads, across * workGroup));
                    }
                    const auto [bandCount, rowsPerBand] = bands(groupTarget, across, kHeight, maxRows);
                    cl_kernel kernel = kernelOf(gpu, variant.dir, "scope.cl", options,
                                                scope.strip ? "scope_strips" : "scope_window");
                    setArgs(kernel, 0, pixels, pitch, zero, zero, width, height, columns, counts,
                            rowsPerBand);
                    if (scope.strip) setArgs(kernel, 9, static_cast<cl_uint>(stripQuads));
                    const Summary s =
                        timeKernel(gpu, kernel, across * workGroup, bandCount, workGroup, reps, clearCounts);
                    // The last run's counts, against the reference.
                    clearCounts();
                    const size_t global[2] = {across * workGroup, bandCount}, local[2] = {workGroup, 1};
                    check(clEnqueueNDRangeKernel(gpu.queue, kernel, 2, nullptr, global, local, 0, nullptr,
                                                 nullptr),
                          "check run");
                    std::vector<cl_uint> got(expected.size());
                    check(clEnqueueReadBuffer(gpu.queue, counts, CL_TRUE, 0, got.size() * 4, got.data(), 0,
                                              nullptr, nullptr),
                          "read back");
                    const bool same = got == expected;
                    failures += same ? 0 : 1;
                    char what[128];
                    std::snprintf(what, sizeof what, "%s %s %zu/%zu %zux%zu%s", scope.name,
                                  variant.label.c_str(), workGroup, shape.groupsPerUnit, across, bandCount,
                                  same ? "" : " WRONG");
                    report(frameName, what, s, readMs);
                    clReleaseKernel(kernel);
                }
        }

        // The walks alone: the vectorscope's (4 groups across) with bands of several heights, and the
        // waveform's with strips of several widths, about `target` groups each.
        for (int unroll : {1, 4}) {
            if (!walks) break;
            // The probes include KERNELS/scope.cl.
            const std::string options =
                "-D SCOPE=2 -D WG=256 -D WIDE=4 -D UNROLL=" + std::to_string(unroll) + " -I " + kernels;
            cl_kernel window = kernelOf(gpu, probeDir, "scope_probe.cl", options, "probe_walk_window");
            for (cl_uint rows : {9u, 17u, 34u, 68u}) {
                const size_t across = ceilDiv(quads, kWalkGroup), bandCount = ceilDiv(kHeight, rows);
                setArgs(window, 0, pixels, pitch, zero, zero, width, height, sink, rows);
                char what[128];
                std::snprintf(what, sizeof what, "walk window U%d %zux%zu rows %u", unroll, across, bandCount,
                              rows);
                report(frameName, what,
                       timeKernel(gpu, window, across * kWalkGroup, bandCount, kWalkGroup, reps, noop),
                       readMs);
            }
            clReleaseKernel(window);
            cl_kernel strips = kernelOf(gpu, probeDir, "scope_probe.cl", options, "probe_walk_strips");
            for (cl_uint stripQuads : {8u, 16u, 32u, 64u, 128u, 256u}) {
                const size_t across = ceilDiv(quads, stripQuads);
                const auto [bandCount, rowsPerBand] = bands(target, across, kHeight, kHeight);
                setArgs(strips, 0, pixels, pitch, zero, zero, width, height, sink, rowsPerBand, stripQuads);
                char what[128];
                std::snprintf(what, sizeof what, "walk strips U%d %u quads %zux%zu", unroll, stripQuads,
                              across, bandCount);
                report(frameName, what,
                       timeKernel(gpu, strips, across * kWalkGroup, bandCount, kWalkGroup, reps, noop),
                       readMs);
            }
            clReleaseKernel(strips);
        }
        clReleaseMemObject(pixels);
    }
    std::printf("%d wrong\n", failures);
    return failures == 0 ? 0 : 1;
}
