// k-means: reproducible from its seed, and clusters made by hand are found with their means as centroids.
#include <gtest/gtest.h>

#include <set>
#include <utility>
#include <vector>

#include "bow_test_data.hpp"
#include "engine/ops/bow/kmeans.hpp"
#include "engine/runtime/runtime.hpp"
#include "expect_error.hpp"

namespace hs::bow {
namespace {

Runtime& runtime() {
    static Runtime instance;
    return instance;
}

TEST(BowKMeans, SameSeedSameVocabularyOnHostAndDevice) {
    const Matrix descriptors = test_data::uniformRows(500, 3);
    const KMeansParams params{8, 42, 20};
    const auto first = kmeans(nullptr, descriptors, params, findStrategy("bow-serial"));
    const auto again = kmeans(nullptr, descriptors, params, findStrategy("bow-cpu-parallel"));
    EXPECT_EQ(first.centroids.values, again.centroids.values);
    EXPECT_EQ(first.memberships, again.memberships);
    EXPECT_EQ(first.iterations, again.iterations);
    const auto other = kmeans(nullptr, descriptors, {8, 43, 20}, findStrategy("bow-serial"));
    EXPECT_NE(first.centroids.values, other.centroids.values);
}

TEST(BowKMeans, FindsHandMadeClustersAndTheirMeans) {
    // Three tight clusters of 40, 25 and 35 descriptors around far-apart points, interleaved.
    const Matrix centres = test_data::uniformRows(3, 9);
    const std::size_t sizes[] = {40, 25, 35};
    Matrix descriptors;
    std::vector<std::size_t> truth;
    std::mt19937_64 random(5);
    std::uniform_real_distribution<float> noise(-0.02f, 0.02f);
    for (std::size_t i = 0; truth.size() < 100; ++i) {
        const std::size_t cluster = i % 3;
        if (std::count(truth.begin(), truth.end(), cluster) == static_cast<long>(sizes[cluster])) continue;
        truth.push_back(cluster);
        for (std::size_t d = 0; d < kDimensions; ++d)
            descriptors.values.push_back(centres.row(cluster)[d] + noise(random));
    }
    const auto result = kmeans(&runtime().open("0:0"), descriptors, {3, 1, 50}, findStrategy("bow-tiled"));
    EXPECT_TRUE(result.converged);
    EXPECT_LE(result.iterations, 3);  // seeded in distinct clusters, one move to the means, one check
    // The same partition as the truth, whatever the labels.
    std::set<std::pair<std::size_t, std::uint32_t>> pairs;
    for (std::size_t i = 0; i < truth.size(); ++i) pairs.emplace(truth[i], result.memberships[i]);
    ASSERT_EQ(pairs.size(), 3u);
    // Each centroid is the mean of its cluster, computed here in double.
    for (const auto& [cluster, label] : pairs) {
        for (std::size_t d = 0; d < kDimensions; ++d) {
            double sum = 0;
            for (std::size_t i = 0; i < truth.size(); ++i) {
                if (truth[i] == cluster) sum += descriptors.row(i)[d];
            }
            ASSERT_NEAR(result.centroids.row(label)[d], sum / static_cast<double>(sizes[cluster]), 1e-6);
        }
    }
}

TEST(BowKMeans, StopsAtTheCapWithCentroidsMatchingTheMemberships) {
    const Matrix descriptors = test_data::uniformRows(300, 4);
    const auto result = kmeans(nullptr, descriptors, {10, 1, 1}, findStrategy("bow-serial"));
    EXPECT_EQ(result.iterations, 1);
    EXPECT_FALSE(result.converged);
    // One assignment, no move: the centroids are k-means++'s seeds, descriptors themselves, each nearest to
    // itself.
    for (std::size_t c = 0; c < 10; ++c) {
        const float* centroid = result.centroids.row(c);
        bool isDescriptor = false;
        for (std::size_t i = 0; i < descriptors.rows() && !isDescriptor; ++i)
            isDescriptor = std::equal(centroid, centroid + kDimensions, descriptors.row(i));
        EXPECT_TRUE(isDescriptor) << "centroid " << c;
    }
    for (std::size_t i = 0; i < descriptors.rows(); ++i)
        ASSERT_EQ(result.memberships[i], nearestCentroid(descriptors.row(i), result.centroids));
}

// The progress callback is called once per assignment step, numbered from 1, with the memberships that step
// changed: all of them first, then as many as differ between the runs capped one step apart (an independent
// count: k-means is deterministic), and 0 for the step that found convergence.
TEST(BowKMeans, ProgressIsCalledPerIterationWithTheChangedMemberships) {
    const Matrix descriptors = test_data::uniformRows(400, 8);
    const KMeansParams params{6, 3, 50};
    std::vector<std::pair<int, std::size_t>> calls;
    const auto result = kmeans(nullptr, descriptors, params, findStrategy("bow-serial"),
                               [&](int iteration, std::size_t changed) {
                                   calls.emplace_back(iteration, changed);
                                   return true;
                               });
    ASSERT_TRUE(result.converged);
    ASSERT_GE(result.iterations, 3);  // a case where the memberships move at least once
    EXPECT_FALSE(result.cancelled);
    ASSERT_EQ(calls.size(), static_cast<std::size_t>(result.iterations));
    EXPECT_EQ(calls.front(), std::make_pair(1, descriptors.rows()));
    EXPECT_EQ(calls.back().second, 0u);
    for (int i = 2; i <= result.iterations; ++i) {
        const auto before =
            kmeans(nullptr, descriptors, {params.k, params.seed, i - 1}, findStrategy("bow-serial"));
        const auto after =
            kmeans(nullptr, descriptors, {params.k, params.seed, i}, findStrategy("bow-serial"));
        std::size_t differing = 0;
        for (std::size_t d = 0; d < descriptors.rows(); ++d)
            differing += before.memberships[d] != after.memberships[d] ? 1 : 0;
        EXPECT_EQ(calls[static_cast<std::size_t>(i - 1)], std::make_pair(i, differing));
    }
}

// Returning false stops k-means after that iteration: the result is the one the cap at that iteration gives,
// marked cancelled, and the callback is not called again.
TEST(BowKMeans, CancelStopsAfterTheIteration) {
    const Matrix descriptors = test_data::uniformRows(400, 8);
    const KMeansParams params{6, 3, 50};
    int calls = 0;
    const auto cancelled =
        kmeans(nullptr, descriptors, params, findStrategy("bow-serial"), [&](int iteration, std::size_t) {
            ++calls;
            return iteration < 2;
        });
    EXPECT_TRUE(cancelled.cancelled);
    EXPECT_FALSE(cancelled.converged);
    EXPECT_EQ(cancelled.iterations, 2);
    EXPECT_EQ(calls, 2);
    const auto capped = kmeans(nullptr, descriptors, {params.k, params.seed, 2}, findStrategy("bow-serial"));
    EXPECT_FALSE(capped.cancelled);
    EXPECT_EQ(cancelled.memberships, capped.memberships);
    EXPECT_EQ(cancelled.centroids.values, capped.centroids.values);
}

TEST(BowKMeans, DuplicatesSeedDistinctIndices) {
    // Every descriptor equal: the seeds are the first, then the lowest indices not drawn.
    const Matrix descriptors(std::vector<float>(5 * kDimensions, 0.25f));
    const auto result = kmeans(nullptr, descriptors, {3, 7, 10}, findStrategy("bow-serial"));
    EXPECT_EQ(result.centroids.rows(), 3u);
    EXPECT_TRUE(result.converged);
    EXPECT_EQ(result.memberships, std::vector<std::uint32_t>(5, 0));  // ties to the lowest index
    // Centroids 1 and 2 have no member: they stay where they were seeded, the descriptors' value.
    EXPECT_EQ(result.centroids.values, std::vector<float>(3 * kDimensions, 0.25f));
}

// k-means++ draws each further seed with probability proportional to its squared distance D^2 to the nearest
// seed so far. Three descriptors on a line at 0, 1 and 3 (along dimension 0): when the first seed is the one
// at 0, the second is the one at 1 with probability 1 / (1 + 9) and the one at 3 with 9 / 10. Over 3000
// seeds the first falls on 0 about 1000 times; the share of 1 then lies within 0.1 +- 0.04 (over 4 standard
// deviations), where a draw of u from the lower half of the total weight only would give 0.2.
TEST(BowKMeans, PlusPlusSeedsWithProbabilityProportionalToTheSquaredDistance) {
    Matrix descriptors(std::vector<float>(3 * kDimensions, 0.0f));
    descriptors.row(1)[0] = 1.0f;
    descriptors.row(2)[0] = 3.0f;
    int firstAtZero = 0, secondAtOne = 0;
    for (std::uint64_t seed = 0; seed < 3000; ++seed) {
        // One iteration: the centroids are the seeds, in the order drawn.
        const auto result = kmeans(nullptr, descriptors, {2, seed, 1}, findStrategy("bow-serial"));
        if (result.centroids.row(0)[0] != 0.0f) continue;
        ++firstAtZero;
        if (result.centroids.row(1)[0] == 1.0f) ++secondAtOne;
    }
    ASSERT_GT(firstAtZero, 800);
    EXPECT_NEAR(static_cast<double>(secondAtOne) / firstAtZero, 0.1, 0.04)
        << secondAtOne << " of " << firstAtZero;
}

TEST(BowKMeans, RefusesMoreWordsThanDescriptors) {
    const Matrix descriptors = test_data::uniformRows(4, 1);
    EXPECT_TRUE(test::mentions(test::messageOf<UsageError>([&] {
                                   kmeans(nullptr, descriptors, {5, 1, 10}, findStrategy("bow-serial"));
                               }),
                               "k 5 is not within 1..4"));
}

}  // namespace
}  // namespace hs::bow
