// The filters without parameters: sharpen, emboss, Laplacian and the Sobel gradient magnitude.
#include "engine/ops/convolve/filter.hpp"

namespace hs::convolve {

Filter sharpenFilter() {
    return filterFromRows("sharpen", 3, 3, {0, -1, 0, -1, 5, -1, 0, -1, 0});
}

Filter embossFilter() {
    return filterFromRows("emboss", 3, 3, {-2, -1, 0, -1, 1, 1, 0, 1, 2});
}

Filter laplacianFilter() {
    return filterFromRows("laplacian", 3, 3, {0, 1, 0, 1, -4, 1, 0, 1, 0});
}

Filter sobelFilter() {
    Filter filter = filterFromRows("sobel magnitude", 3, 3, {-1, 0, 1, -2, 0, 2, -1, 0, 1});
    filter.tapsB = {-1, -2, -1, 0, 0, 0, 1, 2, 1};
    return filter;
}

namespace {

template <Filter (*make)()>
bool registerFixed(const char* name, const char* label, const char* help, int order) {
    return registerFilterKind(
        {.name = name, .label = label, .help = help, .order = order, .make = [](const std::vector<double>&) {
             return make();
         }});
}

[[maybe_unused]] const bool registered =
    registerFixed<sharpenFilter>("sharpen", "Sharpen", "Adds the difference to the four neighbours", 40) &&
    registerFixed<embossFilter>("emboss", "Emboss", "Relief lit from the top left", 50) &&
    registerFixed<laplacianFilter>("laplacian", "Laplacian", "Second derivative: edges of both signs", 60) &&
    registerFixed<sobelFilter>("sobel", "Sobel magnitude", "Gradient magnitude of the two Sobel filters", 70);

}  // namespace

}  // namespace hs::convolve
