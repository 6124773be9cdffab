// The Gaussian blur.
#include <cmath>
#include <numeric>
#include <string>

#include "engine/ops/convolve/filter.hpp"
#include "engine/runtime/error.hpp"

namespace hs::convolve {

Filter gaussianFilter(double sigma, int size) {
    if (!std::isfinite(sigma) || sigma <= 0)
        throw UsageError("gaussian sigma must be a positive number, got " + filterNumberText(sigma));
    if (sigma < kMinGaussianSigma)
        throw UsageError("gaussian sigma " + filterNumberText(sigma) + " is too small: it must be at least " +
                         filterNumberText(kMinGaussianSigma) +
                         " (any sigma below 0.07 already leaves the image as it is)");
    if (sigma > kMaxGaussianSigma)
        throw UsageError("gaussian sigma must be at most " + std::to_string(kMaxFilterSize) +
                         " (filters are at most 15x15), got " + filterNumberText(sigma));
    if (size == 0) size = std::min(kMaxFilterSize, 2 * static_cast<int>(std::ceil(3 * sigma)) + 1);
    if (size < 1 || size > kMaxFilterSize || size % 2 == 0)
        throw UsageError("gaussian size must be odd and within 1..15, got " + std::to_string(size));
    const int radius = size / 2;
    std::vector<double> axis(static_cast<std::size_t>(size));
    for (int k = 0; k < size; ++k)
        axis[static_cast<std::size_t>(k)] = std::exp(-(k - radius) * (k - radius) / (2 * sigma * sigma));
    const double total = std::accumulate(axis.begin(), axis.end(), 0.0);
    for (auto& value : axis) value /= total;
    std::vector<double> taps;
    for (const double down : axis) {
        for (const double across : axis) taps.push_back(down * across);
    }
    return filterFromRows("gaussian sigma " + filterNumberText(sigma), size, size, std::move(taps));
}

namespace {

[[maybe_unused]] const bool registered = registerFilterKind({
    .name = "gaussian",
    .label = "Gaussian",
    .help = "A Gaussian blur",
    .order = 20,
    .parameters = {{.name = "sigma",
                    .placeholder = "SIGMA",
                    .label = "σ",
                    .help = "Standard deviation in pixels",
                    .type = FilterParameter::Type::Real,
                    .min = 0.1,
                    .max = kMaxGaussianSigma,
                    .defaultValue = 1.5,
                    .step = 0.1},
                   {.name = "size",
                    .placeholder = "SIZE",
                    .label = "Size",
                    .help = "Odd side of the square; auto covers ±3σ",
                    .type = FilterParameter::Type::OddInteger,
                    .min = 0,
                    .max = kMaxFilterSize,
                    .defaultValue = 0,
                    .step = 2,
                    .automaticText = "auto (6σ + 1, at most 15)"}},
    .required = 1,
    .make =
        [](const std::vector<double>& values) {
            return gaussianFilter(values[0], static_cast<int>(values[1]));
        },
});

}  // namespace

}  // namespace hs::convolve
