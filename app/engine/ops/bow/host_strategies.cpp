// The builders that run on the host: the golden reference and a multithreaded one.
#include <algorithm>
#include <chrono>
#include <thread>

#include "ops/bow/strategy_list.hpp"

namespace hs::bow {

namespace {

// Assigns descriptors [first, last) into `memberships` and counts them into `histogram`.
void assignRange(const Matrix& descriptors, const Matrix& centroids, std::size_t first, std::size_t last,
                 std::uint32_t* memberships, std::vector<std::uint32_t>& histogram) {
    for (std::size_t i = first; i < last; ++i) {
        memberships[i] = nearestCentroid(descriptors.row(i), centroids);
        ++histogram[memberships[i]];
    }
}

class HostStrategy : public Strategy {
  public:
    bool runsOnDevice() const override { return false; }
    Support supported(const DeviceInfo*, const Problem&) const override { return Support::yes(); }
    Result run(DeviceContext*, const Matrix& descriptors, const Matrix& centroids) const override {
        Result result;
        result.strategy = name();
        TimingLog log;
        const auto start = std::chrono::steady_clock::now();
        assign(descriptors, centroids, result);
        log.addHost(Stage::Kernel, std::string(name()), start, std::chrono::steady_clock::now());
        result.timings = log.collect();
        return result;
    }

  protected:
    virtual void assign(const Matrix& descriptors, const Matrix& centroids, Result& result) const = 0;
};

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

}  // namespace

const Strategy& serialStrategy() {
    static const SerialStrategy strategy;
    return strategy;
}
const Strategy& cpuParallelStrategy() {
    static const CpuParallelStrategy strategy;
    return strategy;
}

}  // namespace hs::bow
