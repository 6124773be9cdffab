#pragma once
// Descriptor sets for the visual-words tests, made from a fixed seed.

#include <cmath>
#include <cstdint>
#include <random>

#include "engine/ops/bow/bow.hpp"

namespace hs::bow::test_data {

// `count` rows of uniform values in [0, 1).
inline Matrix uniformRows(std::size_t count, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> value(0.0f, 1.0f);
    Matrix m(std::vector<float>(count * kDimensions));
    for (auto& v : m.values) v = value(random);
    return m;
}

// Descriptors around `centroids`: descriptor i is centroid (i * 7 % k) plus noise of at most `noise` per
// dimension, so with centroids far apart (uniformRows are about 2.3 apart) its nearest centroid is that one
// with no near tie.
inline Matrix around(const Matrix& centroids, std::size_t count, float noise, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<float> offset(-noise, noise);
    Matrix m(std::vector<float>(count * kDimensions));
    for (std::size_t i = 0; i < count; ++i) {
        const float* c = centroids.row(i * 7 % centroids.rows());
        for (std::size_t d = 0; d < kDimensions; ++d) m.row(i)[d] = c[d] + offset(random);
    }
    return m;
}

}  // namespace hs::bow::test_data
