#pragma once
// Visual words (issue 9): every 64-value descriptor of an image is assigned to its nearest centroid of a
// vocabulary, and the image becomes the histogram of those assignments. Descriptors and centroids are
// row-major float matrices of kDimensions columns.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/ops/operation.hpp"

namespace hs::bow {

// SURF's layout: 4 x 4 sub-regions, each giving sum dx, sum dy, sum |dx|, sum |dy|.
inline constexpr std::size_t kDimensions = 64;

// `count` rows of kDimensions floats, row-major: descriptors, or the centroids of a vocabulary.
struct Matrix {
    std::vector<float> values;

    Matrix() = default;
    explicit Matrix(std::vector<float> rowMajor) : values(std::move(rowMajor)) {}
    std::size_t rows() const { return values.size() / kDimensions; }
    const float* row(std::size_t index) const { return values.data() + index * kDimensions; }
    float* row(std::size_t index) { return values.data() + index * kDimensions; }
};

// The kernel record of the transpose that GPU2..GPU5 run before assigning (the book times it apart).
inline constexpr std::string_view kTransposeKernel = "transpose_descriptors";
// Two distances within this relative difference are a near tie, which strategies may break either way.
inline constexpr double kNearTie = 1e-4;

// What support and the kernel build depend on: how many descriptors are assigned to how many centroids.
struct Shape {
    std::size_t descriptors = 0;
    std::size_t centroids = 0;
};

// The shape of assigning `descriptors` to `centroids`.
inline Shape shapeOf(const Matrix& descriptors, const Matrix& centroids) {
    return {descriptors.rows(), centroids.rows()};
}

// What a run gives besides its RunRecord (the strategy that ran, its timings and builds).
struct Result : RunRecord {
    std::vector<std::uint32_t> memberships;  // the centroid of each descriptor
    std::vector<std::uint32_t> histogram;    // descriptors per centroid
};

// Building the word histogram as an operation (see ops/operation.hpp): its input is the descriptors and its
// parameter the vocabulary's centroids, as a filter's taps are convolve's. Ties go to the lowest centroid
// index; strategies that compute distances in another order (the tiled one: |c|^2 - 2 x.c) agree with
// bow-serial wherever the two nearest centroids are not within a relative kNearTie of each other. There is no
// fallback: a strategy that cannot run is an error with the reason (bow-gpu5-constant and a vocabulary larger
// than the constant buffer).
struct Operation {
    static constexpr OperationKind kKind = OperationKind::Bow;
    static constexpr std::string_view kStrategyNoun = "bow strategy";
    static constexpr std::string_view kFallback = "";
    using Params = Matrix;       // the centroids
    using Input = const Matrix;  // the descriptors
    using Shape = bow::Shape;
    using Result = bow::Result;
};

using Strategy = hs::Strategy<Operation>;

// Every builder strategy, in the book's order, then ours (the registry's list).
inline const std::vector<const Strategy*>& strategies() {
    return Registry<Operation>::list();
}
// Throws UsageError naming the known strategies when `name` is not one of them.
inline const Strategy& findStrategy(std::string_view name) {
    return Registry<Operation>::find(name);
}
// The strategy used when none is named: the fastest of ours.
inline constexpr std::string_view kDefaultStrategy = "bow-tiled";

// The single entry point: checks the shapes (UsageError: no centroids, more than 2^32-1 descriptors) and
// support (OpenClError with the device and the reason, chooseRunnable), runs, and returns memberships,
// histogram, timings and builds. Where the largest magnitude among descriptors and centroids is 2^56 or more
// (float's largest is about 2^128, so squared distances would overflow to infinity, and the builders'
// different formulas would overflow differently) or below 2^-56 (squares flushed to zero), every builder,
// bow-serial included, runs on both divided by the one power of two that brings it into [2^55, 2^56): exact,
// and the same nearest centroids, so that all agree with the nearest in exact arithmetic up to near ties.
Result assignWords(DeviceContext* device, const Matrix& descriptors, const Matrix& centroids,
                   const Strategy& strategy);

// The golden reference: squared Euclidean distance summed over the dimensions in order, strict < so ties go
// to the lowest index. Returns the nearest centroid of `descriptor`.
std::uint32_t nearestCentroid(const float* descriptor, const Matrix& centroids);
// How many `memberships` are not the nearest centroid of their descriptor up to a near tie: the squared
// distance (in double) to the chosen centroid exceeds the smallest by more than a relative kNearTie.
std::size_t misassigned(const Matrix& descriptors, const Matrix& centroids,
                        const std::vector<std::uint32_t>& memberships);
// The same with the smallest squared distances given (nearestDistances()), for checking several results.
std::size_t misassigned(const Matrix& descriptors, const Matrix& centroids,
                        const std::vector<std::uint32_t>& memberships, const std::vector<double>& nearest);
// The squared distance of two rows of kDimensions, in double.
double squaredDistance(const float* a, const float* b);
// The squared distance (in double) of each descriptor to its nearest centroid.
std::vector<double> nearestDistances(const Matrix& descriptors, const Matrix& centroids);

}  // namespace hs::bow
