#pragma once
// Scopes (issue 25): the waveform, the RGB parade and the vectorscope, 2-D histograms of an image (or of a
// region of it), with exact integer definitions so that every strategy and the reference agree bit for bit:
//
//   luma        (299 R + 587 G + 114 B + 500) / 1000, as everywhere in HistoScope
//   waveform    of a channel c in {r, g, b, luma}: for each of W' column bins (default min(width, 1024);
//               column x goes to bin x * W' / width), the 256-value histogram of c over that bin's pixels:
//               256 x W' counts, value-major ([value][column bin])
//   parade      the r, g and b waveforms: 3 x 256 x W' ([channel][value][column bin])
//   vectorscope full-range BT.601 chroma as in JPEG, Cb = (-11059 R - 21709 G + 32768 B + 8421375) >> 16,
//               Cr = (32768 R - 27439 G - 5329 B + 8421375) >> 16 (both 0..255): 256 x 256 counts ([Cr][Cb])
//
// With a region, x, width and the pixels are the region's; with ignoreTransparent, pixels of alpha 0 count
// nowhere (as in the histogram's r, g, b and luma).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/image/pixel_source.hpp"
#include "engine/image/region.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/operation.hpp"

namespace hs::scope {

enum class Kind { Waveform, Parade, Vectorscope };
// The waveform's channel is the histogram's channel type (the parade's are r, g and b; the vectorscope has
// none): r, g, b or luma, named as everywhere ("r", "g", "b", "luma"); a waveform of alpha is refused.
using histogram::Channel;
using histogram::channelName;

inline constexpr int kValues = 256;
inline constexpr int kDefaultMaxColumns = 1024;
// Column bins a user may ask for: 256 x 8192 uint32 counters are 8 MiB.
inline constexpr int kMaxColumns = 8192;

// "waveform", "parade", "vectorscope": the option values and JSON strings.
std::string_view kindName(Kind kind);
// The kind or waveform channel (r, g, b, luma) called `text` (in any case); UsageError "<option> expects ...,
// got 'x'".
Kind parseKind(std::string_view text, std::string_view option);
Channel parseChannel(std::string_view text, std::string_view option);

constexpr int cb(int r, int g, int b) {
    return (-11059 * r - 21709 * g + 32768 * b + 8421375) >> 16;
}
constexpr int cr(int r, int g, int b) {
    return (32768 * r - 27439 * g - 5329 * b + 8421375) >> 16;
}

struct Params {
    Kind kind = Kind::Waveform;
    Channel channel = Channel::Luma;           // the waveform's
    int columns = 0;                           // waveform and parade; 0: min(width, 1024) of what is counted
    std::optional<Region> roi = std::nullopt;  // none: the whole image
    bool ignoreTransparent = false;
};

// Throws UsageError for columns outside 0..kMaxColumns, or a waveform of a channel other than r, g, b, luma.
void validate(const Params& params);

// The rectangle counted: the region, or the whole image.
Region countedRegion(const Params& params, int imageWidth, int imageHeight);
// W' for a counted rectangle `width` pixels wide (the vectorscope's 256 Cb columns).
int columnsFor(const Params& params, int width);

// The counts of one scope: planes x rows x columns uint32, row-major (numpy's C order of the .npy shapes
// (256, W'), (3, 256, W'), (256, 256)).
struct Counts {
    Kind kind = Kind::Waveform;
    Channel channel = Channel::Luma;  // a waveform's
    int planes = 1;                   // 3 for a parade
    int rows = kValues;               // values (waveform, parade) or Cr (vectorscope)
    int columns = 0;                  // column bins or Cb
    std::vector<std::uint32_t> counts;

    Counts() = default;
    // Zero counts of the scope `params` asks for on a counted rectangle `width` pixels wide.
    Counts(const Params& params, int width);
    std::uint32_t at(int plane, int row, int column) const {
        return counts[(static_cast<std::size_t>(plane) * rows + static_cast<std::size_t>(row)) *
                          static_cast<std::size_t>(columns) +
                      static_cast<std::size_t>(column)];
    }
    // The array's shape as numpy gives it.
    std::vector<std::size_t> shape() const;
    bool operator==(const Counts&) const = default;
};

struct Result : RunRecord {
    Counts counts;
    Region region;  // what was counted
};

// The scopes as an operation (ops/operation.hpp): device strategies fall back to the reference on the host
// where they cannot run (an image beyond one buffer), saying why.
struct Operation {
    static constexpr OperationKind kKind = OperationKind::Scope;
    static constexpr std::string_view kStrategyNoun = "scope strategy";
    static constexpr std::string_view kFallback = "serial";
    using Params = scope::Params;
    using Input = PixelSource;
    using Result = scope::Result;
};

using Strategy = hs::Strategy<Operation>;

inline const std::vector<const Strategy*>& strategies() {
    return Registry<Operation>::list();
}
inline const Strategy& findStrategy(std::string_view name) {
    return Registry<Operation>::find(name);
}

// The entry point: validates, checks the region lies inside the image (UsageError naming the image size),
// chooses (falling back with a note) and runs.
Result computeScope(DeviceContext* device, PixelSource& pixels, const Params& params,
                    const Strategy& strategy);

// The golden reference: one loop over the counted rectangle of `rgba` (an imageWidth x imageHeight image),
// straight from the definitions above.
Counts referenceScope(const std::uint8_t* rgba, int imageWidth, int imageHeight, const Params& params);

}  // namespace hs::scope
