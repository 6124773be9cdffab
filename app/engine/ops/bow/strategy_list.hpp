#pragma once
// Internal: the strategy objects each translation unit defines, gathered by strategies().

#include "ops/bow/bow.hpp"

namespace hs::bow {

const Strategy& serialStrategy();
const Strategy& cpuParallelStrategy();
const Strategy& baselineStrategy();
const Strategy& coalescedStrategy();
const Strategy& vectorizedStrategy();
const Strategy& localStrategy();
const Strategy& constantStrategy();
const Strategy& tiledStrategy();

}  // namespace hs::bow
