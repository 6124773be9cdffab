// Issue 25 experiment, on the CPU: how often the local-atomic scope kernels' runs and the vectorscope's
// window pay on the bench's 3840x2160 frames (bench/README.md, "Where the scope kernels' time goes"). For
// each frame: the pixels whose chroma (Cr * 256 + Cb) and whose luma equal the pixel's above, the quads of 4
// pixels whose chroma all do, and the pixels outside the vectorscope's 128 x 128 window around (128, 128).
// From the project root, as one line:
//   g++ -O2 -std=c++20 -DCL_HPP_MINIMUM_OPENCL_VERSION=200 -DCL_HPP_TARGET_OPENCL_VERSION=300
//       -DCL_HPP_ENABLE_EXCEPTIONS -I app -o /tmp/scope_frame_stats bench/experiments/scope_frame_stats.cpp
//       app/bench/inputs.cpp -lOpenCL && /tmp/scope_frame_stats
#include <cstdio>
#include <string>

#include "engine/image/image.hpp"
#include "engine/ops/scope/scope.hpp"

namespace hs::bench {
// bench/inputs.hpp's (compiled in from app/bench/inputs.cpp).
ImageRGBA8 makePattern(const std::string& name, int width, int height);
}  // namespace hs::bench

namespace {

constexpr int kWidth = 3840, kHeight = 2160;

// Cr * 256 + Cb and the luma, by the engine's header-only definitions (engine/ops/scope/scope.hpp).
int chromaOf(const std::uint8_t* p) {
    return hs::scope::cr(p[0], p[1], p[2]) * 256 + hs::scope::cb(p[0], p[1], p[2]);
}

int lumaOf(const std::uint8_t* p) {
    return hs::histogram::luma(p[0], p[1], p[2]);
}

}  // namespace

int main() {
    for (const char* frame : {"natural", "all-equal", "uniform", "gaussian", "gradient"}) {
        const hs::ImageRGBA8 image = hs::bench::makePattern(frame, kWidth, kHeight);
        long chromaSame = 0, lumaSame = 0, outside = 0, quadsSame = 0;
        for (int y = 0; y < kHeight; ++y) {
            for (int q = 0; q < kWidth / 4; ++q) {
                bool quadSame = y > 0;
                for (int lane = 0; lane < 4; ++lane) {
                    const std::uint8_t* pixel = image.pixel(4 * q + lane, y);
                    const int chroma = chromaOf(pixel);
                    // Unsigned: a coordinate below the window wraps to a large value.
                    const unsigned row = (chroma >> 8) - 64u, column = (chroma & 255) - 64u;
                    outside += row >= 128 || column >= 128;
                    if (y == 0) continue;
                    const std::uint8_t* above = image.pixel(4 * q + lane, y - 1);
                    const bool same = chromaOf(above) == chroma;
                    chromaSame += same;
                    lumaSame += lumaOf(above) == lumaOf(pixel);
                    quadSame = quadSame && same;
                }
                quadsSame += quadSame;
            }
        }
        const double pixels = double{kWidth} * kHeight, quads = pixels / 4;
        std::printf(
            "%-10s chroma as above %.3f, luma as above %.3f, quads' chroma as above %.3f, outside the "
            "window %.4f\n",
            frame, chromaSame / pixels, lumaSame / pixels, quadsSame / quads, outside / pixels);
    }
    return 0;
}
