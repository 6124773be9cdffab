// Every built-in kernel, in each strategy and -D variant the engine's registries choose, run through the
// engine on small images under Oclgrind: tests/oclgrind/CMakeLists.txt runs each test of this program as
// its own ctest test (label oclgrind) under run_under_oclgrind.sh, which makes the simulator the only OpenCL
// device and fails the test on anything Oclgrind reports (an invalid or uninitialised read, a data race, an
// API error). Each result is also compared with the CPU reference, so a kernel that is clean but wrong
// fails too.
//
// The strategies choose their -D variants and launch shapes from the device's description (a GPU gets the
// interleaved private-uchar layout and several sub-histogram copies, a CPU rows of 4 lanes and one copy; a
// small largest allocation makes images run in tiles and bands), so each run is repeated on the simulator
// described as each of those devices (`Profile`): the engine then takes, on the one simulated device, the
// paths it takes on each kind of device.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "bow_test_data.hpp"
#include "engine/measure/baselines.hpp"
#include "engine/ops/bow/bow.hpp"
#include "engine/ops/bow/descriptors.hpp"
#include "engine/ops/convolve/convolve.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/pipeline/pipeline.hpp"
#include "engine/ops/rotate/rotate.hpp"
#include "engine/ops/scope/scope.hpp"
#include "engine/ops/tuning.hpp"
#include "engine/stages/stage.hpp"
#include "histogram_test_images.hpp"
#include "pipeline_test_support.hpp"

namespace hs {
namespace {

using testing::compare;
using testing::noiseImage;
using testing::readBack;

// How the simulated device is described to the engine: as a GPU (what Oclgrind reports), as a CPU, or with a
// largest allocation of a few hundred pixels (tiles, bands); 0: the simulator's own.
struct Profile {
    const char* name;
    DeviceType type;
    std::uint64_t maxAllocBytes;
};
constexpr Profile kGpu{"described as a GPU", DeviceType::Gpu, 0};
constexpr Profile kCpu{"described as a CPU", DeviceType::Cpu, 0};
constexpr Profile kSmallAllocations{"with a largest allocation of 1 KiB", DeviceType::Gpu, 1024};

// The runtime and the contexts of the simulated device, released when the tests end rather than by static
// destructors: Oclgrind's runtime keeps per-thread state that exit() frees before those run, and an OpenCL
// object released after that corrupts the heap (clReleaseContext from a static Runtime aborts every run).
class Simulator : public ::testing::Environment {
  public:
    void TearDown() override {
        profiles_.clear();
        runtime_.reset();
    }

    // The simulator, as the engine opens it; fails the test unless it is Oclgrind's (a run outside
    // run_under_oclgrind.sh would check nothing).
    DeviceContext& device() {
        if (!runtime_) runtime_ = std::make_unique<Runtime>();
        DeviceContext& device = runtime_->open("0:0");
        EXPECT_EQ(device.info().platformName, "Oclgrind") << "not running under oclgrind";
        return device;
    }

    // A context on the simulated device whose description says `profile`; the strategies read nothing else.
    DeviceContext& device(const Profile& profile) {
        auto& context = profiles_[profile.name];
        if (!context) {
            DeviceContext& base = device();
            DeviceInfo info = base.info();
            info.type = profile.type;
            if (profile.maxAllocBytes != 0) info.maxAllocBytes = profile.maxAllocBytes;
            context =
                std::make_unique<DeviceContext>(info, base.context(), base.device(), base.programCache());
        }
        return *context;
    }

  private:
    std::unique_ptr<Runtime> runtime_;
    std::map<std::string, std::unique_ptr<DeviceContext>> profiles_;  // by profile name
};

Simulator& simulatorEnvironment() {
    static Simulator* const environment = [] {
        auto* made = new Simulator;  // gtest owns its environments
        ::testing::AddGlobalTestEnvironment(made);
        return made;
    }();
    return *environment;
}
[[maybe_unused]] const Simulator& registered = simulatorEnvironment();

DeviceContext& simulator() {
    return simulatorEnvironment().device();
}
DeviceContext& device(const Profile& profile) {
    return simulatorEnvironment().device(profile);
}

// The names of an operation's strategies that run on a device: one test each (the host ones run no kernel).
template <class Op>
std::vector<std::string> deviceStrategyNames() {
    std::vector<std::string> names;
    for (const auto* strategy : Registry<Op>::list()) {
        if (strategy->runsOnDevice()) names.emplace_back(strategy->name());
    }
    return names;
}

// A strategy's name and what else the test takes, as a test name ("local-tiled", "3" -> "local_tiled_3").
std::string testName(std::string strategy, const std::string& suffix) {
    std::replace(strategy.begin(), strategy.end(), '-', '_');
    return strategy.append("_").append(suffix);
}

// --- histogram.cl: every device strategy (auto's trial included), with and without IGNORE_TRANSPARENT.

class HistogramKernels : public ::testing::TestWithParam<std::string> {};

TEST_P(HistogramKernels, CountLikeTheReference) {
    const auto& strategy = histogram::findStrategy(GetParam());
    // 851 pixels: a tail after the last whole uint4; half of them transparent.
    const ImageRGBA8 image =
        histogram::test_images::makeImage(37, 23, histogram::test_images::Pattern::HalfTransparent);
    for (const Profile& profile : {kGpu, kCpu, kSmallAllocations}) {
        for (const bool ignoreTransparent : {false, true}) {
            SCOPED_TRACE(std::string(profile.name) +
                         (ignoreTransparent ? ", ignoring transparent pixels" : ""));
            PixelSource pixels(image);
            const histogram::Params params{histogram::kMaxBins, ignoreTransparent};
            const auto result = histogram::computeHistogram(&device(profile), pixels, params, strategy);
            EXPECT_EQ(result.values, histogram::referenceHistogram(image.pixels.data(), image.pixelCount(),
                                                                   histogram::kMaxBins, ignoreTransparent));
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Oclgrind, HistogramKernels,
                         ::testing::ValuesIn(deviceStrategyNames<histogram::Operation>()),
                         testing::paramName);

// --- scope.cl: every device strategy, each scope, with and without IGNORE_TRANSPARENT; local-atomic also
// with its tunables at odd values (several rows a batch, the smallest 16-bit window, one slot for every
// chroma outside it, every pixel its own atomic), so that its local slots' claims and packed counters run
// under the race detector, and with WIDE=4 (16-byte loads of 4 pixels) on a region from an odd x to the right
// border, whose quads hold pixels outside it.

class ScopeKernels : public ::testing::TestWithParam<std::string> {};

TEST_P(ScopeKernels, CountLikeTheReference) {
    const auto& strategy = scope::findStrategy(GetParam());
    // Noise with a flat saturated block (outside any window around grey: runs into one slot) and a grey one.
    ImageRGBA8 image = noiseImage(32, 21, 3);  // WIDE=4 needs a pitch that is a multiple of 4
    for (int y = 2; y < 14; ++y) {
        for (int x = 3; x < 11; ++x) {
            std::uint8_t* red = image.pixel(x, y);
            red[0] = 230, red[1] = 10, red[2] = 20, red[3] = 255;
            std::uint8_t* grey = image.pixel(x + 12, y);
            grey[0] = grey[1] = grey[2] = 128, grey[3] = 0;
        }
    }
    std::vector<tuning::Values> tunings{{}};
    if (strategy.name() == "local-atomic") {
        tunings.push_back(
            {{"UNROLL", 4}, {"WINDOW", 8}, {"COUNTER_BITS", 16}, {"OUTSIDE_SLOTS", 1}, {"RUNS", 0}});
        tunings.push_back(
            {{"WIDE", 4}, {"UNROLL", 2}, {"WINDOW", 8}, {"COUNTER_BITS", 16}, {"OUTSIDE_SLOTS", 1}});
    }
    for (const auto& values : tunings) {
        const tuning::ScopedTuning tuned(tuning::key("scope", strategy.name()), values);
        const bool wide = values.contains("WIDE");
        // The tuned values apply on either description; the CPU's differs from the GPU's in its groups only.
        for (const Profile& profile :
             values.empty() ? std::vector<Profile>{kGpu, kCpu} : std::vector<Profile>{kGpu}) {
            for (const auto kind : {scope::Kind::Waveform, scope::Kind::Parade, scope::Kind::Vectorscope}) {
                for (const bool ignoreTransparent : {false, true}) {
                    SCOPED_TRACE(std::string(profile.name) + " " + std::string(scope::kindName(kind)) +
                                 (values.empty() ? "" : " tuned") +
                                 (ignoreTransparent ? " ignoring alpha 0" : ""));
                    scope::Params params;
                    params.kind = kind;
                    params.columns = 5;
                    params.ignoreTransparent = ignoreTransparent;
                    if (wide) {
                        // 13 bins over 29 columns: the parade's strips of 5 quads share the bins at their
                        // edges.
                        params.roi = Region{3, 2, 29, 17};
                        params.columns = 13;
                    }
                    PixelSource pixels(image);
                    const auto result = scope::computeScope(&device(profile), pixels, params, strategy);
                    EXPECT_EQ(result.strategyName(), strategy.name());
                    EXPECT_EQ(result.counts,
                              scope::referenceScope(image.pixels.data(), image.width, image.height, params));
                    if (wide) {
                        EXPECT_NE(result.builds.front().options.find("-D WIDE=4"), std::string::npos)
                            << result.builds.front().options;
                    }
                }
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Oclgrind, ScopeKernels, ::testing::ValuesIn(deviceStrategyNames<scope::Operation>()),
                         testing::paramName);

// --- rotate.cl: both strategies, both sampling modes, a canvas of the input's size and a fitted one.

class RotateKernels : public ::testing::TestWithParam<std::string> {};

TEST_P(RotateKernels, MatchTheReferenceInEverySamplingMode) {
    const auto& strategy = rotate::findStrategy(GetParam());
    // 19 pixels a row: the buffer kernel's last 4-pixel group of a row is partial.
    const ImageRGBA8 image = noiseImage(19, 13, 5);
    // A texture unit may quantise the bilinear weights (see rotate_test.cpp); the buffer kernel is within 1.
    const int linearTolerance = strategy.name() == "image-sampler" ? 2 : 1;
    for (const Profile& profile : {kGpu, kSmallAllocations}) {
        for (const auto mode : {rotate::FilterMode::Linear, rotate::FilterMode::Nearest}) {
            for (const auto& [angle, fit] :
                 {std::pair{33.3, false}, std::pair{-45.0, true}, std::pair{90.0, true}}) {
                const rotate::Params params{angle, mode, fit};
                SCOPED_TRACE(std::string(profile.name) + ", " + std::to_string(angle) + " degrees, " +
                             std::string(rotate::filterModeName(mode)) + (fit ? ", fitted canvas" : ""));
                PixelSource pixels(image);
                auto result = rotate::rotate(device(profile), pixels, params, strategy);
                EXPECT_EQ(result.strategyName(), strategy.name());
                const auto difference =
                    compare(readBack(result.image), rotate::referenceRotate(image, params));
                // Nearest picks whole pixels and a quarter turn onto a fitted canvas moves them: exact.
                const int tolerance =
                    mode == rotate::FilterMode::Linear && angle != 90.0 ? linearTolerance : 0;
                EXPECT_LE(difference.maxAbs, tolerance) << difference.first;
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Oclgrind, RotateKernels,
                         ::testing::ValuesIn(deviceStrategyNames<rotate::Operation>()), testing::paramName);

// --- convolve.cl: every strategy with every registered filter kind (defaults) and two hand-made ones of an
// even width (one integer and of rank 1, one not integer), on a width that is a multiple of 4 (the tiled
// kernels' 16-byte loads) and one that is not.

std::vector<convolve::Filter> filtersToCheck() {
    std::vector<convolve::Filter> filters;
    for (const auto* kind : convolve::filterKinds()) filters.push_back(kind->make(kind->defaults()));
    filters.push_back(convolve::parseFilterText("3 0 1 -2\n6 0 2 -4\n-3 0 -1 2\n/ 7"));
    filters.push_back(convolve::parseFilterText("0.5 -0.25 1 0.125\n0.3 0.1 -0.2 0.7\n/ 1.5"));
    return filters;
}

// A strategy and one of filtersToCheck() (its index): a test each, as each filter is a program of its own.
class ConvolveKernels : public ::testing::TestWithParam<std::tuple<std::string, std::size_t>> {};

TEST_P(ConvolveKernels, MatchTheReference) {
    const auto& strategy = convolve::findStrategy(std::get<0>(GetParam()));
    const convolve::Filter filter = filtersToCheck().at(std::get<1>(GetParam()));
    for (const int width : {20, 19}) {
        const ImageRGBA8 image = noiseImage(width, 11, static_cast<unsigned>(width));
        for (const Profile& profile : {kGpu, kSmallAllocations}) {
            SCOPED_TRACE(std::to_string(width) + "x11, " + std::string(profile.name));
            if (!strategy.supported(&device(profile).info(), {width, 11}, filter).ok) {
                GTEST_SKIP() << strategy.name() << " does not take " << filter.label;
            }
            PixelSource pixels(image);
            auto result = convolve::convolve(device(profile), pixels, filter, strategy);
            EXPECT_EQ(result.strategyName(), strategy.name());
            const auto difference =
                compare(readBack(result.image), convolve::referenceConvolve(image, filter));
            EXPECT_LE(difference.maxAbs, filter.isInteger() ? 0 : 1) << difference.first;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Oclgrind, ConvolveKernels,
                         ::testing::Combine(::testing::ValuesIn(deviceStrategyNames<convolve::Operation>()),
                                            ::testing::Range(std::size_t{0}, filtersToCheck().size())),
                         [](const auto& test) {
                             return testName(std::get<0>(test.param),
                                             std::to_string(std::get<1>(test.param)));
                         });

// --- the image stages without a choice of strategy (equalize.cl: count, scan, map; and any kind added so),
// with their defaults: a test each. Rotate and convolve are their operations' strategies above.

std::vector<std::string> singleKernelStageNames() {
    std::vector<std::string> names;
    for (const auto* kind : stages::kinds()) {
        // With their defaults: a kind with parameters (the user kernel's file) has its own tests.
        if (kind->producesImage() && kind->strategies().empty() && kind->parameters().empty())
            names.emplace_back(kind->name());
    }
    return names;
}

class StageKernels : public ::testing::TestWithParam<std::string> {};

TEST_P(StageKernels, MatchTheReference) {
    const auto stage = stages::findKind(GetParam()).configure({}, "", nullptr);
    const ImageRGBA8 image = noiseImage(37, 23, 3);
    PixelSource pixels(image);
    pipeline::Result result = pipeline::runPipeline(simulator(), pixels, stages::StageList{stage});
    EXPECT_EQ(result.readBack(), stage->reference(image));
}

INSTANTIATE_TEST_SUITE_P(Oclgrind, StageKernels, ::testing::ValuesIn(singleKernelStageNames()),
                         testing::paramName);

// --- bow.cl: every device builder (transpose_descriptors with those that use it) against bow-serial; k = 5
// leaves most of a block empty, k = 128 is a whole number of blocks (-D FULL_BLOCKS for bow-tiled).
// bow-tensor's tensor-core instructions run only on NVIDIA (its test is skipped with that reason), and its
// kernel with the products emulated, which the engine tests run on PoCL, takes minutes here.

// A builder and a vocabulary size: a test each (bow-tiled's 128 x 128 tile of distances takes seconds).
class BowKernels : public ::testing::TestWithParam<std::tuple<std::string, std::size_t>> {};

TEST_P(BowKernels, AssignLikeSerial) {
    const auto& [name, k] = GetParam();
    const auto& strategy = bow::findStrategy(name);
    const bow::Matrix centroids = bow::test_data::uniformRows(k, 3 + k);
    const bow::Matrix descriptors = bow::test_data::around(centroids, 37, 0.05f, k);
    const auto support =
        strategy.supported(&simulator().info(), bow::shapeOf(descriptors, centroids), centroids);
    if (!support.ok) GTEST_SKIP() << support.reason;
    const auto expected = bow::assignWords(nullptr, descriptors, centroids, bow::findStrategy("bow-serial"));
    const auto result = bow::assignWords(&simulator(), descriptors, centroids, strategy);
    EXPECT_EQ(result.memberships, expected.memberships);
    EXPECT_EQ(result.histogram, expected.histogram);
}

INSTANTIATE_TEST_SUITE_P(Oclgrind, BowKernels,
                         ::testing::Combine(::testing::ValuesIn(deviceStrategyNames<bow::Operation>()),
                                            ::testing::Values(std::size_t{5}, std::size_t{128})),
                         [](const auto& test) {
                             return testName(std::get<0>(test.param),
                                             std::to_string(std::get<1>(test.param)).append("_centroids"));
                         });

// --- bow_descriptors.cl: a 2 x 2 grid of windows whose last ones reach the image's last row and column.

TEST(BowDescriptorKernels, MatchTheReference) {
    const bow::DescriptorParams params{.window = 20, .stride = 10};
    const ImageRGBA8 image = noiseImage(30, 30, 9);
    PixelSource pixels(image);
    const auto result = bow::computeDescriptors(simulator(), pixels, params);
    const auto expected = bow::referenceDescriptors(image, params);
    ASSERT_EQ(result.descriptors.values.size(), expected.values.size());
    for (std::size_t i = 0; i < expected.values.size(); ++i)
        EXPECT_NEAR(result.descriptors.values[i], expected.values[i], 1e-4f) << "value " << i;
}

// --- bench.cl: the bandwidth baselines, in every work-group shape their trial tries.

TEST(BenchKernels, BaselinesMeasureEveryShape) {
    DeviceContext& device = simulator();
    constexpr std::uint64_t kBytes = 4096;
    const cl::Buffer data(device.context(), CL_MEM_READ_WRITE, kBytes);
    device.queue().enqueueFillBuffer(data, cl_uint{7}, 0, kBytes);
    measure::Baselines baselines(device, 1);
    EXPECT_FALSE(baselines.streamRead(data, kBytes).shape.empty());
    EXPECT_FALSE(baselines.copy(kBytes).shape.empty());
}

}  // namespace
}  // namespace hs
