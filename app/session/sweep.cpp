#include "session/sweep.hpp"

#include <algorithm>
#include <cstdlib>

#include "engine/measure/baselines.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/tuning.hpp"
#include "engine/runtime/error.hpp"
#include "engine/stages/shared_options.hpp"

namespace hs::session {

namespace {

bool userKernel(const SweepSpec& spec) {
    return spec.stage == "kernel";
}

const StrategyInfo& sweptStrategy(const stages::StageKind& kind, std::string_view name) {
    const auto list = kind.strategies();
    const std::string_view wanted = name.empty() ? kind.defaultStrategy() : name;
    for (const auto* strategy : list)
        if (sameNameIgnoringCase(strategy->name(), wanted)) return *strategy;
    std::string known;
    for (const auto* strategy : list) known += (known.empty() ? "" : ", ") + std::string(strategy->name());
    throw UsageError("unknown " + std::string(kind.name()) + " strategy '" + std::string(wanted) +
                     "' (known: " + known + ")");
}

// The largest difference between two equal-sized byte arrays.
std::uint64_t maxDifference(const std::uint8_t* a, const std::uint8_t* b, std::size_t bytes) {
    int most = 0;
    for (std::size_t i = 0; i < bytes; ++i) most = std::max(most, std::abs(int(a[i]) - int(b[i])));
    return static_cast<std::uint64_t>(most);
}

std::uint64_t maxDifference(const histogram::Histogram& a, const histogram::Histogram& b) {
    std::uint64_t most = 0;
    for (std::size_t c = 0; c < a.counts.size(); ++c)
        for (std::size_t v = 0; v < a.counts[c].size() && v < b.counts[c].size(); ++v)
            most = std::max(most, a.counts[c][v] > b.counts[c][v] ? a.counts[c][v] - b.counts[c][v]
                                                                  : b.counts[c][v] - a.counts[c][v]);
    return most;
}

}  // namespace

std::vector<std::shared_ptr<const stages::Stage>> sweepStages(const SweepSpec& spec,
                                                              const stages::FileReader& readFile) {
    const stages::StageKind& kind = stages::findKind(spec.stage);
    const auto points = lab::grid(spec.axes);
    std::vector<std::shared_ptr<const stages::Stage>> list;
    if (!userKernel(spec)) {
        const StrategyInfo& strategy = sweptStrategy(kind, spec.strategy);
        const auto tunables = strategy.tunables();
        for (const auto& axis : spec.axes) lab::checkAxis(axis, tunables, strategy.name());
        // The values reach the strategy through the tuning in force, so one stage serves every point.
        const auto stage = kind.configure(spec.values, strategy.name(), readFile);
        list.assign(points.size(), stage);
        return list;
    }
    for (const auto& point : points) {
        stages::Values values = spec.values;
        std::string params = values.contains("param") ? values["param"] : std::string();
        for (const auto& [name, value] : point) {
            if (name == "group") {
                values["kernel-group"] = value;
                continue;
            }
            params += (params.empty() ? "" : "\n") + name + '=' + value;
        }
        if (!params.empty()) values["param"] = params;
        list.push_back(kind.configure(values, "", readFile));
    }
    return list;
}

std::optional<lab::Sweep> runSweep(Session& session, const SweepSpec& spec,
                                   const stages::FileReader& readFile, const SweepProgress& progress) {
    const auto points = lab::grid(spec.axes);
    const auto pointStages = sweepStages(spec, readFile);
    const stages::StageKind& kind = stages::findKind(spec.stage);
    lab::Sweep sweep;
    sweep.stage = spec.stage;
    sweep.strategy =
        userKernel(spec) ? spec.values.at("kernel") : std::string(sweptStrategy(kind, spec.strategy).name());
    if (!userKernel(spec))
        sweep.tuningKey = tuning::key(spec.stage, sweep.strategy, pointStages.front()->tuningVariant());
    sweep.axes = spec.axes;
    sweep.repetitions = spec.repetitions;

    DeviceContext& device = spec.context ? *spec.context : session.device(spec.device);
    const std::uint64_t bytes = static_cast<std::uint64_t>(spec.image->byteCount());
    const measure::Plan plan{measure::Clock::Kernel, 1, spec.repetitions, bytes};
    // What every point must compute: the stage's CPU reference (a user kernel has none; a histogram of a
    // region is left to the histogram's own tests).
    std::optional<ImageRGBA8> referenceImage;
    std::optional<histogram::Histogram> referenceCounts;
    if (kind.producesImage() && !userKernel(spec))
        referenceImage = pointStages.front()->reference(*spec.image);
    if (spec.stage == "histogram" && !spec.values.contains(options::kRoi.name))
        referenceCounts =
            histogram::referenceHistogram(spec.image->pixels.data(), spec.image->pixelCount(), 256,
                                          spec.values.contains(options::kIgnoreTransparent.name));

    for (std::size_t p = 0; p < points.size(); ++p) {
        if (progress && !progress(p, points.size())) return std::nullopt;
        lab::PointResult row{points[p], points[p], {}, 0, {}, {}, {}, {}};
        std::optional<tuning::ScopedTuning> tuned;
        if (!userKernel(spec)) {
            tuning::Values scoped;
            for (const auto& [name, value] : points[p]) scoped[name] = std::stoi(value);
            tuned.emplace(sweep.tuningKey, scoped);
        }
        const RunSpec run{spec.image, spec.device, {pointStages[p]}, std::nullopt, false, &device};
        bool checked = false;
        try {
            const auto measurement = session.measure(
                run, plan, [] { return true; },
                [&](RunReport& report) {
                    row.builds.clear();
                    for (const auto& stage : report.result.stages)
                        for (const auto& build : stage.builds)
                            row.builds += (row.builds.empty() ? "" : "; ") + build.options;
                    if (checked) return;
                    checked = true;
                    if (referenceCounts && report.result.values)
                        row.maxDifference = maxDifference(*report.result.values, *referenceCounts);
                    if (referenceImage) {
                        TimingLog log;
                        report.result.image.withHostPixels(log, [&](const std::uint8_t* pixels) {
                            if (report.result.image.width() == referenceImage->width &&
                                report.result.image.height() == referenceImage->height)
                                row.maxDifference = maxDifference(pixels, referenceImage->pixels.data(),
                                                                  referenceImage->byteCount());
                            else
                                row.maxDifference = 255;
                        });
                    }
                });
            row.ns = measurement->summary;
            row.gbps = measurement->gbps();
            row.built = lab::builtPoint(row.asked, row.builds);
        } catch (const OpenClError& error) {
            row.error = error.what();
        }
        sweep.points.push_back(std::move(row));
    }
    lab::markSameBuilds(sweep.points);
    if (progress && !progress(points.size(), points.size())) return std::nullopt;
    // The device's streaming read of as many bytes: what the "× read" figure divides by.
    try {
        withClErrors("device " + device.info().name + ": measuring the streaming read", [&] {
            cl::Buffer data(device.context(), CL_MEM_READ_ONLY, bytes);
            measure::Baselines baselines(device, spec.repetitions);
            sweep.readNs = baselines.streamRead(data, bytes);
        });
    } catch (const OpenClError&) {
        // Without it the sweep still has its times; x_read is left out.
    }
    return sweep;
}

}  // namespace hs::session
