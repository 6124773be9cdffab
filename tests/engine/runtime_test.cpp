#include <gtest/gtest.h>

#include <cctype>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "engine/runtime/device_clock.hpp"
#include "engine/runtime/device_timing.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"
#include "engine/runtime/timing.hpp"

namespace hs {
namespace {

std::filesystem::path freshCacheDir(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path() /
               ("histoscope-test-" + name + "-" + std::to_string(std::random_device{}()));
    std::filesystem::remove_all(dir);
    return dir;
}

TEST(ErrorNames, NamesKnownCodesAndKeepsUnknownOnes) {
    EXPECT_EQ(clErrorName(-5), "CL_OUT_OF_RESOURCES");
    EXPECT_EQ(clErrorName(-11), "CL_BUILD_PROGRAM_FAILURE");
    EXPECT_EQ(clErrorName(-54), "CL_INVALID_WORK_GROUP_SIZE");
    EXPECT_EQ(clErrorName(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
    EXPECT_EQ(clErrorName(-12345), "CL_UNKNOWN_ERROR(-12345)");
}

TEST(ErrorNames, OpenClErrorMessageNamesCallAndCode) {
    const OpenClError error("clEnqueueNDRangeKernel", -5, "device X");
    EXPECT_STREQ(error.what(), "device X: clEnqueueNDRangeKernel failed with CL_OUT_OF_RESOURCES");
    EXPECT_EQ(exitCodeFor(error.kind()), 4);
    EXPECT_EQ(exitCodeFor(ErrorKind::Input), 3);
    EXPECT_EQ(exitCodeFor(ErrorKind::Usage), 2);
}

TEST(ErrorNames, BindingsErrorsAreTranslated) {
    try {
        withClErrors("creating a buffer", [] { throw cl::Error(-61, "clCreateBuffer"); });
        FAIL() << "no exception";
    } catch (const OpenClError& e) {
        EXPECT_EQ(e.code(), -61);
        EXPECT_EQ(e.call(), "clCreateBuffer");
        EXPECT_NE(std::string(e.what()).find("CL_INVALID_BUFFER_SIZE"), std::string::npos);
    }
}

TEST(DeviceRegistry, DescribesEveryDevice) {
    const auto devices = enumerateDevices();
    ASSERT_GE(devices.size(), 1u);
    for (const auto& device : devices) {
        EXPECT_FALSE(device.name.empty());
        EXPECT_FALSE(device.platformName.empty());
        EXPECT_FALSE(device.driverVersion.empty());
        EXPECT_GT(device.computeUnits, 0u);
        EXPECT_GT(device.globalMemBytes, 0u);
        EXPECT_GT(device.localMemBytes, 0u);
        EXPECT_GT(device.maxWorkGroupSize, 0u);
        EXPECT_GE(device.openclCVersionNumber(), 120);
        EXPECT_FALSE(device.extensions.empty());
        if (device.imageSupport) {
            EXPECT_GT(device.image2dMaxWidth, 0u);
        }
    }
}

// Two devices come from POCL_DEVICES="pthread pthread" (tests/CMakeLists.txt); a machine with one GPU
// has only one, and the tests that need a second device say so instead of failing.
#define REQUIRE_TWO_DEVICES(devices) \
    if ((devices).size() < 2) GTEST_SKIP() << "needs two OpenCL devices (POCL_DEVICES=\"pthread pthread\")"

std::string upperCased(std::string text) {
    for (auto& c : text) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return text;
}

TEST(DeviceRegistry, SelectsByIndexSubstringAndDefault) {
    const auto devices = enumerateDevices();
    ASSERT_GE(devices.size(), 1u);
    EXPECT_EQ(&selectDevice(devices, "0:0"), &devices[0]);
    const std::string middleOfName = devices[0].name.substr(devices[0].name.size() / 3, 5);
    EXPECT_EQ(selectDevice(devices, upperCased(middleOfName)).name, devices[0].name);
    EXPECT_THROW(selectDevice(devices, "7:0"), OpenClError);
    EXPECT_THROW(selectDevice(devices, "no-such-device-name"), OpenClError);
    try {
        selectDevice(devices, "no-such-device-name");
    } catch (const OpenClError& e) {
        EXPECT_NE(std::string(e.what()).find("no-such-device-name"), std::string::npos);
    }
}

// A hand-made device of `type` at platform:device `p`:`d`.
DeviceInfo madeUpDevice(int p, int d, DeviceType type, std::string name) {
    DeviceInfo device;
    device.platformIndex = p;
    device.deviceIndex = d;
    device.type = type;
    device.name = std::move(name);
    return device;
}

TEST(DeviceRegistry, TheEmptySelectorTakesTheFirstGpuElseTheFirstDevice) {
    const char* saved = std::getenv("HISTOSCOPE_DEVICE");
    const std::string previous = saved ? saved : "";
    ASSERT_EQ(unsetenv("HISTOSCOPE_DEVICE"), 0);
    const std::vector<DeviceInfo> gpuLater{madeUpDevice(0, 0, DeviceType::Cpu, "cpu"),
                                           madeUpDevice(0, 1, DeviceType::Accelerator, "accelerator"),
                                           madeUpDevice(1, 0, DeviceType::Gpu, "first gpu"),
                                           madeUpDevice(1, 1, DeviceType::Gpu, "second gpu")};
    EXPECT_EQ(&selectDevice(gpuLater, ""), &gpuLater[2]);
    const std::vector<DeviceInfo> noGpu{madeUpDevice(0, 0, DeviceType::Accelerator, "accelerator"),
                                        madeUpDevice(1, 0, DeviceType::Cpu, "cpu")};
    EXPECT_EQ(&selectDevice(noGpu, ""), &noGpu[0]);
    // HISTOSCOPE_DEVICE, when set, is the default instead.
    setenv("HISTOSCOPE_DEVICE", "0:1", 1);
    EXPECT_EQ(&selectDevice(gpuLater, ""), &gpuLater[1]);
    if (saved) {
        setenv("HISTOSCOPE_DEVICE", previous.c_str(), 1);
    } else {
        unsetenv("HISTOSCOPE_DEVICE");
    }
}

TEST(DeviceRegistry, ABadDefaultFromTheEnvironmentSaysWhereItCameFrom) {
    const auto devices = enumerateDevices();
    ASSERT_GE(devices.size(), 1u);
    const char* saved = std::getenv("HISTOSCOPE_DEVICE");
    const std::string previous = saved ? saved : "";
    for (const char* value : {"bogus-gpu", "9:9"}) {
        setenv("HISTOSCOPE_DEVICE", value, 1);
        try {
            selectDevice(devices, "");
            ADD_FAILURE() << value << " selected a device";
        } catch (const OpenClError& e) {
            const std::string message = e.what();
            EXPECT_NE(message.find("HISTOSCOPE_DEVICE='" + std::string(value) + "': no device matches"),
                      std::string::npos)
                << message;
        }
    }
    // An explicit selector is named as such, and wins over the variable.
    try {
        selectDevice(devices, "no-such-device-name");
        ADD_FAILURE() << "selected a device";
    } catch (const OpenClError& e) {
        const std::string message = e.what();
        EXPECT_NE(message.find("device 'no-such-device-name': no device matches"), std::string::npos)
            << message;
        EXPECT_EQ(message.find("HISTOSCOPE_DEVICE"), std::string::npos) << message;
    }
    setenv("HISTOSCOPE_DEVICE", "0:0", 1);
    EXPECT_EQ(&selectDevice(devices, ""), &devices[0]);
    if (saved)
        setenv("HISTOSCOPE_DEVICE", previous.c_str(), 1);
    else
        unsetenv("HISTOSCOPE_DEVICE");
}

TEST(DeviceRegistry, SelectsTheSecondDeviceByIndex) {
    const auto devices = enumerateDevices();
    REQUIRE_TWO_DEVICES(devices);
    EXPECT_EQ(&selectDevice(devices, "0:1"), &devices[1]);
}

const char* kTinyKernel = "__kernel void add_one(__global int* v) { v[get_global_id(0)] += 1; }";

TEST(ProgramCache, SecondRuntimeLoadsTheBinaryAndAChangedOptionRebuilds) {
    ProgramCacheSettings settings{true, freshCacheDir("cache")};
    {
        Runtime first(settings);
        auto& device = first.open("0:0");
        device.programFromText("tiny", kTinyKernel, "-D ONE=1");
        EXPECT_EQ(device.sourceBuilds(), 1u);
        EXPECT_EQ(first.programCache().stats().hits, 0u);
    }
    {
        Runtime second(settings);
        auto& device = second.open("0:0");
        auto program = device.programFromText("tiny", kTinyKernel, "-D ONE=1");
        EXPECT_EQ(device.sourceBuilds(), 0u) << "a fresh runtime must load the cached binary";
        EXPECT_EQ(second.programCache().stats().hits, 1u);

        // The cached binary really runs.
        cl::Buffer buffer(device.context(), CL_MEM_READ_WRITE, sizeof(int) * 4);
        const int zeros[4] = {0, 0, 0, 0};
        device.queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, sizeof zeros, zeros);
        cl::Kernel kernel(program, "add_one");
        kernel.setArg(0, buffer);
        device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(4));
        int out[4] = {};
        device.queue().enqueueReadBuffer(buffer, CL_TRUE, 0, sizeof out, out);
        EXPECT_EQ(out[3], 1);

        device.programFromText("tiny", kTinyKernel, "-D ONE=2");
        EXPECT_EQ(device.sourceBuilds(), 1u) << "a changed option must rebuild";
        device.programFromText("tiny", std::string(kTinyKernel) + "\n// changed", "-D ONE=1");
        EXPECT_EQ(device.sourceBuilds(), 2u) << "a changed source must rebuild";
    }
    std::filesystem::remove_all(settings.directory);
}

TEST(ProgramCache, DisabledCacheWritesNothing) {
    ProgramCacheSettings settings{false, freshCacheDir("disabled")};
    Runtime runtime(settings);
    runtime.open("0:0").programFromText("tiny", kTinyKernel, "");
    EXPECT_FALSE(std::filesystem::exists(settings.directory));
}

TEST(ProgramBuild, FailureCarriesTheBuildLog) {
    Runtime runtime(ProgramCacheSettings{false, {}});
    auto& device = runtime.open("0:0");
    try {
        device.programFromText("broken", "__kernel void k(__global int* v) { v[0] = undefined_name; }", "");
        FAIL() << "the build should fail";
    } catch (const OpenClError& e) {
        EXPECT_EQ(e.code(), -11);
        EXPECT_NE(e.buildLog().find("undefined_name"), std::string::npos) << e.buildLog();
        EXPECT_NE(std::string(e.what()).find("CL_BUILD_PROGRAM_FAILURE"), std::string::npos);
        EXPECT_NE(std::string(e.what()).find(device.info().name), std::string::npos);
    }
}

TEST(Runtime, DevicesOfOnePlatformShareAContext) {
    Runtime runtime(ProgramCacheSettings{false, {}});
    REQUIRE_TWO_DEVICES(runtime.devices());
    auto& first = runtime.open("0:0");
    auto& second = runtime.open("0:1");
    EXPECT_NE(&first, &second);
    EXPECT_EQ(first.context()(), second.context()());
    EXPECT_EQ(&runtime.open("0:0"), &first);
}

TEST(TimingLog, MarksHostWorkApartFromDeviceCommands) {
    Runtime runtime(ProgramCacheSettings{false, {}});
    ASSERT_FALSE(runtime.devices().empty());
    auto& device = runtime.open("0:0");
    const std::vector<std::uint8_t> bytes(4096, 7);
    cl::Buffer buffer(device.context(), CL_MEM_READ_WRITE, bytes.size());
    TimingLog log;
    const auto now = std::chrono::steady_clock::now();
    log.addHost(Stage::Other, "convert on the host", now, now + std::chrono::microseconds(5));
    device.queue().enqueueWriteBuffer(buffer, CL_FALSE, 0, bytes.size(), bytes.data(), nullptr,
                                      log.track(Stage::Upload, "upload"));
    const std::vector<Timing> timings = log.collect();
    ASSERT_EQ(timings.size(), 2u);
    EXPECT_EQ(timings[0].name, "convert on the host");
    EXPECT_TRUE(timings[0].host);
    EXPECT_EQ(timings[0].durationNs(), 5000u);
    EXPECT_EQ(timings[1].name, "upload");
    EXPECT_FALSE(timings[1].host);
}

// Issue 11: a device's records carry its clock's offset to the host clock, found through the event's queue.
// The context registered the offset it measured; a known one replaces it here, so the mapping is checked
// against hand arithmetic rather than against a measurement.
TEST(TimingLog, RecordsCarryTheirQueuesClockOffset) {
    Runtime runtime(ProgramCacheSettings{false, {}});
    auto& device = runtime.open("0:0");
    constexpr std::int64_t kOffset = 1'000'000'000'000'000;
    const std::int64_t measured = queueClockOffset(device.queue()());
    registerQueueClock(device.queue()(), kOffset);
    const std::vector<std::uint8_t> bytes(4096, 7);
    cl::Buffer buffer(device.context(), CL_MEM_READ_WRITE, bytes.size());
    TimingLog log;
    const auto now = std::chrono::steady_clock::now();
    log.addHost(Stage::Other, "convert on the host", now, now + std::chrono::microseconds(5));
    device.queue().enqueueWriteBuffer(buffer, CL_FALSE, 0, bytes.size(), bytes.data(), nullptr,
                                      log.track(Stage::Upload, "upload"));
    const std::vector<Timing> timings = log.collect();
    registerQueueClock(device.queue()(), measured);
    ASSERT_EQ(timings.size(), 2u);
    EXPECT_EQ(timings[0].hostOffsetNs, 0) << "host work is on the host clock already";
    EXPECT_EQ(timings[0].hostStartNs(), steadyNs(now));
    EXPECT_EQ(timings[1].hostOffsetNs, kOffset);
    EXPECT_EQ(timings[1].hostStartNs(),
              static_cast<std::uint64_t>(static_cast<std::int64_t>(timings[1].startNs) + kOffset));
    EXPECT_EQ(timings[1].durationNs(), timings[1].hostEndNs() - timings[1].hostStartNs());
    EXPECT_EQ(runOriginNs(timings), std::min(timings[0].hostQueuedNs(), timings[1].hostQueuedNs()));
}

// Issue 11: NVIDIA reports QUEUED = SUBMIT = 0 for the GL acquire and release commands. Mapped as they came,
// those records sat decades before the run on the host clock (the Last-run table showed 1.7e16 µs for them).
TEST(TimingLog, MissingQueuedAndSubmitTimesTakeTheStart) {
    constexpr std::int64_t kOffset = -1'795'000'000'000'000'000;  // a clock counting from 1970
    constexpr std::uint64_t kStart = 1'795'000'000'000'100'000;
    const Timing kernel = deviceTiming(Stage::Kernel, "kernel", kStart - 50'000, kStart - 40'000,
                                       kStart - 30'000, kStart - 20'000, kOffset);
    const Timing acquire = deviceTiming(Stage::Interop, "acquire", 0, 0, kStart, kStart + 2'000, kOffset);
    EXPECT_EQ(acquire.queuedNs, kStart);
    EXPECT_EQ(acquire.submitNs, kStart);
    EXPECT_EQ(acquire.hostQueuedNs(), 100'000u);
    EXPECT_EQ(acquire.hostSubmitNs(), 100'000u);
    EXPECT_EQ(acquire.durationNs(), 2'000u);
    // The run's origin stays the kernel's queued time, and the acquire counts 50 µs from it.
    EXPECT_EQ(runOriginNs({kernel, acquire}), 50'000u);
    EXPECT_EQ(acquire.hostQueuedNs() - runOriginNs({kernel, acquire}), 50'000u);

    // Only the missing one is filled; one later than the next takes the next's value.
    const Timing onlySubmitMissing =
        deviceTiming(Stage::Interop, "release", kStart - 10, 0, kStart, kStart, 0);
    EXPECT_EQ(onlySubmitMissing.queuedNs, kStart - 10);
    EXPECT_EQ(onlySubmitMissing.submitNs, kStart);
    const Timing unordered =
        deviceTiming(Stage::Upload, "upload", kStart + 7, kStart + 5, kStart, kStart + 1, 0);
    EXPECT_EQ(unordered.submitNs, kStart);
    EXPECT_EQ(unordered.queuedNs, kStart);
    // Reported times in order stay as they are.
    EXPECT_EQ(kernel.queuedNs, kStart - 50'000);
    EXPECT_EQ(kernel.submitNs, kStart - 40'000);
}

// QUEUED takes SUBMIT's value, not START's, where SUBMIT is known and earlier than START: when QUEUED is
// missing, and when it is later than SUBMIT though still before START.
TEST(TimingLog, AQueuedTimeMissingOrAfterTheSubmitTakesTheSubmitTime) {
    constexpr std::uint64_t kStart = 1'000'000;
    const Timing missing = deviceTiming(Stage::Kernel, "kernel", 0, kStart - 300, kStart, kStart + 10, 0);
    EXPECT_EQ(missing.queuedNs, kStart - 300);
    EXPECT_EQ(missing.submitNs, kStart - 300);
    const Timing late =
        deviceTiming(Stage::Kernel, "kernel", kStart - 100, kStart - 300, kStart, kStart + 10, 0);
    EXPECT_EQ(late.queuedNs, kStart - 300);
    EXPECT_EQ(late.submitNs, kStart - 300);
    EXPECT_EQ(late.startNs, kStart);
}

}  // namespace
}  // namespace hs
