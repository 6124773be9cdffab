#include "engine/ops/bow/kmeans.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>

#include "engine/runtime/error.hpp"

namespace hs::bow {

namespace {

Matrix seedPlusPlus(const Matrix& descriptors, const KMeansParams& params) {
    const std::size_t n = descriptors.rows();
    std::mt19937_64 random(params.seed);
    std::vector<std::size_t> chosen{static_cast<std::size_t>(random() % n)};
    std::vector<double> nearest(n);
    for (std::size_t i = 0; i < n; ++i)
        nearest[i] = squaredDistance(descriptors.row(i), descriptors.row(chosen[0]));
    while (chosen.size() < params.k) {
        double total = 0;
        for (const double d : nearest) total += d;
        std::size_t next = 0;
        if (total > 0) {
            const double u = static_cast<double>(random() >> 11) * 0x1.0p-53 * total;
            double cumulative = 0;
            next = n;
            for (std::size_t i = 0; i < n && next == n; ++i) {
                cumulative += nearest[i];
                if (nearest[i] > 0 && cumulative > u) next = i;
            }
            // Rounding can leave u at the very top: the last descriptor with weight.
            if (next == n) {
                while (nearest[--next] == 0) {
                }
            }
        } else {
            while (std::find(chosen.begin(), chosen.end(), next) != chosen.end()) ++next;
        }
        chosen.push_back(next);
        for (std::size_t i = 0; i < n; ++i)
            nearest[i] = std::min(nearest[i], squaredDistance(descriptors.row(i), descriptors.row(next)));
    }
    Matrix centroids(std::vector<float>(params.k * kDimensions));
    for (std::size_t c = 0; c < params.k; ++c)
        std::copy_n(descriptors.row(chosen[c]), kDimensions, centroids.row(c));
    return centroids;
}

void moveToMeans(const Matrix& descriptors, const std::vector<std::uint32_t>& memberships,
                 Matrix& centroids) {
    std::vector<double> sums(centroids.values.size(), 0.0);
    std::vector<std::size_t> counts(centroids.rows(), 0);
    for (std::size_t i = 0; i < descriptors.rows(); ++i) {
        const std::size_t c = memberships[i];
        ++counts[c];
        for (std::size_t d = 0; d < kDimensions; ++d) sums[c * kDimensions + d] += descriptors.row(i)[d];
    }
    for (std::size_t c = 0; c < centroids.rows(); ++c) {
        if (counts[c] == 0) continue;
        for (std::size_t d = 0; d < kDimensions; ++d)
            centroids.row(c)[d] =
                static_cast<float>(sums[c * kDimensions + d] / static_cast<double>(counts[c]));
    }
}

}  // namespace

void validate(const KMeansParams& params, std::size_t descriptorCount) {
    if (params.k < 1 || params.k > descriptorCount)
        throw UsageError("k " + std::to_string(params.k) + " is not within 1.." +
                         std::to_string(descriptorCount) + " (the number of descriptors)");
    if (params.maxIterations < 1)
        throw UsageError("at most " + std::to_string(params.maxIterations) +
                         " iterations: at least 1 needed");
}

KMeansResult kmeans(DeviceContext* device, const Matrix& descriptors, const KMeansParams& params,
                    const Strategy& assignment, const KMeansProgress& progress) {
    validate(params, descriptors.rows());
    KMeansResult result;
    result.centroids = seedPlusPlus(descriptors, params);
    for (;;) {
        auto memberships = assignWords(device, descriptors, result.centroids, assignment).memberships;
        ++result.iterations;
        const std::size_t changed =
            result.memberships.empty()
                ? memberships.size()
                : static_cast<std::size_t>(std::inner_product(memberships.begin(), memberships.end(),
                                                              result.memberships.begin(), std::size_t{0},
                                                              std::plus<>(), std::not_equal_to<>()));
        result.converged = result.iterations > 1 && changed == 0;
        result.memberships = std::move(memberships);
        if (progress && !progress(result.iterations, changed)) result.cancelled = true;
        if (result.converged || result.cancelled || result.iterations == params.maxIterations) return result;
        moveToMeans(descriptors, result.memberships, result.centroids);
    }
}

}  // namespace hs::bow
