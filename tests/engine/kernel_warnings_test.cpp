// The kernel variants the app builds at start compile without a warning: the OpenCL C compiler of a
// driver (PoCL's clang) prints "N warnings generated." on the program's stderr for each warning-laden build,
// which the app showed at every start (issue 23). Each variant is built from source here, the program-binary
// cache off (a program loaded from it has no log), and its build log must hold no warning.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/ops/convolve/convolve.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/rotate/rotate.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs {
namespace {

struct Variant {
    std::string what;  // "histogram local-atomic 64 bins"
    KernelBuild build;
};

// The shape of the app's sample image; strategies that size their work-groups by the image see a real one.
constexpr ImageShape kShape{768, 512};

// What a start builds: the histogram of the sample by each device strategy (`auto` tries them), and the
// Transform panel's stages at their defaults (rotation by image-sampler, a 3 × 3 box by local-tiled,
// equalize, grayscale) once the user ticks them.
std::vector<Variant> startVariants(const DeviceInfo& device) {
    std::vector<Variant> variants;
    const histogram::Params bins{256};
    for (const auto* strategy : histogram::strategies()) {
        if (!strategy->supported(&device, kShape, bins).ok) continue;
        if (auto build = strategy->kernelBuild(device, bins, kShape))
            variants.push_back({"histogram " + std::string(strategy->name()), *build});
    }
    const rotate::Params rotation{30.0, rotate::FilterMode::Linear, false};
    if (auto build = rotate::findStrategy("image-sampler").kernelBuild(device, rotation, kShape))
        variants.push_back({"rotate image-sampler", *build});
    if (auto build =
            convolve::findStrategy("local-tiled").kernelBuild(device, convolve::boxFilter(3), kShape))
        variants.push_back({"convolve local-tiled box 3", *build});
    for (const char* source : {"equalize", "grayscale"})
        variants.push_back({source, KernelBuild{source, {}}});
    return variants;
}

TEST(KernelWarnings, WhatTheAppBuildsAtStartBuildsWithoutAWarning) {
    ProgramCacheSettings noCache;
    noCache.enabled = false;
    Runtime runtime(noCache);
    const std::string nonce = std::to_string(std::random_device{}());
    ASSERT_FALSE(runtime.devices().empty());
    // Every kind of device (two identical PoCL devices build the same; another platform may not).
    std::set<std::string> built;
    for (const DeviceInfo& info : runtime.devices()) {
        if (!built.insert(info.platformName + "\n" + info.name).second) continue;
        DeviceContext& device = runtime.open(info);
        const std::vector<Variant> variants = startVariants(info);
        // Four device strategies of the histogram on every OpenCL device, and the four stages.
        EXPECT_GE(variants.size(), 8u) << info.name;
        for (const Variant& variant : variants) {
            // PoCL keeps compiled programs of its own (~/.cache/pocl), keyed by source and options, and one
            // loaded from there has no log: a macro no kernel reads makes each build new to every cache.
            const std::string options = variant.build.options + " -D WARNINGS_CHECK_NONCE=" + nonce;
            const cl::Program program = device.program(variant.build.source, options);
            const std::string log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device.device());
            EXPECT_EQ(log.find("warning"), std::string::npos)
                << info.selector() << " " << variant.what << " (" << options << "):\n"
                << log;
        }
    }
}

}  // namespace
}  // namespace hs
