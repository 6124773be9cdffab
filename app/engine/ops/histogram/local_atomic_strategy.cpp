// local-atomic: sub-histograms in local memory, merged into the histogram with global atomics.
#include "engine/ops/histogram/device_strategy.hpp"

namespace hs::histogram::device {

namespace {

class LocalAtomicStrategy final : public SubHistogramStrategy {
  public:
    std::string_view name() const override { return "local-atomic"; }
    std::string_view description() const override {
        return "local-memory sub-histograms per work-group with local atomics, uint4 loads, merged with "
               "global atomics";
    }

  protected:
    const char* kernelName() const override { return "local_atomic"; }
    bool mergesWithAtomics() const override { return true; }
};

const LocalAtomicStrategy strategy;
const Registration<Operation> registration(strategy, 40);

}  // namespace

}  // namespace hs::histogram::device
