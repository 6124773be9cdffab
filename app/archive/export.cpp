#include "archive/export.hpp"

#include <cstdio>

namespace hs::archive {

namespace {

JsonWriter& writeSummaryJson(JsonWriter& json, const measure::Summary& summary) {
    json.beginObject()
        .field("min_ns", summary.min)
        .field("median_ns", summary.median)
        .field("max_ns", summary.max);
    return json.endObject();
}

void writeSamples(JsonWriter& json, const std::vector<double>& samples) {
    json.beginArray();
    for (const double value : samples) json.value(value);
    json.endArray();
}

void writeIds(JsonWriter& json, const std::vector<std::int64_t>& ids) {
    json.beginArray();
    for (const auto id : ids) json.value(id);
    json.endArray();
}

std::string csvField(const std::string& text) {
    if (text.find_first_of(",\"\n\r") == std::string::npos) return text;
    std::string quoted = "\"";
    for (const char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    return quoted + "\"";
}

std::string format(const char* pattern, double value) {
    char text[64];
    std::snprintf(text, sizeof text, pattern, value);
    return text;
}

std::string milliseconds(double ns) {
    return format("%.4f ms", ns / 1e6);
}

std::string ids(const std::vector<std::int64_t>& list) {
    std::string text;
    for (const auto id : list) {
        if (!text.empty()) text += ',';
        text += std::to_string(id);
    }
    return text;
}

bool hasInterval(Verdict verdict) {
    return verdict == Verdict::Faster || verdict == Verdict::Slower || verdict == Verdict::NoDifference;
}

}  // namespace

void writeRecordJson(JsonWriter& json, const Record& run) {
    json.beginObject().field("id", run.id).field("uid", run.uid).field("recorded_at", run.recordedAt);
    json.field("version", run.version).field("command", run.command);
    json.key("device").beginObject().field("name", run.device).field("driver", run.driver);
    json.field("platform", run.platform).endObject();
    json.key("image").beginObject().field("path", run.image.path).field("width", run.image.width);
    json.field("height", run.image.height).field("hash", run.image.hash).endObject();
    json.key("stages").beginArray();
    for (const auto& stage : run.stages) {
        json.beginObject().field("kind", stage.kind).field("requested_strategy", stage.requested);
        json.field("strategy", stage.strategy).field("note", stage.note);
        json.key("values").beginObject();
        for (const auto& [name, value] : stage.values) json.field(name, value);
        json.endObject().key("builds").beginArray();
        for (const auto& build : stage.builds) {
            json.beginObject().field("source", build.source).field("options", build.options);
            json.field("source_hash", build.sourceHash).endObject();
        }
        json.endArray().endObject();
    }
    json.endArray().field("repetitions", run.repetitions);
    json.key("timings").beginArray();
    for (const auto& timing : run.timings) {
        json.beginObject().field("repetition", timing.repetition).field("step", timing.step);
        json.field("name", timing.name).field("kind", timing.kind).field("device", timing.device);
        json.field("duration_ns", timing.durationNs).endObject();
    }
    json.endArray();
    json.key("results").beginObject().field("bins", run.bins).key("histograms").beginObject();
    for (const auto& [channel, counts] : run.histogram) {
        json.key(channel).beginArray();
        for (const auto count : counts) json.value(count);
        json.endArray();
    }
    json.endObject().field("output_hash", run.outputHash);
    // The kept pixels' size, not the pixels: `runs diff` compares them.
    json.field("output_png_bytes", static_cast<std::uint64_t>(run.outputPng.size())).endObject();
    json.endObject();
}

void writeListedJson(JsonWriter& json, const Listed& run) {
    json.beginObject().field("id", run.id).field("recorded_at", run.recordedAt).field("command", run.command);
    json.field("device", run.device);
    json.key("image").beginObject().field("path", run.image.path).field("width", run.image.width);
    json.field("height", run.image.height).field("hash", run.image.hash).endObject();
    json.field("strategies", run.strategies).field("repetitions", run.repetitions).endObject();
}

void writeDiffJson(JsonWriter& json, const Diff& diff) {
    json.beginObject().key("a");
    writeIds(json, diff.idsA);
    json.key("b");
    writeIds(json, diff.idsB);
    json.key("method").beginObject().field("statistic", "median(B) / median(A)");
    json.field("interval", "bootstrap 95 % percentile").field("resamples", kBootstrapResamples);
    json.field("seed", kBootstrapSeed).field("minimum_effect", kMinimumEffect);
    json.field("minimum_samples", static_cast<std::uint64_t>(kMinimumSamples)).endObject();
    json.key("times").beginArray();
    for (const auto& time : diff.times) {
        json.beginObject().field("scope", time.scope).field("name", time.name);
        json.key("a_ns");
        writeSamples(json, time.a);
        json.key("b_ns");
        writeSamples(json, time.b);
        // A side without the figure (a kernel only one strategy has) has no summary and the pair no ratio.
        json.key("a");
        time.a.empty() ? json.null() : writeSummaryJson(json, time.summaryA);
        json.key("b");
        time.b.empty() ? json.null() : writeSummaryJson(json, time.summaryB);
        json.key("ratio");
        time.a.empty() || time.b.empty() ? json.null() : json.value(time.ratio);
        if (hasInterval(time.verdict))
            json.key("interval").beginArray().value(time.interval.low).value(time.interval.high).endArray();
        json.field("verdict", verdictText(time.verdict)).endObject();
    }
    json.endArray().key("differences").beginArray();
    for (const auto& difference : diff.differences)
        json.beginObject()
            .field("what", difference.what)
            .field("a", difference.a)
            .field("b", difference.b)
            .endObject();
    json.endArray().key("bins").beginArray();
    for (const auto& bin : diff.bins) {
        json.beginObject().field("channel", bin.channel).field("bin", bin.bin).field("a", bin.a);
        json.field("b", bin.b).endObject();
    }
    json.endArray().key("pixels");
    if (!diff.pixels) {
        json.null();
    } else {
        const PixelComparison& pixels = *diff.pixels;
        json.beginObject().field("compared", pixels.compared);
        if (!pixels.compared) json.field("reason", pixels.reason);
        json.field("width", pixels.width).field("height", pixels.height).field("differing", pixels.differing);
        json.field("max_difference", pixels.maxDifference).key("first");
        if (pixels.firstX < 0)
            json.null();
        else
            json.beginObject()
                .field("x", pixels.firstX)
                .field("y", pixels.firstY)
                .field("channel", pixels.firstChannel)
                .endObject();
        json.endObject();
    }
    json.endObject();
}

std::string pixelsText(const PixelComparison& pixels) {
    if (!pixels.compared) return "output pixels: not compared: " + pixels.reason;
    if (pixels.differing == 0) return "output pixels: the same";
    return "output pixels: " + std::to_string(pixels.differing) + " of " +
           std::to_string(static_cast<std::uint64_t>(pixels.width) *
                          static_cast<std::uint64_t>(pixels.height)) +
           " differ, max difference " + std::to_string(pixels.maxDifference) + ", first at (" +
           std::to_string(pixels.firstX) + ", " + std::to_string(pixels.firstY) + ") channel " +
           pixels.firstChannel;
}

std::string timingsCsv(const std::vector<Record>& runs) {
    std::string csv = "run,repetition,step,name,kind,device,duration_ns\n";
    for (const auto& run : runs)
        for (const auto& timing : run.timings)
            csv += std::to_string(run.id) + "," + std::to_string(timing.repetition) + "," +
                   csvField(timing.step) + "," + csvField(timing.name) + "," + csvField(timing.kind) + "," +
                   csvField(timing.device) + "," + std::to_string(timing.durationNs) + "\n";
    return csv;
}

std::string diffText(const Diff& diff) {
    std::string text = "A: run " + ids(diff.idsA) + "   B: run " + ids(diff.idsB) + "\n\n";
    char line[512];
    std::snprintf(line, sizeof line, "%-7s %-40s %5s %14s %14s %7s  %-17s %s\n", "scope", "name", "n A/B",
                  "median A", "median B", "B/A", "95 % interval", "verdict");
    text += line;
    for (const auto& time : diff.times) {
        const std::string counts = std::to_string(time.a.size()) + "/" + std::to_string(time.b.size());
        const bool both = !time.a.empty() && !time.b.empty();
        const std::string interval = hasInterval(time.verdict) ? format("%.3f", time.interval.low) + "-" +
                                                                     format("%.3f", time.interval.high)
                                                               : std::string("-");
        std::snprintf(line, sizeof line, "%-7s %-40s %5s %14s %14s %7s  %-17s %s\n", time.scope.c_str(),
                      time.name.c_str(), counts.c_str(),
                      time.a.empty() ? "-" : milliseconds(time.summaryA.median).c_str(),
                      time.b.empty() ? "-" : milliseconds(time.summaryB.median).c_str(),
                      both ? format("%.3f", time.ratio).c_str() : "-", interval.c_str(),
                      std::string(verdictText(time.verdict)).c_str());
        text += line;
    }
    text += "\n";
    if (diff.differences.empty()) text += "spec, device, image and results: the same\n";
    for (const auto& difference : diff.differences)
        text += difference.what + ": " + difference.a + "  ->  " + difference.b + "\n";
    if (!diff.bins.empty()) {
        text += std::to_string(diff.bins.size()) + " histogram bin(s) differ";
        const std::size_t shown = std::min<std::size_t>(diff.bins.size(), 8);
        for (std::size_t i = 0; i < shown; ++i) {
            const BinDifference& bin = diff.bins[i];
            text += i ? ", " : ": ";
            text += bin.channel + "[" + std::to_string(bin.bin) + "] " + std::to_string(bin.a) + " -> " +
                    std::to_string(bin.b);
        }
        text += diff.bins.size() > shown ? ", ... (all: --json)\n" : "\n";
    }
    if (diff.pixels) text += pixelsText(*diff.pixels) + "\n";
    return text;
}

}  // namespace hs::archive
