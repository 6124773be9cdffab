#include "io/files/filter_file.hpp"

#include "io/files/files.hpp"

namespace hs::io {

FilterFile readFilterFile(const std::string& path) {
    std::string text = readWholeFile(path, convolve::kMaxFilterFileBytes, "filter file");
    convolve::Filter filter = convolve::parseFilterFile(text, path);
    return {std::move(text), std::move(filter)};
}

convolve::Filter filterFromSpec(std::string_view spec, std::string* file) {
    return convolve::filterFromSpec(
        spec,
        [](const std::string& path) {
            return readWholeFile(path, convolve::kMaxFilterFileBytes, "filter file");
        },
        file);
}

}  // namespace hs::io
