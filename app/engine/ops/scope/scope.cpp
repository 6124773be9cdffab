#include "engine/ops/scope/scope.hpp"

#include <algorithm>
#include <limits>

#include "engine/ops/histogram/histogram.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::scope {

namespace {

constexpr Kind kKinds[] = {Kind::Waveform, Kind::Parade, Kind::Vectorscope};
constexpr Channel kWaveformChannels[] = {Channel::Luma, Channel::R, Channel::G, Channel::B};

template <typename T, std::size_t N>
T parseName(const T (&all)[N], std::string_view (*name)(T), std::string_view text, std::string_view option) {
    std::string known;
    for (const T value : all) {
        if (sameNameIgnoringCase(name(value), text)) return value;
        known += (known.empty() ? "" : ", ") + std::string(name(value));
    }
    throw UsageError(std::string(option) + " expects one of " + known + ", got '" + std::string(text) + "'");
}

}  // namespace

std::string_view kindName(Kind kind) {
    switch (kind) {
        case Kind::Waveform:
            return "waveform";
        case Kind::Parade:
            return "parade";
        case Kind::Vectorscope:
            break;
    }
    return "vectorscope";
}

Kind parseKind(std::string_view text, std::string_view option) {
    return parseName(kKinds, kindName, text, option);
}

Channel parseChannel(std::string_view text, std::string_view option) {
    return parseName(kWaveformChannels, channelName, text, option);
}

void validate(const Params& params) {
    if (params.columns < 0 || params.columns > kMaxColumns)
        throw UsageError("columns must be within 1.." + std::to_string(kMaxColumns) + ", got " +
                         std::to_string(params.columns));
    if (params.kind == Kind::Waveform && std::find(std::begin(kWaveformChannels), std::end(kWaveformChannels),
                                                   params.channel) == std::end(kWaveformChannels))
        throw UsageError("a waveform counts r, g, b or luma, not " +
                         std::string(channelName(params.channel)));
}

Region countedRegion(const Params& params, int imageWidth, int imageHeight) {
    return params.roi ? *params.roi : Region{0, 0, imageWidth, imageHeight};
}

int columnsFor(const Params& params, int width) {
    if (params.kind == Kind::Vectorscope) return kValues;
    return params.columns > 0 ? params.columns : std::min(width, kDefaultMaxColumns);
}

Counts::Counts(const Params& params, int width)
    : kind(params.kind),
      channel(params.kind == Kind::Waveform ? params.channel : Channel::Luma),
      planes(params.kind == Kind::Parade ? 3 : 1),
      rows(kValues),
      columns(columnsFor(params, width)),
      counts(static_cast<std::size_t>(planes) * kValues * static_cast<std::size_t>(columns), 0) {}

std::vector<std::size_t> Counts::shape() const {
    if (planes > 1)
        return {static_cast<std::size_t>(planes), static_cast<std::size_t>(rows),
                static_cast<std::size_t>(columns)};
    return {static_cast<std::size_t>(rows), static_cast<std::size_t>(columns)};
}

Result computeScope(DeviceContext* device, PixelSource& pixels, const Params& params,
                    const Strategy& strategy) {
    validate(params);
    if (params.roi) requireInside(*params.roi, pixels.width(), pixels.height(), "--roi");
    const Region region = countedRegion(params, pixels.width(), pixels.height());
    if (region.width < 1 || region.height < 1) throw UsageError("scope: the image has no pixels");
    if (static_cast<std::uint64_t>(region.width) * static_cast<std::uint64_t>(region.height) >
        std::numeric_limits<std::uint32_t>::max())
        throw UsageError("scope: more than 2^32-1 pixels overflow the 32-bit counts");
    Result result = runChosen<Operation>(device, pixels, {pixels.width(), pixels.height()}, params, strategy);
    result.region = region;
    return result;
}

Counts referenceScope(const std::uint8_t* rgba, int imageWidth, int imageHeight, const Params& params) {
    const Region region = countedRegion(params, imageWidth, imageHeight);
    Counts out(params, region.width);
    const auto columns = static_cast<std::size_t>(out.columns);
    for (int y = 0; y < region.height; ++y) {
        for (int x = 0; x < region.width; ++x) {
            const std::uint8_t* p =
                rgba + (static_cast<std::size_t>(region.y + y) * static_cast<std::size_t>(imageWidth) +
                        static_cast<std::size_t>(region.x + x)) *
                           4;
            if (params.ignoreTransparent && p[3] == 0) continue;
            const int r = p[0], g = p[1], b = p[2];
            if (params.kind == Kind::Vectorscope) {
                ++out.counts[static_cast<std::size_t>(cr(r, g, b)) * kValues +
                             static_cast<std::size_t>(cb(r, g, b))];
                continue;
            }
            // In 64 bits: x * W' may exceed an int.
            const auto bin = static_cast<std::size_t>(static_cast<std::uint64_t>(x) * columns /
                                                      static_cast<std::uint64_t>(region.width));
            const auto count = [&](int plane, int value) {
                ++out.counts[(static_cast<std::size_t>(plane) * kValues + static_cast<std::size_t>(value)) *
                                 columns +
                             bin];
            };
            if (params.kind == Kind::Parade) {
                count(0, r), count(1, g), count(2, b);
                continue;
            }
            switch (params.channel) {
                case Channel::R:
                    count(0, r);
                    break;
                case Channel::G:
                    count(0, g);
                    break;
                case Channel::B:
                    count(0, b);
                    break;
                case Channel::Luma:
                    count(0, histogram::luma(r, g, b));
                    break;
                case Channel::A:  // refused by validate()
                    break;
            }
        }
    }
    return out;
}

}  // namespace hs::scope
