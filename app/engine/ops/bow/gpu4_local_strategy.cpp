// bow-gpu4-local (the book's GPU4): the work-group's descriptors staged in local memory.
#include "engine/ops/bow/device_strategy.hpp"

namespace hs::bow {

namespace {

class LocalStrategy final : public StagedStrategy {
  public:
    std::string_view name() const override { return "bow-gpu4-local"; }
    std::string_view description() const override {
        return "GPU4: the work-group's descriptors staged in local memory, distances read from the staged "
               "copy";
    }
};

const LocalStrategy strategy;
const Registration<Operation> registration(strategy, 60);

}  // namespace

}  // namespace hs::bow
