#include "ops/rotate/rotate.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

#include "ops/device_launch.hpp"
#include "ops/rotate/device_rotation.hpp"
#include "ops/tiling.hpp"
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

namespace {

// The input pixels an output rectangle samples: the bounding box of its corners' source points (the map is
// affine), widened for the bilinear neighbours and float rounding, within the image; empty when the rectangle
// samples only the transparent outside.
constexpr int kBoxMargin = 2;

tiling::Rect sourceBox(const std::array<double, 6>& m, const tiling::Rect& out, ImageShape image) {
    double minX = 1e300, maxX = -1e300, minY = 1e300, maxY = -1e300;
    for (const int x : {out.x, out.x + out.width - 1}) {
        for (const int y : {out.y, out.y + out.height - 1}) {
            const double sx = m[0] * x + m[1] * y + m[2];
            const double sy = m[3] * x + m[4] * y + m[5];
            minX = std::min(minX, sx), maxX = std::max(maxX, sx);
            minY = std::min(minY, sy), maxY = std::max(maxY, sy);
        }
    }
    const auto clampTo = [](double v, int limit) {
        return static_cast<int>(std::clamp(v, 0.0, double(limit)));
    };
    const int left = clampTo(std::floor(minX) - kBoxMargin, image.width);
    const int top = clampTo(std::floor(minY) - kBoxMargin, image.height);
    const int right = clampTo(std::ceil(maxX) + kBoxMargin + 1, image.width);
    const int bottom = clampTo(std::ceil(maxY) + kBoxMargin + 1, image.height);
    return {left, top, std::max(0, right - left), std::max(0, bottom - top)};
}

Result runTiled(DeviceContext& device, PixelSource& pixels, const Params& params,
                const DeviceRotation& strategy, ImageShape tile, std::string note) {
    const ImageShape input{pixels.width(), pixels.height()};
    const CanvasSize canvas = outputSize(params, input.width, input.height);
    const auto m = inverseMap(params, input.width, input.height);
    TimingLog log;
    const std::uint8_t* source = pixels.host(log);
    RunRecord record{&strategy, std::move(note), log.collect(), {}};
    // Transparent black: a tile whose box is empty samples only the outside.
    std::vector<std::uint8_t> output(launch::pixelBytes(canvas.width, canvas.height), 0);
    for (const tiling::Rect& rect : tiling::cover({canvas.width, canvas.height}, tile)) {
        const tiling::Rect box = sourceBox(m, rect, input);
        if (box.width == 0 || box.height == 0) continue;
        // Output (x, y) of the tile is (rect.x + x, rect.y + y) of the canvas; its source point, less the
        // box's corner, is in the box's pixels.
        const std::array<double, 6> tileMap{m[0], m[1], m[0] * rect.x + m[1] * rect.y + m[2] - box.x,
                                            m[3], m[4], m[3] * rect.x + m[4] * rect.y + m[5] - box.y};
        PixelSource part(tiling::cut(source, input.width, box), box.width, box.height);
        Result result = strategy.runMapped(device, part, params, tileMap, {rect.width, rect.height});
        tiling::paste(result.image.host(log), rect, output.data(), canvas.width);
        tiling::absorbTile(record, result, log);
    }
    return {std::move(record), PixelSource(std::move(output), canvas.width, canvas.height)};
}

}  // namespace

Result rotate(DeviceContext& device, PixelSource& pixels, const Params& params, const Strategy& requested) {
    validate(params);
    launch::requirePixels(pixels.width(), pixels.height(), "rotate");
    const DeviceInfo& info = device.info();
    const ImageShape input{pixels.width(), pixels.height()};
    const CanvasSize canvas = outputSize(params, input.width, input.height);
    const auto m = inverseMap(params, input.width, input.height);
    const auto plan = tiling::plan<Operation>(
        info, {canvas.width, canvas.height}, requested,
        [&](const Strategy& s) {
            if (auto support = s.supported(&info, input, params); !support.ok) return support;
            // The strategies judge the input's size; a fitted canvas may be larger.
            const std::string what =
                "the canvas (" + std::to_string(canvas.width) + "x" + std::to_string(canvas.height) + ")";
            if (auto problem =
                    launch::allocationProblem(info, launch::pixelBytes(canvas.width, canvas.height), what);
                !problem.empty())
                return Support::no(problem);
            return Support::yes();
        },
        [&](const Strategy& s, ImageShape tile) {
            // The largest box of a tile: its source points span |m0| (w - 1) + |m1| (h - 1) columns (rows
            // likewise), plus what sourceBox adds.
            const auto span = [&](double a, double b) {
                return static_cast<int>(
                           std::ceil(std::abs(a) * (tile.width - 1) + std::abs(b) * (tile.height - 1))) +
                       2 * kBoxMargin + 3;
            };
            const ImageShape boxShape{std::min(span(m[0], m[1]), input.width),
                                      std::min(span(m[3], m[4]), input.height)};
            return dynamic_cast<const DeviceRotation*>(&s) != nullptr &&
                   s.supported(&info, boxShape, params).ok &&
                   launch::pixelBufferProblem(info, tile.width, tile.height).empty();
        });
    if (plan.tile)
        return runTiled(device, pixels, params, dynamic_cast<const DeviceRotation&>(*plan.strategy),
                        *plan.tile, plan.note);
    Result result = plan.strategy->run(&device, pixels, params);
    result.note = plan.note;
    return result;
}

}  // namespace hs::rotate
