// bow-gpu2-coalesced (the book's GPU2): assign_scalar on the descriptors transposed by a kernel of its own.
#include "engine/ops/bow/device_strategy.hpp"

namespace hs::bow {

namespace {

class CoalescedStrategy final : public DeviceStrategy {
  public:
    std::string_view name() const override { return "bow-gpu2-coalesced"; }
    std::string_view description() const override {
        return "GPU2: the descriptors transposed first (a kernel timed on its own), so neighbouring "
               "work-items read neighbouring floats";
    }

  protected:
    std::string options(const DeviceInfo&, Shape) const override { return "-D TRANSPOSED -D GROUP=1"; }
    void assign(DeviceContext& device, const cl::Program& program, const Buffers& buffers,
                TimingLog& log) const override {
        assignPerDescriptor(device, program, "assign_scalar", transpose(device, program, buffers, log),
                            buffers, log);
    }
};

const CoalescedStrategy strategy;
const Registration<Operation> registration(strategy, 40);

}  // namespace

}  // namespace hs::bow
