#pragma once
// The grid of a sweep (histoscope-cli sweep; the lab's heat map later): tunables each with the values to try,
// every combination once, the first tunable varying slowest.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/ops/strategy.hpp"

namespace hs::lab {

struct Axis {
    std::string name;
    std::vector<std::string> values;  // as given: "64", "0.5"
};
using Point = std::vector<std::pair<std::string, std::string>>;  // a value per axis, in the axes' order

// "NAME=v1,v2,..." as an axis; throws UsageError "--tune: ..." for a missing name, value or a repeated value.
Axis parseAxis(std::string_view text);
// Every combination of the axes' values: the product of their sizes, in row-major order (the last axis
// varies fastest). Throws UsageError when an axis is named twice or the grid exceeds `maxPoints`.
std::vector<Point> grid(const std::vector<Axis>& axes, std::size_t maxPoints = 4096);

// Checks `axis` against the strategy's tunable of its name: integers within its range (powers of two where
// it says so); throws UsageError naming the tunable, or listing the strategy's tunables when it has none so
// called.
void checkAxis(const Axis& axis, const std::vector<Tunable>& tunables, std::string_view strategy);

}  // namespace hs::lab
