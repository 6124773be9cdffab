#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "bench/run_recorder.hpp"
#include "engine/ops/rotate/rotate.hpp"

namespace hs::bench {

// A file of raw RGBA8 pixels to measure on instead of generated patterns.
struct RawInput {
    std::string path;
    int width = 0;
    int height = 0;
};

struct Options {
    std::string device;  // selector; empty: the default of selectDevice()
    std::vector<double> sizesMiB{1, 16, 64, 256};
    std::vector<std::string> patterns;    // empty: all
    std::vector<std::string> strategies;  // empty: all
    std::vector<std::string> suites;      // empty: all
    int bins = 256;
    double angleDegrees = 33.3;                  // of the rotate suite
    std::optional<rotate::FilterMode> sampling;  // of the rotate suite; empty: both
    int repetitions = 10;
    // --json: the JSON on stdout (the table then goes to stderr); --json-out PATH (--json=PATH, and the older
    // --json PATH): the JSON written to PATH atomically.
    bool jsonOnStdout = false;
    std::optional<std::string> jsonPath;
    std::optional<RawInput> raw;
    // --record: every row measured repetition by repetition is recorded in the run archive, read from the
    // environment before any measuring; null without --record.
    std::shared_ptr<const RunRecorder> record;
    int frameWidth = 3840;  // the frame and live suites' frame of a pattern
    int frameHeight = 2160;

    // Where --json-out PATH sends the JSON; "-" is stdout.
    void setJsonPath(const std::string& path);

    // Whether `name` is selected (in any case) by a list that selects everything when empty.
    static bool selected(const std::vector<std::string>& list, const std::string& name);
};

// Throws UsageError naming the bad option. Returns nullopt when --help was printed.
std::optional<Options> parseOptions(int argc, char** argv);

}  // namespace hs::bench
