#pragma once
// The vocabulary: k-means over descriptors. Seeding is k-means++ with a fixed seed (so a vocabulary is
// reproducible), then Lloyd iterations whose assignment step is a builder strategy, until the assignments
// stop changing or a cap.

#include <cstdint>

#include "ops/bow/bow.hpp"

namespace hs::bow {

struct KMeansParams {
    std::size_t k = 64;
    std::uint64_t seed = 1;
    int maxIterations = 100;
};

struct KMeansResult {
    Matrix centroids;                        // k rows
    std::vector<std::uint32_t> memberships;  // of the descriptors, by the returned centroids
    int iterations = 0;                      // assignment steps run
    bool converged = false;                  // the last assignment equalled the one before
};

// Throws UsageError unless 1 <= k <= descriptors and maxIterations >= 1.
void validate(const KMeansParams& params, std::size_t descriptorCount);

// k-means++: the first centroid is descriptor (random() mod n), each next one a descriptor drawn with
// probability proportional to its squared distance to the nearest centroid so far (std::mt19937_64 from
// `seed`, uniform doubles from its top 53 bits); when every descriptor coincides with a centroid, the lowest
// index not yet drawn. Lloyd: assign with `assignment`, stop when nothing changed or after maxIterations
// assignments, else move each centroid to the mean of its descriptors (a centroid without descriptors stays).
KMeansResult kmeans(DeviceContext* device, const Matrix& descriptors, const KMeansParams& params,
                    const Strategy& assignment);

}  // namespace hs::bow
