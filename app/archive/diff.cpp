#include "archive/diff.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <random>
#include <set>

#include "engine/runtime/error.hpp"

namespace hs::archive {

namespace {

// The figures of one side: per key, one value per repetition of every run, in order. A key absent from a
// repetition (a kernel that did not run in it) counts 0 there only when it ran in another repetition of the
// same run; keys are kept in first-seen order.
struct Figures {
    std::vector<std::string> order;
    std::map<std::string, std::vector<double>> values;

    void add(const std::string& key, const std::vector<double>& perRepetition) {
        if (!values.contains(key)) order.push_back(key);
        auto& list = values[key];
        list.insert(list.end(), perRepetition.begin(), perRepetition.end());
    }
};

struct SideFigures {
    Figures kernels, stages;
    std::vector<double> total;
};

SideFigures figuresOf(const std::vector<Record>& runs) {
    SideFigures side;
    for (const Record& run : runs) {
        const auto repetitions = static_cast<std::size_t>(std::max(run.repetitions, 0));
        std::vector<std::string> kernelOrder, stageOrder;
        std::map<std::string, std::vector<double>> kernels, stages;
        std::vector<double> total(repetitions, 0.0);
        for (const auto& timing : run.timings) {
            if (timing.repetition < 1 || static_cast<std::size_t>(timing.repetition) > repetitions) continue;
            const auto at = static_cast<std::size_t>(timing.repetition - 1);
            const auto duration = static_cast<double>(timing.durationNs);
            auto& stage = stages[timing.step];
            if (stage.empty()) stageOrder.push_back(timing.step), stage.assign(repetitions, 0.0);
            stage[at] += duration;
            if (timing.kind != "kernel") continue;
            auto& kernel = kernels[timing.name];
            if (kernel.empty()) kernelOrder.push_back(timing.name), kernel.assign(repetitions, 0.0);
            kernel[at] += duration;
            total[at] += duration;
        }
        for (const auto& key : kernelOrder) side.kernels.add(key, kernels[key]);
        for (const auto& key : stageOrder) side.stages.add(key, stages[key]);
        side.total.insert(side.total.end(), total.begin(), total.end());
    }
    return side;
}

double medianOf(std::vector<double>& values) {
    // measure::Summary's rule (the mean of the two middle values of an even count), without its copy.
    const std::size_t middle = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle), values.end());
    const double upper = values[middle];
    if (values.size() % 2 == 1) return upper;
    return (*std::max_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(middle)) + upper) /
           2;
}

void compareFigures(std::vector<TimeComparison>& out, const std::string& scope, const Figures& a,
                    const Figures& b) {
    std::vector<std::string> keys = a.order;
    for (const auto& key : b.order)
        if (!a.values.contains(key)) keys.push_back(key);
    for (const auto& key : keys) {
        TimeComparison comparison{scope, key, {}, {}, {}, {}, 0, {}, Verdict::TooFewSamples};
        if (const auto found = a.values.find(key); found != a.values.end()) comparison.a = found->second;
        if (const auto found = b.values.find(key); found != b.values.end()) comparison.b = found->second;
        judge(comparison);
        out.push_back(std::move(comparison));
    }
}

std::string valuesText(const std::map<std::string, std::string>& values) {
    std::string text;
    for (const auto& [name, value] : values) text += (text.empty() ? "" : " ") + name + "=" + value;
    return text;
}

std::string buildsText(const std::vector<Build>& builds) {
    std::string text;
    for (const auto& build : builds) text += (text.empty() ? "" : "; ") + build.source + " " + build.options;
    return text;
}

std::string sourcesText(const std::vector<Build>& builds) {
    std::string text;
    for (const auto& build : builds)
        text += (text.empty() ? "" : " ") + build.source + ":" + build.sourceHash;
    return text;
}

// What of a run a diff compares besides its times, as named texts in a fixed order.
std::vector<std::pair<std::string, std::string>> described(const Record& run) {
    std::vector<std::pair<std::string, std::string>> items = {
        {"version", run.version},
        {"device", run.device},
        {"driver", run.driver},
        {"platform", run.platform},
        {"image", run.image.path},
        {"image size", std::to_string(run.image.width) + "x" + std::to_string(run.image.height)},
        {"image content", run.image.hash},
        {"stages", std::to_string(run.stages.size())},
    };
    for (std::size_t i = 0; i < run.stages.size(); ++i) {
        const StageEntry& stage = run.stages[i];
        const std::string prefix = "stage " + std::to_string(i + 1) + " ";
        items.emplace_back(prefix + "kind", stage.kind);
        items.emplace_back(prefix + "requested strategy", stage.requested);
        items.emplace_back(prefix + "strategy", stage.strategy);
        items.emplace_back(prefix + "values", valuesText(stage.values));
        items.emplace_back(prefix + "build options", buildsText(stage.builds));
        items.emplace_back(prefix + "kernel sources", sourcesText(stage.builds));
    }
    items.emplace_back("bins", std::to_string(run.bins));
    items.emplace_back("output image", run.outputHash);
    return items;
}

void compareDescriptions(std::vector<Difference>& out, const std::string& prefix, const Record& a,
                         const Record& b) {
    const auto left = described(a);
    const auto right = described(b);
    std::map<std::string, std::string> rightByName(right.begin(), right.end());
    std::set<std::string> seen;
    for (const auto& [what, value] : left) {
        seen.insert(what);
        const auto other = rightByName.find(what);
        const std::string otherValue = other == rightByName.end() ? std::string("(none)") : other->second;
        if (value != otherValue) out.push_back({prefix + what, value, otherValue});
    }
    for (const auto& [what, value] : right)
        if (!seen.contains(what)) out.push_back({prefix + what, "(none)", value});
}

// The counts of a histogram row as written in results ("histogram r"): every bin that differs.
void compareBins(std::vector<BinDifference>& out, const Record& a, const Record& b) {
    if (a.bins != b.bins) return;  // the "bins" difference says so; bin by bin would compare unlike bins
    for (const auto& [channel, countsA] : a.histogram) {
        const auto found = b.histogram.find(channel);
        if (found == b.histogram.end()) continue;
        const auto& countsB = found->second;
        for (std::size_t bin = 0; bin < std::min(countsA.size(), countsB.size()); ++bin)
            if (countsA[bin] != countsB[bin])
                out.push_back({channel, static_cast<int>(bin), countsA[bin], countsB[bin]});
    }
}

}  // namespace

double percentile(const std::vector<double>& sorted, double p) {
    const auto n = static_cast<double>(sorted.size());
    const double rank = std::max(1.0, std::ceil(p * n));
    return sorted[static_cast<std::size_t>(std::min(rank, n)) - 1];
}

std::vector<double> bootstrapRatios(const std::vector<double>& a, const std::vector<double>& b, int resamples,
                                    std::uint64_t seed) {
    std::mt19937_64 random(seed);
    // The draws are taken from the generator's bits by modulo, not std::uniform_int_distribution, whose
    // algorithm each standard library chooses: the same seed gives the same interval on every platform. The
    // bias of the modulo is below 2^-40 for any sample count a run has.
    const auto resample = [&](const std::vector<double>& from, std::vector<double>& into) {
        for (auto& value : into) value = from[random() % from.size()];
        return medianOf(into);
    };
    std::vector<double> ratios;
    ratios.reserve(static_cast<std::size_t>(resamples));
    std::vector<double> drawnA(a.size()), drawnB(b.size());
    for (int i = 0; i < resamples; ++i) {
        const double medianA = resample(a, drawnA);
        const double medianB = resample(b, drawnB);
        ratios.push_back(medianA > 0 ? medianB / medianA : (medianB > 0 ? INFINITY : 1.0));
    }
    std::sort(ratios.begin(), ratios.end());
    return ratios;
}

Interval bootstrapInterval(const std::vector<double>& a, const std::vector<double>& b, int resamples,
                           std::uint64_t seed) {
    const auto ratios = bootstrapRatios(a, b, resamples, seed);
    return {percentile(ratios, 0.025), percentile(ratios, 0.975)};
}

std::string_view verdictText(Verdict verdict) {
    switch (verdict) {
        case Verdict::Faster:
            return "faster";
        case Verdict::Slower:
            return "slower";
        case Verdict::NoDifference:
            return "no difference at this noise";
        case Verdict::OnlyInA:
            return "only in A";
        case Verdict::OnlyInB:
            return "only in B";
        case Verdict::TooFewSamples:
            break;
    }
    return "too few repetitions";
}

void judge(TimeComparison& comparison) {
    if (!comparison.a.empty()) comparison.summaryA = measure::Summary::of(comparison.a);
    if (!comparison.b.empty()) comparison.summaryB = measure::Summary::of(comparison.b);
    if (comparison.a.empty() || comparison.b.empty()) {
        comparison.verdict = comparison.a.empty() ? Verdict::OnlyInB : Verdict::OnlyInA;
        return;
    }
    comparison.verdict = Verdict::TooFewSamples;
    comparison.ratio = comparison.summaryA.median > 0
                           ? comparison.summaryB.median / comparison.summaryA.median
                           : (comparison.summaryB.median > 0 ? INFINITY : 1.0);
    if (comparison.a.size() < kMinimumSamples || comparison.b.size() < kMinimumSamples) return;
    comparison.interval = bootstrapInterval(comparison.a, comparison.b);
    if (comparison.interval.low > 1 && comparison.ratio >= 1 + kMinimumEffect)
        comparison.verdict = Verdict::Slower;
    else if (comparison.interval.high < 1 && comparison.ratio <= 1 / (1 + kMinimumEffect))
        comparison.verdict = Verdict::Faster;
    else
        comparison.verdict = Verdict::NoDifference;
}

Diff diff(const std::vector<Record>& a, const std::vector<Record>& b) {
    Diff result;
    for (const auto& run : a) result.idsA.push_back(run.id);
    for (const auto& run : b) result.idsB.push_back(run.id);
    const SideFigures left = figuresOf(a);
    const SideFigures right = figuresOf(b);
    compareFigures(result.times, "kernel", left.kernels, right.kernels);
    compareFigures(result.times, "stage", left.stages, right.stages);
    TimeComparison total{"total", "kernel time",         left.total, right.total, {}, {}, 0,
                         {},      Verdict::TooFewSamples};
    judge(total);
    result.times.push_back(std::move(total));

    compareDescriptions(result.differences, "", a.front(), b.front());
    for (std::size_t i = 1; i < a.size(); ++i)
        compareDescriptions(result.differences, "A: ", a.front(), a[i]);
    for (std::size_t i = 1; i < b.size(); ++i)
        compareDescriptions(result.differences, "B: ", b.front(), b[i]);
    compareBins(result.bins, a.front(), b.front());
    result.pixels = comparePixels(a.front(), b.front());
    return result;
}

std::optional<PixelComparison> comparePixels(const Record& a, const Record& b) {
    if (a.outputHash.empty() && b.outputHash.empty()) return std::nullopt;
    PixelComparison comparison;
    const auto run = [](const Record& record) { return "run " + std::to_string(record.id); };
    if (a.outputHash.empty() || b.outputHash.empty()) {
        comparison.reason = "only " + run(a.outputHash.empty() ? b : a) + " has an output image";
        return comparison;
    }
    for (const Record* record : {&a, &b}) {
        if (record->outputPng.empty()) {
            comparison.reason = run(*record) +
                                "'s output pixels were not kept (their PNG is over the per-run cap of " +
                                std::to_string(kMaxKeptOutputBytes >> 20) + " MiB, or the run is older)";
            // The same hash is the same pixels, kept or not.
            if (a.outputHash == b.outputHash) {
                comparison.compared = true;
                comparison.reason.clear();
            }
            return comparison;
        }
    }
    ImageRGBA8 left;
    ImageRGBA8 right;
    try {
        left = keptOutput(a);
        right = keptOutput(b);
    } catch (const Error& error) {
        comparison.reason = error.what();
        return comparison;
    }
    if (left.width != right.width || left.height != right.height) {
        comparison.reason = "the output sizes differ: " + std::to_string(left.width) + "x" +
                            std::to_string(left.height) + " and " + std::to_string(right.width) + "x" +
                            std::to_string(right.height);
        return comparison;
    }
    comparison.compared = true;
    comparison.width = left.width;
    comparison.height = left.height;
    static constexpr const char* kChannelNames[] = {"r", "g", "b", "a"};
    const std::size_t pixels = static_cast<std::size_t>(left.width) * static_cast<std::size_t>(left.height);
    for (std::size_t pixel = 0; pixel < pixels; ++pixel) {
        bool differs = false;
        for (std::size_t channel = 0; channel < 4; ++channel) {
            const int difference =
                std::abs(int{left.pixels[pixel * 4 + channel]} - int{right.pixels[pixel * 4 + channel]});
            if (difference == 0) continue;
            comparison.maxDifference = std::max(comparison.maxDifference, difference);
            if (!differs && comparison.firstX < 0) {
                comparison.firstX = static_cast<int>(pixel % static_cast<std::size_t>(left.width));
                comparison.firstY = static_cast<int>(pixel / static_cast<std::size_t>(left.width));
                comparison.firstChannel = kChannelNames[channel];
            }
            differs = true;
        }
        if (differs) ++comparison.differing;
    }
    return comparison;
}

}  // namespace hs::archive
