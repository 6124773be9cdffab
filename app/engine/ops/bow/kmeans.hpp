#pragma once
// The vocabulary: k-means over descriptors. Seeding is k-means++ with a fixed seed (so a vocabulary is
// reproducible), then Lloyd iterations whose assignment step is a builder strategy, until the assignments
// stop changing or a cap.

#include <cstdint>
#include <functional>

#include "engine/ops/bow/bow.hpp"

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
    bool cancelled = false;                  // the progress callback asked to stop
};

// Called after each assignment step with its number (from 1) and how many memberships it changed (all of them
// in the first); returning false stops k-means there, as the cap would (KMeansResult::cancelled). The GUI
// shows progress and offers cancel through it; it runs on the thread that runs kmeans().
using KMeansProgress = std::function<bool(int iteration, std::size_t changed)>;

// Throws UsageError unless 1 <= k <= descriptors and maxIterations >= 1.
void validate(const KMeansParams& params, std::size_t descriptorCount);

// k-means++: the first centroid is descriptor (random() mod n), each next one a descriptor drawn with
// probability proportional to its squared distance to the nearest centroid so far (std::mt19937_64 from
// `seed`, uniform doubles from its top 53 bits); when every descriptor coincides with a centroid, the lowest
// index not yet drawn. Lloyd: assign with `assignment`, stop when nothing changed, after maxIterations
// assignments or when `progress` returns false, else move each centroid to the mean of its descriptors (a
// centroid without descriptors stays). The returned centroids are those of the last assignment.
KMeansResult kmeans(DeviceContext* device, const Matrix& descriptors, const KMeansParams& params,
                    const Strategy& assignment, const KMeansProgress& progress = {});

}  // namespace hs::bow
