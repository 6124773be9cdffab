#include "engine/ops/bow/host_strategy.hpp"

#include <chrono>

namespace hs::bow {

Result HostStrategy::run(DeviceContext*, const Matrix& descriptors, const Matrix& centroids) const {
    Result result;
    result.strategy = this;
    TimingLog log;
    const auto start = std::chrono::steady_clock::now();
    assign(descriptors, centroids, result);
    log.addHost(Stage::Kernel, std::string(name()), start, std::chrono::steady_clock::now());
    result.timings = log.collect();
    return result;
}

void assignRange(const Matrix& descriptors, const Matrix& centroids, std::size_t first, std::size_t last,
                 std::uint32_t* memberships, std::vector<std::uint32_t>& histogram) {
    for (std::size_t i = first; i < last; ++i) {
        memberships[i] = nearestCentroid(descriptors.row(i), centroids);
        ++histogram[memberships[i]];
    }
}

}  // namespace hs::bow
