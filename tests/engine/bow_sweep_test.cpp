// The sweep's rows: one per size and strategy, transpose apart for GPU2..GPU5, speed-up over GPU1, results
// checked. The figures themselves are measure's (tests/engine/measure_test.cpp) and the bench's business.
#include <gtest/gtest.h>

#include <algorithm>

#include "engine/ops/bow/sweep.hpp"
#include "engine/runtime/runtime.hpp"
#include "expect_error.hpp"

namespace hs::bow {
namespace {

TEST(BowSweep, OneCheckedRowPerSizeAndStrategy) {
    static Runtime runtime;
    SweepParams params;
    params.descriptorCounts = {100, 257};
    params.centroidCounts = {3, 17};
    params.repetitions = 2;
    const auto rows = sweep(&runtime.open("0:0"), params);
    ASSERT_EQ(rows.size(), 2u * 2u * strategies().size());
    for (const auto& row : rows) {
        SCOPED_TRACE(row.strategy + " " + std::to_string(row.descriptors) + "x" +
                     std::to_string(row.centroids));
        // bow-tensor needs NVIDIA tensor cores: on other devices its rows say why and hold no figures.
        if (row.strategy == "bow-tensor" && runtime.open("0:0").info().nvidiaComputeCapability < 80) {
            EXPECT_FALSE(row.kernel.has_value());
            EXPECT_TRUE(test::mentions(row.detail, "tensor cores")) << row.detail;
            continue;
        }
        ASSERT_TRUE(row.kernel.has_value()) << row.detail;
        EXPECT_LE(row.kernel->min, row.kernel->median);
        EXPECT_LE(row.kernel->median, row.kernel->max);
        EXPECT_EQ(row.misassigned, 0u);
        const bool transposes = row.strategy.find("gpu2") != std::string::npos ||
                                row.strategy.find("gpu3") != std::string::npos ||
                                row.strategy.find("gpu4") != std::string::npos ||
                                row.strategy.find("gpu5") != std::string::npos;
        EXPECT_EQ(row.transpose.has_value(), transposes);
        ASSERT_TRUE(row.speedupOverGpu1.has_value());
        if (row.strategy == "bow-gpu1-baseline") {
            EXPECT_DOUBLE_EQ(*row.speedupOverGpu1, 1.0);
        }
    }
}

TEST(BowSweep, RefusesUnknownStrategiesAndEmptyLists) {
    SweepParams params;
    params.strategies = {"bow-gpu9"};
    EXPECT_TRUE(test::mentions(test::messageOf<UsageError>([&] { sweep(nullptr, params); }), "bow-gpu9"));
    params.strategies = {};
    params.centroidCounts = {};
    EXPECT_TRUE(test::mentions(test::messageOf<UsageError>([&] { sweep(nullptr, params); }), "at least one"));
}

TEST(BowSweep, DeviceStrategiesWithoutADeviceAreSkippedWithTheReason) {
    SweepParams params;
    params.descriptorCounts = {10};
    params.centroidCounts = {2};
    params.strategies = {"bow-serial", "bow-tiled"};
    params.repetitions = 1;
    const auto rows = sweep(nullptr, params);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_TRUE(rows[0].kernel.has_value());
    EXPECT_FALSE(rows[1].kernel.has_value());
    EXPECT_EQ(rows[1].detail, "needs an OpenCL device");  // the contract's supportOn
}

TEST(BowSweep, ProgressSeesEveryRowAndStopsTheSweepWhereItSaysSo) {
    SweepParams params;
    params.descriptorCounts = {10, 20};
    params.centroidCounts = {2, 3};
    params.strategies = {"bow-serial", "bow-cpu-parallel"};
    params.repetitions = 1;
    std::vector<std::pair<std::size_t, std::size_t>> asked;
    const auto all = sweep(nullptr, params, [&asked](std::size_t done, std::size_t total) {
        asked.emplace_back(done, total);
        return true;
    });
    ASSERT_EQ(all.size(), 8u);
    ASSERT_EQ(asked.size(), 8u);
    for (std::size_t i = 0; i < asked.size(); ++i) EXPECT_EQ(asked[i], std::pair(i, std::size_t{8}));

    // Stopped before its sixth row (the second strategy of the third size): the five rows before it, as the
    // whole sweep ordered them.
    const auto stopped = sweep(nullptr, params, [](std::size_t done, std::size_t) { return done < 5; });
    ASSERT_EQ(stopped.size(), 5u);
    for (std::size_t i = 0; i < stopped.size(); ++i) {
        EXPECT_EQ(stopped[i].descriptors, all[i].descriptors);
        EXPECT_EQ(stopped[i].centroids, all[i].centroids);
        EXPECT_EQ(stopped[i].strategy, all[i].strategy);
        EXPECT_TRUE(stopped[i].kernel.has_value()) << stopped[i].detail;
    }
    EXPECT_TRUE(sweep(nullptr, params, [](std::size_t, std::size_t) { return false; }).empty());
}

}  // namespace
}  // namespace hs::bow
