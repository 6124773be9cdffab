#include "engine/ops/bow/sweep.hpp"

#include <cmath>
#include <random>

#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::bow {

namespace {

constexpr std::string_view kBaseline = "bow-gpu1-baseline";

void validate(const SweepParams& params) {
    if (params.descriptorCounts.empty() || params.centroidCounts.empty())
        throw UsageError("the sweep needs at least one descriptor count and one centroid count");
    for (const auto& list : {params.descriptorCounts, params.centroidCounts}) {
        for (const auto count : list) {
            if (count == 0 || count > (std::size_t{1} << 24))
                throw UsageError("sweep count " + std::to_string(count) + " is not within 1..16777216");
        }
    }
    if (params.repetitions < 1) throw UsageError("the sweep needs at least 1 repetition");
    for (const auto& name : params.strategies) findStrategy(name);
}

bool selected(const SweepParams& params, std::string_view name) {
    if (params.strategies.empty()) return true;
    for (const auto& wanted : params.strategies) {
        if (sameNameIgnoringCase(wanted, name)) return true;
    }
    return false;
}

void measureRow(DeviceContext* device, const Strategy& strategy, const Matrix& descriptors,
                const Matrix& centroids, const std::vector<double>& nearest, const SweepParams& params,
                SweepRow& row) {
    const auto support = supportOn<Operation>(device ? &device->info() : nullptr,
                                              shapeOf(descriptors, centroids), centroids, strategy);
    if (!support.ok) {
        row.detail = support.reason;
        return;
    }
    Result last;  // the last run's memberships and builds
    const auto runOnce = [&] {
        last = assignWords(device, descriptors, centroids, strategy);
        return last.timings;
    };
    // The transpose is taken out of the kernel time and summarised from the same runs, warm-up left out.
    constexpr int kWarmUps = 1;
    const auto clock = strategy.runsOnDevice() ? measure::Clock::Kernel : measure::Clock::Wall;
    std::vector<double> transposeNs;
    row.kernel = measure::measure({clock, kWarmUps, params.repetitions, 0}, [&] {
                     auto timings = runOnce();
                     for (auto& timing : timings) {
                         if (timing.stage == Stage::Kernel && timing.name == kTransposeKernel) {
                             transposeNs.push_back(static_cast<double>(timing.durationNs()));
                             timing.stage = Stage::Other;
                         }
                     }
                     return timings;
                 }).summary;
    if (transposeNs.size() > static_cast<std::size_t>(kWarmUps)) {
        transposeNs.erase(transposeNs.begin(), transposeNs.begin() + kWarmUps);
        row.transpose = measure::Summary::of(std::move(transposeNs));
    }
    if (!last.builds.empty()) row.detail = last.builds.front().options;
    row.misassigned = misassigned(descriptors, centroids, last.memberships, nearest);
    if (row.misassigned != 0)
        row.detail = "WRONG RESULT (" + std::to_string(row.misassigned) + " not nearest)" +
                     (row.detail.empty() ? "" : "; " + row.detail);
}

// GPU1's median kernel time over each row's, for the rows of one size from `first` on.
void addSpeedups(std::vector<SweepRow>& rows, std::size_t first) {
    const SweepRow* baseline = nullptr;
    for (std::size_t r = first; r < rows.size(); ++r) {
        if (rows[r].strategy == kBaseline && rows[r].kernel) baseline = &rows[r];
    }
    for (std::size_t r = first; baseline != nullptr && r < rows.size(); ++r) {
        if (rows[r].kernel && rows[r].kernel->median > 0)
            rows[r].speedupOverGpu1 = baseline->kernel->median / rows[r].kernel->median;
    }
}

}  // namespace

Matrix syntheticDescriptors(std::size_t count, std::uint64_t seed) {
    std::mt19937_64 random(seed);
    Matrix m(std::vector<float>(count * kDimensions));
    for (std::size_t i = 0; i < count; ++i) {
        float* row = m.row(i);
        double squares = 0;
        for (std::size_t d = 0; d < kDimensions; ++d) {
            row[d] = static_cast<float>(random() >> 40) * 0x1.0p-24f;
            squares += static_cast<double>(row[d]) * row[d];
        }
        const double scale = squares > 0 ? 1.0 / std::sqrt(squares) : 0.0;
        for (std::size_t d = 0; d < kDimensions; ++d) row[d] = static_cast<float>(row[d] * scale);
    }
    return m;
}

std::vector<SweepRow> sweep(DeviceContext* device, const SweepParams& params, const SweepProgress& progress) {
    validate(params);
    std::size_t strategiesSwept = 0;
    for (const Strategy* strategy : strategies())
        strategiesSwept += selected(params, strategy->name()) ? 1 : 0;
    const std::size_t total = params.descriptorCounts.size() * params.centroidCounts.size() * strategiesSwept;
    std::vector<SweepRow> rows;
    for (const auto n : params.descriptorCounts) {
        const Matrix descriptors = syntheticDescriptors(n, params.seed);
        for (const auto k : params.centroidCounts) {
            const Matrix centroids = syntheticDescriptors(k, params.seed + 1);
            const std::vector<double> nearest = nearestDistances(descriptors, centroids);
            const std::size_t first = rows.size();
            for (const Strategy* strategy : strategies()) {
                if (!selected(params, strategy->name())) continue;
                if (progress && !progress(rows.size(), total)) {
                    addSpeedups(rows, first);
                    return rows;
                }
                SweepRow row;
                row.descriptors = n;
                row.centroids = k;
                row.strategy = strategy->name();
                row.onDevice = strategy->runsOnDevice();
                try {
                    measureRow(device, *strategy, descriptors, centroids, nearest, params, row);
                } catch (const Error& error) {
                    row.kernel.reset();
                    row.transpose.reset();
                    row.detail = error.what();
                }
                rows.push_back(std::move(row));
            }
            addSpeedups(rows, first);
        }
    }
    return rows;
}

}  // namespace hs::bow
