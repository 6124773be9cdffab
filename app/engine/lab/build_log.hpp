#pragma once
// A driver's build log as diagnostics on source lines, for the formats the kernel lab knows (tests/data/
// build_logs/ keeps real logs of each): clang's, which NVIDIA's OpenCL compiler prints ("<kernel>:3:1: error:
// ...", "/tmp/x.cl:4:2: warning: ..."), PoCL's ("error: /tmp/tempfile_x.cl:12:5: message"), and NVIDIA's
// assembler ("ptxas error   : ..."), whose lines have no source line. A log in no known format is kept raw.

#include <string>
#include <string_view>
#include <vector>

namespace hs::lab {

struct Diagnostic {
    enum class Severity { Error, Warning, Note };
    int line = 0;    // 1-based source line; 0: the diagnostic names none (ptxas)
    int column = 0;  // 1-based; 0: none
    Severity severity = Severity::Error;
    std::string message;

    bool operator==(const Diagnostic&) const = default;
};

struct ParsedLog {
    std::vector<Diagnostic> diagnostics;  // in the log's order
    std::string raw;                      // the whole log, as the driver gave it
    // Whether any line was in a known format; false: show `raw`.
    bool recognised() const { return !diagnostics.empty(); }
    // The first error; null when there is none.
    const Diagnostic* firstError() const;
};

ParsedLog parseBuildLog(std::string_view log);

std::string_view severityName(Diagnostic::Severity severity);

}  // namespace hs::lab
