#include "engine/measure/compare.hpp"

#include <algorithm>

#include "engine/image/pixel_source.hpp"
#include "engine/lab/edited_strategy.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::measure {

namespace {

void append(std::vector<Timing>& to, const std::vector<Timing>& records) {
    to.insert(to.end(), records.begin(), records.end());
}

}  // namespace

Comparison compareHistogramStrategies(DeviceContext* device, const ImageRGBA8& image,
                                      const histogram::Params& params, int repetitions,
                                      const CompareHooks& hooks, std::string_view baseline,
                                      const std::optional<EditedSource>& edited) {
    if (repetitions < 1) throw UsageError("a comparison needs at least one repetition");
    const DeviceInfo* info = device ? &device->info() : nullptr;
    Comparison comparison{std::string(baseline), image.byteCount(), repetitions, {}, {}};
    bool anyOnDevice = false;
    // What each entry runs: a registered strategy, or (the last, with `edited`) one built from the edit.
    std::vector<const histogram::Strategy*> runs(histogram::strategies().begin(),
                                                 histogram::strategies().end());
    if (edited) {
        const histogram::Strategy& strategy = histogram::findStrategy(edited->strategy);
        if (!strategy.runsOnDevice())
            throw UsageError("strategy " + edited->strategy + " runs on the host: it has no kernel to edit");
        runs.push_back(&strategy);
    }
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const histogram::Strategy* strategy = runs[i];
        const bool isEdit = edited && i + 1 == runs.size();
        StrategyMeasurement entry{
            std::string(strategy->name()) + (isEdit ? " (edited: " + edited->label + ")" : std::string()),
            {},
            {},
            {},
            0,
            {}};
        const auto support = supportOn(info, {image.width, image.height}, params, *strategy);
        if (!support.ok) entry.unsupported = support.reason;
        anyOnDevice = anyOnDevice || (support.ok && strategy->runsOnDevice());
        comparison.strategies.push_back(std::move(entry));
    }

    PixelSource pixels(image);
    if (anyOnDevice) {
        TimingLog upload;
        try {
            pixels.device(*device, upload);
            append(comparison.timings, upload.collect());
        } catch (const Error& e) {
            // Too large for the device, say: no device strategy can run, and each says why.
            for (std::size_t i = 0; i < runs.size(); ++i) {
                auto& entry = comparison.strategies[i];
                if (entry.unsupported.empty() && runs[i]->runsOnDevice()) entry.unsupported = e.what();
            }
        }
    }

    const int total = repetitions * static_cast<int>(std::count_if(
                                        comparison.strategies.begin(), comparison.strategies.end(),
                                        [](const auto& entry) { return entry.unsupported.empty(); }));
    int done = 0;
    for (std::size_t i = 0; i < runs.size(); ++i) {
        auto& entry = comparison.strategies[i];
        if (!entry.unsupported.empty()) continue;
        if (comparison.stopped) {
            entry.unsupported = kNotMeasured;
            continue;
        }
        const histogram::Strategy& strategy = *runs[i];
        const bool isEdit = edited && i + 1 == runs.size();
        const int doneBefore = done;
        try {
            bool warmedUp = false;
            const auto measured = measureWhile(
                {Clock::Kernel, 1, repetitions, comparison.bytes},
                [&] {
                    std::optional<DeviceContext::SourceOverride> edit;
                    if (isEdit)
                        edit.emplace(*device, lab::kernelSourceOf(strategy), edited->label, edited->text);
                    auto result = histogram::computeHistogram(device, pixels, params, strategy);
                    if (result.strategy != &strategy) entry.ranAs = result.strategy->name();
                    append(comparison.timings, result.timings);
                    if (warmedUp && hooks.progress) hooks.progress(++done, total);
                    warmedUp = true;
                    return std::move(result.timings);
                },
                hooks.proceed);
            if (!measured) {
                comparison.stopped = true;
                entry.unsupported = kNotMeasured;
                continue;
            }
            entry.kernel = measured->summary;
            entry.gbps = measured->gbps();
        } catch (const Error& e) {
            entry.unsupported = e.what();
            done = doneBefore + repetitions;
        }
    }
    if (const auto base = std::find_if(comparison.strategies.begin(), comparison.strategies.end(),
                                       [&](const auto& entry) { return entry.strategy == baseline; });
        base != comparison.strategies.end() && base->measured()) {
        for (auto& entry : comparison.strategies) {
            if (entry.measured())
                entry.ratioToBaseline = measure::ratioToBaseline(*entry.kernel, *base->kernel);
        }
    }
    return comparison;
}

}  // namespace hs::measure
