#pragma once
// What the bench measures on: generated patterns of a given size (raw RGBA8 files are read by io/files).

#include <cstdint>
#include <string>
#include <vector>

#include "bench/options.hpp"
#include "image/image.hpp"

namespace hs::bench {

// "uniform" (every byte random), "all-equal" (one colour), "gaussian" (each byte normal around 128, sigma 12,
// clamped), "gradient" (smooth ramps).
const std::vector<std::string>& patternNames();

// An image of `bytes` bytes (rounded down to whole pixels, at least one); throws UsageError for an unknown
// name.
ImageRGBA8 makePattern(const std::string& name, std::uint64_t bytes);
// The pattern at a given size.
ImageRGBA8 makePattern(const std::string& name, int width, int height);

}  // namespace hs::bench
