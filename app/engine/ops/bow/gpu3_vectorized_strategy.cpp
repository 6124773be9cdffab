// bow-gpu3-vectorized (the book's GPU3): assign_vector, float4 loads.
#include "engine/ops/bow/device_strategy.hpp"

namespace hs::bow {

namespace {

class VectorizedStrategy final : public DeviceStrategy {
  public:
    std::string_view name() const override { return "bow-gpu3-vectorized"; }
    std::string_view description() const override {
        return "GPU3: float4 loads from the descriptors transposed in groups of 4 dimensions";
    }

  protected:
    std::string options(const DeviceInfo&, Shape) const override { return "-D GROUP=4"; }
    void assign(DeviceContext& device, const cl::Program& program, const Buffers& buffers,
                TimingLog& log) const override {
        assignPerDescriptor(device, program, "assign_vector", transpose(device, program, buffers, log),
                            buffers, log);
    }
};

const VectorizedStrategy strategy;
const Registration<Operation> registration(strategy, 50);

}  // namespace

}  // namespace hs::bow
