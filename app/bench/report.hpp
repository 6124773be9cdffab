#pragma once
// The bench's report: one row per subject (strategy, kernel) measured on one input by the engine's measuring
// module (measure/measure.hpp: warm-up, repetitions, min / median / max, GB/s, baselines), printed as a table
// and as JSON.

#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "engine/measure/measure.hpp"
#include "engine/util/json_writer.hpp"

namespace hs::bench {

// One line of the report: a subject measured on one input, or skipped with the reason.
struct Row {
    std::string suite;
    std::string subject;
    std::string input;        // pattern name or file
    std::uint64_t bytes = 0;  // what gbps() divides: the input, or input plus output (the suite says which)
    measure::Clock clock = measure::Clock::Kernel;
    std::optional<measure::Summary> summary;
    std::optional<double> baselineRatio;  // GB/s over a baseline's (streaming read or copy) on the same bytes
    std::string detail;                   // build options, chosen strategy, or why it was skipped
    std::map<std::string, double> extra;  // suite-specific numbers (bins, angle, ...)
    // Where the suite measured repetition by repetition: each timed repetition's timing log and figure
    // (measure::Measurement), what --record keeps.
    std::vector<std::vector<Timing>> runs;
    std::vector<double> samplesNs;

    // Takes the summary, the logs and the figures of `measurement`.
    void take(measure::Measurement measurement);

    bool skipped() const { return !summary.has_value(); }
    double gbps() const { return summary ? measure::gigabytesPerSecond(bytes, summary->median) : 0.0; }
};

class Report {
  public:
    void add(Row row);
    const std::vector<Row>& rows() const { return rows_; }
    void printTable(std::ostream& out) const;
    // Writes the rows as a JSON array.
    void writeJson(JsonWriter& json) const;

  private:
    std::vector<Row> rows_;
};

// "min_ns", "median_ns", "max_ns".
void writeSummary(JsonWriter& json, const measure::Summary& summary);

}  // namespace hs::bench
