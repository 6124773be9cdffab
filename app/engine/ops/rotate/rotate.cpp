#include "ops/rotate/rotate.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

#include "ops/pipeline/stage_launch.hpp"
#include "runtime/error.hpp"
#include "runtime/runtime.hpp"

namespace hs::rotate {

namespace {

std::uint8_t roundToByte(double value) {
    return static_cast<std::uint8_t>(std::clamp(std::nearbyint(value), 0.0, 255.0));
}

// The input pixel's channel, or transparent black outside the image.
double texelOrBorder(const ImageRGBA8& image, long long x, long long y, int channel) {
    if (x < 0 || y < 0 || x >= image.width || y >= image.height) return 0.0;
    return image.pixel(static_cast<int>(x), static_cast<int>(y))[channel];
}

constexpr double kFitTolerance = 1e-6;

// cos and sin of the angle, exact (0, +-1) at multiples of 90 degrees.
std::pair<double, double> cosSin(double angleDegrees) {
    const double quarterTurns = angleDegrees / 90.0;
    if (quarterTurns == std::round(quarterTurns)) {
        double quadrant = std::fmod(std::round(quarterTurns), 4.0);
        if (quadrant < 0) quadrant += 4.0;
        static constexpr std::array<std::pair<double, double>, 4> exact{{{1, 0}, {0, 1}, {-1, 0}, {0, -1}}};
        return exact[static_cast<std::size_t>(quadrant)];
    }
    const double radians = angleDegrees * std::numbers::pi / 180.0;
    return {std::cos(radians), std::sin(radians)};
}

}  // namespace

std::string_view filterModeName(FilterMode mode) {
    return mode == FilterMode::Nearest ? "nearest" : "linear";
}

FilterMode parseFilterMode(std::string_view text) {
    for (const auto mode : {FilterMode::Linear, FilterMode::Nearest}) {
        if (sameNameIgnoringCase(filterModeName(mode), text)) return mode;
    }
    throw UsageError("unknown sampling '" + std::string(text) + "' (known: linear, nearest)");
}

double normalizeAngle(double degrees) {
    // fmod is exact, so 400 becomes exactly 40 and the quarter turns stay exact.
    double reduced = std::fmod(degrees, 360.0);
    if (reduced > 180.0) reduced -= 360.0;
    if (reduced <= -180.0) reduced += 360.0;
    return reduced;
}

void validate(const Params& params) {
    if (!std::isfinite(params.angleDegrees))
        throw UsageError("the rotation angle must be a finite number of degrees, got " +
                         std::to_string(params.angleDegrees));
}

CanvasSize outputSize(const Params& params, int width, int height) {
    if (!params.fitCanvas) return {width, height};
    const auto [c, s] = cosSin(params.angleDegrees);
    const auto side = [](double extent) {
        // Rounding noise below 1e-6 of a pixel must not add a row or column.
        return std::max(1, static_cast<int>(std::ceil(extent - kFitTolerance)));
    };
    return {side(width * std::abs(c) + height * std::abs(s)),
            side(width * std::abs(s) + height * std::abs(c))};
}

std::array<double, 6> inverseMap(const Params& params, int width, int height) {
    const auto [c, s] = cosSin(params.angleDegrees);
    const CanvasSize out = outputSize(params, width, height);
    const double cx = (width - 1) / 2.0;
    const double cy = (height - 1) / 2.0;
    const double ox = (out.width - 1) / 2.0;
    const double oy = (out.height - 1) / 2.0;
    // Source = input centre + R(-angle) (destination - output centre), R(-angle) = [c -s; s c] in y-down
    // coordinates.
    return {c, -s, cx - c * ox + s * oy, s, c, cy - s * ox - c * oy};
}

ImageRGBA8 referenceRotate(const ImageRGBA8& image, const Params& params) {
    validate(params);
    const auto m = inverseMap(params, image.width, image.height);
    const CanvasSize size = outputSize(params, image.width, image.height);
    ImageRGBA8 out(size.width, size.height);
    for (int y = 0; y < size.height; ++y) {
        for (int x = 0; x < size.width; ++x) {
            const double sx = m[0] * x + m[1] * y + m[2];
            const double sy = m[3] * x + m[4] * y + m[5];
            std::uint8_t* target = out.pixel(x, y);
            if (params.filterMode == FilterMode::Nearest) {
                const auto ix = static_cast<long long>(std::floor(sx + 0.5));
                const auto iy = static_cast<long long>(std::floor(sy + 0.5));
                for (int ch = 0; ch < 4; ++ch) target[ch] = roundToByte(texelOrBorder(image, ix, iy, ch));
                continue;
            }
            const double fx = std::floor(sx);
            const double fy = std::floor(sy);
            const double tx = sx - fx;
            const double ty = sy - fy;
            const auto ix = static_cast<long long>(fx);
            const auto iy = static_cast<long long>(fy);
            for (int ch = 0; ch < 4; ++ch) {
                const double v = (1 - tx) * (1 - ty) * texelOrBorder(image, ix, iy, ch) +
                                 tx * (1 - ty) * texelOrBorder(image, ix + 1, iy, ch) +
                                 (1 - tx) * ty * texelOrBorder(image, ix, iy + 1, ch) +
                                 tx * ty * texelOrBorder(image, ix + 1, iy + 1, ch);
                target[ch] = roundToByte(v);
            }
        }
    }
    return out;
}

Result rotate(DeviceContext& device, PixelSource& pixels, const Params& params, const Strategy& requested) {
    validate(params);
    pipeline::requirePixels(pixels.width(), pixels.height(), "rotate");
    auto choice =
        chooseRunnable<Operation>(&device.info(), {pixels.width(), pixels.height()}, params, requested);
    if (params.fitCanvas) {
        // The strategies were judged by the input's size; the enlarged output may not fit where it did.
        const CanvasSize out = outputSize(params, pixels.width(), pixels.height());
        const std::string what =
            "the fitted canvas (" + std::to_string(out.width) + "x" + std::to_string(out.height) + ")";
        if (auto problem =
                pipeline::allocationProblem(device.info(), pipeline::pixelBytes(out.width, out.height), what);
            !problem.empty())
            throw OpenClError("running rotate", 0, "device " + device.info().name + ": " + problem);
    }
    Result result = choice.strategy->run(&device, pixels, params);
    result.note = std::move(choice.note);
    return result;
}

}  // namespace hs::rotate
