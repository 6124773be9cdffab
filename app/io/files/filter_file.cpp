#include "io/files/filter_file.hpp"

#include <filesystem>

#include "io/files/files.hpp"

namespace hs::io {

FilterFile readFilterFile(const std::string& path) {
    std::string text = readWholeFile(path, convolve::kMaxFilterFileBytes, "filter file");
    convolve::Filter filter = convolve::parseFilterFile(text, path);
    return {std::move(text), std::move(filter)};
}

convolve::Filter filterFromSpec(std::string_view spec, std::string* file) {
    if (auto named = convolve::namedFilterFromSpec(spec)) {
        if (file) file->clear();
        return std::move(*named);
    }
    const std::string path(spec);
    std::error_code error;
    if (!std::filesystem::exists(path, error)) convolve::throwUnknownFilterSpec(spec);
    FilterFile read = readFilterFile(path);
    if (file) *file = std::move(read.text);
    return std::move(read.filter);
}

}  // namespace hs::io
