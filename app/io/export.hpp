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

// Writes `data` to a temporary file beside `path` and renames it over `path`, so a reader, a failed write and
// a writer killed mid-way all leave the previous file whole. Throws hs::InputError naming the path and the
// system's reason in words ("No space left on device"). Refuses to replace anything but a regular file (a
// FIFO or device node at `path` stays as it is). Temporaries that killed writers left beside `path` go at
// the next write to it.
void writeFileAtomically(const QString& path, const QByteArray& data);
// Throws hs::InputError when something other than a regular file (a folder, FIFO, socket, device) is at
// `path`, which writeFileAtomically() would refuse to replace: for checking outputs before work starts.
void checkReplaceable(const QString& path);

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
