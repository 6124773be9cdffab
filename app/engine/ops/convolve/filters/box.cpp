// The box filter: the mean of an N×N square.
#include <string>

#include "engine/ops/convolve/filter.hpp"
#include "engine/runtime/error.hpp"

namespace hs::convolve {

Filter boxFilter(int size) {
    if (size < 1 || size > kMaxFilterSize)
        throw UsageError("box filter size must be within 1..15, got " + std::to_string(size));
    return filterFromRows("box", size, size, std::vector<double>(static_cast<std::size_t>(size * size), 1.0),
                          static_cast<double>(size * size));
}

namespace {

[[maybe_unused]] const bool registered = registerFilterKind({
    .name = "box",
    .label = "Box N×N",
    .help = "The mean of an N×N square",
    .order = 10,
    .parameters = {{.name = "size",
                    .placeholder = "N",
                    .label = "Size",
                    .help = "Side of the square, in pixels: every tap 1 / N²",
                    .type = FilterParameter::Type::Integer,
                    .min = 1,
                    .max = kMaxFilterSize,
                    .defaultValue = 3}},
    .make = [](const std::vector<double>& values) { return boxFilter(static_cast<int>(values[0])); },
});

}  // namespace

}  // namespace hs::convolve
