#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace hs {

// Tightly packed 8-bit RGBA pixels, row-major, top row first: the one pixel format the engine works in.
struct ImageRGBA8 {
    int width = 0;
    int height = 0;
    std::vector<std::uint8_t> pixels;  // width * height * 4 bytes

    ImageRGBA8() = default;
    ImageRGBA8(int w, int h) : width(w), height(h), pixels(static_cast<std::size_t>(w) * h * 4, 0) {}

    std::size_t pixelCount() const {
        return static_cast<std::size_t>(width) * static_cast<std::size_t>(height);
    }
    std::size_t byteCount() const { return pixelCount() * 4; }
    std::uint8_t* pixel(int x, int y) {
        return pixels.data() + (static_cast<std::size_t>(y) * width + x) * 4;
    }
    const std::uint8_t* pixel(int x, int y) const {
        return pixels.data() + (static_cast<std::size_t>(y) * width + x) * 4;
    }
    bool operator==(const ImageRGBA8&) const = default;
};

}  // namespace hs
