// partial-reduce: sub-histograms in local memory, written out per group and summed by a second kernel.
#include "engine/ops/histogram/device_strategy.hpp"

namespace hs::histogram::device {

namespace {

class PartialReduceStrategy final : public SubHistogramStrategy {
  public:
    std::string_view name() const override { return "partial-reduce"; }
    std::string_view description() const override {
        return "per-group partial histograms written without global atomics, summed by a second kernel";
    }

  protected:
    const char* kernelName() const override { return "partial_reduce"; }
    bool mergesWithAtomics() const override { return false; }
    // Longer chunks on a GPU: the best of the H200 sweep (one copy, natural 3840x2160 frame); with it,
    // against the former four copies and 16 loads a chunk, every pattern in one run: 0.032-0.039 ->
    // 0.024-0.031 ms.
    std::size_t chosenQuadsPerItem(const DeviceInfo& device) const override {
        return device.type == DeviceType::Gpu ? 64 : 16;
    }
};

const PartialReduceStrategy strategy;
const Registration<Operation> registration(strategy, 60);

}  // namespace

}  // namespace hs::histogram::device
