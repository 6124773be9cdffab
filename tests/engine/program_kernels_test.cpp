// Each device strategy's program holds only the kernels the strategy enqueues (the kernel files' -D
// selections): reading a program's binary for the program cache makes PoCL compile every kernel of the
// program once more, so a kernel the strategy never runs would double its first build. The kernels are the
// program's own account (CL_PROGRAM_KERNEL_NAMES) of what the driver built.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>

#include "engine/ops/convolve/convolve.hpp"
#include "engine/ops/convolve/filter.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/scope/scope.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs {
namespace {

std::set<std::string> kernelsOf(DeviceContext& device, const std::optional<KernelBuild>& build) {
    if (!build) return {};
    const auto names = device.program(build->source, build->options).getInfo<CL_PROGRAM_KERNEL_NAMES>();
    std::set<std::string> kernels;
    std::istringstream list(names);
    for (std::string name; std::getline(list, name, ';');) {
        name.erase(std::remove(name.begin(), name.end(), '\0'), name.end());
        if (!name.empty()) kernels.insert(name);
    }
    return kernels;
}

using Kernels = std::set<std::string>;

TEST(ProgramKernels, EachHistogramStrategyBuildsOnlyTheKernelsItRuns) {
    Runtime runtime;
    DeviceContext& device = runtime.open("0:0");
    const ImageShape shape{64, 48};
    const histogram::Params params{256};
    const auto kernels = [&](const char* strategy) {
        return kernelsOf(device, histogram::findStrategy(strategy).kernelBuild(device.info(), params, shape));
    };
    EXPECT_EQ(kernels("global-atomic"), Kernels{"global_atomic"});
    EXPECT_EQ(kernels("local-atomic"), Kernels{"local_atomic"});
    EXPECT_EQ(kernels("partial-reduce"), (Kernels{"partial_reduce", "reduce_partials"}));
    EXPECT_EQ(kernels("private-uchar"), (Kernels{"private_uchar", "reduce_partials"}));
}

TEST(ProgramKernels, EachScopeStrategyBuildsOnlyTheKernelItRuns) {
    Runtime runtime;
    DeviceContext& device = runtime.open("0:0");
    const ImageShape shape{64, 48};
    scope::Params waveform;
    scope::Params vectorscope;
    vectorscope.kind = scope::Kind::Vectorscope;
    const auto kernels = [&](const char* strategy, const scope::Params& params) {
        return kernelsOf(device, scope::findStrategy(strategy).kernelBuild(device.info(), params, shape));
    };
    EXPECT_EQ(kernels("global-atomic", waveform), Kernels{"scope_global_atomic"});
    EXPECT_EQ(kernels("global-atomic", vectorscope), Kernels{"scope_global_atomic"});
    EXPECT_EQ(kernels("local-atomic", waveform), Kernels{"scope_strips"});
    EXPECT_EQ(kernels("local-atomic", vectorscope), Kernels{"scope_window"});
}

TEST(ProgramKernels, EachConvolutionStrategyBuildsOnlyTheKernelsItRuns) {
    Runtime runtime;
    DeviceContext& device = runtime.open("0:0");
    const ImageShape shape{64, 48};
    const convolve::Filter box = convolve::boxFilter(3);
    const auto kernels = [&](const char* strategy) {
        return kernelsOf(device, convolve::findStrategy(strategy).kernelBuild(device.info(), box, shape));
    };
    // The naive strategies share one program (the same options), whichever of its two kernels runs.
    EXPECT_EQ(kernels("buffer-naive"), (Kernels{"convolve_buffer", "convolve_image"}));
    EXPECT_EQ(kernels("image-sampler"), (Kernels{"convolve_buffer", "convolve_image"}));
    EXPECT_EQ(kernels("local-tiled"), Kernels{"convolve_local"});
    EXPECT_EQ(kernels("separable"), Kernels{"convolve_separable"});
}

}  // namespace
}  // namespace hs
