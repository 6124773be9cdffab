// k-means' progress callback: told of every assignment step with the memberships it changed, and able to
// stop k-means (the GUI's Cancel).
#include <gtest/gtest.h>

#include "bow_test_data.hpp"
#include "engine/ops/bow/kmeans.hpp"

namespace hs::bow {
namespace {

// Memberships that differ between two steps, counted here from the steps themselves.
std::size_t differences(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < a.size(); ++i) count += a[i] != b[i] ? 1 : 0;
    return count;
}

TEST(BowKMeansProgress, ReportsEveryStepAndWhatItChanged) {
    const Matrix descriptors = test_data::uniformRows(400, 11);
    const auto& serial = findStrategy("bow-serial");
    std::vector<std::pair<std::size_t, std::size_t>> reported;
    const auto result =
        kmeans(nullptr, descriptors, {6, 3, 50}, serial, [&](std::size_t step, std::size_t changed) {
            reported.emplace_back(step, changed);
            return true;
        });
    EXPECT_FALSE(result.cancelled);
    ASSERT_EQ(reported.size(), static_cast<std::size_t>(result.iterations));
    ASSERT_GE(reported.size(), 2u);
    // Step i's changes, re-derived: k-means capped at i and at i - 1 steps gives the memberships of both.
    std::vector<std::uint32_t> before;
    for (std::size_t i = 0; i < reported.size(); ++i) {
        EXPECT_EQ(reported[i].first, i + 1);
        const auto step = kmeans(nullptr, descriptors, {6, 3, static_cast<int>(i + 1)}, serial).memberships;
        EXPECT_EQ(reported[i].second, i == 0 ? descriptors.rows() : differences(before, step))
            << "step " << i + 1;
        before = step;
    }
    EXPECT_TRUE(result.converged);
    EXPECT_EQ(reported.back().second, 0u);
}

TEST(BowKMeansProgress, FalseStopsAtThatStep) {
    const Matrix descriptors = test_data::uniformRows(400, 11);
    const auto& serial = findStrategy("bow-serial");
    std::size_t calls = 0;
    const auto stopped = kmeans(nullptr, descriptors, {6, 3, 50}, serial,
                                [&](std::size_t, std::size_t) { return ++calls < 2; });
    EXPECT_TRUE(stopped.cancelled);
    EXPECT_EQ(calls, 2u);
    EXPECT_EQ(stopped.iterations, 2);
    EXPECT_FALSE(stopped.converged);
    // What it returns is the state of that step: the same as k-means capped at two steps.
    const auto capped = kmeans(nullptr, descriptors, {6, 3, 2}, serial);
    EXPECT_EQ(stopped.memberships, capped.memberships);
    EXPECT_EQ(stopped.centroids.values, capped.centroids.values);
}

}  // namespace
}  // namespace hs::bow
