#include "engine/lab/oclgrind_log.hpp"

#include <algorithm>
#include <optional>
#include <regex>
#include <sstream>

namespace hs::lab {

std::vector<Finding> parseOclgrindLog(std::string_view log) {
    static const std::regex at(R"(^\s*At line (\d{1,9})(?: \(column \d+\))? of .*:\s*$)");
    static const std::regex kernel(R"(^\s*Kernel: (\S+)\s*$)");
    std::vector<Finding> findings;
    std::optional<Finding> current;
    const auto finish = [&] {
        if (current && std::find(findings.begin(), findings.end(), *current) == findings.end())
            findings.push_back(*current);
        current.reset();
    };
    std::istringstream lines{std::string(log)};
    std::string line;
    while (std::getline(lines, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) {
            finish();
            continue;
        }
        if (!current) {
            // A paragraph's first line, unindented: the finding itself.
            if (line.front() == '\t' || line.front() == ' ') continue;
            // The simulator's address means nothing to the user, and would keep the same fault of many
            // work-items apart: "Invalid write of size 4 at global memory address 0x10" -> "... in global
            // memory".
            static const std::regex address(R"( at (\w+) memory address 0x[0-9A-Fa-f]+)");
            current = Finding{0, std::regex_replace(line, address, " in $1 memory"), {}};
            continue;
        }
        std::smatch match;
        if (current->line == 0 && std::regex_match(line, match, at))
            current->line = std::stoi(match[1]);
        else if (current->kernel.empty() && std::regex_match(line, match, kernel))
            current->kernel = match[1];
    }
    finish();
    return findings;
}

}  // namespace hs::lab
