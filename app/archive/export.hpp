#pragma once
// Recorded runs and diffs as JSON (through the one JsonWriter), CSV and text: what `histoscope-cli runs`
// prints and exports, and what a view of the archive exports alike.

#include <string>
#include <vector>

#include "archive/archive.hpp"
#include "archive/diff.hpp"
#include "engine/util/json_writer.hpp"

namespace hs::archive {

// One run: every member of the record, its timings as {repetition, step, name, kind, device, duration_ns}.
void writeRecordJson(JsonWriter& json, const Record& run);
void writeListedJson(JsonWriter& json, const Listed& run);
// {"a": [ids], "b": [ids], "times": [...], "differences": [...], "bins": [...], "pixels": null or
// {"compared", "reason" (when not), "width", "height", "differing", "max_difference", "first": null or
// {"x", "y", "channel"}}}.
void writeDiffJson(JsonWriter& json, const Diff& diff);

// One line per timing record: run,repetition,step,name,kind,device,duration_ns (RFC 4180 quoting).
std::string timingsCsv(const std::vector<Record>& runs);
// The diff as a table: per time its medians, ratio, interval and verdict; then the other differences.
std::string diffText(const Diff& diff);
// One line: "output pixels: 3 of 1200 differ, max difference 37, first at (4, 0) channel g", "output
// pixels: the same", "output pixels: not compared: <reason>".
std::string pixelsText(const PixelComparison& pixels);

}  // namespace hs::archive
