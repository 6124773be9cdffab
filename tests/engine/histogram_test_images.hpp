#pragma once
// Test images for the histogram tests: deterministic patterns that stress different parts of a strategy.

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>

#include "engine/image/image.hpp"
#include "engine/ops/histogram/histogram.hpp"

namespace hs::histogram::test_images {

enum class Pattern { Uniform, AllEqual, ZeroOr255, Gradient, HalfTransparent };

inline std::string patternName(Pattern pattern) {
    switch (pattern) {
        case Pattern::Uniform:
            return "Uniform";
        case Pattern::AllEqual:
            return "AllEqual";
        case Pattern::ZeroOr255:
            return "ZeroOr255";
        case Pattern::Gradient:
            return "Gradient";
        case Pattern::HalfTransparent:
            break;
    }
    return "HalfTransparent";
}

// Uniform: every byte random. AllEqual: one colour everywhere (every count lands in one bin per channel, the
// worst case for atomics and for counter overflow). ZeroOr255: every byte 0 or 255 (the first and last bins).
// Gradient: smooth ramps over x and y, so neighbouring pixels share bins. HalfTransparent: random colours,
// alpha 0 on about half of the pixels (their colours are not 0, so counting them shows), random elsewhere.
inline ImageRGBA8 makeImage(int width, int height, Pattern pattern) {
    ImageRGBA8 image(width, height);
    std::mt19937 random(static_cast<unsigned>(width * 7919 + height));
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            std::uint8_t* p = image.pixel(x, y);
            switch (pattern) {
                case Pattern::Uniform: {
                    const auto bits = random();
                    for (int c = 0; c < 4; ++c) p[c] = static_cast<std::uint8_t>(bits >> (8 * c));
                    break;
                }
                case Pattern::AllEqual:
                    p[0] = 201, p[1] = 13, p[2] = 255, p[3] = 128;
                    break;
                case Pattern::ZeroOr255: {
                    const auto bits = random();
                    for (int c = 0; c < 4; ++c) p[c] = (bits >> c) & 1 ? 255 : 0;
                    break;
                }
                case Pattern::Gradient:
                    p[0] = static_cast<std::uint8_t>(x * 255 / std::max(1, width - 1));
                    p[1] = static_cast<std::uint8_t>(y * 255 / std::max(1, height - 1));
                    p[2] = static_cast<std::uint8_t>((x + y) / 4);
                    p[3] = static_cast<std::uint8_t>(255 - x * 255 / std::max(1, width - 1));
                    break;
                case Pattern::HalfTransparent: {
                    const auto bits = random();
                    for (int c = 0; c < 3; ++c) p[c] = static_cast<std::uint8_t>(1 + (bits >> (8 * c)) % 255);
                    p[3] = (bits >> 24) & 1 ? 0 : static_cast<std::uint8_t>(bits >> 24);
                    break;
                }
            }
        }
    }
    return image;
}

// The counts of 256 values `values` grouped into `bins` bins, independently of Histogram::rebinned(): bin b
// takes the values from its lower edge, the smallest v with v * bins >= b * 256, up to the next bin's edge.
inline Histogram groupedByHand(const Histogram& values, int bins) {
    const auto lowerEdge = [bins](int bin) { return (bin * 256 + bins - 1) / bins; };
    Histogram grouped(bins);
    for (std::size_t c = 0; c < kChannelCount; ++c) {
        for (int bin = 0; bin < bins; ++bin) {
            for (int v = lowerEdge(bin); v < lowerEdge(bin + 1); ++v)
                grouped.counts[c][static_cast<std::size_t>(bin)] +=
                    values.counts[c][static_cast<std::size_t>(v)];
        }
    }
    return grouped;
}

// The counts of `image` into `bins` bins, written independently of the engine (no luma(), binOf(),
// referenceHistogram() or rebinned()), so that the serial strategy, which is the engine's reference loop, is
// compared with something other than itself. Luma: the quotient of the weighted sum by 1000, plus one when
// the remainder is a half or more.
inline Histogram countedByHand(const ImageRGBA8& image, int bins, bool ignoreTransparent = false) {
    Histogram values(256);
    for (int y = 0; y < image.height; ++y) {
        for (int x = 0; x < image.width; ++x) {
            const std::uint8_t* p = image.pixel(x, y);
            ++values.counts[3][p[3]];
            if (ignoreTransparent && p[3] == 0) continue;
            for (std::size_t c = 0; c < 3; ++c) ++values.counts[c][p[c]];
            const int weighted = 299 * p[0] + 587 * p[1] + 114 * p[2];
            ++values.counts[4][static_cast<std::size_t>(weighted / 1000 + (weighted % 1000 >= 500 ? 1 : 0))];
        }
    }
    return groupedByHand(values, bins);
}

}  // namespace hs::histogram::test_images
