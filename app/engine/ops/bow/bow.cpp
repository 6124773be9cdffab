#include "engine/ops/bow/bow.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

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

namespace {

// Every builder computes squared distances (or |c|^2 - 2 x.c) of 64 dimensions in float. With every value's
// magnitude below 2^kLargestExponent they stay below 64 (2 2^56)^2 = 2^120, within float's range (2^128),
// and with the largest magnitude at least 2^-kLargestExponent the nearest distances are normal numbers, not
// flushed to zero on devices without denormals.
constexpr int kLargestExponent = 56;

// The power of two 2^e by which descriptors and centroids are divided so that their largest magnitude lies in
// [2^55, 2^56): 0 when it is within range already (every descriptor HistoScope computes, every vocabulary
// of them), or is 0 or not finite.
int rangeExponent(const Matrix& descriptors, const Matrix& centroids) {
    float largest = 0;
    for (const Matrix* matrix : {&descriptors, &centroids}) {
        for (const float value : matrix->values) largest = std::max(largest, std::fabs(value));
    }
    if (largest == 0 || !std::isfinite(largest)) return 0;
    const int exponent = std::ilogb(largest);  // largest in [2^exponent, 2^(exponent + 1))
    if (exponent < kLargestExponent && exponent >= -kLargestExponent) return 0;
    return exponent - (kLargestExponent - 1);
}

Matrix scaledDown(const Matrix& matrix, int exponent) {
    Matrix scaled = matrix;
    for (float& value : scaled.values) value = std::ldexp(value, -exponent);
    return scaled;
}

}  // namespace

Result assignWords(DeviceContext* device, const Matrix& descriptors, const Matrix& centroids,
                   const Strategy& strategy) {
    if (centroids.rows() == 0) throw UsageError("the vocabulary has no centroids");
    if (descriptors.values.size() % kDimensions != 0 || centroids.values.size() % kDimensions != 0)
        throw UsageError("descriptors and centroids must have 64 columns");
    if (descriptors.rows() > std::numeric_limits<std::uint32_t>::max() ||
        centroids.rows() > std::numeric_limits<std::uint32_t>::max())
        throw UsageError("more than 2^32-1 descriptors or centroids overflow the 32-bit memberships");
    // Scaling both by one power of two is exact (but for values far below the largest, whose part in any
    // distance is far below float's precision) and leaves every nearest centroid where it was, so all
    // builders compare distances that do not overflow.
    if (const int exponent = rangeExponent(descriptors, centroids); exponent != 0) {
        const Matrix scaledDescriptors = scaledDown(descriptors, exponent);
        const Matrix scaledCentroids = scaledDown(centroids, exponent);
        return runChosen<Operation>(device, scaledDescriptors, shapeOf(descriptors, centroids),
                                    scaledCentroids, strategy);
    }
    return runChosen<Operation>(device, descriptors, shapeOf(descriptors, centroids), centroids, strategy);
}

}  // namespace hs::bow
