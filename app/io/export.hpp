#pragma once
// Results to files and to the machine-readable forms the CLI prints. Every file is written through
// io/files' writeFileAtomically: a failed write leaves the previous file untouched and throws
// hs::InputError "<path>: <reason>".

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <optional>
#include <string_view>
#include <vector>

#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/pipeline/pipeline.hpp"
#include "engine/runtime/device_info.hpp"
#include "engine/runtime/timing.hpp"
#include "engine/util/json_writer.hpp"
#include "io/native_path.hpp"
#include "io/timeline.hpp"

namespace hs::io {

// io/files' writeFileAtomically and checkReplaceable (see there) for Qt's strings.
void writeFileAtomically(const QString& path, const QByteArray& data);
void checkReplaceable(const QString& path);

// What a histogram was computed from and how, written with it by every histogram export (GUI and CLI), so a
// file read months later still says what it counts.
struct HistogramContext {
    QString imagePath;
    int imageWidth = 0;
    int imageHeight = 0;
    std::optional<DeviceInfo> device;  // none: a host strategy ran without an OpenCL device
    QString strategy;                  // the strategy that ran (auto's choice)
    QString requestedStrategy;
    // The transforms before the histogram: rotation (angle in degrees, sampling), convolution (the filter's
    // label), and whether the rotated canvas grew to hold the whole image.
    std::optional<double> angle;
    QString sampling;  // with an angle only
    QString filter;    // empty: no convolution
    // The filter's taps, rows split by "; " ("1 2 1; 2 4 2; 1 2 1 / 16"; a gradient magnitude's two sets
    // joined by " | "): a custom matrix is known from its label alone only by its size. Empty: none.
    QString filterMatrix;
    bool fitCanvas = false;
    // Every image stage before the histogram, in the order it ran ("equalize", "rotate", ...).
    QStringList stages;
    // Whether fully transparent pixels were left out of R, G, B and luma.
    bool ignoreTransparent = false;
    // The rectangle counted ("roi": "X,Y,W,H" in the JSON and the CSV, present only with one); none: the
    // whole image.
    std::optional<Region> roi = std::nullopt;
};

// The context of a histogram of `path` (width x height) after the image stages of `stages` ran, the histogram
// running `strategy` (auto's choice) for `requested` on `device` (null: none).
HistogramContext histogramContext(const QString& path, int width, int height, const DeviceInfo* device,
                                  std::string_view strategy, std::string_view requested,
                                  const stages::StageList& stages, bool ignoreTransparent);
// "photo.png — <device> — <strategy> — 64 bins", a plot's title.
QString histogramTitle(const HistogramContext& context, int bins);

// JSON goes out through hs::JsonWriter (util/json_writer.hpp), the one writer of the project; the write*
// functions write one value where the writer stands, so the CLI and the GUI compose them into their
// documents.

// {"r": [...], "g": [...], "b": [...], "a": [...], "luma": [...]}
void writeHistogramJson(JsonWriter& json, const histogram::Histogram& histogram);
// {"image": {path, width, height}, "device": {name, selector, platform} or null, "strategy",
//  "requested_strategy", "bins", "bin_ranges": [[lower, upper], ...], "transform": {"angle" (null: no
//  rotation), "sampling", "filter" (null: none), "filter_matrix" (with a filter only), "fit_canvas",
//  "stages": the image stages in order}, "ignore_transparent", "roi" (only with a region)}
void writeHistogramContextJson(JsonWriter& json, const HistogramContext& context, int bins);
// A scope's context: the same without "bins" and "bin_ranges".
void writeScopeContextJson(JsonWriter& json, const HistogramContext& context);
// A scope's counts as nested arrays in numpy's C order: [value][column] (or [Cr][Cb]), inside [plane] for a
// parade.
void writeScopeCountsJson(JsonWriter& json, const scope::Counts& counts);
// The histogram export, a whole document: "histograms" (writeHistogramJson, where histoscope-cli's reports
// have it), "context", and writeHistogramJson's members at the top level too (the export's first form, an
// alias).
QByteArray histogramJson(const histogram::Histogram& histogram, const HistogramContext& context);
// Header "bin,lower,upper,r,g,b,a,luma", then one row per bin (lower/upper: the 8-bit values in the bin);
// '\t' as `separator` makes the tab-separated table a spreadsheet takes from the clipboard.
QByteArray histogramCsv(const histogram::Histogram& histogram, char separator = ',');
// The same table after a block of "# key: value" lines with the context (keys as in histogramContextJson:
// image, image_width, image_height, device, device_selector, platform, strategy, requested_strategy, bins,
// angle, sampling, filter, filter_matrix (with a filter only), fit_canvas, ignore_transparent); "none" marks
// an absent value.
QByteArray histogramCsv(const histogram::Histogram& histogram, const HistogramContext& context);

// One CSV field, quoted as RFC 4180 says when it holds a separator, a quote or a line break.
QByteArray csvField(std::string_view value);

// A device's "device" object is hs::writeDeviceJson (runtime/device_properties.hpp), the property schema.

// "stage", "name", "queued_ns", "submit_ns", "start_ns", "end_ns", "clock_offset_ns", "run_queued_ns",
// "run_submit_ns", "run_start_ns", "run_end_ns": one record's members, inside an object the caller opened (a
// front end that adds its own, such as the record's device). The *_ns times are raw, as OpenCL reported them
// on the device's own clock (the host steady clock for host work); clock_offset_ns maps them onto the host
// steady clock (Timing::hostOffsetNs); the run_*_ns times are on that one clock, from `originNs` (the run's
// first queued command, runOriginNs), so they compare across devices.
void writeTimingMembers(JsonWriter& json, const Timing& timing, std::uint64_t originNs);
// [{writeTimingMembers' members}, ...], run_*_ns from the list's first queued command.
void writeTimingsJson(JsonWriter& json, const std::vector<Timing>& timings);
// The same for repeated runs, each record with its "run" number (run_*_ns from its own run's first command);
// runs are numbered from 1 everywhere (the GUI's #N, the CLI's "run N of K"), and `firstRun` is the number of
// runs[0].
void writeTimingsJson(JsonWriter& json, const std::vector<std::vector<Timing>>& runs, int firstRun = 1);
// The records of one run numbered `number`, into an array already begun: for a caller that reports runs as
// they come instead of holding them (histoscope-cli histogram --repeat).
void writeRunTimings(JsonWriter& json, const std::vector<Timing>& run, int number);
// {"runs": N, "kernel_ns": {"min", "median", "max"}}: the engine's kernel-time summary of `runs`
// (measure::kernelSummary, whose median of an even count is the mean of the middle two). A median that falls
// between two nanoseconds is written with its .5; every other figure is an integer. `runs` must not be empty.
void writeKernelSummaryJson(JsonWriter& json, const std::vector<std::vector<Timing>>& runs);
// The same from each run's kernel time (measure::kernelNs), for a caller that kept only those.
void writeKernelSummaryJson(JsonWriter& json, const std::vector<double>& kernelNs);
// "image", "width", "height", "spec": what the run measured (RunTimings), into an object the caller opened.
void writeRunContextMembers(JsonWriter& json, const RunTimings& run);
// Header "run,stage,name,queued_ns,submit_ns,start_ns,end_ns,duration_ns,run_queued_ns,run_submit_ns,
// run_start_ns,run_end_ns,device,mode,overlap_ns,clock_offset_ns,image,width,height,spec" (times as in
// writeTimingMembers), one row per record of every device of every run, in the runs' order; device is the
// record's lane (RunTimings::devices), mode and overlap_ns a produce-consume run's, empty for a run on one
// device; the last four what the run measured (writeRunContextMembers). Columns are only ever appended.
QByteArray timingsCsv(const std::vector<RunTimings>& runs);

// Chrome trace-event JSON (opens in Perfetto and chrome://tracing): the lanes of timelineOf() as threads
// named after them (device queues, then host), one complete event ("ph": "X") per command at its start, in
// microseconds from the first run's first queued timestamp; args carry the run number, the stage, the queued
// and submit times, a kernel's build options and what the run measured (writeRunContextMembers).
QByteArray chromeTrace(const std::vector<RunTimings>& runs);

}  // namespace hs::io
