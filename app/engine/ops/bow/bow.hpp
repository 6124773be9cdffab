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

#include "ops/strategy.hpp"
#include "runtime/device_info.hpp"
#include "runtime/timing.hpp"

namespace hs {
class DeviceContext;
}

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

// What a builder assigns: every descriptor of `descriptors` to one centroid of `centroids`.
struct Problem {
    std::size_t descriptors = 0;
    std::size_t centroids = 0;
};

struct Result {
    std::vector<std::uint32_t> memberships;  // the centroid of each descriptor
    std::vector<std::uint32_t> histogram;    // descriptors per centroid
    std::vector<Timing> timings;
    std::string strategy;
};

// A named way of building the word histogram. Ties go to the lowest centroid index; strategies that compute
// distances in another order (the tiled one: |c|^2 - 2 x.c) agree with bow-serial wherever the two nearest
// centroids are not within a relative 1e-4 of each other.
class Strategy {
  public:
    virtual ~Strategy() = default;
    virtual std::string_view name() const = 0;
    virtual std::string_view description() const = 0;
    virtual bool runsOnDevice() const = 0;
    // `device` is null where no OpenCL device is involved (host strategies only then).
    virtual Support supported(const DeviceInfo* device, const Problem& problem) const = 0;
    // The kernels/bow.cl build a device strategy uses; none for host strategies.
    virtual std::optional<KernelBuild> kernelBuild(const DeviceInfo& device, const Problem& problem) const;
    // Preconditions (shapes, support) are checked by assignWords(), which is what callers use.
    virtual Result run(DeviceContext* device, const Matrix& descriptors, const Matrix& centroids) const = 0;
};

// Every builder strategy, in the book's order, then ours.
const std::vector<const Strategy*>& strategies();
// Throws UsageError naming the known strategies when `name` is not one of them.
const Strategy& findStrategy(std::string_view name);
// The strategy used when none is named: the fastest of ours.
inline constexpr std::string_view kDefaultStrategy = "bow-tiled";

// The single entry point: checks the shapes (UsageError: no centroids, more than 2^32-1 descriptors) and
// support (OpenClError with the reason), runs, and returns memberships, histogram and timings.
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
