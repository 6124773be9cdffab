// The program-build observer (runtime.hpp): a build from source is told when it starts and when it ends, on
// the building thread, with its device and file; a memoized program and a load from the binary cache are not.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs {
namespace {

struct Told {
    std::string device;
    std::string label;
    bool finished = false;
};
std::vector<Told> told;

void record(const ProgramBuildEvent& event) {
    told.push_back({event.device.name, std::string(event.label), event.finished});
}

// Sets the observer for one test and takes it away after, whatever happens.
struct Observing {
    Observing() {
        told.clear();
        setProgramBuildObserver(record);
    }
    ~Observing() { setProgramBuildObserver(nullptr); }
};

std::filesystem::path freshCacheDir() {
    auto dir = std::filesystem::temp_directory_path() /
               ("histoscope-test-build-observer-" + std::to_string(std::random_device{}()));
    std::filesystem::remove_all(dir);
    return dir;
}

const char* kKernel = "__kernel void twice(__global int* v) { v[get_global_id(0)] *= 2; }";

TEST(ProgramBuildObserver, ToldOfASourceBuildOnlyAndOfItsEndEvenWhenItFails) {
    const Observing observing;
    const ProgramCacheSettings settings{true, freshCacheDir()};
    {
        Runtime runtime(settings);
        DeviceContext& device = runtime.open("0:0");
        device.programFromText("twice.cl", kKernel, "-D A=1");
        ASSERT_EQ(told.size(), 2u);
        EXPECT_EQ(told[0].device, device.info().name);
        EXPECT_EQ(told[0].label, "twice.cl");
        EXPECT_FALSE(told[0].finished);
        EXPECT_TRUE(told[1].finished);
        device.programFromText("twice.cl", kKernel, "-D A=1");
        EXPECT_EQ(told.size(), 2u) << "a memoized program is not built again";

        EXPECT_THROW(device.programFromText("broken.cl", "__kernel void f( {", ""), OpenClError);
        ASSERT_EQ(told.size(), 4u);
        EXPECT_EQ(told[2].label, "broken.cl");
        EXPECT_TRUE(told[3].finished) << "a failed build ends too: a progress line must go";
    }
    told.clear();
    Runtime second(settings);
    second.open("0:0").programFromText("twice.cl", kKernel, "-D A=1");
    EXPECT_EQ(second.open("0:0").sourceBuilds(), 0u);
    EXPECT_TRUE(told.empty()) << "a load from the binary cache is quick and not told";
    std::filesystem::remove_all(settings.directory);
}

}  // namespace
}  // namespace hs
