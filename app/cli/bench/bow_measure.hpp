#pragma once
// The one place where the visual-words sweep (ops/bow/sweep.hpp) meets a measuring discipline: today the
// bench's (bench/measure.hpp), shared by histoscope-bench's `bow` suite and `histoscope-cli bow-sweep`. When
// measuring moves into the engine, only this file changes.

#include "bench/measure.hpp"
#include "ops/bow/sweep.hpp"

namespace hs::bench {

inline bow::KernelStats bowStats(const Stats& stats) {
    return {stats.minNs, stats.medianNs, stats.maxNs};
}

inline bow::Measurer bowMeasurer() {
    return {[](int repetitions, const std::function<std::vector<Timing>()>& run) {
                return bowStats(measureDevice(repetitions, run));
            },
            [](int repetitions, const std::function<void()>& run) {
                return bowStats(measureHost(repetitions, run));
            },
            [](std::vector<double> samples) { return bowStats(Stats::of(std::move(samples))); }};
}

}  // namespace hs::bench
