// bow-gpu5-constant (the book's GPU5): GPU4 with the centroids in __constant memory, where they fit.
#include "engine/ops/bow/device_strategy.hpp"

namespace hs::bow {

namespace {

class ConstantStrategy final : public StagedStrategy {
  public:
    std::string_view name() const override { return "bow-gpu5-constant"; }
    std::string_view description() const override {
        return "GPU5: GPU4 with the centroids in __constant memory";
    }
    Support supported(const DeviceInfo* device, Shape shape, const Matrix& centroids) const override {
        if (auto staged = StagedStrategy::supported(device, shape, centroids); !staged.ok) return staged;
        const std::uint64_t bytes = shape.centroids * kDimensions * sizeof(float);
        if (bytes > device->constantMemBytes)
            return Support::no(
                std::to_string(shape.centroids) + " centroids take " + kibibytes(bytes) +
                ", more than the device's constant buffer (CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE " +
                kibibytes(device->constantMemBytes) + ")");
        return Support::yes();
    }

  protected:
    std::string options(const DeviceInfo& device, Shape shape) const override {
        return StagedStrategy::options(device, shape) + " -D CENTROID_SPACE=__constant";
    }
};

const ConstantStrategy strategy;
const Registration<Operation> registration(strategy, 70);

}  // namespace

}  // namespace hs::bow
