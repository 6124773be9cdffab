#include "engine/ops/tiling.hpp"

#include <algorithm>
#include <cstring>

namespace hs::tiling {

std::vector<Rect> cover(ImageShape whole, ImageShape tile) {
    std::vector<Rect> rects;
    for (int y = 0; y < whole.height; y += tile.height) {
        for (int x = 0; x < whole.width; x += tile.width)
            rects.push_back(
                {x, y, std::min(tile.width, whole.width - x), std::min(tile.height, whole.height - y)});
    }
    return rects;
}

std::optional<ImageShape> largestTile(ImageShape whole, const std::function<bool(ImageShape)>& fits) {
    ImageShape tile = whole;
    while (!fits(tile)) {
        if (tile.width == 1 && tile.height == 1) return std::nullopt;
        // Halving rounds up, so that a side never shrinks below what the halves of the image need.
        if (tile.width >= tile.height)
            tile.width = (tile.width + 1) / 2;
        else
            tile.height = (tile.height + 1) / 2;
    }
    return tile;
}

std::string note(ImageShape whole, ImageShape tile, const std::string& why) {
    return "ran in " + std::to_string(cover(whole, tile).size()) + " tiles of at most " +
           std::to_string(tile.width) + "x" + std::to_string(tile.height) + ": " + why;
}

std::vector<std::uint8_t> cut(const std::uint8_t* pixels, int width, const Rect& rect) {
    const auto rowBytes = static_cast<std::size_t>(rect.width) * 4;
    std::vector<std::uint8_t> tile(rowBytes * static_cast<std::size_t>(rect.height));
    for (int row = 0; row < rect.height; ++row)
        std::memcpy(tile.data() + static_cast<std::size_t>(row) * rowBytes,
                    pixels + ((static_cast<std::size_t>(rect.y) + row) * width + rect.x) * 4, rowBytes);
    return tile;
}

void paste(const std::uint8_t* tile, const Rect& rect, std::uint8_t* pixels, int width) {
    const auto rowBytes = static_cast<std::size_t>(rect.width) * 4;
    for (int row = 0; row < rect.height; ++row)
        std::memcpy(pixels + ((static_cast<std::size_t>(rect.y) + row) * width + rect.x) * 4,
                    tile + static_cast<std::size_t>(row) * rowBytes, rowBytes);
}

void absorbTile(RunRecord& whole, const RunRecord& tile, TimingLog& log) {
    whole.timings.insert(whole.timings.end(), tile.timings.begin(), tile.timings.end());
    for (auto& timing : log.collect()) whole.timings.push_back(std::move(timing));
    for (const auto& build : tile.builds) {
        if (std::find(whole.builds.begin(), whole.builds.end(), build) == whole.builds.end())
            whole.builds.push_back(build);
    }
}

}  // namespace hs::tiling
