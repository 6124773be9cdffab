#include "ops/bow/bow.hpp"

#include <algorithm>
#include <limits>

#include "runtime/error.hpp"
#include "runtime/runtime.hpp"

namespace hs::bow {

std::uint32_t nearestCentroid(const float* descriptor, const Matrix& centroids) {
    float best = std::numeric_limits<float>::infinity();
    std::uint32_t bestIndex = 0;
    for (std::size_t c = 0; c < centroids.rows(); ++c) {
        const float* centroid = centroids.row(c);
        float distance = 0;
        for (std::size_t d = 0; d < kDimensions; ++d) {
            const float diff = descriptor[d] - centroid[d];
            distance += diff * diff;
        }
        if (distance < best) {
            best = distance;
            bestIndex = static_cast<std::uint32_t>(c);
        }
    }
    return bestIndex;
}

double squaredDistance(const float* a, const float* b) {
    double sum = 0;
    for (std::size_t d = 0; d < kDimensions; ++d) {
        const double diff = static_cast<double>(a[d]) - b[d];
        sum += diff * diff;
    }
    return sum;
}

std::vector<double> nearestDistances(const Matrix& descriptors, const Matrix& centroids) {
    std::vector<double> nearest(descriptors.rows(), std::numeric_limits<double>::infinity());
    for (std::size_t i = 0; i < descriptors.rows(); ++i) {
        for (std::size_t c = 0; c < centroids.rows(); ++c)
            nearest[i] = std::min(nearest[i], squaredDistance(descriptors.row(i), centroids.row(c)));
    }
    return nearest;
}

std::size_t misassigned(const Matrix& descriptors, const Matrix& centroids,
                        const std::vector<std::uint32_t>& memberships, const std::vector<double>& nearest) {
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < descriptors.rows(); ++i) {
        if (i >= memberships.size() || memberships[i] >= centroids.rows() ||
            squaredDistance(descriptors.row(i), centroids.row(memberships[i])) > nearest[i] * (1 + kNearTie))
            ++wrong;
    }
    return wrong;
}

std::size_t misassigned(const Matrix& descriptors, const Matrix& centroids,
                        const std::vector<std::uint32_t>& memberships) {
    return misassigned(descriptors, centroids, memberships, nearestDistances(descriptors, centroids));
}

Result assignWords(DeviceContext* device, const Matrix& descriptors, const Matrix& centroids,
                   const Strategy& strategy) {
    if (centroids.rows() == 0) throw UsageError("the vocabulary has no centroids");
    if (descriptors.values.size() % kDimensions != 0 || centroids.values.size() % kDimensions != 0)
        throw UsageError("descriptors and centroids must have 64 columns");
    if (descriptors.rows() > std::numeric_limits<std::uint32_t>::max() ||
        centroids.rows() > std::numeric_limits<std::uint32_t>::max())
        throw UsageError("more than 2^32-1 descriptors or centroids overflow the 32-bit memberships");
    return runChosen<Operation>(device, descriptors, shapeOf(descriptors, centroids), centroids, strategy);
}

}  // namespace hs::bow
