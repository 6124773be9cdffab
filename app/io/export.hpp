#pragma once
// Results to files and to the machine-readable forms the CLI prints. Every file is written through
// QSaveFile: a failed write leaves the previous file untouched and throws hs::InputError "<path>: <reason>".

#include <QByteArray>
#include <QJsonArray>
#include <QJsonObject>
#include <QString>
#include <vector>

#include "io/timeline.hpp"
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
// The same for repeated runs, each record with its "run" number; runs are numbered from 1 everywhere (the
// GUI's #N, the CLI's "run N of K"), and `firstRun` is the number of runs[0].
QJsonArray timingsJson(const std::vector<std::vector<Timing>>& runs, int firstRun = 1);
// Header "run,stage,name,queued_ns,submit_ns,start_ns,end_ns,duration_ns"; runs numbered as in timingsJson.
QByteArray timingsCsv(const std::vector<std::vector<Timing>>& runs, int firstRun = 1);

// Chrome trace-event JSON (opens in Perfetto and chrome://tracing): the lanes of timelineOf() as threads
// named after them (device queues, then host), one complete event ("ph": "X") per command at its start, in
// microseconds from the first run's first queued timestamp; args carry the run number, the stage, the queued
// and submit times and a kernel's build options.
QByteArray chromeTrace(const std::vector<RunTimings>& runs);

}  // namespace hs::io
