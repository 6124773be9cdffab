#pragma once
// A region of interest: the rectangle of an image (after the image stages) that a histogram or a scope
// counts. One syntax for every front end: "X,Y,W,H" in image pixels.

#include <string>
#include <string_view>

#include "engine/image/image.hpp"

namespace hs {

struct Region {
    int x = 0;
    int y = 0;
    int width = 0;
    int height = 0;

    // "X,Y,W,H", as parseRegion reads it.
    std::string text() const;
    // Whether it covers every pixel of a width x height image.
    bool covers(int imageWidth, int imageHeight) const {
        return x == 0 && y == 0 && width == imageWidth && height == imageHeight;
    }
    bool operator==(const Region&) const = default;
};

// "X,Y,W,H": X and Y at least 0, W and H at least 1, each a decimal integer. Anything else is a UsageError
// naming `option` ("--roi") and the text.
Region parseRegion(std::string_view text, std::string_view option);
// Throws UsageError "<option> X,Y,W,H lies outside the WxH image" unless `region` lies inside the image.
void requireInside(const Region& region, int imageWidth, int imageHeight, std::string_view option);
// The pixels of `region` (inside `rgba`, a `imageWidth` pixels wide image), packed.
ImageRGBA8 cropped(const std::uint8_t* rgba, int imageWidth, const Region& region);

}  // namespace hs
