#include "ops/convolve/convolve.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "ops/pipeline/stage_launch.hpp"
#include "runtime/runtime.hpp"

namespace hs::convolve {

namespace {

std::uint8_t saturate(double value) {
    return static_cast<std::uint8_t>(std::clamp(value, 0.0, 255.0));
}

// round(sum / divisor), halves to even, for divisor > 0.
long long roundedQuotient(long long sum, long long divisor) {
    long long quotient = sum / divisor;
    long long remainder = sum % divisor;
    if (remainder < 0) {
        remainder += divisor;
        --quotient;
    }
    if (2 * remainder > divisor || (2 * remainder == divisor && quotient % 2 != 0)) ++quotient;
    return quotient;
}

}  // namespace

ImageRGBA8 referenceConvolve(const ImageRGBA8& image, const Filter& filter) {
    validate(filter);
    const bool integer = filter.isInteger();
    const auto divisor = static_cast<long long>(filter.divisor);
    ImageRGBA8 out(image.width, image.height);
    for (int y = 0; y < image.height; ++y) {
        for (int x = 0; x < image.width; ++x) {
            double a[3] = {0, 0, 0};
            double b[3] = {0, 0, 0};
            long long exactA[3] = {0, 0, 0};
            long long exactB[3] = {0, 0, 0};
            for (int j = 0; j < filter.height; ++j) {
                const int sy = std::clamp(y + j - filter.anchorY(), 0, image.height - 1);
                for (int i = 0; i < filter.width; ++i) {
                    const int sx = std::clamp(x + i - filter.anchorX(), 0, image.width - 1);
                    const std::uint8_t* p = image.pixel(sx, sy);
                    const auto k = static_cast<std::size_t>(j * filter.width + i);
                    for (int c = 0; c < 3; ++c) {
                        if (integer) {
                            exactA[c] += static_cast<long long>(filter.taps[k]) * p[c];
                            if (filter.isMagnitude())
                                exactB[c] += static_cast<long long>(filter.tapsB[k]) * p[c];
                        } else {
                            a[c] += filter.taps[k] / filter.divisor * p[c];
                            if (filter.isMagnitude()) b[c] += filter.tapsB[k] / filter.divisor * p[c];
                        }
                    }
                }
            }
            std::uint8_t* target = out.pixel(x, y);
            for (int c = 0; c < 3; ++c) {
                double value = 0;
                if (filter.isMagnitude()) {
                    value =
                        integer
                            ? std::sqrt(static_cast<double>(exactA[c] * exactA[c] + exactB[c] * exactB[c]))
                            : std::sqrt(a[c] * a[c] + b[c] * b[c]);
                    value = std::nearbyint(value);
                } else {
                    value = integer ? static_cast<double>(roundedQuotient(exactA[c], divisor))
                                    : std::nearbyint(a[c]);
                }
                target[c] = saturate(value);
            }
            target[3] = image.pixel(x, y)[3];
        }
    }
    return out;
}

Result convolve(DeviceContext& device, PixelSource& pixels, const Filter& filter, const Strategy& requested) {
    validate(filter);
    pipeline::requirePixels(pixels.width(), pixels.height(), "convolve");
    return runChosen<Operation>(&device, pixels, {pixels.width(), pixels.height()}, filter, requested);
}

}  // namespace hs::convolve
