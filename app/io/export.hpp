#pragma once
// Results to files and to the machine-readable forms the CLI prints. Every file is written through
// QSaveFile: a failed write leaves the previous file untouched and throws hs::InputError "<path>: <reason>".

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <vector>

#include "ops/histogram/histogram.hpp"
#include "runtime/device_info.hpp"
#include "runtime/timing.hpp"

namespace hs::io {

// Writes `data` to `path` atomically (QSaveFile); throws hs::InputError naming the path and the reason.
void writeFileAtomically(const QString& path, const QByteArray& data);

// {"r": [...], "g": [...], "b": [...], "a": [...], "luma": [...]}
QJsonObject histogramJson(const histogram::Histogram& histogram);
// Header "bin,lower,upper,r,g,b,a,luma", then one row per bin (lower/upper: the 8-bit values in the bin).
QByteArray histogramCsv(const histogram::Histogram& histogram);

// {"platform", "name", "vendor", "driver", "opencl", "opencl_c", "type", "selector", ...}
QJsonObject deviceJson(const DeviceInfo& device);

// [{"stage", "name", "queued_ns", "submit_ns", "start_ns", "end_ns"}, ...]
QJsonArray timingsJson(const std::vector<Timing>& timings);
// The same for repeated runs, each record with a "run" index (0-based).
QJsonArray timingsJson(const std::vector<std::vector<Timing>>& runs);
// Header "run,stage,name,queued_ns,submit_ns,start_ns,end_ns,duration_ns".
QByteArray timingsCsv(const std::vector<std::vector<Timing>>& runs);

// Chrome trace-event JSON (opens in Perfetto and chrome://tracing): one complete event ("ph": "X") per
// command, microseconds relative to the first command, one track per stage.
QByteArray chromeTrace(const std::vector<std::vector<Timing>>& runs, const QString& deviceName);

}  // namespace hs::io
