#include "engine/lab/annotations.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <optional>
#include <regex>
#include <sstream>

#include "engine/runtime/error.hpp"

namespace hs::lab {

namespace {

bool isIdentifier(const std::string& word) {
    static const std::regex identifier("[A-Za-z_][A-Za-z0-9_]*");
    return std::regex_match(word, identifier);
}

// `text` as a number of `type`, whole text only; nothing when it is not one.
std::optional<double> number(KernelParam::Type type, std::string_view text) {
    if (type == KernelParam::Type::Int) {
        long long value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
        if (value < INT32_MIN || value > INT32_MAX) return std::nullopt;
        return static_cast<double>(value);
    }
    float value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
        return std::nullopt;
    return static_cast<double>(value);
}

std::string typeName(KernelParam::Type type) {
    return type == KernelParam::Type::Int ? "int" : "float";
}

}  // namespace

KernelSource parseKernelSource(std::string_view text, std::string_view file) {
    // `// @param` at the start of a line (after blanks); the fields follow, separated by blanks.
    static const std::regex annotation(R"(^\s*//\s*@param\b(.*)$)");
    static const std::regex kernel(
        R"((?:^|[^A-Za-z0-9_])(?:__)?kernel\s+void\s+([A-Za-z_][A-Za-z0-9_]*)\s*\()");
    KernelSource source;
    std::istringstream lines{std::string(text)};
    std::string line;
    for (int lineNumber = 1; std::getline(lines, line); ++lineNumber) {
        std::smatch match;
        if (source.kernelName.empty() && std::regex_search(line, match, kernel) &&
            line.find("//") > static_cast<std::size_t>(match.position(0)))
            source.kernelName = match[1];
        if (!std::regex_match(line, match, annotation)) continue;
        const auto fail = [&](const std::string& what) {
            throw InputError(std::string(file) + ':' + std::to_string(lineNumber) + ": @param: " + what);
        };
        std::istringstream fieldStream(match[1].str());
        std::vector<std::string> fields;
        for (std::string field; fieldStream >> field;) fields.push_back(field);
        if (fields.size() != 5)
            fail("needs 5 fields, TYPE NAME MIN MAX DEFAULT; this line has " + std::to_string(fields.size()));
        KernelParam param;
        param.line = lineNumber;
        if (fields[0] == "int")
            param.type = KernelParam::Type::Int;
        else if (fields[0] == "float")
            param.type = KernelParam::Type::Float;
        else
            fail("type '" + fields[0] + "' is neither int nor float");
        param.name = fields[1];
        if (!isIdentifier(param.name)) fail("name '" + param.name + "' is not an identifier");
        for (const auto& earlier : source.params)
            if (earlier.name == param.name)
                fail("'" + param.name + "' is declared twice (first on line " + std::to_string(earlier.line) +
                     ")");
        const char* what[] = {"MIN", "MAX", "DEFAULT"};
        double* into[] = {&param.min, &param.max, &param.defaultValue};
        for (int i = 0; i < 3; ++i) {
            const auto value = number(param.type, fields[static_cast<std::size_t>(i) + 2]);
            if (!value)
                fail(std::string(what[i]) + " '" + fields[static_cast<std::size_t>(i) + 2] + "' is not " +
                     (param.type == KernelParam::Type::Int ? "an int" : "a float"));
            *into[i] = *value;
        }
        if (param.min > param.max) fail("MIN " + fields[2] + " is above MAX " + fields[3]);
        if (param.defaultValue < param.min || param.defaultValue > param.max)
            fail("DEFAULT " + fields[4] + " is outside " + fields[2] + ".." + fields[3]);
        source.params.push_back(std::move(param));
    }
    if (source.kernelName.empty())
        throw InputError(std::string(file) + ": no kernel function (kernel void NAME(...)) in the file");
    return source;
}

double parseParamValue(const KernelParam& param, std::string_view value) {
    const auto parsed = number(param.type, value);
    if (!parsed)
        throw UsageError("--param " + param.name + ": '" + std::string(value) + "' is not " +
                         (param.type == KernelParam::Type::Int ? "an int" : "a float"));
    if (*parsed < param.min || *parsed > param.max) {
        std::ostringstream range;
        range << param.min << ".." << param.max;
        throw UsageError("--param " + param.name + ": " + std::string(value) + " is outside " + range.str() +
                         " (" + typeName(param.type) + ")");
    }
    return *parsed;
}

}  // namespace hs::lab
