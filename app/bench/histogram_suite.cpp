// Every histogram strategy on every input: device strategies timed by their kernel events beside the
// streaming read of the same bytes, host strategies by the steady clock. Each result is checked against the
// reference.
#include "bench/suite.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::bench {

namespace {

using histogram::Params;
using histogram::Strategy;

void measureStrategy(SuiteContext& context, Input& input, const Strategy& strategy,
                     const histogram::Histogram& expected, Row& row) {
    const Params params{context.options.bins};
    if (strategy.runsOnDevice() && context.device == nullptr) {
        row.detail = context.deviceProblem;
        return;
    }
    const auto support = strategy.supported(context.device ? &context.device->info() : nullptr,
                                            {input.image.width, input.image.height}, params);
    if (!support.ok) {
        row.detail = support.reason;
        return;
    }
    std::string ranAs;
    std::vector<KernelBuild> builds;
    bool exact = true;
    const auto runOnce = [&] {
        auto result = histogram::computeHistogram(strategy.runsOnDevice() ? context.device : nullptr,
                                                  input.pixels, params, strategy);
        exact = exact && result.histogram == expected;
        ranAs = std::string(result.strategy->name());
        builds = std::move(result.builds);
        return std::move(result.timings);
    };
    row.take(measure::measure({row.clock, 1, context.options.repetitions, row.bytes}, runOnce));
    if (strategy.runsOnDevice()) {
        TimingLog noTransfer;  // the runs above left the pixels on the device
        const auto& read =
            context.baselines->streamRead(input.pixels.device(*context.device, noTransfer), row.bytes);
        row.baselineRatio = measure::ratioToBaseline(*row.summary, read);
        if (!builds.empty()) row.detail = builds.front().options;
        if (ranAs != strategy.name()) row.detail = "chose " + ranAs + ": " + row.detail;
    }
    if (!exact) row.detail = "WRONG RESULT (differs from serial); " + row.detail;
}

void runHistogram(SuiteContext& context, Input& input) {
    const auto& image = input.image;
    const auto expected =
        histogram::referenceHistogram(image.pixels.data(), image.pixelCount(), context.options.bins);
    for (const Strategy* strategy : histogram::strategies()) {
        if (!Options::selected(context.options.strategies, std::string(strategy->name()))) continue;
        Row row;
        row.suite = "histogram";
        row.subject = std::string(strategy->name());
        row.input = input.name;
        row.bytes = image.byteCount();
        row.clock = strategy->runsOnDevice() ? measure::Clock::Kernel : measure::Clock::Wall;
        row.extra["bins"] = context.options.bins;
        try {
            measureStrategy(context, input, *strategy, expected, row);
        } catch (const Error& error) {
            row.summary.reset();
            row.baselineRatio.reset();
            row.detail = error.what();
        }
        context.report.add(std::move(row));
    }
}

const RegisterSuite histogramSuite("histogram", runHistogram);

}  // namespace

}  // namespace hs::bench
