// The visual-words builders (issue 9): the book's table of descriptors x centroids x strategies on synthetic
// descriptors (ops/bow/sweep.hpp). It reads no image, so it runs once, beside the first input. The book's
// descriptor counts {4096, 16384, 65536} are measured where their matrix (count x 256 bytes) is no larger
// than the largest --sizes; when none is, the one count that is (so `--sizes 0.25` measures 1024).
#include <algorithm>
#include <cstdio>

#include "bench/suite.hpp"
#include "ops/bow/sweep.hpp"

namespace hs::bench {

namespace {

constexpr std::size_t kDescriptorBytes = bow::kDimensions * sizeof(float);

std::vector<std::size_t> descriptorCounts(const Options& options) {
    const double largest = *std::max_element(options.sizesMiB.begin(), options.sizesMiB.end());
    const auto fitting = static_cast<std::size_t>(largest * 1024 * 1024) / kDescriptorBytes;
    std::vector<std::size_t> counts;
    for (const std::size_t count : bow::SweepParams{}.descriptorCounts) {
        if (count <= fitting) counts.push_back(count);
    }
    if (counts.empty()) counts.push_back(std::max<std::size_t>(1, fitting));
    return counts;
}

void runBow(SuiteContext& context, Input&) {
    static bool ran = false;
    if (ran) return;
    ran = true;
    bow::SweepParams params;
    params.descriptorCounts = descriptorCounts(context.options);
    params.repetitions = context.options.repetitions;
    for (const auto* strategy : bow::strategies()) {
        if (Options::selected(context.options.strategies, std::string(strategy->name())))
            params.strategies.emplace_back(strategy->name());
    }
    if (params.strategies.empty()) return;
    for (const auto& result : bow::sweep(context.device, params)) {
        Row row;
        row.suite = "bow";
        row.subject = result.strategy;
        row.input = std::to_string(result.descriptors) + " descriptors x " + std::to_string(result.centroids);
        row.bytes = (result.descriptors + result.centroids) * kDescriptorBytes;
        row.clock = result.onDevice ? measure::Clock::Kernel : measure::Clock::Wall;
        row.summary = result.kernel;
        row.detail = result.kernel || context.device != nullptr || !result.onDevice ? result.detail
                                                                                    : context.deviceProblem;
        row.extra["descriptors"] = static_cast<double>(result.descriptors);
        row.extra["centroids"] = static_cast<double>(result.centroids);
        if (result.speedupOverGpu1) row.extra["speedup_over_gpu1"] = *result.speedupOverGpu1;
        if (result.transpose) {
            row.extra["transpose_min_ns"] = result.transpose->min;
            row.extra["transpose_median_ns"] = result.transpose->median;
            row.extra["transpose_max_ns"] = result.transpose->max;
        }
        context.report.add(std::move(row));
    }
}

const RegisterSuite bowSuite("bow", runBow);

}  // namespace

}  // namespace hs::bench
