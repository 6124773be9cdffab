#include "engine/measure/measure.hpp"

#include <algorithm>
#include <chrono>

#include "engine/runtime/error.hpp"

namespace hs::measure {

Summary Summary::of(std::vector<double> samples) {
    if (samples.empty()) throw UsageError("a summary needs at least one measured run");
    std::sort(samples.begin(), samples.end());
    const std::size_t n = samples.size();
    const double median = n % 2 == 1 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
    return {samples.front(), median, samples.back()};
}

std::string_view clockName(Clock clock) {
    return clock == Clock::Kernel ? "device" : "host";
}

double kernelNs(const std::vector<Timing>& run) {
    return static_cast<double>(totalNs(run, Stage::Kernel));
}

Summary kernelSummary(const std::vector<std::vector<Timing>>& runs) {
    std::vector<double> samples;
    samples.reserve(runs.size());
    for (const auto& run : runs) samples.push_back(kernelNs(run));
    return Summary::of(std::move(samples));
}

double gigabytesPerSecond(std::uint64_t bytes, double ns) {
    return ns > 0 ? static_cast<double>(bytes) / ns : 0.0;
}

std::optional<double> ratioToBaseline(const Summary& subject, const Summary& baseline) {
    if (subject.median <= 0 || baseline.median <= 0) return std::nullopt;
    return baseline.median / subject.median;
}

Measurement measure(const Plan& plan, const Run& run) {
    return *measureWhile(plan, run, nullptr);
}

std::optional<Measurement> measureWhile(const Plan& plan, const Run& run,
                                        const std::function<bool()>& proceed) {
    if (plan.repetitions < 1) throw UsageError("a measurement needs at least one repetition");
    for (int i = 0; i < plan.warmUps; ++i) run();
    Measurement measurement{plan.clock, plan.bytes, {}, {}, {}};
    for (int i = 0; i < plan.repetitions; ++i) {
        if (proceed && !proceed()) return std::nullopt;
        const auto start = std::chrono::steady_clock::now();
        std::vector<Timing> log = run();
        const auto wall = std::chrono::steady_clock::now() - start;
        measurement.samplesNs.push_back(
            plan.clock == Clock::Kernel
                ? kernelNs(log)
                : static_cast<double>(std::chrono::duration_cast<std::chrono::nanoseconds>(wall).count()));
        measurement.runs.push_back(std::move(log));
    }
    measurement.summary = Summary::of(measurement.samplesNs);
    return measurement;
}

}  // namespace hs::measure
