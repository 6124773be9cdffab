#pragma once
// Internal: the strategy objects each translation unit defines, gathered by strategies().

#include "ops/histogram/histogram.hpp"

namespace hs::histogram {

const Strategy& serialStrategy();
const Strategy& cpuParallelStrategy();
const Strategy& globalAtomicStrategy();
const Strategy& localAtomicStrategy();
const Strategy& privateUcharStrategy();
const Strategy& partialReduceStrategy();
const Strategy& autoStrategy();

}  // namespace hs::histogram
