#pragma once
// Rotation about the image centre, the geometry of OpenCV's getRotationMatrix2D(centre, angle, 1) followed by
// warpAffine: pixel (i, j) has its centre at (i, j), the centre of rotation is ((w - 1) / 2, (h - 1) / 2), a
// positive angle turns the picture counter-clockwise on screen (y pointing down), and each output pixel
// samples the input at the inverse-mapped point; input outside the image reads as transparent black (0, 0, 0,
// 0), so bilinear samples blend with it at the edges.
//
// The output canvas has the input's size (what leaves the frame is cut off), or with "fit canvas" the
// smallest size that holds the whole rotated image (ImageJ's "Enlarge image to fit result", GIMP's "Adjust"):
// the rotated W x H rectangle of pixel areas, [-0.5, W - 0.5] x [-0.5, H - 0.5], has the bounding box
//     W' = W |cos a| + H |sin a|,   H' = W |sin a| + H |cos a|,
// and the canvas is ceil(W' - 1e-6) x ceil(H' - 1e-6), at least 1 x 1 (the 1e-6 keeps a box that overshoots
// a whole number by rounding noise from gaining a pixel). Multiples of 90 degrees use exact cosines and
// sines, so 0 and 180 degrees give W x H and 90 and 270 degrees give H x W exactly. The input's centre lands
// on the canvas's centre ((W' - 1) / 2, (H' - 1) / 2); the padding is transparent black like every other
// point outside the input.

#include <array>
#include <string_view>
#include <vector>

#include "image/image.hpp"
#include "image/pixel_source.hpp"
#include "ops/stage_result.hpp"
#include "runtime/device_info.hpp"

namespace hs::rotate {

using Result = pipeline::StageResult;

enum class FilterMode { Linear, Nearest };

// "linear" / "nearest".
std::string_view filterModeName(FilterMode mode);
// "linear" or "nearest" in any case; throws UsageError naming the accepted values.
FilterMode parseFilterMode(std::string_view text);

// The same rotation as `degrees` (a finite number), reduced into (-180, 180]: 400 -> 40, -180 -> 180. The
// angle every front end (panel, command lines) shows and passes on.
double normalizeAngle(double degrees);

struct Params {
    double angleDegrees = 0.0;
    FilterMode filterMode = FilterMode::Linear;
    bool fitCanvas = false;  // enlarge the canvas to hold the whole rotated image (see the rule above)
};

// Throws UsageError unless the angle is a finite number.
void validate(const Params& params);

struct CanvasSize {
    int width = 0;
    int height = 0;
    bool operator==(const CanvasSize&) const = default;
};

// The output's size for a width x height input: the input's size, or with params.fitCanvas the rule above.
CanvasSize outputSize(const Params& params, int width, int height);

// The inverse map for a width x height input: output pixel (x, y) samples the input at
// (m[0] x + m[1] y + m[2], m[3] x + m[4] y + m[5]). Angles that are multiples of 90 degrees use exact cosines
// and sines (0, +-1), so those rotations move whole pixels instead of landing a rounding error away from a
// sampling boundary (with fit canvas too: a quarter turn swaps the sizes, so the centres stay on the grid).
std::array<double, 6> inverseMap(const Params& params, int width, int height);

// The golden reference, in double precision. Nearest takes the pixel whose centre is closest
// (floor(s + 0.5)); linear weighs the four neighbours exactly; 8-bit output is round-half-even, saturated.
ImageRGBA8 referenceRotate(const ImageRGBA8& image, const Params& params);

// Rotation as an operation (see ops/operation.hpp): its strategies take the pixels and leave the rotated
// image on the device; "buffer" runs where another cannot.
struct Operation {
    static constexpr OperationKind kKind = OperationKind::Rotate;
    static constexpr std::string_view kStrategyNoun = "rotation strategy";
    static constexpr std::string_view kFallback = "buffer";
    using Params = rotate::Params;
    using Input = PixelSource;
    using Result = rotate::Result;
};

using Strategy = hs::Strategy<Operation>;

// Every strategy, in the order they are presented (the registry's list).
inline const std::vector<const Strategy*>& strategies() {
    return Registry<Operation>::list();
}
// Throws UsageError naming the known strategies when `name` is not one of them.
inline const Strategy& findStrategy(std::string_view name) {
    return Registry<Operation>::find(name);
}
// The strategy every device with buffers can run: "buffer".
inline const Strategy& bufferStrategy() {
    return *Registry<Operation>::fallback();
}

// The single entry point: validates, chooses (chooseRunnable: the buffer strategy with a note that names the
// device and the reason where `requested` cannot run, an image beyond the device's 2-D image limits, no image
// support), runs. The result's image stays on the device; result.strategy is what ran and result.note why it
// differs from `requested`.
Result rotate(DeviceContext& device, PixelSource& pixels, const Params& params, const Strategy& requested);

}  // namespace hs::rotate
