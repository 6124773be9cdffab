// bow-serial: the golden reference, one thread.
#include "engine/ops/bow/host_strategy.hpp"

namespace hs::bow {

namespace {

class SerialStrategy final : public HostStrategy {
  public:
    std::string_view name() const override { return "bow-serial"; }
    std::string_view description() const override {
        return "single-thread C++ loop over descriptors and centroids; the golden reference";
    }

  private:
    void assign(const Matrix& descriptors, const Matrix& centroids, Result& result) const override {
        result.memberships.resize(descriptors.rows());
        result.histogram.assign(centroids.rows(), 0);
        assignRange(descriptors, centroids, 0, descriptors.rows(), result.memberships.data(),
                    result.histogram);
    }
};

const SerialStrategy strategy;
const Registration<Operation> registration(strategy, 10);

}  // namespace

}  // namespace hs::bow
