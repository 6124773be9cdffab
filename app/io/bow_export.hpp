#pragma once
// Visual-words results to files: an image's word histogram (CSV with "# key: value" context lines, or JSON
// with a "context" object) and the builder sweep (CSV, or JSON shaped as `histoscope-cli bow-sweep --json`).
// The GUI writes them through writeFileAtomically.

#include <QByteArray>
#include <QString>
#include <cstdint>
#include <optional>
#include <vector>

#include "engine/ops/bow/sweep.hpp"
#include "engine/runtime/device_info.hpp"
#include "engine/util/json_writer.hpp"

namespace hs::io {

// What a word histogram was computed from.
struct WordsContext {
    QString imagePath;
    int imageWidth = 0;
    int imageHeight = 0;
    std::optional<DeviceInfo> device;  // none: the CPU reference descriptors and a host strategy
    QString strategy;                  // the builder that assigned the words
    int window = 0;                    // descriptor window and stride, pixels
    int stride = 0;
    QString vocabulary;  // where the vocabulary came from: its file, or the images k-means ran over
};

// Header "word,descriptors", one row per word, after the context lines (keys: image, image_width,
// image_height, device, device_selector, platform, strategy, window, stride, words, vocabulary; "none" marks
// an absent value).
QByteArray wordHistogramCsv(const std::vector<std::uint32_t>& histogram, const WordsContext& context);
// {"histogram": [...], "context": {"image": {path, width, height}, "device": {...} or null, "strategy",
//  "window", "stride", "words", "vocabulary"}}
QByteArray wordHistogramJson(const std::vector<std::uint32_t>& histogram, const WordsContext& context);

// {"device": {...} or null, "repetitions", "rows": [{"descriptors", "centroids", "strategy", "clock",
//  "kernel_ns": {min, median, max} or null, "transpose_ns": ... or null, "speedup_over_gpu1" (or null),
//  "misassigned", "detail"}]}
void writeSweepJson(JsonWriter& json, const DeviceInfo* device, const bow::SweepParams& params,
                    const std::vector<bow::SweepRow>& rows);
QByteArray sweepJson(const DeviceInfo* device, const bow::SweepParams& params,
                     const std::vector<bow::SweepRow>& rows);
// Header "descriptors,centroids,strategy,clock,kernel_min_ns,kernel_median_ns,kernel_max_ns,
// transpose_min_ns,transpose_median_ns,transpose_max_ns,speedup_over_gpu1,misassigned,detail"; an absent
// figure is an empty field.
QByteArray sweepCsv(const std::vector<bow::SweepRow>& rows);

}  // namespace hs::io
