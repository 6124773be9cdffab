// Every builder strategy against bow-serial (memberships and histograms) on PoCL, over odd counts and
// vocabulary sizes, and a hand-made case whose nearest centroids are known.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>

#include "bow_test_data.hpp"
#include "expect_error.hpp"
#include "ops/bow/bow.hpp"
#include "ops/bow/tensor_strategy.hpp"
#include "runtime/runtime.hpp"

namespace hs::bow {
namespace {

Runtime& runtime() {
    static Runtime instance;
    return instance;
}

DeviceContext* deviceFor(const Strategy& strategy) {
    return strategy.runsOnDevice() ? &runtime().open("0:0") : nullptr;
}

std::vector<std::string> strategyNames() {
    std::vector<std::string> names;
    for (const auto* strategy : strategies()) names.emplace_back(strategy->name());
    return names;
}

// bow-tensor with its products emulated: the whole kernel but the tensor-core instructions, on any device.
const TensorStrategy emulatedTensor(TensorStrategy::Products::Emulated);

// A registered strategy, or the emulated bow-tensor.
const Strategy& strategyNamed(std::string_view name) {
    return name == emulatedTensor.name() ? emulatedTensor : findStrategy(name);
}

// Whether the test device runs `strategy` at all (bow-tensor needs NVIDIA tensor cores): the reason if not.
std::optional<std::string> refusalOnTheTestDevice(const Strategy& strategy) {
    if (!strategy.runsOnDevice()) return std::nullopt;
    const Support support = strategy.supported(&deviceFor(strategy)->info(), Shape{100, 16}, Matrix{});
    return support.ok ? std::nullopt : std::optional(support.reason);
}

#define SKIP_WHERE_THE_DEVICE_REFUSES(STRATEGY) \
    if (const auto refusal = refusalOnTheTestDevice(STRATEGY)) GTEST_SKIP() << *refusal

std::vector<std::uint32_t> histogramOf(const std::vector<std::uint32_t>& memberships, std::size_t k) {
    std::vector<std::uint32_t> counts(k, 0);
    for (const auto m : memberships) ++counts.at(m);
    return counts;
}

class EveryBowStrategy : public ::testing::TestWithParam<std::string> {};

// Descriptors not a multiple of any work-group size, k = 1, 3 and past 256 (257, 300): ours support any k
// whose histogram fits the local memory (bow-tiled) or constant buffer (bow-gpu5-constant).
TEST_P(EveryBowStrategy, EqualsSerialWithoutNearTies) {
    const Strategy& strategy = strategyNamed(GetParam());
    SKIP_WHERE_THE_DEVICE_REFUSES(strategy);
    for (const std::size_t k : {1u, 3u, 64u, 257u, 300u}) {
        const Matrix centroids = test_data::uniformRows(k, 11 + k);
        // A device whose constant buffer is smaller than PoCL's (the H100's 64 KiB) refuses gpu5 past 256
        // centroids; that refusal is tested on its own below.
        if (strategy.runsOnDevice() &&
            !strategy.supported(&deviceFor(strategy)->info(), Shape{4099, k}, centroids).ok)
            continue;
        for (const std::size_t count : {1u, 63u, 65u, 1000u, 4099u}) {
            SCOPED_TRACE(std::to_string(count) + " descriptors, k = " + std::to_string(k));
            const Matrix descriptors = test_data::around(centroids, count, 0.05f, count);
            const Result expected = assignWords(nullptr, descriptors, centroids, findStrategy("bow-serial"));
            const Result result = assignWords(deviceFor(strategy), descriptors, centroids, strategy);
            EXPECT_EQ(result.strategyName(), GetParam());
            ASSERT_EQ(result.memberships, expected.memberships);
            ASSERT_EQ(result.histogram, expected.histogram);
            // The serial builder assigned what the data was made from.
            for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(expected.memberships[i], i * 7 % k);
        }
    }
}

// Uniform data has near ties; outside them the memberships equal serial's, and the histogram counts them.
TEST_P(EveryBowStrategy, AgreesWithSerialUpToNearTiesOnUniformData) {
    const Strategy& strategy = strategyNamed(GetParam());
    SKIP_WHERE_THE_DEVICE_REFUSES(strategy);
    const Matrix centroids = test_data::uniformRows(37, 5);
    const Matrix descriptors = test_data::uniformRows(3001, 6);
    const Result expected = assignWords(nullptr, descriptors, centroids, findStrategy("bow-serial"));
    const Result result = assignWords(deviceFor(strategy), descriptors, centroids, strategy);
    EXPECT_EQ(misassigned(descriptors, centroids, result.memberships), 0u);
    EXPECT_EQ(result.histogram, histogramOf(result.memberships, 37));
    const auto differing =
        std::inner_product(result.memberships.begin(), result.memberships.end(), expected.memberships.begin(),
                           std::size_t{0}, std::plus<>(), std::not_equal_to<>());
    EXPECT_LE(differing, 3u);  // near ties only, which are rare
}

TEST_P(EveryBowStrategy, HandMadeNearestCentroidsAndTiesToTheLowestIndex) {
    const Strategy& strategy = strategyNamed(GetParam());
    SKIP_WHERE_THE_DEVICE_REFUSES(strategy);
    // Centroids: the unit vectors e0, e1, e2 (and the origin as centroid 3).
    Matrix centroids(std::vector<float>(4 * kDimensions, 0.0f));
    for (std::size_t c = 0; c < 3; ++c) centroids.row(c)[c] = 1.0f;
    Matrix descriptors(std::vector<float>(5 * kDimensions, 0.0f));
    descriptors.row(0)[1] = 0.9f;                          // nearest e1
    descriptors.row(1)[2] = 0.8f;                          // e2
    descriptors.row(2)[0] = descriptors.row(2)[2] = 0.5f;  // e0 and e2 tie at 0.5: e0
    descriptors.row(3)[5] = 0.1f;                          // the origin
    descriptors.row(4)[1] = descriptors.row(4)[2] = 0.5f;  // e1 and e2 tie: e1
    const Result result = assignWords(deviceFor(strategy), descriptors, centroids, strategy);
    EXPECT_EQ(result.memberships, (std::vector<std::uint32_t>{1, 2, 0, 3, 1}));
    EXPECT_EQ(result.histogram, (std::vector<std::uint32_t>{1, 2, 1, 1}));
}

// Exact ties between identical centroids that lie in different parts of a strategy's search. bow-tiled
// sweeps the centroids in blocks of 128; within a block, work-item row ty takes the centroids 4 ty .. 4 ty +
// 3 and 64 + 4 ty .. 64 + 4 ty + 3 (so centroid c falls to row (c / 4) % 16), keeps its best over the blocks,
// and the rows' candidates are merged from row 0 up. The unit vector e0 is centroid 0, 5 (another row), 67
// (row 0's second four) and 129 (row 0 in the second block); e1 is 66, 75 and 128, the lowest in row 0; e2 is
// 64 (row 0) and 4 (row 1): the lowest index is in a later row than the row that is merged first; e3 is 10
// and 260 (the third block). Every other centroid is 10 e_d (d >= 4), at a squared distance of at least 101
// from them. Identical centroids give bit-identical distances, so the rule decides: the lowest index, 0, 66,
// 4 and 10.
TEST_P(EveryBowStrategy, ExactTiesAcrossWorkItemsAndBlocksGoToTheLowestIndex) {
    const Strategy& strategy = strategyNamed(GetParam());
    SKIP_WHERE_THE_DEVICE_REFUSES(strategy);
    constexpr std::size_t k = 300;
    Matrix centroids(std::vector<float>(k * kDimensions, 0.0f));
    for (std::size_t c = 0; c < k; ++c) centroids.row(c)[4 + c % 60] = 10.0f;
    const auto unit = [&](std::size_t c, std::size_t d) {
        std::fill(centroids.row(c), centroids.row(c) + kDimensions, 0.0f);
        centroids.row(c)[d] = 1.0f;
    };
    for (const std::size_t c : {0u, 5u, 67u, 129u}) unit(c, 0);
    for (const std::size_t c : {66u, 75u, 128u}) unit(c, 1);
    for (const std::size_t c : {64u, 4u}) unit(c, 2);
    for (const std::size_t c : {10u, 260u}) unit(c, 3);
    Matrix descriptors(std::vector<float>(4 * kDimensions, 0.0f));
    for (std::size_t d = 0; d < 4; ++d) descriptors.row(d)[d] = 1.0f;
    if (strategy.runsOnDevice() &&
        !strategy.supported(&deviceFor(strategy)->info(), shapeOf(descriptors, centroids), centroids).ok)
        GTEST_SKIP() << "the test device does not run " << GetParam() << " with 300 centroids";
    const Result result = assignWords(deviceFor(strategy), descriptors, centroids, strategy);
    EXPECT_EQ(result.memberships, (std::vector<std::uint32_t>{0, 66, 4, 10}));
    std::vector<std::uint32_t> histogram(k, 0);
    histogram[0] = histogram[66] = histogram[4] = histogram[10] = 1;
    EXPECT_EQ(result.histogram, histogram);
}

// Descriptors nearer the origin than to any centroid. bow-tiled pads the centroids past k (to the end of
// their group of 4, or of the block of 128 with -D FULL_BLOCKS) with zeros, which score |0|^2 - 2 x.0 = 0;
// here every real score |c|^2 - 2 x.c is above 0, so only the checks against k (and FULL_BLOCKS only for
// whole blocks) keep a padding centroid from winning. Centroid i is (2 + i) times the unit vector of
// dimension 1 + i % 63: from -e0 its squared distance is 1 + (2 + i)^2, least for centroid 0; the second
// descriptor is centroid k - 1 itself. k = 2 and 130 end inside a group of 4, 16 inside a block; 128 is
// one whole block.
TEST_P(EveryBowStrategy, DescriptorsNearerTheOriginThanToAnyCentroidByHand) {
    const Strategy& strategy = strategyNamed(GetParam());
    SKIP_WHERE_THE_DEVICE_REFUSES(strategy);
    for (const std::size_t k : {2u, 16u, 128u, 130u}) {
        SCOPED_TRACE("k = " + std::to_string(k));
        Matrix centroids(std::vector<float>(k * kDimensions, 0.0f));
        for (std::size_t c = 0; c < k; ++c) centroids.row(c)[1 + c % 63] = static_cast<float>(2 + c);
        Matrix descriptors(std::vector<float>(2 * kDimensions, 0.0f));
        descriptors.row(0)[0] = -1.0f;
        std::copy(centroids.row(k - 1), centroids.row(k - 1) + kDimensions, descriptors.row(1));
        if (strategy.runsOnDevice() &&
            !strategy.supported(&deviceFor(strategy)->info(), shapeOf(descriptors, centroids), centroids).ok)
            continue;
        const Result result = assignWords(deviceFor(strategy), descriptors, centroids, strategy);
        EXPECT_EQ(result.memberships, (std::vector<std::uint32_t>{0, static_cast<std::uint32_t>(k - 1)}));
        EXPECT_EQ(result.histogram, histogramOf({0, static_cast<std::uint32_t>(k - 1)}, k));
    }
}

// Data far from unit length: bow-tensor scales each row and centroid by a power of two into the range of
// halves (5 exponent bits: 1e5 overflows them, 1e-7 is below their normal range); the others work in float.
TEST_P(EveryBowStrategy, MembershipsDoNotDependOnTheScaleOfTheData) {
    const Strategy& strategy = strategyNamed(GetParam());
    SKIP_WHERE_THE_DEVICE_REFUSES(strategy);
    constexpr std::size_t k = 37, count = 1000;
    for (const float scale : {1e-7f, 1e5f}) {
        SCOPED_TRACE("scale " + std::to_string(scale));
        Matrix centroids = test_data::uniformRows(k, 21);
        Matrix descriptors = test_data::around(centroids, count, 0.05f, 22);
        for (auto* matrix : {&centroids, &descriptors})
            for (float& value : matrix->values) value *= scale;
        const Result result = assignWords(deviceFor(strategy), descriptors, centroids, strategy);
        for (std::size_t i = 0; i < count; ++i) ASSERT_EQ(result.memberships[i], i * 7 % k) << i;
        EXPECT_EQ(result.histogram, histogramOf(result.memberships, k));
    }
}

TEST_P(EveryBowStrategy, NoDescriptorsGiveAnEmptyHistogram) {
    const Strategy& strategy = strategyNamed(GetParam());
    SKIP_WHERE_THE_DEVICE_REFUSES(strategy);
    const Result result = assignWords(deviceFor(strategy), Matrix{}, test_data::uniformRows(5, 1), strategy);
    EXPECT_TRUE(result.memberships.empty());
    EXPECT_EQ(result.histogram, std::vector<std::uint32_t>(5, 0));
}

std::vector<std::string> strategyNamesAndTheEmulatedTensor() {
    std::vector<std::string> names = strategyNames();
    names.emplace_back(emulatedTensor.name());
    return names;
}

INSTANTIATE_TEST_SUITE_P(Bow, EveryBowStrategy, ::testing::ValuesIn(strategyNamesAndTheEmulatedTensor()),
                         [](const auto& param) {
                             std::string name = param.param;
                             std::replace(name.begin(), name.end(), '-', '_');
                             return name;
                         });

TEST(BowStrategies, AnUnknownNameIsRefusedNamingTheKnownOnes) {
    // The registered list and its order: Registry.ListsEveryRegisteredStrategyInTheDocumentedOrder.
    EXPECT_TRUE(test::mentions(test::messageOf<UsageError>([] { findStrategy("gpu9"); }), "bow-tiled"));
}

TEST(BowStrategies, TransposeIsARecordOfItsOwn) {
    const Matrix centroids = test_data::uniformRows(4, 1);
    const Matrix descriptors = test_data::uniformRows(100, 2);
    for (const char* name :
         {"bow-gpu2-coalesced", "bow-gpu3-vectorized", "bow-gpu4-local", "bow-gpu5-constant"}) {
        const Result result = assignWords(&runtime().open("0:0"), descriptors, centroids, findStrategy(name));
        EXPECT_EQ(std::count_if(
                      result.timings.begin(), result.timings.end(),
                      [](const Timing& t) { return t.stage == Stage::Kernel && t.name == kTransposeKernel; }),
                  1)
            << name;
    }
}

// bow-tiled keeps a histogram of k counters in local memory beside its fixed tiles: the staged chunks (16
// dimensions of 128 descriptors and 128 centroids) or the candidates (16 x 128 scores and indices), both
// 16384 bytes, and 128 norms.
TEST(BowStrategies, TiledStrategyRefusesAHistogramBeyondTheLocalMemory) {
    DeviceInfo device = runtime().open("0:0").info();
    device.localMemBytes = 16384 + 512 + 1000 * 4;
    const Strategy& tiled = findStrategy("bow-tiled");
    EXPECT_TRUE(tiled.supported(&device, {100, 1000}, Matrix{}).ok);
    const Support refused = tiled.supported(&device, {100, 1001}, Matrix{});
    EXPECT_FALSE(refused.ok);
    EXPECT_TRUE(test::mentions(refused.reason, "1001 centroids need 21 KiB of local memory"))
        << refused.reason;
    device.maxWorkGroupSize = 128;
    EXPECT_TRUE(test::mentions(tiled.supported(&device, {100, 8}, Matrix{}).reason, "work-groups of 256"));
}

// Whole blocks of 128 centroids need no check against k in the kernel.
TEST(BowStrategies, TiledStrategyDropsTheCentroidChecksForWholeBlocks) {
    const DeviceInfo& device = runtime().open("0:0").info();
    const Strategy& tiled = findStrategy("bow-tiled");
    for (const std::size_t k : {128u, 256u, 1024u})
        EXPECT_TRUE(test::mentions(tiled.kernelBuild(device, Matrix{}, {100, k})->options, "-D FULL_BLOCKS"))
            << k;
    for (const std::size_t k : {1u, 8u, 257u, 300u})
        EXPECT_FALSE(test::mentions(tiled.kernelBuild(device, Matrix{}, {100, k})->options, "FULL_BLOCKS"))
            << k;
}

TEST(BowStrategies, ConstantMemoryStrategyRefusesCentroidsThatDoNotFit) {
    DeviceInfo device = runtime().open("0:0").info();
    device.constantMemBytes = 64 * 1024;  // 256 centroids of 256 bytes fit exactly
    const Strategy& gpu5 = findStrategy("bow-gpu5-constant");
    const Matrix fitting = test_data::uniformRows(256, 1), tooMany = test_data::uniformRows(257, 1);
    EXPECT_TRUE(gpu5.supported(&device, {1000, 256}, fitting).ok);
    const Support refused = gpu5.supported(&device, {1000, 257}, tooMany);
    EXPECT_FALSE(refused.ok);
    EXPECT_TRUE(test::mentions(refused.reason, "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE")) << refused.reason;
    EXPECT_TRUE(test::mentions(refused.reason, "257 centroids")) << refused.reason;
}

// The strategy list (the contract's supportList, what `histoscope-cli strategies` prints) of a device whose
// constant buffer holds 4 KiB: 16 centroids fit, 17 do not, and only bow-gpu5-constant says so.
TEST(BowStrategies, TheListOfADeviceWithATinyConstantBufferRefusesOnlyGpu5WithTheReason) {
    DeviceInfo device = runtime().open("0:0").info();
    device.name = "Tiny-constant GPU";
    device.constantMemBytes = 4096;
    const Matrix seventeen = test_data::uniformRows(17, 1), sixteen = test_data::uniformRows(16, 1);
    const auto rows = supportList<Operation>(&device, {100, 17}, seventeen);
    ASSERT_EQ(rows.size(), strategies().size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
        SCOPED_TRACE(std::string(strategies()[i]->name()));
        EXPECT_EQ(rows[i].strategy, strategies()[i]);
        if (rows[i].strategy->name() == "bow-tensor") {
            EXPECT_EQ(rows[i].support.ok, device.nvidiaComputeCapability >= 80) << rows[i].support.reason;
        } else if (rows[i].strategy->name() == "bow-gpu5-constant") {
            EXPECT_FALSE(rows[i].support.ok);
            EXPECT_TRUE(test::mentions(rows[i].support.reason, "17 centroids take 5 KiB"))
                << rows[i].support.reason;
            EXPECT_TRUE(test::mentions(rows[i].support.reason, "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE 4 KiB"))
                << rows[i].support.reason;
        } else {
            EXPECT_TRUE(rows[i].support.ok) << rows[i].support.reason;
        }
    }
    for (const auto& row : supportList<Operation>(&device, {100, 16}, sixteen))
        EXPECT_TRUE(row.support.ok || row.strategy->name() == "bow-tensor")
            << row.strategy->name() << ": " << row.support.reason;
    // Without a device only the host strategies can run.
    for (const auto& row : supportList<Operation>(nullptr, {100, 17}, seventeen))
        EXPECT_EQ(row.support.ok, !row.strategy->runsOnDevice()) << row.strategy->name();
    // Running it there is refused with the device and the reason (exit code 4 on the command line).
    const std::string refusal = test::messageOf<OpenClError>([&] {
        chooseRunnable<Operation>(&device, {100, 17}, seventeen, findStrategy("bow-gpu5-constant"));
    });
    EXPECT_TRUE(test::mentions(refusal, "Tiny-constant GPU")) << refusal;
    EXPECT_TRUE(test::mentions(refusal, "CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE")) << refusal;
}

// A run carries the strategy that ran and the build it used: the one kernelBuild() announces.
TEST(BowStrategies, ARunRecordsItsStrategyAndTheBuildsItUsed) {
    const Matrix centroids = test_data::uniformRows(5, 1);
    const Matrix descriptors = test_data::uniformRows(70, 2);
    for (const auto* strategy : strategies()) {
        SCOPED_TRACE(std::string(strategy->name()));
        if (refusalOnTheTestDevice(*strategy)) continue;
        DeviceContext* device = deviceFor(*strategy);
        const Result result = assignWords(device, descriptors, centroids, *strategy);
        EXPECT_EQ(result.strategy, strategy);
        EXPECT_TRUE(result.note.empty());
        if (device == nullptr) {
            EXPECT_TRUE(result.builds.empty());
            continue;
        }
        const auto build = strategy->kernelBuild(device->info(), centroids, shapeOf(descriptors, centroids));
        ASSERT_TRUE(build.has_value());
        EXPECT_EQ(build->source, "bow");
        EXPECT_EQ(result.builds, std::vector<KernelBuild>{*build});
    }
}

// The check the device results are held to: a membership counts as wrong when its squared distance exceeds
// the nearest one by more than a relative kNearTie (1e-4). A descriptor at the origin and centroids along the
// last dimension at 1 (squared distance 1, the nearest), 1.00015 (1.0003: beyond the allowance) and 1.00002
// (1.00004: a near tie, within it).
TEST(BowStrategies, MisassignedCountsOnlyMembershipsBeyondTheNearTieAllowance) {
    Matrix centroids(std::vector<float>(3 * kDimensions, 0.0f));
    centroids.row(0)[kDimensions - 1] = 1.0f;
    centroids.row(1)[kDimensions - 1] = 1.00015f;
    centroids.row(2)[kDimensions - 1] = 1.00002f;
    const Matrix descriptors(std::vector<float>(kDimensions, 0.0f));
    EXPECT_EQ(misassigned(descriptors, centroids, {0}), 0u);
    EXPECT_EQ(misassigned(descriptors, centroids, {2}), 0u);
    EXPECT_EQ(misassigned(descriptors, centroids, {1}), 1u);
    EXPECT_EQ(misassigned(descriptors, centroids, {3}), 1u) << "no such centroid";
    EXPECT_EQ(misassigned(descriptors, centroids, {}), 1u) << "no membership";
}

TEST(BowStrategies, RefusesAnEmptyVocabulary) {
    EXPECT_TRUE(test::mentions(test::messageOf<UsageError>([] {
                                   assignWords(nullptr, test_data::uniformRows(3, 1), Matrix{},
                                               findStrategy("bow-serial"));
                               }),
                               "no centroids"));
}

}  // namespace
}  // namespace hs::bow

namespace hs::bow {
namespace {

// bow-tensor runs on NVIDIA tensor cores of compute capability 8.0 or later only, and keeps 4 scores, indices
// and row maxima per descriptor of its group (512) in local memory beside k counters, norms and scales.
TEST(BowStrategies, TensorStrategyNeedsTensorCoresAndLocalMemoryForItsCentroids) {
    const Strategy& tensor = findStrategy("bow-tensor");
    DeviceInfo device = runtime().open("0:0").info();
    device.name = "Test GPU";
    device.nvidiaComputeCapability = 0;
    EXPECT_TRUE(
        test::mentions(tensor.supported(&device, {100, 16}, Matrix{}).reason, "Test GPU is not an NVIDIA"));
    device.nvidiaComputeCapability = 75;
    EXPECT_TRUE(test::mentions(tensor.supported(&device, {100, 16}, Matrix{}).reason, "Test GPU has 7.5"));
    device.nvidiaComputeCapability = 90;
    device.localMemBytes = 3 * 4 * 512 * 4 + 1000 * 12;
    EXPECT_TRUE(tensor.supported(&device, {100, 1000}, Matrix{}).ok);
    const Support refused = tensor.supported(&device, {100, 1001}, Matrix{});
    EXPECT_TRUE(test::mentions(refused.reason, "1001 centroids need 36 KiB of local memory"))
        << refused.reason;
    device.maxWorkGroupSize = 128;
    EXPECT_TRUE(test::mentions(tensor.supported(&device, {100, 8}, Matrix{}).reason, "work-groups of 256"));
    // The emulation runs anywhere, with room for its exchange (8 warps x 384 floats) too.
    device.maxWorkGroupSize = 256;
    device.nvidiaComputeCapability = 0;
    device.localMemBytes += 8 * 384 * 4;
    EXPECT_TRUE(emulatedTensor.supported(&device, {100, 1000}, Matrix{}).ok);
    EXPECT_FALSE(emulatedTensor.supported(&device, {100, 1001}, Matrix{}).ok);
}

// Whole blocks of 16 centroids need no check against k; only the emulation is built with EMULATE_MMA, and
// unoptimised (PoCL takes minutes to optimise its barriers).
TEST(BowStrategies, TensorStrategyBuildOptions) {
    const DeviceInfo& device = runtime().open("0:0").info();
    const Strategy& tensor = findStrategy("bow-tensor");
    for (const std::size_t k : {16u, 256u})
        EXPECT_TRUE(test::mentions(tensor.kernelBuild(device, Matrix{}, {100, k})->options, "-D FULL_BLOCKS"))
            << k;
    for (const std::size_t k : {1u, 8u, 300u})
        EXPECT_FALSE(test::mentions(tensor.kernelBuild(device, Matrix{}, {100, k})->options, "FULL_BLOCKS"))
            << k;
    const std::string real = tensor.kernelBuild(device, Matrix{}, {100, 16})->options;
    EXPECT_FALSE(test::mentions(real, "EMULATE_MMA")) << real;
    EXPECT_FALSE(test::mentions(real, "-cl-opt-disable")) << real;
    const std::string emulated = emulatedTensor.kernelBuild(device, Matrix{}, {100, 16})->options;
    EXPECT_TRUE(test::mentions(emulated, "EMULATE_MMA")) << emulated;
    EXPECT_TRUE(test::mentions(emulated, "-cl-opt-disable")) << emulated;
}

}  // namespace
}  // namespace hs::bow
