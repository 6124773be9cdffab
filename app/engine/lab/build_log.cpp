#include "engine/lab/build_log.hpp"

#include <regex>
#include <sstream>

namespace hs::lab {

namespace {

Diagnostic::Severity severityOf(const std::string& word) {
    if (word == "warning") return Diagnostic::Severity::Warning;
    if (word == "note" || word == "remark") return Diagnostic::Severity::Note;
    return Diagnostic::Severity::Error;  // error, fatal error, fatal
}

}  // namespace

const Diagnostic* ParsedLog::firstError() const {
    for (const auto& diagnostic : diagnostics)
        if (diagnostic.severity == Diagnostic::Severity::Error) return &diagnostic;
    return nullptr;
}

std::string_view severityName(Diagnostic::Severity severity) {
    switch (severity) {
        case Diagnostic::Severity::Error:
            return "error";
        case Diagnostic::Severity::Warning:
            return "warning";
        case Diagnostic::Severity::Note:
            return "note";
    }
    return "error";
}

ParsedLog parseBuildLog(std::string_view log) {
    // clang: FILE:LINE:COL: SEVERITY: MESSAGE, FILE being "<source>" (PoCL), "<kernel>" (NVIDIA), a path, or
    // anything without a colon-digit sequence; the lines after it (the source line, the caret) are context.
    static const std::regex clang(
        R"(^(.*?):(\d{1,9}):(\d{1,9}): (fatal error|error|warning|note|remark): (.*?)\r?$)");
    // PoCL's own form: SEVERITY: FILE:LINE:COL: MESSAGE, FILE its temporary copy of the source.
    static const std::regex pocl(
        R"(^(fatal error|error|warning|note|remark): (.*?):(\d{1,9}):(\d{1,9}): (.*?)\r?$)");
    // clang without a column (some drivers' preprocessor errors): FILE:LINE: SEVERITY: MESSAGE.
    static const std::regex noColumn(
        R"(^(.*?):(\d{1,9}): (fatal error|error|warning|note|remark): (.*?)\r?$)");
    // NVIDIA's assembler: "ptxas error   : Entry function 'k' uses too much shared data (...)", or with the
    // PTX line, which is not a source line: "ptxas application ptx input, line 12; error   : ...".
    static const std::regex ptxas(
        R"(^ptxas\s*(?:(application ptx input, line \d+);\s*)?(fatal|error|warning|info)\s*:\s*(.*?)\r?$)");
    ParsedLog parsed;
    parsed.raw = std::string(log);
    std::istringstream lines(parsed.raw);
    std::string line;
    while (std::getline(lines, line)) {
        std::smatch match;
        if (std::regex_match(line, match, clang)) {
            parsed.diagnostics.push_back(
                {std::stoi(match[2]), std::stoi(match[3]), severityOf(match[4]), match[5]});
        } else if (std::regex_match(line, match, pocl)) {
            parsed.diagnostics.push_back(
                {std::stoi(match[3]), std::stoi(match[4]), severityOf(match[1]), match[5]});
        } else if (std::regex_match(line, match, noColumn)) {
            parsed.diagnostics.push_back({std::stoi(match[2]), 0, severityOf(match[3]), match[4]});
        } else if (std::regex_match(line, match, ptxas)) {
            if (match[2] == "info") continue;  // resource usage lines, not problems
            std::string message = "ptxas: " + match[3].str();
            if (match[1].matched) message += " (" + match[1].str() + ")";
            parsed.diagnostics.push_back({0, 0, severityOf(match[2]), std::move(message)});
        }
    }
    return parsed;
}

}  // namespace hs::lab
