#include "engine/ops/convolve/convolve.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "engine/ops/device_launch.hpp"
#include "engine/ops/tiling.hpp"
#include "engine/runtime/runtime.hpp"

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

std::string tuningVariant(const Filter& filter) {
    return std::to_string(filter.width) + 'x' + std::to_string(filter.height);
}

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

namespace {

// The input an output rectangle reads: the filter's reach around it, within the image. Convolving that part
// alone gives the rectangle exactly: its border clamps where the image's does, and nowhere else.
tiling::Rect inputRegion(const tiling::Rect& out, const Filter& filter, ImageShape image) {
    const int left = std::max(0, out.x - filter.anchorX());
    const int top = std::max(0, out.y - filter.anchorY());
    const int right = std::min(image.width, out.x + out.width + filter.width - 1 - filter.anchorX());
    const int bottom = std::min(image.height, out.y + out.height + filter.height - 1 - filter.anchorY());
    return {left, top, right - left, bottom - top};
}

Result runTiled(DeviceContext& device, PixelSource& pixels, const Filter& filter, const Strategy& strategy,
                ImageShape tile, std::string note) {
    const ImageShape whole{pixels.width(), pixels.height()};
    TimingLog log;
    const std::uint8_t* source = pixels.host(log);
    RunRecord record{&strategy, std::move(note), log.collect(), {}};
    std::vector<std::uint8_t> output(pixels.byteCount());
    for (const tiling::Rect& rect : tiling::cover(whole, tile)) {
        const tiling::Rect in = inputRegion(rect, filter, whole);
        PixelSource part(tiling::cut(source, whole.width, in), in.width, in.height);
        Result result = strategy.run(&device, part, filter);
        const std::uint8_t* convolved = result.image.host(log);
        const tiling::Rect inside{rect.x - in.x, rect.y - in.y, rect.width, rect.height};
        tiling::paste(tiling::cut(convolved, in.width, inside).data(), rect, output.data(), whole.width);
        tiling::absorbTile(record, result, log);
    }
    return {std::move(record), PixelSource(std::move(output), whole.width, whole.height)};
}

}  // namespace

Result convolve(DeviceContext& device, PixelSource& pixels, const Filter& filter, const Strategy& requested) {
    validate(filter);
    hs::launch::requirePixels(pixels.width(), pixels.height(), "convolve");
    const DeviceInfo& info = device.info();
    const ImageShape whole{pixels.width(), pixels.height()};
    const auto plan = tiling::plan<Operation>(
        info, whole, requested, [&](const Strategy& s) { return s.supported(&info, whole, filter); },
        [&](const Strategy& s, ImageShape tile) {
            // An inner tile reads the most: the tile and the whole halo.
            const tiling::Rect in =
                inputRegion({filter.anchorX(), filter.anchorY(), tile.width, tile.height}, filter, whole);
            return s.supported(&info, {in.width, in.height}, filter).ok;
        });
    if (plan.tile) return runTiled(device, pixels, filter, *plan.strategy, *plan.tile, plan.note);
    Result result = plan.strategy->run(&device, pixels, filter);
    result.note = plan.note;
    return result;
}

}  // namespace hs::convolve
