// Issue 9 experiment (bench/experiments/bowfast.sh): bow-tiled variants of kernels/bow.cl assign_tiled,
// built with -D options, against bow-gpu1-baseline (assign_scalar) in the same run. Kernel time from
// the profiling event, an untimed warm-up, then min / median / max of the
// repetitions. Every variant is checked against a CPU nearest-centroid reference (double precision): a
// membership may differ only at a near tie (relative 1e-4), the histogram must count the memberships, and on
// data with exact ties (duplicated centroids) the lowest index must win. The programs' binaries (PTX on
// NVIDIA) are written to OUT/ptx for ptxas -v.
//   bowfast_variants OUT KERNEL_DIR COUNT K REPS VARIANT...
// VARIANT: name:LX,LY,REG_D,REG_C,CHUNK (assign_tiled's -D options) or
// name:tensor,WARPS,NTILES,MTILES[,FLAG...] (assign_tensor's, each FLAG another -D such as EMULATE_MMA).
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "experiment_support.hpp"

namespace {

constexpr int kDim = 64;

struct Variant {
    std::string name;
    bool tensor = false;
    int lx = 16, ly = 16, regD = 8, regC = 8, chunk = 16;
    int warps = 4, ntiles = 2, mtiles = 1;
    std::string extra;  // further -D options of a tensor variant
    const char* kernel() const { return tensor ? "assign_tensor" : "assign_tiled"; }
    std::size_t items() const { return std::size_t(tensor ? 32 * warps : lx * ly); }
    int descriptorsPerGroup() const { return tensor ? 16 * mtiles * warps : lx * regD; }
    int centroidsPerBlock() const { return tensor ? 8 * ntiles : ly * regC; }
    std::string options(int k) const {
        std::string o =
            tensor ? "-D TENSOR -D WARPS=" + std::to_string(warps) + " -D NTILES=" + std::to_string(ntiles) +
                         " -D MTILES=" + std::to_string(mtiles) + extra
                   : "-D TILE -D LX=" + std::to_string(lx) + " -D LY=" + std::to_string(ly) +
                         " -D REG_D=" + std::to_string(regD) + " -D REG_C=" + std::to_string(regC) +
                         " -D CHUNK=" + std::to_string(chunk);
        if (k % centroidsPerBlock() == 0) o += " -D FULL_BLOCKS";
        return o;
    }
};

struct Data {
    std::vector<float> descriptors, centroids;
    int count = 0, k = 0;
};

// Unit-length rows of uniform values in [-1, 1).
std::vector<float> unitRows(int rows, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<float> values(std::size_t(rows) * kDim);
    for (int r = 0; r < rows; ++r) {
        double norm = 0;
        for (int d = 0; d < kDim; ++d) {
            const float v = uniform(random);
            values[std::size_t(r) * kDim + d] = v;
            norm += double(v) * v;
        }
        for (int d = 0; d < kDim; ++d) values[std::size_t(r) * kDim + d] /= float(std::sqrt(norm));
    }
    return values;
}

double squaredDistance(const float* a, const float* b) {
    double s = 0;
    for (int d = 0; d < kDim; ++d) s += (double(a[d]) - b[d]) * (double(a[d]) - b[d]);
    return s;
}

// The nearest centroid of every descriptor (lowest index at a tie) and its distance.
void reference(const Data& data, std::vector<int>& nearest, std::vector<double>& best) {
    nearest.assign(data.count, 0);
    best.assign(data.count, 0);
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) {
        pool.emplace_back([&, t] {
            for (int i = int(t); i < data.count; i += int(threads)) {
                double b = INFINITY;
                int bi = 0;
                for (int c = 0; c < data.k; ++c) {
                    const double s = squaredDistance(&data.descriptors[std::size_t(i) * kDim],
                                                     &data.centroids[std::size_t(c) * kDim]);
                    if (s < b) b = s, bi = c;
                }
                nearest[i] = bi;
                best[i] = b;
            }
        });
    }
    for (auto& thread : pool) thread.join();
}

struct Device {
    cl_context context;
    cl_command_queue queue;
    cl_device_id device;
    bool nvidia = false;  // cl_nv_compiler_options
};

struct Run {
    std::vector<double> ms;
    std::vector<cl_uint> memberships, histogram;
};

cl_program build(Device& dev, const std::string& source, const std::string& options) {
    const char* text = source.c_str();
    cl_int status;
    cl_program program = clCreateProgramWithSource(dev.context, 1, &text, nullptr, &status);
    check(status, "create program");
    // NVIDIA's compiler reports registers and spills in the build log with -cl-nv-verbose.
    const std::string all = options + (dev.nvidia ? " -cl-nv-verbose" : "");
    const bool built = clBuildProgram(program, 1, &dev.device, all.c_str(), nullptr, nullptr) == CL_SUCCESS;
    std::size_t size = 0;
    clGetProgramBuildInfo(program, dev.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
    std::string log(size, '\0');
    clGetProgramBuildInfo(program, dev.device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    if (!built) {
        std::fprintf(stderr, "build failed (%s):\n%s\n", options.c_str(), log.c_str());
        return nullptr;
    }
    std::istringstream lines(log);
    for (std::string line; std::getline(lines, line);) {
        if (line.find("registers") != std::string::npos || line.find("spill") != std::string::npos)
            std::printf("    build log [%s]: %s\n", options.c_str(), line.c_str());
    }
    return program;
}

void writeBinary(cl_program program, const std::string& path) {
    std::size_t size = 0;
    clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr);
    std::string binary(size, '\0');
    unsigned char* pointer = reinterpret_cast<unsigned char*>(binary.data());
    clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof pointer, &pointer, nullptr);
    std::ofstream(path, std::ios::binary) << binary;
}

double eventMs(cl_event event) {
    cl_ulong start = 0, end = 0;
    clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr);
    clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr);
    clReleaseEvent(event);
    return double(end - start) * 1e-6;
}

// No variant: gpu1 (assign_scalar in groups of 64). Returns no runs when it cannot build.
Run measure(Device& dev, const Variant* variant, const std::string& source, const Data& data, int repetitions,
            const std::string& binaryPath) {
    Run run;
    cl_int status;
    const std::string options = variant ? variant->options(data.k) : "";
    // One build per source and options (the exact-tie data has the main data's k).
    static std::map<std::string, cl_program> programs;
    cl_program& program = programs[source + '\0' + options];
    if (!program) program = build(dev, source, options);
    if (!program) return run;
    if (!binaryPath.empty()) writeBinary(program, binaryPath);
    const auto buffer = [&](std::size_t bytes, const void* host) {
        cl_mem m = clCreateBuffer(dev.context, CL_MEM_READ_WRITE | (host ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                                  const_cast<void*>(host), &status);
        check(status, "buffer");
        return m;
    };
    cl_mem descriptors = buffer(data.descriptors.size() * 4, data.descriptors.data());
    cl_mem centroids = buffer(data.centroids.size() * 4, data.centroids.data());
    cl_mem memberships = buffer(std::size_t(data.count) * 4, nullptr);
    cl_mem histogram = buffer(std::size_t(data.k) * 4, nullptr);
    const cl_uint count = cl_uint(data.count), k = cl_uint(data.k);
    cl_kernel kernel = clCreateKernel(program, variant ? variant->kernel() : "assign_scalar", &status);
    check(status, "kernel");
    int a = 0;
    clSetKernelArg(kernel, a++, sizeof(cl_mem), &descriptors);
    clSetKernelArg(kernel, a++, sizeof count, &count);
    clSetKernelArg(kernel, a++, sizeof(cl_mem), &centroids);
    clSetKernelArg(kernel, a++, sizeof k, &k);
    clSetKernelArg(kernel, a++, sizeof(cl_mem), &memberships);
    clSetKernelArg(kernel, a++, sizeof(cl_mem), &histogram);
    if (variant) clSetKernelArg(kernel, a++, std::size_t(k) * 4, nullptr);
    // assign_tensor's norms and scales.
    if (variant && variant->tensor) clSetKernelArg(kernel, a++, std::size_t(k) * 8, nullptr);

    for (int repetition = -1; repetition < repetitions; ++repetition) {
        const cl_uint zero = 0;
        check(clEnqueueFillBuffer(dev.queue, histogram, &zero, 4, 0, std::size_t(k) * 4, 0, nullptr, nullptr),
              "clear");
        cl_event event;
        if (!variant) {
            const std::size_t local = 64, global = (count + 63) / 64 * 64;
            check(clEnqueueNDRangeKernel(dev.queue, kernel, 1, nullptr, &global, &local, 0, nullptr, &event),
                  "gpu1");
        } else {
            const std::size_t items = variant->items();
            const std::size_t groups =
                (count + variant->descriptorsPerGroup() - 1) / variant->descriptorsPerGroup();
            const std::size_t global = groups * items;
            check(clEnqueueNDRangeKernel(dev.queue, kernel, 1, nullptr, &global, &items, 0, nullptr, &event),
                  "variant");
        }
        clWaitForEvents(1, &event);
        const double ms = eventMs(event);
        if (repetition >= 0) run.ms.push_back(ms);
    }
    run.memberships.resize(count);
    run.histogram.resize(k);
    check(clEnqueueReadBuffer(dev.queue, memberships, CL_TRUE, 0, std::size_t(count) * 4,
                              run.memberships.data(), 0, nullptr, nullptr),
          "read memberships");
    check(clEnqueueReadBuffer(dev.queue, histogram, CL_TRUE, 0, std::size_t(k) * 4, run.histogram.data(), 0,
                              nullptr, nullptr),
          "read histogram");
    for (cl_mem m : {descriptors, centroids, memberships, histogram}) clReleaseMemObject(m);
    clReleaseKernel(kernel);
    return run;
}

// How many memberships are wrong beyond a near tie, and whether the histogram counts the memberships.
struct Verdict {
    int wrong = 0, differing = 0;
    bool histogramOk = true;
};

Verdict judge(const Data& data, const Run& run, const std::vector<int>& nearest,
              const std::vector<double>& best) {
    Verdict v;
    std::vector<cl_uint> counts(data.k, 0);
    for (int i = 0; i < data.count; ++i) {
        const cl_uint m = run.memberships[i];
        if (m >= cl_uint(data.k)) {
            ++v.wrong;
            continue;
        }
        ++counts[m];
        if (int(m) == nearest[i]) continue;
        ++v.differing;
        const double s =
            squaredDistance(&data.descriptors[std::size_t(i) * kDim], &data.centroids[std::size_t(m) * kDim]);
        if (s - best[i] > 1e-4 * std::max(best[i], 1e-12)) ++v.wrong;
    }
    v.histogramOk = counts == run.histogram;
    return v;
}

// Exact ties: centroid c + half duplicates centroid c (k = 2 half), and within the first half pairs (2m,
// 2m+1) are equal, so a right kernel assigns only even indices below half.
Data tieData(int count, int k) {
    Data data;
    data.count = count;
    data.k = k;
    const int half = k / 2;
    std::vector<float> base = unitRows(half / 2, 77);
    data.centroids.resize(std::size_t(k) * kDim);
    for (int c = 0; c < k; ++c) {
        const int source = (c % half) / 2;
        std::copy_n(&base[std::size_t(source) * kDim], kDim, &data.centroids[std::size_t(c) * kDim]);
    }
    data.descriptors = unitRows(count, 78);
    return data;
}

std::string summary(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    char text[128];
    std::snprintf(text, sizeof text, "%.4f %.4f %.4f", ms.front(), ms[ms.size() / 2], ms.back());
    return text;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 6) {
        std::fprintf(stderr, "usage: %s OUT KERNEL_DIR COUNT K REPS VARIANT...\n", argv[0]);
        return 2;
    }
    const std::string out = argv[1], kernels = argv[2];
    const int count = std::atoi(argv[3]), k = std::atoi(argv[4]), repetitions = std::atoi(argv[5]);
    std::vector<Variant> variants;
    for (int i = 6; i < argc; ++i) {
        const std::string arg = argv[i];
        Variant v;
        v.name = arg.substr(0, arg.find(':'));
        const std::string spec = arg.substr(arg.find(':') + 1);
        v.tensor = spec.rfind("tensor,", 0) == 0;
        char extra[64] = {};
        if (v.tensor
                ? std::sscanf(spec.c_str(), "tensor,%d,%d,%d%63s", &v.warps, &v.ntiles, &v.mtiles, extra) < 3
                : std::sscanf(spec.c_str(), "%d,%d,%d,%d,%d", &v.lx, &v.ly, &v.regD, &v.regC, &v.chunk) !=
                      5) {
            std::fprintf(stderr, "bad variant %s\n", arg.c_str());
            return 2;
        }
        std::istringstream flags(extra);
        for (std::string flag; std::getline(flags, flag, ',');) {
            if (!flag.empty()) v.extra += " -D " + flag;
        }
        variants.push_back(v);
    }
    const std::string source = readFile(kernels + "/bow.cl");

    cl_platform_id platforms[8];
    cl_uint platformCount = 0;
    check(clGetPlatformIDs(8, platforms, &platformCount), "platforms");
    Device dev{};
    check(clGetDeviceIDs(platforms[0], CL_DEVICE_TYPE_ALL, 1, &dev.device, nullptr), "device");
    char name[256] = {};
    clGetDeviceInfo(dev.device, CL_DEVICE_NAME, sizeof name, name, nullptr);
    char extensions[8192] = {};
    clGetDeviceInfo(dev.device, CL_DEVICE_EXTENSIONS, sizeof extensions - 1, extensions, nullptr);
    dev.nvidia = std::strstr(extensions, "cl_nv_compiler_options") != nullptr;
    cl_int status;
    dev.context = clCreateContext(nullptr, 1, &dev.device, nullptr, nullptr, &status);
    check(status, "context");
    dev.queue = clCreateCommandQueue(dev.context, dev.device, CL_QUEUE_PROFILING_ENABLE, &status);
    check(status, "queue");

    Data main;
    main.count = count;
    main.k = k;
    main.descriptors = unitRows(count, 1);
    main.centroids = unitRows(k, 2);
    std::vector<int> nearest;
    std::vector<double> best;
    reference(main, nearest, best);
    // Odd shapes: a last group of descriptors and a last block of centroids both partial.
    Data odd;
    odd.count = 4099;
    odd.k = 300;
    odd.descriptors = unitRows(odd.count, 3);
    odd.centroids = unitRows(odd.k, 4);
    std::vector<int> oddNearest;
    std::vector<double> oddBest;
    reference(odd, oddNearest, oddBest);
    const Data ties = tieData(4099, 256);

    std::FILE* json = std::fopen((out + "/variants.json").c_str(), "w");
    std::fprintf(
        json,
        "{\"device\": \"%s\", \"descriptors\": %d, \"centroids\": %d, \"repetitions\": %d, \"rows\": [\n",
        name, count, k, repetitions);
    std::printf(
        "device %s, %d descriptors x %d centroids, %d repetitions after a warm-up; ms min median max\n", name,
        count, k, repetitions);
    const Run gpu1 = measure(dev, nullptr, source, main, repetitions, "");
    std::vector<double> gpu1Sorted = gpu1.ms;
    std::sort(gpu1Sorted.begin(), gpu1Sorted.end());
    const double gpu1Median = gpu1Sorted[gpu1Sorted.size() / 2];
    const Verdict gpu1Verdict = judge(main, gpu1, nearest, best);
    std::printf("%-14s %s  1.0x  wrong %d (differing %d) histogram %s\n", "gpu1", summary(gpu1.ms).c_str(),
                gpu1Verdict.wrong, gpu1Verdict.differing, gpu1Verdict.histogramOk ? "ok" : "WRONG");
    std::fprintf(json, "  {\"variant\": \"gpu1\", \"median_ms\": %.5f, \"wrong\": %d}", gpu1Median,
                 gpu1Verdict.wrong);
    int failures = gpu1Verdict.wrong + !gpu1Verdict.histogramOk;
    for (const Variant& v : variants) {
        const Run run = measure(dev, &v, source, main, repetitions, out + "/ptx/" + v.name + ".bin");
        if (run.ms.empty()) {
            std::printf("%-14s BUILD FAILED (%s)\n", v.name.c_str(), v.options(k).c_str());
            ++failures;
            continue;
        }
        std::vector<double> sorted = run.ms;
        std::sort(sorted.begin(), sorted.end());
        const double median = sorted[sorted.size() / 2];
        const Verdict verdict = judge(main, run, nearest, best);
        const Run oddRun = measure(dev, &v, source, odd, 1, "");
        const Verdict oddVerdict = judge(odd, oddRun, oddNearest, oddBest);
        const Run tieRun = measure(dev, &v, source, ties, 1, "");
        int tieWrong = 0;
        for (const cl_uint m : tieRun.memberships) tieWrong += (m % 2 != 0 || m >= cl_uint(ties.k / 2));
        const bool ok = verdict.wrong == 0 && verdict.histogramOk && oddVerdict.wrong == 0 &&
                        oddVerdict.histogramOk && tieWrong == 0;
        failures += !ok;
        std::printf(
            "%-14s %s  %.1fx  wrong %d (differing %d) histogram %s; 4099x300 wrong %d histogram %s; "
            "exact ties wrong %d  %s  [%s]\n",
            v.name.c_str(), summary(run.ms).c_str(), gpu1Median / median, verdict.wrong, verdict.differing,
            verdict.histogramOk ? "ok" : "WRONG", oddVerdict.wrong, oddVerdict.histogramOk ? "ok" : "WRONG",
            tieWrong, ok ? "EXACT" : "NOT EXACT", v.options(k).c_str());
        std::fprintf(json,
                     ",\n  {\"variant\": \"%s\", \"options\": \"%s\", \"min_ms\": %.5f, \"median_ms\": %.5f, "
                     "\"max_ms\": %.5f, \"speedup_over_gpu1\": %.2f, \"exact\": %s}",
                     v.name.c_str(), v.options(k).c_str(), sorted.front(), median, sorted.back(),
                     gpu1Median / median, ok ? "true" : "false");
        std::fflush(stdout);
        std::fflush(json);
    }
    std::fprintf(json, "\n]}\n");
    std::fclose(json);
    return failures == 0 ? 0 : 1;
}
