// bow-gpu1-baseline (the book's GPU1): assign_scalar on the descriptors as they come.
#include "engine/ops/bow/device_strategy.hpp"

namespace hs::bow {

namespace {

class BaselineStrategy final : public DeviceStrategy {
  public:
    std::string_view name() const override { return "bow-gpu1-baseline"; }
    std::string_view description() const override {
        return "GPU1: a work-item per descriptor reading its row, global atomics";
    }

  protected:
    std::string options(const DeviceInfo&, Shape) const override { return ""; }
    void assign(DeviceContext& device, const cl::Program& program, const Buffers& buffers,
                TimingLog& log) const override {
        assignPerDescriptor(device, program, "assign_scalar", buffers.descriptors, buffers, log);
    }
};

const BaselineStrategy strategy;
const Registration<Operation> registration(strategy, 30);

}  // namespace

}  // namespace hs::bow
