// bow-cpu-parallel: the serial loop over the hardware threads.
#include <algorithm>
#include <thread>

#include "engine/ops/bow/host_strategy.hpp"

namespace hs::bow {

namespace {

class CpuParallelStrategy final : public HostStrategy {
  public:
    std::string_view name() const override { return "bow-cpu-parallel"; }
    std::string_view description() const override {
        return "the serial loop split over the hardware threads, one histogram per thread merged at the end";
    }

  private:
    // Below this many distances per thread, starting a thread costs more than it saves.
    static constexpr std::size_t kMinDistancesPerThread = std::size_t{1} << 16;

    void assign(const Matrix& descriptors, const Matrix& centroids, Result& result) const override {
        const std::size_t n = descriptors.rows(), k = centroids.rows();
        result.memberships.resize(n);
        result.histogram.assign(k, 0);
        const std::size_t byWork = std::max<std::size_t>(1, n * k / kMinDistancesPerThread);
        const std::size_t threads = std::clamp<std::size_t>(
            std::min<std::size_t>(byWork, n), 1, std::max(1u, std::thread::hardware_concurrency()));
        std::vector<std::vector<std::uint32_t>> histograms(threads, std::vector<std::uint32_t>(k, 0));
        std::vector<std::thread> workers;
        for (std::size_t t = 0; t < threads; ++t) {
            workers.emplace_back([&, t] {
                assignRange(descriptors, centroids, n * t / threads, n * (t + 1) / threads,
                            result.memberships.data(), histograms[t]);
            });
        }
        for (auto& worker : workers) worker.join();
        for (const auto& partial : histograms) {
            for (std::size_t c = 0; c < k; ++c) result.histogram[c] += partial[c];
        }
    }
};

const CpuParallelStrategy strategy;
const Registration<Operation> registration(strategy, 20);

}  // namespace

}  // namespace hs::bow
