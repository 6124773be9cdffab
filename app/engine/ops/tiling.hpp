#pragma once
// Images beyond a device's limits (its largest allocation, its 2-D image size) run in tiles: the output is
// cut into rectangles, each computed from the part of the input it needs (a convolution's halo, a rotation's
// source bounding box) and put together on the host. A run that tiled says so in its RunRecord note.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/ops/operation.hpp"

namespace hs::tiling {

struct Rect {
    int x = 0;
    int y = 0;
    int width = 0;
    int height = 0;
};

// Rectangles of at most `tile` covering `whole`, row by row; the last of a row or column is smaller.
std::vector<Rect> cover(ImageShape whole, ImageShape tile);

// The largest tile, from `whole` halving its longer side, for which `fits` holds; none when not even 1x1
// does.
std::optional<ImageShape> largestTile(ImageShape whole, const std::function<bool(ImageShape)>& fits);

// "ran in N tiles of at most WxH: <why>": what a tiled run's note says.
std::string note(ImageShape whole, ImageShape tile, const std::string& why);

// The `rect` of a `width`-pixel-wide RGBA8 image, as packed rows.
std::vector<std::uint8_t> cut(const std::uint8_t* pixels, int width, const Rect& rect);
// Writes packed `tile` rows into `rect` of a `width`-pixel-wide RGBA8 image.
void paste(const std::uint8_t* tile, const Rect& rect, std::uint8_t* pixels, int width);
// Adds a tile's run to the whole image's record: its timings, then the host commands `log` holds (the tile's
// read-back), and the builds the record does not list yet.
void absorbTile(RunRecord& whole, const RunRecord& tile, TimingLog& log);

// How an operation runs on an output of `output`: the strategy, its note, and the tile when it runs in tiles.
template <class Op>
struct Plan {
    const Strategy<Op>* strategy = nullptr;
    std::string note;
    std::optional<ImageShape> tile;
};

// Where the requested strategy cannot run on the whole image, chooseRunnable's fallback if that can, and only
// then the requested strategy in tiles, else the fallback in tiles. `wholeFits(strategy)` says why a strategy
// cannot run on the whole image (yes when it can); `tileFits(strategy, tile)` whether it runs on an output
// tile of that shape (its input region included). Throws OpenClError with chooseRunnable's reasons when
// nothing runs, not even in 1x1 tiles.
template <class Op>
Plan<Op> plan(const DeviceInfo& device, ImageShape output, const Strategy<Op>& requested,
              const std::function<Support(const Strategy<Op>&)>& wholeFits,
              const std::function<bool(const Strategy<Op>&, ImageShape)>& tileFits) {
    const std::string name(requested.name());
    const Support support = wholeFits(requested);
    if (support.ok) return {&requested, {}, std::nullopt};
    const std::string why =
        "device " + device.name + ": strategy " + name + " unsupported: " + support.reason;
    const Strategy<Op>* fallback = Registry<Op>::fallback();
    const bool hasFallback = fallback != nullptr && fallback != &requested;
    Support fallbackSupport = Support::no("");
    if (hasFallback) {
        fallbackSupport = wholeFits(*fallback);
        if (fallbackSupport.ok)
            return {fallback, why + "; used " + std::string(fallback->name()), std::nullopt};
    }
    // Why neither runs on the whole image.
    const std::string whyNot =
        hasFallback ? why + "; " + std::string(fallback->name()) + " unsupported: " + fallbackSupport.reason
                    : why;
    const auto tiled = [&](const Strategy<Op>& strategy) {
        return largestTile(output, [&](ImageShape tile) { return tileFits(strategy, tile); });
    };
    if (const auto tile = tiled(requested)) return {&requested, note(output, *tile, whyNot), tile};
    if (hasFallback) {
        if (const auto tile = tiled(*fallback))
            return {fallback, note(output, *tile, whyNot + "; used " + std::string(fallback->name())), tile};
    }
    throw OpenClError("running " + name, 0, whyNot);
}

}  // namespace hs::tiling
