// The sweep's rows: one per size and strategy, transpose apart for GPU2..GPU5, speed-up over GPU1, results
// checked. Timed by a measurer that counts its calls (the figures themselves are the bench's business).
#include <gtest/gtest.h>

#include <algorithm>

#include "expect_error.hpp"
#include "ops/bow/sweep.hpp"
#include "runtime/runtime.hpp"

namespace hs::bow {
namespace {

Measurer countingMeasurer(int& runs) {
    const auto stats = [](std::vector<double> samples) {
        std::sort(samples.begin(), samples.end());
        return KernelStats{samples.front(), samples[samples.size() / 2], samples.back()};
    };
    return {[&runs, stats](int repetitions, const std::function<std::vector<Timing>()>& run) {
                std::vector<double> samples;
                for (int i = 0; i <= repetitions; ++i, ++runs)
                    samples.push_back(static_cast<double>(totalNs(run(), Stage::Kernel)) + 1);
                return stats(samples);
            },
            [&runs](int repetitions, const std::function<void()>& run) {
                for (int i = 0; i <= repetitions; ++i, ++runs) run();
                return KernelStats{1, 1, 1};
            },
            stats};
}

TEST(BowSweep, OneCheckedRowPerSizeAndStrategy) {
    static Runtime runtime;
    int runs = 0;
    SweepParams params;
    params.descriptorCounts = {100, 257};
    params.centroidCounts = {3, 17};
    params.repetitions = 2;
    const auto rows = sweep(&runtime.open("0:0"), params, countingMeasurer(runs));
    ASSERT_EQ(rows.size(), 2u * 2u * strategies().size());
    EXPECT_EQ(runs, static_cast<int>(rows.size()) * 3);  // warm-up and 2 repetitions each
    for (const auto& row : rows) {
        SCOPED_TRACE(row.strategy + " " + std::to_string(row.descriptors) + "x" +
                     std::to_string(row.centroids));
        ASSERT_TRUE(row.kernel.has_value()) << row.detail;
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
    int runs = 0;
    SweepParams params;
    params.strategies = {"bow-gpu9"};
    EXPECT_TRUE(test::mentions(
        test::messageOf<UsageError>([&] { sweep(nullptr, params, countingMeasurer(runs)); }), "bow-gpu9"));
    params.strategies = {};
    params.centroidCounts = {};
    EXPECT_TRUE(
        test::mentions(test::messageOf<UsageError>([&] { sweep(nullptr, params, countingMeasurer(runs)); }),
                       "at least one"));
}

TEST(BowSweep, DeviceStrategiesWithoutADeviceAreSkippedWithTheReason) {
    int runs = 0;
    SweepParams params;
    params.descriptorCounts = {10};
    params.centroidCounts = {2};
    params.strategies = {"bow-serial", "bow-tiled"};
    params.repetitions = 1;
    const auto rows = sweep(nullptr, params, countingMeasurer(runs));
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_TRUE(rows[0].kernel.has_value());
    EXPECT_FALSE(rows[1].kernel.has_value());
    EXPECT_EQ(rows[1].detail, "no OpenCL device");
}

}  // namespace
}  // namespace hs::bow
