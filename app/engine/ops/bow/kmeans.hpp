#pragma once
// The vocabulary: k-means over descriptors. Seeding is k-means++ with a fixed seed (so a vocabulary is
// reproducible), then Lloyd iterations whose assignment step is a builder strategy, until the assignments
// stop changing or a cap.

#include <cstdint>
#include <functional>

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
    bool cancelled = false;                  // the progress callback returned false
};

// Called after each assignment step with its number (from 1) and how many memberships it changed (every
// descriptor's, the first time); returning false stops k-means there (a front end's Cancel).
using KMeansProgress = std::function<bool(std::size_t iteration, std::size_t changed)>;

// Throws UsageError unless 1 <= k <= descriptors and maxIterations >= 1.
void validate(const KMeansParams& params, std::size_t descriptorCount);

// k-means++: the first centroid is descriptor (random() mod n), each next one a descriptor drawn with
// probability proportional to its squared distance to the nearest centroid so far (std::mt19937_64 from
// `seed`, uniform doubles from its top 53 bits); when every descriptor coincides with a centroid, the lowest
// index not yet drawn. Lloyd: assign with `assignment`, stop when nothing changed or after maxIterations
// assignments, else move each centroid to the mean of its descriptors (a centroid without descriptors stays).
// `progress` (optional) is told of every assignment step; when it returns false, the result holds the
// centroids and memberships of that step and `cancelled`.
KMeansResult kmeans(DeviceContext* device, const Matrix& descriptors, const KMeansParams& params,
                    const Strategy& assignment, const KMeansProgress& progress = {});

}  // namespace hs::bow
