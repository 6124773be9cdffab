#pragma once
// Filters named on a command line or kept in files: io reads the file (once), the engine parses the text.

#include <string>
#include <string_view>

#include "engine/ops/convolve/filter.hpp"

namespace hs::io {

struct FilterFile {
    std::string text;  // as read, for an editor to show
    convolve::Filter filter;
};

// A custom filter file: at most convolve::kMaxFilterFileBytes, parsed by convolve::parseFilterFile. Throws
// InputError naming the file: "<path>: cannot read the filter file (...)", "<path>: line 3: 'x' is not a
// number".
FilterFile readFilterFile(const std::string& path);

// What a --filter SPEC names: a registered filter kind (convolve::namedFilterFromSpec: box[:N],
// gaussian:SIGMA[:SIZE], ...) or a filter file, read once. `file`, when given, receives the file's text
// (empty for a named filter). Bad parameters: UsageError. A spec that is neither a filter name nor an
// existing file is a UsageError listing the filters when it is a bare word ("blur"), an InputError (missing
// file) when it holds a '/' or a '.'.
convolve::Filter filterFromSpec(std::string_view spec, std::string* file = nullptr);

}  // namespace hs::io
