#include "ops/convolve/filter.hpp"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <numeric>
#include <optional>
#include <sstream>

#include "runtime/error.hpp"

namespace hs::convolve {

namespace {

constexpr double kInt32Max = std::numeric_limits<std::int32_t>::max();
// The kernels compute in float: every tap, the divisor, their quotients and sums must stay finite there.
constexpr double kFloatMax = std::numeric_limits<float>::max();
constexpr double kFloatMin = std::numeric_limits<float>::min();  // smallest normal float
// Custom filter files are a few hundred bytes; anything far larger is not one.
constexpr std::uintmax_t kMaxFilterFileBytes = 64 * 1024;

std::string sizeText(int width, int height) {
    return std::to_string(width) + "x" + std::to_string(height);
}

std::string numberText(double value) {
    std::ostringstream text;
    text << value;
    return text.str();
}

Filter fromRows(std::string label, int width, int height, std::vector<double> taps, double divisor = 1.0) {
    Filter filter;
    filter.label = std::move(label) + " " + sizeText(width, height);
    filter.width = width;
    filter.height = height;
    filter.taps = std::move(taps);
    filter.divisor = divisor;
    return filter;
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
    return std::string(what) + " " + numberText(value) + " is beyond float range (magnitudes " +
           numberText(kFloatMin) + " to " + numberText(kFloatMax) + ")";
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
        return "taps / divisor times 255 sum to " + numberText(largest) + ", beyond float range (at most " +
               numberText(kFloatMax) + ")";
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

Filter parseRows(std::string_view text) {
    if (text.find('\0') != std::string_view::npos) throw TextProblem{"not a text file"};
    std::vector<double> taps;
    int width = 0;
    int height = 0;
    std::optional<double> divisor;
    int lineNumber = 0;
    for (std::size_t start = 0; start <= text.size(); ++lineNumber) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
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
    Filter filter = fromRows("custom", width, height, std::move(taps), divisor.value_or(1.0));
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

Filter boxFilter(int size) {
    if (size < 1 || size > kMaxFilterSize)
        throw UsageError("box filter size must be within 1..15, got " + std::to_string(size));
    return fromRows("box", size, size, std::vector<double>(static_cast<std::size_t>(size * size), 1.0),
                    static_cast<double>(size * size));
}

Filter gaussianFilter(double sigma, int size) {
    if (!std::isfinite(sigma) || sigma <= 0)
        throw UsageError("gaussian sigma must be a positive number, got " + numberText(sigma));
    if (sigma > kMaxGaussianSigma)
        throw UsageError("gaussian sigma must be at most " + std::to_string(kMaxFilterSize) +
                         " (filters are at most 15x15), got " + numberText(sigma));
    if (size == 0) size = std::min(kMaxFilterSize, 2 * static_cast<int>(std::ceil(3 * sigma)) + 1);
    if (size < 1 || size > kMaxFilterSize || size % 2 == 0)
        throw UsageError("gaussian size must be odd and within 1..15, got " + std::to_string(size));
    const int radius = size / 2;
    std::vector<double> axis(static_cast<std::size_t>(size));
    for (int k = 0; k < size; ++k)
        axis[static_cast<std::size_t>(k)] = std::exp(-(k - radius) * (k - radius) / (2 * sigma * sigma));
    const double total = std::accumulate(axis.begin(), axis.end(), 0.0);
    for (auto& value : axis) value /= total;
    std::vector<double> taps;
    for (const double down : axis) {
        for (const double across : axis) taps.push_back(down * across);
    }
    return fromRows("gaussian sigma " + numberText(sigma), size, size, std::move(taps));
}

Filter sharpenFilter() {
    return fromRows("sharpen", 3, 3, {0, -1, 0, -1, 5, -1, 0, -1, 0});
}

Filter embossFilter() {
    return fromRows("emboss", 3, 3, {-2, -1, 0, -1, 1, 1, 0, 1, 2});
}

Filter laplacianFilter() {
    return fromRows("laplacian", 3, 3, {0, 1, 0, 1, -4, 1, 0, 1, 0});
}

Filter sobelFilter() {
    Filter filter = fromRows("sobel magnitude", 3, 3, {-1, 0, 1, -2, 0, 2, -1, 0, 1});
    filter.tapsB = {-1, -2, -1, 0, 0, 0, 1, 2, 1};
    return filter;
}

Filter parseFilterText(std::string_view text) {
    try {
        return parseRows(text);
    } catch (const TextProblem& problem) {
        throw UsageError("custom filter: " + problem.message);
    }
}

Filter loadFilterFile(const std::string& path) {
    std::error_code error;
    const auto size = std::filesystem::file_size(path, error);
    if (error) throw InputError(path + ": cannot read the filter file (" + error.message() + ")");
    if (size > kMaxFilterFileBytes)
        throw InputError(path + ": " + std::to_string(size) + " bytes is too large for a filter file");
    std::ifstream file(path, std::ios::binary);
    std::string text(static_cast<std::size_t>(size), '\0');
    if (!file || !file.read(text.data(), static_cast<std::streamsize>(size)))
        throw InputError(path + ": cannot read the filter file");
    try {
        Filter filter = parseRows(text);
        filter.label += " (" + std::filesystem::path(path).filename().string() + ")";
        return filter;
    } catch (const TextProblem& problem) {
        throw InputError(path + ": " + problem.message);
    }
}

std::string_view filterSpecHelp() {
    return "box[:N], gaussian:SIGMA[:SIZE], sharpen, emboss, laplacian, sobel, or a filter file";
}

Filter filterFromSpec(std::string_view spec) {
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
        const std::size_t colon = spec.find(':', start);
        parts.push_back(
            spec.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start));
        if (colon == std::string_view::npos) break;
        start = colon + 1;
    }
    const std::string_view name = parts.front();
    const std::size_t parameters = parts.size() - 1;
    const auto expect = [&](std::size_t least, std::size_t most, std::string_view form) {
        if (parameters < least || parameters > most)
            throw UsageError("filter '" + std::string(spec) + "': expected " + std::string(form));
    };
    if (name == "box") {
        expect(0, 1, "box or box:N");
        return boxFilter(parameters == 0 ? 3 : parseSpecInteger(spec, parts[1]));
    }
    if (name == "gaussian") {
        expect(1, 2, "gaussian:SIGMA or gaussian:SIGMA:SIZE");
        return gaussianFilter(parseSpecNumber(spec, parts[1]),
                              parameters == 2 ? parseSpecInteger(spec, parts[2]) : 0);
    }
    const std::pair<std::string_view, Filter (*)()> fixed[] = {{"sharpen", sharpenFilter},
                                                               {"emboss", embossFilter},
                                                               {"laplacian", laplacianFilter},
                                                               {"sobel", sobelFilter}};
    for (const auto& [fixedName, make] : fixed) {
        if (name == fixedName) {
            expect(0, 0, std::string(fixedName) + " without parameters");
            return make();
        }
    }
    const std::string path(spec);
    if (!std::filesystem::exists(path)) {
        // A bare word is most likely a mistyped filter name ("blur"); a spec that looks like a path names a
        // file that is missing.
        if (path.find_first_of("/.") == std::string::npos)
            throw UsageError("unknown filter '" + path + "' (filters: " + std::string(filterSpecHelp()) +
                             ")");
        throw InputError(path + ": no such filter file (filters by name: " + std::string(filterSpecHelp()) +
                         ")");
    }
    return loadFilterFile(path);
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
