// Every histogram, rotation and convolution strategy that declares tunables, swept over a grid of them on
// the frame of the first selected pattern (--frame, 3840x2160 by default; a raw input at its own size) by
// session::runSweep, the sweep of histoscope-cli and the app. Each grid point is a row ("grid", its built
// values, the largest difference from the CPU reference); then, in the same run and on the same buffer, the
// strategy with its own choice ("before") and with the grid's best ("after"), so a change of a default can
// be judged from one report. Rotation: linear, at --angle; convolution: a 5x5 Gaussian.
#include <utility>

#include "bench/inputs.hpp"
#include "bench/suite.hpp"
#include "engine/ops/tuning.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"
#include "session/session.hpp"
#include "session/sweep.hpp"

namespace hs::bench {

namespace {

struct Grid {
    const char* stage;
    const char* strategy;
    std::vector<const char*> axes;  // lab::parseAxis text
};

// Around each strategy's own choice, both ways, within what a GPU takes.
const Grid kGrids[] = {
    {"histogram", "local-atomic", {"WG=64,128,256,512,1024", "COPIES=1,2,4,8,16,32", "CHUNK_QUADS=4,16,64"}},
    {"histogram",
     "partial-reduce",
     {"WG=64,128,256,512,1024", "COPIES=1,2,4,8,16,32", "CHUNK_QUADS=4,16,64"}},
    {"histogram", "private-uchar", {"WG=16,32,64,128,256,512,1024"}},
    {"rotate", "image-sampler", {"LOCAL_X=4,8,16,32,64", "LOCAL_Y=1,2,4,8,16,32,64"}},
    {"rotate", "buffer", {"LOCAL_X=4,8,16,32,64", "LOCAL_Y=1,4,16,64", "PIXELS_X=1,2,4,8"}},
    {"convolve", "image-sampler", {"LOCAL_X=4,8,16,32,64", "LOCAL_Y=1,2,4,8,16,32,64"}},
    {"convolve", "buffer-naive", {"LOCAL_X=4,8,16,32,64", "LOCAL_Y=1,2,4,8,16,32,64"}},
    {"convolve", "local-tiled", {"TILE_X=8,16,32,64", "TILE_Y=8,16,32,64", "ROWS=1,2,4,8"}},
    {"convolve", "separable", {"TILE_X=8,16,32,64", "TILE_Y=8,16,32,64", "ROWS=1,2,4,8"}},
};

std::string pointText(const lab::Point& point) {
    std::string text;
    for (const auto& [name, value] : point) text += (text.empty() ? "" : " ") + name + '=' + value;
    return text;
}

Row skipped(const std::string& subject, const std::string& input, const std::string& why) {
    Row row;
    row.suite = "sweep";
    row.subject = subject;
    row.input = input;
    row.detail = why;
    return row;
}

std::string readNoFile(const std::string& path, std::uint64_t, std::string_view) {
    throw InputError(path + ": the sweep suite reads no files");
}

// The strategy measured with `values` in force (none: its own choice), as a row.
Row measured(SuiteContext& context, const session::SweepSpec& spec, const std::string& subject,
             const tuning::Values& values) {
    Row row;
    row.suite = "sweep";
    row.subject = subject;
    row.input = spec.stage;
    row.bytes = spec.image->byteCount();
    try {
        const auto stage = stages::findKind(spec.stage).configure(spec.values, spec.strategy, readNoFile);
        const tuning::ScopedTuning tuned(tuning::key(spec.stage, spec.strategy, stage->tuningVariant()),
                                         values);
        const session::RunSpec run{spec.image, {}, {stage}, std::nullopt, false, context.device};
        const auto measurement = context.session.measure(
            run, {measure::Clock::Kernel, 1, spec.repetitions, row.bytes}, [] { return true; },
            [&](session::RunReport& report) {
                row.detail.clear();
                for (const auto& ran : report.result.stages)
                    for (const auto& build : ran.builds)
                        row.detail += (row.detail.empty() ? "" : "; ") + build.options;
            });
        row.summary = measurement->summary;
    } catch (const Error& error) {
        row.detail = error.what();
    }
    return row;
}

void sweepStrategy(SuiteContext& context, const std::shared_ptr<const ImageRGBA8>& frame, const Grid& grid) {
    session::SweepSpec spec;
    spec.image = frame;
    spec.stage = grid.stage;
    spec.strategy = grid.strategy;
    if (spec.stage == "rotate") spec.values = {{"angle", std::to_string(context.options.angleDegrees)}};
    if (spec.stage == "convolve") spec.values = {{"filter", "gaussian:1:5"}};
    for (const char* axis : grid.axes) spec.axes.push_back(lab::parseAxis(axis));
    spec.repetitions = context.options.repetitions;
    spec.context = context.device;
    const std::string name = std::string(grid.stage) + " " + grid.strategy;
    std::optional<lab::Sweep> sweep;
    try {
        sweep = session::runSweep(context.session, spec, readNoFile, {});
    } catch (const Error& error) {
        context.report.add(skipped(name, spec.stage, error.what()));
        return;
    }
    for (const auto& point : sweep->points) {
        Row row;
        row.suite = "sweep";
        row.subject = name + " grid " + pointText(point.built);
        if (point.built != point.asked) row.subject += " (asked " + pointText(point.asked) + ")";
        row.input = spec.stage;
        row.bytes = frame->byteCount();
        row.summary = point.ns;
        row.detail =
            point.ns
                ? (point.sameBuildAs ? "same build as " + pointText(sweep->points[*point.sameBuildAs].asked)
                                     : point.builds) +
                      (point.maxDifference ? "; max difference " + std::to_string(*point.maxDifference)
                                           : std::string())
                : point.error;
        context.report.add(std::move(row));
    }
    const auto best = sweep->best();
    if (!best) return;
    tuning::Values values;
    for (const auto& [tunable, value] : sweep->points[*best].built) values[tunable] = std::stoi(value);
    // Measured last and one after the other, on the same buffer: before and after of the same run.
    context.report.add(measured(context, spec, name + " before (own choice)", {}));
    context.report.add(
        measured(context, spec, name + " after " + pointText(sweep->points[*best].built), values));
}

void runSweeps(SuiteContext& context, Input& input) {
    // One input: the first pattern's frame (or the first raw input), whatever --sizes says.
    static bool swept = false;
    if (std::exchange(swept, true)) return;
    if (context.device == nullptr) {
        context.report.add(skipped("all", input.name, context.deviceProblem));
        return;
    }
    const auto frame = std::make_shared<const ImageRGBA8>(
        context.options.raw
            ? input.image
            : makePattern(input.name, context.options.frameWidth, context.options.frameHeight));
    for (const auto& grid : kGrids) {
        if (!Options::selected(context.options.strategies, grid.strategy)) continue;
        sweepStrategy(context, frame, grid);
    }
}

const RegisterSuite sweepSuite("sweep", runSweeps);

}  // namespace

}  // namespace hs::bench
