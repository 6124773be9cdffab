#include "bench/report.hpp"

#include <cstdio>

namespace hs::bench {

void Row::take(measure::Measurement measurement) {
    summary = measurement.summary;
    runs = std::move(measurement.runs);
    samplesNs = std::move(measurement.samplesNs);
}

void Report::add(Row row) {
    rows_.push_back(std::move(row));
}

void Report::printTable(std::ostream& out) const {
    char line[512];
    std::snprintf(line, sizeof line, "%-10s %-16s %-12s %9s %6s %10s %10s %10s %9s %8s  %s\n", "suite",
                  "subject", "input", "MiB", "clock", "min ms", "median ms", "max ms", "GB/s", "x read",
                  "detail");
    out << line;
    for (const auto& m : rows_) {
        const double mib = static_cast<double>(m.bytes) / (1024.0 * 1024.0);
        const std::string clock(measure::clockName(m.clock));
        if (m.skipped()) {
            std::snprintf(line, sizeof line,
                          "%-10s %-16s %-12s %9.2f %6s %10s %10s %10s %9s %8s  skipped: %s\n",
                          m.suite.c_str(), m.subject.c_str(), m.input.c_str(), mib, clock.c_str(), "-", "-",
                          "-", "-", "-", m.detail.c_str());
        } else {
            char ratio[32] = "-";
            if (m.baselineRatio) std::snprintf(ratio, sizeof ratio, "%.3f", *m.baselineRatio);
            std::snprintf(line, sizeof line,
                          "%-10s %-16s %-12s %9.2f %6s %10.3f %10.3f %10.3f %9.3f %8s  %s\n", m.suite.c_str(),
                          m.subject.c_str(), m.input.c_str(), mib, clock.c_str(), m.summary->min / 1e6,
                          m.summary->median / 1e6, m.summary->max / 1e6, m.gbps(), ratio, m.detail.c_str());
        }
        out << line;
    }
}

void writeSummary(JsonWriter& json, const measure::Summary& summary) {
    json.field("min_ns", summary.min).field("median_ns", summary.median).field("max_ns", summary.max);
}

void Report::writeJson(JsonWriter& json) const {
    json.beginArray();
    for (const auto& m : rows_) {
        json.beginObject();
        json.field("suite", m.suite)
            .field("subject", m.subject)
            .field("input", m.input)
            .field("bytes", m.bytes);
        json.field("clock", measure::clockName(m.clock));
        if (m.skipped()) {
            json.field("skipped", m.detail);
        } else {
            writeSummary(json, *m.summary);
            json.field("gbps", m.gbps());
            json.key("stream_read_ratio");
            if (m.baselineRatio)
                json.value(*m.baselineRatio);
            else
                json.null();
            json.field("detail", m.detail);
        }
        for (const auto& [name, value] : m.extra) json.field(name, value);
        json.endObject();
    }
    json.endArray();
}

}  // namespace hs::bench
