#pragma once
// One recorded run, as the archive keeps it (archive.hpp) and the diff compares it (diff.hpp): what was asked
// (stages with their values and strategies, build options, the kernel sources' hashes), where it ran (device,
// driver), on what (the image's path, size and content hash), by which HistoScope and when, every
// repetition's timing records, and digests of the results (histogram counts, the output image's hash).
// Plain values, no database and no Qt: a front end makes one with recordOf() from the session's report.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/image/image.hpp"
#include "session/session.hpp"

namespace hs::archive {

struct Build {
    std::string source;      // kernels/<source>.cl
    std::string options;     // its -D options
    std::string sourceHash;  // FNV-1a of the source text; empty when it is not one of the embedded kernels
    bool operator==(const Build&) const = default;
};

struct StageEntry {
    std::string kind;                           // "rotate", "histogram", ...
    std::string requested;                      // the strategy asked for; empty for a kind without strategies
    std::string strategy;                       // the strategy that ran (a fallback, auto's choice)
    std::string note;                           // why it is not the requested one
    std::map<std::string, std::string> values;  // the values the stage was configured from, as text
    std::vector<Build> builds;
    bool operator==(const StageEntry&) const = default;
};

// One timing record of one repetition (Timing, reduced to what a comparison needs).
struct TimingEntry {
    int repetition = 1;  // from 1
    std::string step;    // the stage kind or transfer it belongs to (Timing::step)
    std::string name;    // the command ("histogram_local", "write_buffer")
    std::string kind;    // stageName(Timing::stage): "kernel", "upload", ...
    std::string device;  // the device that ran it; empty for host work
    std::uint64_t durationNs = 0;
    bool operator==(const TimingEntry&) const = default;
};

struct ImageIdentity {
    std::string path;
    int width = 0;
    int height = 0;
    std::string hash;  // contentHash() of its pixels
    bool operator==(const ImageIdentity&) const = default;
};

struct Record {
    std::int64_t id = 0;     // the archive's number; 0 until recorded
    std::string uid;         // unique over every archive: a pending run is written once however often tried
    std::string recordedAt;  // UTC, ISO 8601 ("2026-11-27T04:50:51Z")
    std::string version;     // HistoScope's --version line
    std::string command;     // what made it ("histoscope-cli histogram")
    std::string device;      // the device's name; "host" on the host alone
    std::string driver;      // its driver version
    std::string platform;    // its platform's name and version
    ImageIdentity image;
    std::vector<StageEntry> stages;
    int repetitions = 0;
    std::vector<TimingEntry> timings;  // every repetition's records, in order
    // The counts of the last measurement stage: bins and one row per channel (r, g, b, a, luma); none when
    // no stage measured.
    int bins = 0;
    std::map<std::string, std::vector<std::uint64_t>> histogram;
    std::string outputHash;  // contentHash() of the output image; empty when no image stage ran
    // The output image as a lossless PNG (OutputImage), for the diff's pixels; empty when no image stage ran
    // or its PNG was over kMaxKeptOutputBytes.
    std::string outputPng;

    // The strategies that ran, in stage order, comma-separated: what `runs list --strategy` filters.
    std::string strategies() const;
    bool operator==(const Record&) const = default;
};

// FNV-1a over the size and the pixels, as 16 hex digits: two images have the same hash when they have the
// same size and pixels (not for security; a digest to tell images apart).
std::string contentHash(const ImageRGBA8& image);
std::string contentHash(int width, int height, const std::uint8_t* pixels);
ImageIdentity identify(std::string path, const ImageRGBA8& image);

// The per-run cap on a kept output image: its PNG at most 4 MiB (a 2-megapixel photo's is about 3 MiB; a
// flat or synthetic image's far less). Larger outputs keep their hash only, and the diff says it cannot
// compare their pixels. Images of more than kMaxEncodedOutputPixels are not even encoded.
inline constexpr std::size_t kMaxKeptOutputBytes = 4u << 20;
inline constexpr std::uint64_t kMaxEncodedOutputPixels = 16u << 20;

// An output image as a record keeps it: its contentHash() and its pixels as a lossless PNG (io/decode's
// encoder), the PNG empty when over the cap.
struct OutputImage {
    std::string hash;
    std::string png;
};
OutputImage outputOf(int width, int height, const std::uint8_t* pixels);
// The pixels a record kept (outputPng decoded); throws InputError naming the run when they do not decode.
ImageRGBA8 keptOutput(const Record& record);

// A record with a fresh uid, the time and HistoScope's version, made by `command`; the rest is the
// caller's (a front end that measures without a RunReport, as histoscope-bench's suites).
Record freshRecord(std::string command);
// The device, its driver and its platform.
void setDevice(Record& record, const DeviceInfo& device);
// One repetition's timing records (repetition counts from 1).
void addTimings(Record& record, const std::vector<Timing>& timings, int repetition);

// The record of a run of `stages` (a RunSpec's) as it ran: `first` gives the device, what ran, the builds,
// the results and the first repetition's timings; addRepetition() adds each further repetition's timings.
// `output`: the output image where an image stage ran (outputOf() while the caller holds its pixels), else
// empty. The time, the version and a fresh uid are filled in.
Record recordOf(std::string command, ImageIdentity image, const stages::StageList& stages,
                const session::RunReport& first, OutputImage output = {});
void addRepetition(Record& record, const session::RunReport& report);

// A stage run on its own, outside a pipeline (histoscope-cli histogram runs one stage again and again on one
// upload), as the report of a run, for recordOf() and addRepetition().
session::RunReport reportOfStage(const DeviceInfo& device, const std::shared_ptr<const stages::Stage>& stage,
                                 stages::StageRun run);

}  // namespace hs::archive
