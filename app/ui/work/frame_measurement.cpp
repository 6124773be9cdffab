#include "ui/work/frame_measurement.hpp"

#include <QStringList>
#include <algorithm>

#include "measure/measure.hpp"
#include "util/json_writer.hpp"

namespace hs::ui {

namespace {

double milliseconds(std::uint64_t ns) {
    return static_cast<double>(ns) / 1e6;
}

void writeFigures(JsonWriter& json, std::string_view name, const std::vector<double>& samples) {
    const auto summary = measure::Summary::of(samples);
    json.key(name).beginObject();
    json.field("median", summary.median).field("min", summary.min).field("max", summary.max);
    json.endObject();
}

}  // namespace

FrameMeasurement::FrameMeasurement(int frames, Clock::time_point start)
    : wanted_(frames), start_(start), previous_(start) {}

bool FrameMeasurement::add(const RunOutcome& outcome, Clock::time_point shown) {
    wallMs_.push_back(std::chrono::duration<double, std::milli>(shown - previous_).count());
    previous_ = shown;
    workerMs_.push_back(milliseconds(outcome.workerNs));
    // Every stage seen so far gets a figure for every frame (0 where a frame had none of its records).
    for (const Stage stage : {Stage::Upload, Stage::Kernel, Stage::Readback, Stage::Interop, Stage::Other}) {
        const bool present = std::any_of(outcome.result.timings.begin(), outcome.result.timings.end(),
                                         [stage](const Timing& timing) { return timing.stage == stage; });
        if (!present && !totalsMs_.count(stage)) continue;
        auto& samples = totalsMs_[stage];
        samples.resize(wallMs_.size() - 1, 0.0);
        samples.push_back(milliseconds(totalNs(outcome.result.timings, stage)));
    }
    last_ = outcome;
    return frames() >= wanted_;
}

std::string FrameMeasurement::json(const QString& imagePath) const {
    QStringList stages;
    for (const auto& stage : last_.stages)
        stages << QStringLiteral("%1 %2")
                      .arg(QString::fromStdString(stage.stage), stage.strategyName())
                      .trimmed();
    const int width =
        last_.frame ? last_.frame->width : (last_.request.image ? last_.request.image->width : 0);
    const int height =
        last_.frame ? last_.frame->height : (last_.request.image ? last_.request.image->height : 0);
    const double totalMs = std::chrono::duration<double, std::milli>(previous_ - start_).count();
    return jsonDocument([&](JsonWriter& json) {
        json.beginObject();
        json.field("image", imagePath.toStdString())
            .field("width", width)
            .field("height", height)
            .field("device", last_.device ? last_.device->name : std::string())
            .field("display", last_.display ? last_.display->path.toStdString() : std::string("none"))
            .field("display_reason", last_.display ? last_.display->reason.toStdString() : std::string())
            .field("strategies", stages.join(QStringLiteral(" → ")).toStdString())
            .field("frames", frames())
            .field("wall_total_ms", totalMs)
            .field("wall_per_frame_ms", totalMs / frames());
        writeFigures(json, "shown_interval_ms", wallMs_);
        writeFigures(json, "worker_ms", workerMs_);
        json.key("timing_totals_ms").beginObject();
        for (const auto& [stage, samples] : totalsMs_) writeFigures(json, stageName(stage), samples);
        json.endObject();
        json.endObject();
    });
}

}  // namespace hs::ui
