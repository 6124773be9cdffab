#include "engine/ops/convolve/filter.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <deque>
#include <filesystem>
#include <limits>
#include <numeric>
#include <optional>
#include <sstream>

#include "engine/runtime/error.hpp"

namespace hs::convolve {

namespace {

constexpr double kInt32Max = std::numeric_limits<std::int32_t>::max();
// The kernels compute in float: every tap, the divisor, their quotients and sums must stay finite there.
constexpr double kFloatMax = std::numeric_limits<float>::max();
constexpr double kFloatMin = std::numeric_limits<float>::min();  // smallest normal float

std::string sizeText(int width, int height) {
    return std::to_string(width) + "x" + std::to_string(height);
}

bool isWhole(double value) {
    return std::isfinite(value) && value == std::trunc(value);
}

double sumOfMagnitudes(const std::vector<double>& taps) {
    double sum = 0;
    for (const double tap : taps) sum += std::abs(tap);
    return sum;
}

std::string beyondFloat(std::string_view what, double value) {
    return std::string(what) + " " + filterNumberText(value) + " is beyond float range (magnitudes " +
           filterNumberText(kFloatMin) + " to " + filterNumberText(kFloatMax) + ")";
}

std::optional<std::string> tapRangeProblem(double tap) {
    if (std::abs(tap) > kFloatMax) return beyondFloat("tap", tap);
    return std::nullopt;
}

std::optional<std::string> divisorRangeProblem(double divisor) {
    if (std::abs(divisor) > kFloatMax || std::abs(divisor) < kFloatMin)
        return beyondFloat("divisor", divisor);
    return std::nullopt;
}

// The largest value a kernel can reach: 255 times the sum of |taps| / |divisor|, squared and doubled for a
// gradient magnitude.
std::optional<std::string> sumRangeProblem(const Filter& filter) {
    const double largestSum = 255.0 * std::max(sumOfMagnitudes(filter.taps), sumOfMagnitudes(filter.tapsB)) /
                              std::abs(filter.divisor);
    const double largest = filter.isMagnitude() ? 2.0 * largestSum * largestSum : largestSum;
    if (!(largest <= kFloatMax))
        return "taps / divisor times 255 sum to " + filterNumberText(largest) +
               ", beyond float range (at most " + filterNumberText(kFloatMax) + ")";
    return std::nullopt;
}

// A problem in filter text; turned into UsageError or InputError by the caller, who knows the origin.
struct TextProblem {
    std::string message;
};

std::optional<double> parseNumber(std::string_view token) {
    double value = 0;
    const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (error != std::errc() || end != token.data() + token.size() || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::vector<std::string_view> tokens(std::string_view line) {
    std::vector<std::string_view> result;
    std::size_t start = 0;
    while (true) {
        start = line.find_first_not_of(" \t\r,", start);
        if (start == std::string_view::npos) return result;
        const std::size_t end = std::min(line.find_first_of(" \t\r,", start), line.size());
        result.push_back(line.substr(start, end - start));
        start = end;
    }
}

// Editors on other systems save what the rows are read from with a byte-order mark in front (Windows) and
// lines ended by CR LF (Windows) or by CR alone (classic Mac OS): the mark is skipped, and each of the three
// line ends ends a line.
constexpr std::string_view kUtf8ByteOrderMark = "\xEF\xBB\xBF";

Filter parseRows(std::string_view text) {
    if (text.find('\0') != std::string_view::npos) throw TextProblem{"not a text file"};
    if (text.starts_with(kUtf8ByteOrderMark)) text.remove_prefix(kUtf8ByteOrderMark.size());
    std::vector<double> taps;
    int width = 0;
    int height = 0;
    std::optional<double> divisor;
    int lineNumber = 0;
    for (std::size_t start = 0; start <= text.size(); ++lineNumber) {
        const std::size_t end = std::min(text.find_first_of("\r\n", start), text.size());
        std::string_view line = text.substr(start, end - start);
        start = end + (text.substr(end).starts_with("\r\n") ? 2 : 1);
        line = line.substr(0, line.find('#'));
        auto words = tokens(line);
        if (words.empty()) continue;
        const std::string where = "line " + std::to_string(lineNumber + 1) + ": ";
        if (divisor) throw TextProblem{where + "nothing may follow the divisor line"};
        if (words.front().front() == '/') {
            if (height == 0) throw TextProblem{where + "the divisor comes after the rows"};
            words.front().remove_prefix(1);
            if (words.front().empty()) words.erase(words.begin());
            if (words.size() != 1) throw TextProblem{where + "expected one number after '/'"};
            divisor = parseNumber(words.front());
            if (!divisor) throw TextProblem{where + "'" + std::string(words.front()) + "' is not a number"};
            if (*divisor == 0) throw TextProblem{where + "the divisor must not be zero"};
            if (const auto problem = divisorRangeProblem(*divisor)) throw TextProblem{where + *problem};
            continue;
        }
        if (height == 0) width = static_cast<int>(words.size());
        if (static_cast<int>(words.size()) != width)
            throw TextProblem{where + std::to_string(words.size()) + " numbers, but the first row has " +
                              std::to_string(width)};
        if (width > kMaxFilterSize || height == kMaxFilterSize)
            throw TextProblem{where + "more than " + std::to_string(kMaxFilterSize) + " " +
                              (width > kMaxFilterSize ? "columns" : "rows") +
                              " (the largest filter is 15x15)"};
        for (const auto word : words) {
            const auto value = parseNumber(word);
            if (!value) throw TextProblem{where + "'" + std::string(word) + "' is not a number"};
            if (const auto problem = tapRangeProblem(*value)) throw TextProblem{where + *problem};
            taps.push_back(*value);
        }
        ++height;
    }
    if (height == 0) throw TextProblem{"no filter rows (expected lines of numbers)"};
    Filter filter = filterFromRows("custom", width, height, std::move(taps), divisor.value_or(1.0));
    if (const auto problem = sumRangeProblem(filter)) throw TextProblem{*problem};
    return filter;
}

int parseSpecInteger(std::string_view spec, std::string_view text) {
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size())
        throw UsageError("filter '" + std::string(spec) + "': '" + std::string(text) +
                         "' is not a whole number");
    return value;
}

double parseSpecNumber(std::string_view spec, std::string_view text) {
    const auto value = parseNumber(text);
    if (!value)
        throw UsageError("filter '" + std::string(spec) + "': '" + std::string(text) + "' is not a number");
    return *value;
}

}  // namespace

bool Filter::isInteger() const {
    const auto whole = [](const std::vector<double>& values) {
        for (const double value : values) {
            if (!isWhole(value)) return false;
        }
        return true;
    };
    if (!whole(taps) || !whole(tapsB) || !isWhole(divisor) || divisor <= 0 || divisor > kInt32Max)
        return false;
    const double largestSum = 255.0 * std::max(sumOfMagnitudes(taps), sumOfMagnitudes(tapsB));
    // A magnitude squares and adds two sums.
    return isMagnitude() ? 2.0 * largestSum * largestSum <= kInt32Max : largestSum <= kInt32Max;
}

void validate(const Filter& filter) {
    const std::string name = "filter " + filter.label + ": ";
    if (filter.width < 1 || filter.height < 1 || filter.width > kMaxFilterSize ||
        filter.height > kMaxFilterSize)
        throw UsageError(name + "size " + sizeText(filter.width, filter.height) + " is outside 1x1..15x15");
    const auto count = static_cast<std::size_t>(filter.width * filter.height);
    if (filter.taps.size() != count || (filter.isMagnitude() && filter.tapsB.size() != count))
        throw UsageError(name + "expected " + std::to_string(count) + " taps");
    for (const auto* set : {&filter.taps, &filter.tapsB}) {
        for (const double tap : *set) {
            if (!std::isfinite(tap)) throw UsageError(name + "a tap is not a finite number");
            if (const auto problem = tapRangeProblem(tap)) throw UsageError(name + *problem);
        }
    }
    if (!std::isfinite(filter.divisor) || filter.divisor == 0)
        throw UsageError(name + "the divisor must be a finite, non-zero number");
    if (const auto problem = divisorRangeProblem(filter.divisor)) throw UsageError(name + *problem);
    if (const auto problem = sumRangeProblem(filter)) throw UsageError(name + *problem);
    if (filter.isMagnitude() && filter.divisor != 1.0)
        throw UsageError(name + "a gradient magnitude takes no divisor");
}

std::string filterNumberText(double value) {
    std::ostringstream text;
    text << value;
    return text.str();
}

Filter filterFromRows(std::string label, int width, int height, std::vector<double> taps, double divisor) {
    Filter filter;
    filter.label = std::move(label) + " " + sizeText(width, height);
    filter.width = width;
    filter.height = height;
    filter.taps = std::move(taps);
    filter.divisor = divisor;
    return filter;
}

Filter parseFilterText(std::string_view text) {
    try {
        return parseRows(text);
    } catch (const TextProblem& problem) {
        throw UsageError("custom filter: " + problem.message);
    }
}

Filter parseFilterFile(std::string_view text, const std::string& path) {
    try {
        Filter filter = parseRows(text);
        filter.label += " (" + std::filesystem::path(path).filename().string() + ")";
        return filter;
    } catch (const TextProblem& problem) {
        throw InputError(path + ": " + problem.message);
    }
}

// ---- the registry ----

namespace {

// A deque: the pointers filterKinds() and findFilterKind() hand out stay valid while kinds register.
std::deque<FilterKind>& registry() {
    static std::deque<FilterKind> kinds;
    return kinds;
}

std::vector<std::string_view> specParts(std::string_view spec) {
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
        const std::size_t colon = spec.find(':', start);
        parts.push_back(
            spec.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start));
        if (colon == std::string_view::npos) return parts;
        start = colon + 1;
    }
}

// "box or box:N", "gaussian:SIGMA or gaussian:SIGMA:SIZE", "sharpen without parameters".
std::string specForms(const FilterKind& kind) {
    if (kind.parameters.empty()) return kind.name + " without parameters";
    std::vector<std::string> forms;
    std::string form = kind.name;
    for (std::size_t given = 0; given <= kind.parameters.size(); ++given) {
        if (given > 0) form += ":" + kind.parameters[given - 1].placeholder;
        if (given >= kind.required) forms.push_back(form);
    }
    std::string text;
    for (std::size_t i = 0; i < forms.size(); ++i)
        text += (i == 0 ? "" : i + 1 == forms.size() ? " or " : ", ") + forms[i];
    return text;
}

}  // namespace

std::vector<double> FilterKind::defaults() const {
    std::vector<double> values;
    for (const auto& parameter : parameters) values.push_back(parameter.defaultValue);
    return values;
}

std::string FilterKind::specHelp() const {
    std::string text = name;
    std::string closing;
    for (std::size_t i = 0; i < parameters.size(); ++i) {
        if (i >= required) {
            text += "[";
            closing += "]";
        }
        text += ":" + parameters[i].placeholder;
    }
    return text + closing;
}

bool registerFilterKind(FilterKind kind) {
    registry().push_back(std::move(kind));
    return true;
}

std::vector<const FilterKind*> filterKinds() {
    std::vector<const FilterKind*> kinds;
    for (const auto& kind : registry()) kinds.push_back(&kind);
    std::stable_sort(kinds.begin(), kinds.end(),
                     [](const FilterKind* a, const FilterKind* b) { return a->order < b->order; });
    return kinds;
}

const FilterKind* findFilterKind(std::string_view name) {
    for (const auto& kind : registry()) {
        if (kind.name == name) return &kind;
    }
    return nullptr;
}

std::string filterSpecHelp() {
    std::string text;
    for (const auto* kind : filterKinds()) text += kind->specHelp() + ", ";
    return text + "or a filter file";
}

std::optional<Filter> namedFilterFromSpec(std::string_view spec) {
    const auto parts = specParts(spec);
    const FilterKind* kind = findFilterKind(parts.front());
    if (!kind) return std::nullopt;
    const std::size_t given = parts.size() - 1;
    if (given < kind->required || given > kind->parameters.size())
        throw UsageError("filter '" + std::string(spec) + "': expected " + specForms(*kind));
    std::vector<double> values = kind->defaults();
    for (std::size_t i = 0; i < given; ++i) {
        values[i] = kind->parameters[i].type == FilterParameter::Type::Real
                        ? parseSpecNumber(spec, parts[i + 1])
                        : parseSpecInteger(spec, parts[i + 1]);
    }
    return kind->make(values);
}

std::string filterSpec(const FilterKind& kind, const std::vector<double>& values) {
    std::string spec = kind.name;
    for (const double value : values) {
        std::array<char, 32> text{};
        const auto written = std::to_chars(text.data(), text.data() + text.size(), value);
        spec += ':';
        spec.append(text.data(), written.ptr);
    }
    return spec;
}

void throwUnknownFilterSpec(std::string_view spec) {
    const std::string path(spec);
    // A bare word is most likely a mistyped filter name ("blur"); a spec that looks like a path names a file
    // that is missing.
    if (path.find_first_of("/.") == std::string::npos)
        throw UsageError("unknown filter '" + path + "' (filters: " + filterSpecHelp() + ")");
    throw InputError(path + ": no such filter file (filters by name: " + filterSpecHelp() + ")");
}

Filter filterFromSpec(std::string_view spec,
                      const std::function<std::string(const std::string& path)>& readFile,
                      std::string* text) {
    if (auto named = namedFilterFromSpec(spec)) {
        if (text) text->clear();
        return std::move(*named);
    }
    const std::string path(spec);
    std::error_code error;
    if (!std::filesystem::exists(path, error)) throwUnknownFilterSpec(spec);
    std::string read = readFile(path);
    Filter filter = parseFilterFile(read, path);
    if (text) *text = std::move(read);
    return filter;
}

std::optional<Separation> separate(const Filter& filter) {
    if (filter.isMagnitude()) return std::nullopt;
    const auto w = static_cast<std::size_t>(filter.width);
    const auto h = static_cast<std::size_t>(filter.height);
    const auto tap = [&](std::size_t i, std::size_t j) { return filter.taps[j * w + i]; };
    // The pivot: the largest tap, so the ratios below are as well conditioned as they can be.
    std::size_t pivotI = 0;
    std::size_t pivotJ = 0;
    for (std::size_t j = 0; j < h; ++j) {
        for (std::size_t i = 0; i < w; ++i) {
            if (std::abs(tap(i, j)) > std::abs(tap(pivotI, pivotJ)))
                std::tie(pivotI, pivotJ) = std::pair{i, j};
        }
    }
    const double pivot = tap(pivotI, pivotJ);
    Separation separation{std::vector<double>(w, 0.0), std::vector<double>(h, 1.0)};
    if (pivot == 0) return separation;

    const bool integer = filter.isInteger();
    for (std::size_t i = 0; i < w; ++i) separation.row[i] = tap(i, pivotJ);
    if (integer) {
        // Taken down to coprime integers, the row divides every row of an integer rank-1 matrix exactly.
        long long common = 0;
        for (const double value : separation.row) common = std::gcd(common, static_cast<long long>(value));
        if (pivot < 0) common = -common;
        for (auto& value : separation.row) value /= static_cast<double>(common);
    }
    const double rowPivot = separation.row[pivotI];
    for (std::size_t j = 0; j < h; ++j) separation.column[j] = tap(pivotI, j) / rowPivot;

    const double tolerance = integer ? 0.0 : 1e-9 * std::abs(pivot);
    for (std::size_t j = 0; j < h; ++j) {
        if (integer && !isWhole(separation.column[j])) return std::nullopt;
        for (std::size_t i = 0; i < w; ++i) {
            if (std::abs(tap(i, j) - separation.column[j] * separation.row[i]) > tolerance)
                return std::nullopt;
        }
    }
    return separation;
}

}  // namespace hs::convolve
