#pragma once
// Dense descriptors in SURF's layout (upright, no Gaussian weighting), defined exactly so that the kernel
// (kernels/bow_descriptors.cl) and the reference below agree:
//
// - L is the contract's integer luma of the RGBA image.
// - A window of side W (a multiple of 20; s = W / 20 is SURF's sampling step) has its top-left corner at
//   (x0, y0) = (stride * column, stride * row). Windows are placed wherever x0 + W + s <= width and
//   y0 + W + s <= height (the Haar squares of the last samples reach s pixels past the window), row by row.
// - Sample (kx, ky), 0 <= kx, ky < 20, is the Haar square of side 2s with top-left corner
//   (a, b) = (x0 + s kx, y0 + s ky): dx = (sum of L over its right half) - (sum over its left half),
//   dy = (sum over its bottom half) - (sum over its top half). Every sample weighs 1.
// - Sub-region (i, j) = (kx / 5, ky / 5) of the 4 x 4 holds 5 x 5 samples; it gives values 4 (4 j + i) +
// 0..3:
//   sum dx, sum dy, sum |dx|, sum |dy|.
// - The 64 values are divided by their L2 norm (a flat window, of norm 0, stays all zeros).

#include <cstdint>

#include "engine/image/pixel_source.hpp"
#include "engine/ops/bow/bow.hpp"

namespace hs::bow {

struct DescriptorParams {
    int window = 40;
    int stride = 20;
};

// The windows of an image: `columns` x `rows` descriptors.
struct Grid {
    int columns = 0;
    int rows = 0;
    std::size_t count() const { return static_cast<std::size_t>(columns) * static_cast<std::size_t>(rows); }
};

// Throws UsageError unless the window is a positive multiple of 20 (at most 2000) and the stride positive.
void validate(const DescriptorParams& params);
// The grid of windows that fit a width x height image (0 x 0 when none does).
Grid descriptorGrid(int width, int height, const DescriptorParams& params);

// The plain C++ reference.
Matrix referenceDescriptors(const ImageRGBA8& image, const DescriptorParams& params);

struct DescriptorResult {
    Matrix descriptors;
    Grid grid;
    std::vector<Timing> timings;
};
// kernels/bow_descriptors.cl on `device`, the pixels uploaded once by `pixels`.
DescriptorResult computeDescriptors(DeviceContext& device, PixelSource& pixels,
                                    const DescriptorParams& params);

}  // namespace hs::bow
