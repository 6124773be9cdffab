#include "ops/histogram/strategy_list.hpp"

namespace hs::histogram {

const std::vector<const Strategy*>& strategies() {
    static const std::vector<const Strategy*> list{
        &serialStrategy(),       &cpuParallelStrategy(),   &globalAtomicStrategy(), &localAtomicStrategy(),
        &privateUcharStrategy(), &partialReduceStrategy(), &autoStrategy()};
    return list;
}

}  // namespace hs::histogram
