// Unsharp masking: out = in + amount · (in − gaussian(in)), applied as the one correlation
// (1 + amount) · identity − amount · gaussian, so that every convolution strategy that takes a general
// (non-separable) filter runs it.
#include <cmath>
#include <string>

#include "engine/ops/convolve/filter.hpp"
#include "engine/runtime/error.hpp"

namespace hs::convolve {

namespace {

constexpr double kMaxAmount = 5;

// sigma as for gaussianFilter: the filter covers ±3 sigma, at most 15x15.
Filter unsharpFilter(double amount, double sigma) {
    if (!std::isfinite(amount) || amount < 0 || amount > kMaxAmount)
        throw UsageError("unsharp amount must be within 0..5, got " + filterNumberText(amount));
    if (!std::isfinite(sigma) || sigma <= 0 || sigma > kMaxGaussianSigma)
        throw UsageError("unsharp sigma must be a positive number of at most 15, got " +
                         filterNumberText(sigma));
    if (sigma < kMinGaussianSigma)
        throw UsageError("unsharp sigma " + filterNumberText(sigma) + " is too small: it must be at least " +
                         filterNumberText(kMinGaussianSigma));
    const Filter blur = gaussianFilter(sigma);
    std::vector<double> taps;
    for (const double tap : blur.taps) taps.push_back(-amount * tap);
    taps[taps.size() / 2] += 1 + amount;  // the centre: sizes are odd
    return filterFromRows("unsharp amount " + filterNumberText(amount) + ", sigma " + filterNumberText(sigma),
                          blur.width, blur.height, std::move(taps));
}

[[maybe_unused]] const bool registered = registerFilterKind({
    .name = "unsharp",
    .label = "Unsharp mask",
    .help = "Sharpens by adding back the detail a Gaussian blur removes: in + amount · (in − blur)",
    .order = 30,
    .parameters = {{.name = "amount",
                    .placeholder = "AMOUNT",
                    .label = "Amount",
                    .help = "How much of the detail (in − blur) to add; 0 leaves the image as it is",
                    .type = FilterParameter::Type::Real,
                    .min = 0,
                    .max = kMaxAmount,
                    .defaultValue = 1,
                    .step = 0.1},
                   {.name = "sigma",
                    .placeholder = "SIGMA",
                    .label = "σ",
                    .help = "Standard deviation of the blur in pixels; the filter covers ±3σ (at most 15×15)",
                    .type = FilterParameter::Type::Real,
                    .min = 0.1,
                    .max = kMaxGaussianSigma,
                    .defaultValue = 1,
                    .step = 0.1}},
    .make = [](const std::vector<double>& values) { return unsharpFilter(values[0], values[1]); },
});

}  // namespace

}  // namespace hs::convolve
