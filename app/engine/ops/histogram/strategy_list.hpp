#pragma once
// Internal: the strategy objects each translation unit defines, gathered by strategies().

#include "ops/histogram/histogram.hpp"

namespace hs::histogram {

const Strategy& serialStrategy();

}  // namespace hs::histogram
