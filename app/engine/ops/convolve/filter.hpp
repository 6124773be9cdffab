#pragma once
// Convolution filters: the built-in ones, custom matrices parsed from text, and the rank-1 test that finds
// separable ones.
//
// A filter is applied as a correlation, like OpenCV's filter2D:
//   out(x, y) = sum over i < width, j < height of taps(i, j) / divisor * in(x + i - ax, y + j - ay)
// with the anchor (ax, ay) = (width / 2, height / 2) and coordinates clamped to the image (border = nearest
// edge pixel), on R, G and B; alpha is kept. The 8-bit result is saturate(round(sum)), rounding half to even.
// A gradient-magnitude filter (Sobel) holds two tap sets a and b and outputs
// saturate(round(sqrt(a^2 + b^2))).
//
// Custom filter text, one row of the matrix per line:
//   # a comment (from '#' to the end of the line); blank lines are ignored
//   1 2 1          numbers separated by spaces, tabs or commas; every row the same length
//   2 4 2          at most 15 rows of at most 15 numbers
//   1 2 1
//   / 16           optional, after the rows: divide every tap by 16 (any non-zero number)
// Taps, the divisor and 255 * sum |taps| / divisor must lie within float range (the kernels compute in
// float).

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/ops/parameter.hpp"

namespace hs::convolve {

inline constexpr int kMaxFilterSize = 15;
// A wider Gaussian would be cut to a near-flat 15x15 box; its 2 * ceil(3 sigma) + 1 would also overflow int.
inline constexpr double kMaxGaussianSigma = kMaxFilterSize;
// Below about 0.076 every tap beside the centre is under float's smallest normal number, so a narrower
// Gaussian is the identity whatever its sigma; below this one its weights are not computable at all (2
// sigma^2 underflows to 0, and 0 / 0 is no number), so it is refused for what it is.
inline constexpr double kMinGaussianSigma = 1e-3;

struct Filter {
    std::string label;  // for display: "box 5x5", "gaussian sigma 1.5, 7x7", "custom 3x3 (edge.txt)"
    int width = 1;
    int height = 1;
    std::vector<double> taps;   // height rows of width, top row first
    std::vector<double> tapsB;  // the second tap set of a gradient magnitude; empty for a correlation
    double divisor = 1.0;

    int anchorX() const { return width / 2; }
    int anchorY() const { return height / 2; }
    bool isMagnitude() const { return !tapsB.empty(); }
    // True when every tap is an integer, the divisor a positive integer, and every sum of taps times 8-bit
    // values fits a 32-bit integer: the result is then computed exactly, in integers, by every strategy.
    bool isInteger() const;
};

// Throws UsageError naming the problem (sizes, tap counts, a zero or non-finite divisor, non-finite taps, and
// numbers the float kernels cannot hold: a tap or divisor beyond float range, or 255 * sum |taps| / divisor
// beyond it, squared and doubled for a gradient magnitude).
void validate(const Filter& filter);

// A number as messages and labels show it: "1.5", "1e+40".
std::string filterNumberText(double value);
// Builds a filter from rows of taps, labelled "<label> <width>x<height>" (for filter kinds' factories).
Filter filterFromRows(std::string label, int width, int height, std::vector<double> taps,
                      double divisor = 1.0);

// The built-in filters (each defined in its own file under filters/, which also registers it; see below).
Filter boxFilter(int size);
// 0 < sigma <= 15; size odd in 1..15, or 0 for 2 * ceil(3 sigma) + 1 capped at 15. Taps are
// exp(-d^2 / (2 sigma^2)), normalised to sum 1 per axis; the 2-D filter is their outer product.
Filter gaussianFilter(double sigma, int size = 0);
Filter sharpenFilter();    // 0 -1 0 / -1 5 -1 / 0 -1 0
Filter embossFilter();     // -2 -1 0 / -1 1 1 / 0 1 2
Filter laplacianFilter();  // 0 1 0 / 1 -4 1 / 0 1 0
Filter sobelFilter();      // magnitude of -1 0 1 / -2 0 2 / -1 0 1 and its transpose

// ---- the filter registry ----
// Every built-in filter kind registers itself from its own file in filters/ (registerFilterKind in a
// namespace-scope initialiser). --filter parsing, its help text, the Transform panel's pages and the app's
// settings iterate the registry, so a new filter kind touches one file.

// A number a filter kind takes. On a command line the parameters are positional (box:5, gaussian:1.5:7); the
// GUI shows a spin box from min to max per parameter. The factory checks the values (min and max are the
// range offered, the factory's message names the rule).
// The stages' parameter schema (ops/parameter.hpp), of which filters use Real, Integer and OddInteger.
using FilterParameter = stages::Parameter;

struct FilterKind {
    std::string name{};   // spec keyword and settings value: "box"
    std::string label{};  // GUI: "Box N×N"
    std::string help{};   // GUI tooltip: what it does
    int order = 0;        // position in lists (help text, GUI), ascending
    std::vector<FilterParameter> parameters{};
    // How many leading parameters a spec must give; the others take their defaults.
    std::size_t required = 0;
    // Builds the filter from one value per parameter (in order); throws UsageError for bad values.
    Filter (*make)(const std::vector<double>& values) = nullptr;

    std::vector<double> defaults() const;
    // "box[:N]", "gaussian:SIGMA[:SIZE]", "sharpen".
    std::string specHelp() const;
};

// Adds `kind` to the registry; returns true so that a file can register from a namespace-scope initialiser:
//   [[maybe_unused]] const bool registered = registerFilterKind({...});
bool registerFilterKind(FilterKind kind);
// Every registered kind, by FilterKind::order.
std::vector<const FilterKind*> filterKinds();
// The kind called `name`, or null.
const FilterKind* findFilterKind(std::string_view name);

// Custom filter text typed by a user (UI, command line). Throws UsageError: "custom filter: line 3: ...".
Filter parseFilterText(std::string_view text);
// The text of a custom filter file (read by io). Throws InputError naming the file:
// "<path>: line 3: 'x' is not a number". The label names the file: "custom 3x3 (edge.txt)".
Filter parseFilterFile(std::string_view text, const std::string& path);
// Custom filter files are a few hundred bytes; io reads at most this many bytes of one.
inline constexpr std::size_t kMaxFilterFileBytes = 64 * 1024;

// A filter named on a command line: box[:N] (default 3), gaussian:SIGMA[:SIZE], sharpen, ... (every
// registered kind); nullopt when `spec` names no filter kind, so that the caller reads it as a filter file.
// Bad parameters: UsageError.
std::optional<Filter> namedFilterFromSpec(std::string_view spec);
// The spec namedFilterFromSpec reads back as `kind` made from `values` (one per parameter, in order):
// "gaussian:1.5:7". Every value is written, each as the shortest text that reads back as it.
std::string filterSpec(const FilterKind& kind, const std::vector<double>& values);
// What to say about a spec that is neither a filter name nor an existing file: a UsageError listing the
// filters when it is a bare word ("blur"), an InputError (missing file) when it holds a '/' or a '.'.
[[noreturn]] void throwUnknownFilterSpec(std::string_view spec);
// What a --filter SPEC names: a registered filter kind (namedFilterFromSpec), else the filter file at that
// path, whose text `readFile` reads (at most kMaxFilterFileBytes; io's reader, which names the file in its
// errors) and `text` receives (empty for a named filter). A spec that is neither: throwUnknownFilterSpec.
Filter filterFromSpec(std::string_view spec,
                      const std::function<std::string(const std::string& path)>& readFile,
                      std::string* text = nullptr);
// The specs namedFilterFromSpec understands, and filter files, for help texts:
// "box[:N], gaussian:SIGMA[:SIZE], ..., or a filter file".
std::string filterSpecHelp();

// taps(i, j) = column[j] * row[i]. For integer filters both vectors hold integers (row with no common
// factor).
struct Separation {
    std::vector<double> row;     // width taps
    std::vector<double> column;  // height taps
};
// The rank-1 factorisation of a correlation filter's taps, or nothing when the taps have rank > 1 or the
// filter is a gradient magnitude.
std::optional<Separation> separate(const Filter& filter);

}  // namespace hs::convolve
