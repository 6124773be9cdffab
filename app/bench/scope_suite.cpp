// Every scope strategy on a video frame (--frame, 3840x2160 by default; raw inputs at their own size): the
// luma waveform, the RGB parade and the vectorscope, device strategies timed by their counting kernels'
// events beside the streaming read of the same bytes on the same buffer (the frame uploaded once), host
// strategies by the steady clock. Each result is checked against the reference.
#include <set>

#include "bench/inputs.hpp"
#include "bench/suite.hpp"
#include "engine/ops/scope/scope.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::bench {

namespace {

std::vector<scope::Params> scopes() {
    scope::Params waveform;
    scope::Params parade;
    parade.kind = scope::Kind::Parade;
    scope::Params vectorscope;
    vectorscope.kind = scope::Kind::Vectorscope;
    return {waveform, parade, vectorscope};
}

std::string subjectOf(const scope::Params& params, const scope::Strategy& strategy) {
    // Appended piece by piece: GCC 12 takes a chain of + here for overlapping copies (-Wrestrict).
    std::string subject(scope::kindName(params.kind));
    if (params.kind == scope::Kind::Waveform) subject.append(" ").append(scope::channelName(params.channel));
    return subject.append(" ").append(strategy.name());
}

void measureStrategy(SuiteContext& context, PixelSource& pixels, const ImageRGBA8& frame,
                     const scope::Params& params, const scope::Strategy& strategy,
                     const scope::Counts& expected, Row& row) {
    if (strategy.runsOnDevice() && context.device == nullptr) {
        row.detail = context.deviceProblem;
        return;
    }
    const auto support = strategy.supported(context.device ? &context.device->info() : nullptr,
                                            {frame.width, frame.height}, params);
    if (!support.ok) {
        row.detail = support.reason;
        return;
    }
    bool exact = true;
    std::string ranAs;
    std::vector<KernelBuild> builds;
    const auto runOnce = [&] {
        auto result =
            scope::computeScope(strategy.runsOnDevice() ? context.device : nullptr, pixels, params, strategy);
        exact = exact && result.counts == expected;
        ranAs = result.strategyName();
        builds = std::move(result.builds);
        return std::move(result.timings);
    };
    row.take(measure::measure({row.clock, 1, context.options.repetitions, row.bytes}, runOnce));
    if (strategy.runsOnDevice()) {
        TimingLog noTransfer;  // the runs above left the frame on the device
        const auto& read =
            context.baselines->streamRead(pixels.device(*context.device, noTransfer), row.bytes);
        row.baselineRatio = measure::ratioToBaseline(*row.summary, read);
        if (!builds.empty()) row.detail = builds.front().options;
    }
    if (ranAs != strategy.name()) row.detail.insert(0, "chose " + ranAs + ": ");
    if (!exact) row.detail.insert(0, "WRONG RESULT (differs from the reference); ");
}

void measureFrame(SuiteContext& context, const Input& input, const ImageRGBA8& frame) {
    PixelSource pixels(frame);  // uploaded by the first device run, then shared by every row
    for (const scope::Params& params : scopes()) {
        const scope::Counts expected =
            scope::referenceScope(frame.pixels.data(), frame.width, frame.height, params);
        for (const scope::Strategy* strategy : scope::strategies()) {
            if (!Options::selected(context.options.strategies, std::string(strategy->name()))) continue;
            Row row;
            row.suite = "scope";
            row.subject = subjectOf(params, *strategy);
            row.input = input.name;
            row.bytes = frame.byteCount();
            row.clock = strategy->runsOnDevice() ? measure::Clock::Kernel : measure::Clock::Wall;
            row.extra["width"] = frame.width;
            row.extra["height"] = frame.height;
            row.extra["columns"] = expected.columns;
            try {
                measureStrategy(context, pixels, frame, params, *strategy, expected, row);
            } catch (const Error& error) {
                row.summary.reset();
                row.baselineRatio.reset();
                row.detail = error.what();
            }
            context.report.add(std::move(row));
        }
    }
}

// Patterns at the frame's size, once per pattern whatever --sizes says; a raw input at its own size.
void runScope(SuiteContext& context, Input& input) {
    static std::set<std::string> measured;
    if (!context.options.raw && !measured.insert(input.name).second) return;
    if (context.options.raw) {
        measureFrame(context, input, input.image);
    } else {
        measureFrame(context, input,
                     makePattern(input.name, context.options.frameWidth, context.options.frameHeight));
    }
}

const RegisterSuite scopeSuite("scope", runScope);

}  // namespace

}  // namespace hs::bench
