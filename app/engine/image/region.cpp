#include "engine/image/region.hpp"

#include <charconv>
#include <cstring>
#include <limits>

#include "engine/runtime/error.hpp"

namespace hs {

std::string Region::text() const {
    return std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(width) + "," +
           std::to_string(height);
}

Region parseRegion(std::string_view text, std::string_view option) {
    const auto bad = [&](std::string_view why) {
        return UsageError(std::string(option) + " expects X,Y,W,H (" + std::string(why) + "), got '" +
                          std::string(text) + "'");
    };
    int values[4] = {};
    const char* at = text.data();
    const char* end = text.data() + text.size();
    for (int i = 0; i < 4; ++i) {
        if (i > 0) {
            if (at == end || *at != ',') throw bad("four integers separated by commas");
            ++at;
        }
        // from_chars takes no sign but '-', which the range check refuses, and no spaces.
        const auto [next, error] = std::from_chars(at, end, values[i]);
        if (error != std::errc() || next == at) throw bad("four integers separated by commas");
        at = next;
    }
    if (at != end) throw bad("four integers separated by commas");
    if (values[0] < 0 || values[1] < 0) throw bad("X and Y at least 0");
    if (values[2] < 1 || values[3] < 1) throw bad("W and H at least 1");
    return {values[0], values[1], values[2], values[3]};
}

void requireInside(const Region& region, int imageWidth, int imageHeight, std::string_view option) {
    // In 64 bits: X + W may exceed an int.
    const auto right = static_cast<long long>(region.x) + region.width;
    const auto bottom = static_cast<long long>(region.y) + region.height;
    if (region.x < 0 || region.y < 0 || region.width < 1 || region.height < 1 || right > imageWidth ||
        bottom > imageHeight)
        throw UsageError(std::string(option) + " " + region.text() + " lies outside the " +
                         std::to_string(imageWidth) + "x" + std::to_string(imageHeight) + " image");
}

ImageRGBA8 cropped(const std::uint8_t* rgba, int imageWidth, const Region& region) {
    ImageRGBA8 out(region.width, region.height);
    const std::size_t rowBytes = static_cast<std::size_t>(region.width) * 4;
    for (int y = 0; y < region.height; ++y) {
        const std::size_t from =
            (static_cast<std::size_t>(region.y + y) * static_cast<std::size_t>(imageWidth) +
             static_cast<std::size_t>(region.x)) *
            4;
        std::memcpy(out.pixel(0, y), rgba + from, rowBytes);
    }
    return out;
}

}  // namespace hs
