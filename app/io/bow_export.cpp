#include "io/bow_export.hpp"

#include "engine/runtime/device_properties.hpp"
#include "io/export.hpp"

namespace hs::io {

namespace {

std::string utf8(const QString& text) {
    return text.toStdString();
}

void writeSummary(JsonWriter& json, const std::optional<measure::Summary>& summary) {
    if (!summary) {
        json.null();
        return;
    }
    json.beginObject()
        .field("min", summary->min)
        .field("median", summary->median)
        .field("max", summary->max)
        .endObject();
}

QByteArray number(double value) {
    return QByteArray::number(value, 'g', 17);
}

QByteArray summaryFields(const std::optional<measure::Summary>& summary) {
    if (!summary) return ",,";
    return number(summary->min) + ',' + number(summary->median) + ',' + number(summary->max);
}

}  // namespace

QByteArray wordHistogramCsv(const std::vector<std::uint32_t>& histogram, const WordsContext& context) {
    const std::pair<const char*, QString> lines[] = {
        {"image", context.imagePath},
        {"image_width", QString::number(context.imageWidth)},
        {"image_height", QString::number(context.imageHeight)},
        {"device", context.device ? QString::fromStdString(context.device->name) : QString()},
        {"device_selector", context.device ? QString::fromStdString(context.device->selector()) : QString()},
        {"platform", context.device ? QString::fromStdString(context.device->platformName) : QString()},
        {"strategy", context.strategy},
        {"window", QString::number(context.window)},
        {"stride", QString::number(context.stride)},
        {"words", QString::number(histogram.size())},
        {"vocabulary", context.vocabulary},
    };
    QByteArray csv =
        "# HistoScope visual-word histogram; descriptors is how many descriptors each word has\n";
    for (const auto& [key, value] : lines) {
        QString single = value.isEmpty() ? QStringLiteral("none") : value;
        single.replace(QLatin1Char('\n'), QLatin1Char(' ')).replace(QLatin1Char('\r'), QLatin1Char(' '));
        csv += "# " + QByteArray(key) + ": " + single.toUtf8() + '\n';
    }
    csv += "word,descriptors\n";
    for (std::size_t word = 0; word < histogram.size(); ++word)
        csv += QByteArray::number(static_cast<qulonglong>(word)) + ',' + QByteArray::number(histogram[word]) +
               '\n';
    return csv;
}

QByteArray wordHistogramJson(const std::vector<std::uint32_t>& histogram, const WordsContext& context) {
    return QByteArray::fromStdString(jsonDocument([&](JsonWriter& json) {
        json.beginObject().key("histogram").beginArray();
        for (const auto count : histogram) json.value(static_cast<std::uint64_t>(count));
        json.endArray().key("context").beginObject();
        json.key("image")
            .beginObject()
            .field("path", utf8(context.imagePath))
            .field("width", context.imageWidth)
            .field("height", context.imageHeight)
            .endObject();
        json.key("device");
        if (context.device)
            writeDeviceJson(json, *context.device);
        else
            json.null();
        json.field("strategy", utf8(context.strategy))
            .field("window", context.window)
            .field("stride", context.stride)
            .field("words", static_cast<std::uint64_t>(histogram.size()))
            .field("vocabulary", utf8(context.vocabulary));
        json.endObject().endObject();
    }));
}

void writeSweepJson(JsonWriter& json, const DeviceInfo* device, const bow::SweepParams& params,
                    const std::vector<bow::SweepRow>& rows) {
    json.beginObject().key("device");
    if (device)
        writeDeviceJson(json, *device);
    else
        json.null();
    json.field("repetitions", params.repetitions);
    json.key("rows").beginArray();
    for (const auto& row : rows) {
        json.beginObject()
            .field("descriptors", static_cast<std::uint64_t>(row.descriptors))
            .field("centroids", static_cast<std::uint64_t>(row.centroids))
            .field("strategy", row.strategy)
            .field("clock", measure::clockName(row.onDevice ? measure::Clock::Kernel : measure::Clock::Wall));
        json.key("kernel_ns");
        writeSummary(json, row.kernel);
        json.key("transpose_ns");
        writeSummary(json, row.transpose);
        json.key("speedup_over_gpu1");
        if (row.speedupOverGpu1)
            json.value(*row.speedupOverGpu1);
        else
            json.null();
        json.field("misassigned", static_cast<std::uint64_t>(row.misassigned)).field("detail", row.detail);
        json.endObject();
    }
    json.endArray().endObject();
}

QByteArray sweepJson(const DeviceInfo* device, const bow::SweepParams& params,
                     const std::vector<bow::SweepRow>& rows) {
    return QByteArray::fromStdString(
        jsonDocument([&](JsonWriter& json) { writeSweepJson(json, device, params, rows); }));
}

QByteArray sweepCsv(const std::vector<bow::SweepRow>& rows) {
    QByteArray csv =
        "descriptors,centroids,strategy,clock,kernel_min_ns,kernel_median_ns,kernel_max_ns,transpose_min_ns,"
        "transpose_median_ns,transpose_max_ns,speedup_over_gpu1,misassigned,detail\n";
    for (const auto& row : rows) {
        csv +=
            QByteArray::number(static_cast<qulonglong>(row.descriptors)) + ',' +
            QByteArray::number(static_cast<qulonglong>(row.centroids)) + ',' + csvField(row.strategy) + ',' +
            csvField(measure::clockName(row.onDevice ? measure::Clock::Kernel : measure::Clock::Wall)) + ',' +
            summaryFields(row.kernel) + ',' + summaryFields(row.transpose) + ',' +
            (row.speedupOverGpu1 ? number(*row.speedupOverGpu1) : QByteArray()) + ',' +
            QByteArray::number(static_cast<qulonglong>(row.misassigned)) + ',' + csvField(row.detail) + '\n';
    }
    return csv;
}

}  // namespace hs::io
