// Failure injection (runtime/fault_injection.hpp): whichever OpenCL call of a histogram or a pipeline run
// fails, and with whichever error, the run ends in one OpenClError that names the device, the call and the
// error, it releases every memory object it created, and the next run gives the right result again.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <random>
#include <set>
#include <string>

#include "engine/image/pixel_source.hpp"
#include "engine/ops/pipeline/pipeline.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/fault_injection.hpp"
#include "engine/runtime/runtime.hpp"
#include "pipeline_test_support.hpp"

namespace hs {
namespace {

constexpr int kInjected[] = {CL_MEM_OBJECT_ALLOCATION_FAILURE, CL_OUT_OF_RESOURCES, CL_BUILD_PROGRAM_FAILURE,
                             CL_INVALID_COMMAND_QUEUE};

// One run on a runtime of its own (so context and queue creation are among its calls), checking its result
// against the CPU reference. Programs come from `cache` once a run has built them.
using Run = std::function<void(const ProgramCacheSettings& cache)>;

void histogramRun(const ProgramCacheSettings& cache) {
    Runtime runtime(cache);
    DeviceContext& device = runtime.open("");
    const ImageRGBA8 image = testing::noiseImage(37, 23, 5);
    PixelSource source(image);
    const auto& strategy = histogram::findStrategy("private-uchar");
    const auto result = histogram::computeHistogram(&device, source, {64}, strategy);
    EXPECT_EQ(result.histogram, histogram::referenceHistogram(image.pixels.data(), image.pixelCount(), 64));
}

void pipelineRun(const ProgramCacheSettings& cache) {
    Runtime runtime(cache);
    DeviceContext& device = runtime.open("");
    const ImageRGBA8 image = testing::noiseImage(29, 17, 6);
    pipeline::Spec spec;
    spec.rotation =
        pipeline::RotateStage{{90.0, rotate::FilterMode::Nearest}, &rotate::findStrategy("buffer")};
    spec.convolution =
        pipeline::ConvolveStage{convolve::boxFilter(3), &convolve::findStrategy("local-tiled")};
    spec.histogram = pipeline::HistogramStage{{32}, &histogram::findStrategy("private-uchar")};
    PixelSource source(image);
    pipeline::Result result = pipeline::runPipeline(device, source, spec);
    const ImageRGBA8 expected = pipeline::referencePipeline(image, spec);
    EXPECT_EQ(result.readBack().pixels, expected.pixels);
    ASSERT_TRUE(result.histogram.has_value());
    EXPECT_EQ(*result.histogram,
              histogram::referenceHistogram(expected.pixels.data(), expected.pixelCount(), 32));
}

std::string firstDeviceName() {
    Runtime runtime(ProgramCacheSettings{false, {}});
    return runtime.open("").info().name;
}

// A program cache of the test's own, removed at the end.
struct CacheFolder {
    std::filesystem::path path = std::filesystem::temp_directory_path() /
                                 ("histoscope-fault-test-" + std::to_string(std::random_device{}()));
    ProgramCacheSettings settings() const { return ProgramCacheSettings{true, path}; }
    ~CacheFolder() { std::filesystem::remove_all(path); }
};

struct Disarm {
    ~Disarm() { faults::failClCall(0, CL_SUCCESS); }
};

// Fails the 1st, 2nd, ... counted call of `run` with `code` until the call to fail is beyond the run's last.
// Returns the names of the calls that failed.
std::set<std::string> sweep(const Run& run, int code) {
    const Disarm disarm;
    const std::string device = firstDeviceName();
    const CacheFolder cacheFolder;
    const ProgramCacheSettings cache = cacheFolder.settings();
    std::set<std::string> failedCalls;
    for (std::uint64_t n = 1;; ++n) {
        SCOPED_TRACE("call " + std::to_string(n) + " failing with " + clErrorName(code));
        const std::int64_t referencesBefore = faults::liveMemObjectReferences();
        faults::failClCall(n, code);
        bool failed = false;
        try {
            run(cache);
        } catch (const OpenClError& error) {
            failed = true;
            const std::string message = error.what();
            EXPECT_EQ(error.code(), code) << message;
            // "device NAME: what it did: clCall failed with CL_ERROR"
            const std::string suffix = " failed with " + clErrorName(code);
            const bool endsWithError =
                message.size() > suffix.size() &&
                message.compare(message.size() - suffix.size(), suffix.size(), suffix) == 0;
            EXPECT_TRUE(endsWithError) << message;
            if (endsWithError) {
                const std::string head = message.substr(0, message.size() - suffix.size());
                const std::string call = head.substr(head.rfind(' ') + 1);
                EXPECT_EQ(call.rfind("cl", 0), 0u) << message;
                failedCalls.insert(call);
            }
            EXPECT_NE(message.find(device), std::string::npos) << message;
        } catch (const std::exception& error) {
            ADD_FAILURE() << "not an OpenClError: " << error.what();
            failed = true;
        }
        EXPECT_EQ(faults::liveMemObjectReferences(), referencesBefore) << "memory objects left behind";
        // A run may recover from a failed call (a cached binary the driver refuses is rebuilt from source);
        // the sweep ends at the first run that made fewer calls than the one to fail.
        if (!failed && faults::clCallsCounted() < n) break;
        if (::testing::Test::HasFailure() || n > 1000) break;
    }
    return failedCalls;
}

class FaultInjection : public ::testing::TestWithParam<int> {};

TEST_P(FaultInjection, EveryFailingCallOfAHistogramRunEndsInOneOpenClError) {
    const auto calls = sweep(histogramRun, GetParam());
    // The calls a histogram run cannot do without, each seen failing.
    for (const char* call :
         {"clCreateContext", "clCreateCommandQueueWithProperties", "clCreateBuffer", "clBuildProgram",
          "clCreateKernel", "clEnqueueWriteBuffer", "clEnqueueNDRangeKernel", "clEnqueueReadBuffer"})
        EXPECT_EQ(calls.count(call), 1u) << call;
}

TEST_P(FaultInjection, EveryFailingCallOfAPipelineRunEndsInOneOpenClError) {
    const auto calls = sweep(pipelineRun, GetParam());
    for (const char* call : {"clCreateBuffer", "clBuildProgram", "clSetKernelArg", "clEnqueueNDRangeKernel"})
        EXPECT_EQ(calls.count(call), 1u) << call;
}

INSTANTIATE_TEST_SUITE_P(Errors, FaultInjection, ::testing::ValuesIn(kInjected),
                         [](const ::testing::TestParamInfo<int>& error) { return clErrorName(error.param); });

TEST(FaultInjectionHook, InertUntilArmedAndCountsOnlyFromArming) {
    const Disarm disarm;
    faults::failClCall(0, CL_SUCCESS);
    const CacheFolder cacheFolder;
    histogramRun(cacheFolder.settings());
    const std::uint64_t callsOfARun = faults::clCallsCounted();
    EXPECT_GT(callsOfARun, 5u);
    // The same run again counts the same calls, less the program builds the cache now spares.
    faults::failClCall(0, CL_SUCCESS);
    histogramRun(cacheFolder.settings());
    EXPECT_GT(faults::clCallsCounted(), 0u);
    EXPECT_LE(faults::clCallsCounted(), callsOfARun);
}

}  // namespace
}  // namespace hs
