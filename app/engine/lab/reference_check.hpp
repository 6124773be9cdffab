#pragma once
// An edited built-in strategy's result against its stage's CPU reference (docs/kernel-lab.md): the largest
// difference and the first place that differs, so that a user sees at once what their change broke. An image
// is compared pixel by pixel (row-major, channels r, g, b, a), a histogram over its 256 counted values per
// channel (r, g, b, a, luma), each in that order.

#include <cstdint>
#include <optional>
#include <string>

#include "engine/image/image.hpp"
#include "engine/ops/histogram/histogram.hpp"

namespace hs::lab {

struct ReferenceCheck {
    struct Pixel {
        int x = 0;
        int y = 0;
        int channel = 0;  // 0..3: r, g, b, a
        int expected = 0;
        int got = 0;
    };
    struct Bin {
        histogram::Channel channel = histogram::Channel::R;
        int bin = 0;  // the 8-bit value counted
        std::uint64_t expected = 0;
        std::uint64_t got = 0;
    };

    std::uint64_t maxDifference = 0;  // largest |expected - got| over every channel value or bin
    std::optional<Pixel> firstPixel;  // an image stage's first differing value
    std::optional<Bin> firstBin;      // a histogram's first differing bin
    std::string problem;              // set when the results could not be compared (sizes differ)

    bool matches() const { return problem.empty() && maxDifference == 0; }
    // One line: "matches the CPU reference", "bin 17 of r: expected 1204, got 0 (largest difference 1204)",
    // "pixel (3, 0) g: expected 17, got 200 (largest difference 183)".
    std::string describe() const;
};

ReferenceCheck compareImages(const ImageRGBA8& expected, const ImageRGBA8& got);
ReferenceCheck compareHistograms(const histogram::Histogram& expected, const histogram::Histogram& got);

}  // namespace hs::lab
