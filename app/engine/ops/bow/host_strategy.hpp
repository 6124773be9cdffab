#pragma once
// The frame of the builders that run on the host: support everywhere, the assignment timed on the host's
// clock as one kernel record named after the strategy.

#include "engine/ops/bow/bow.hpp"

namespace hs::bow {

class HostStrategy : public Strategy {
  public:
    bool runsOnDevice() const final { return false; }
    Support supported(const DeviceInfo*, Shape, const Matrix&) const final { return Support::yes(); }
    Result run(DeviceContext* device, const Matrix& descriptors, const Matrix& centroids) const final;

  protected:
    // Fills result.memberships and result.histogram.
    virtual void assign(const Matrix& descriptors, const Matrix& centroids, Result& result) const = 0;
};

// Assigns descriptors [first, last) to their nearestCentroid() into `memberships` and counts them into
// `histogram`.
void assignRange(const Matrix& descriptors, const Matrix& centroids, std::size_t first, std::size_t last,
                 std::uint32_t* memberships, std::vector<std::uint32_t>& histogram);

}  // namespace hs::bow
