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

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hs::convolve {

inline constexpr int kMaxFilterSize = 15;
// A wider Gaussian would be cut to a near-flat 15x15 box; its 2 * ceil(3 sigma) + 1 would also overflow int.
inline constexpr double kMaxGaussianSigma = kMaxFilterSize;

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

Filter boxFilter(int size);
// 0 < sigma <= 15; size odd in 1..15, or 0 for 2 * ceil(3 sigma) + 1 capped at 15. Taps are
// exp(-d^2 / (2 sigma^2)), normalised to sum 1 per axis; the 2-D filter is their outer product.
Filter gaussianFilter(double sigma, int size = 0);
Filter sharpenFilter();    // 0 -1 0 / -1 5 -1 / 0 -1 0
Filter embossFilter();     // -2 -1 0 / -1 1 1 / 0 1 2
Filter laplacianFilter();  // 0 1 0 / 1 -4 1 / 0 1 0
Filter sobelFilter();      // magnitude of -1 0 1 / -2 0 2 / -1 0 1 and its transpose

// Custom filter text typed by a user (UI, command line). Throws UsageError: "custom filter: line 3: ...".
Filter parseFilterText(std::string_view text);
// A custom filter file. Throws InputError naming the file: "<path>: line 3: 'x' is not a number".
Filter loadFilterFile(const std::string& path);

// A filter named on a command line: box[:N] (default 3), gaussian:SIGMA[:SIZE], sharpen, emboss, laplacian,
// sobel; anything else is read as a filter file (InputError when it cannot be). Bad parameters: UsageError.
// A spec that is neither a filter name nor an existing file is a UsageError listing the filters when it is a
// bare word ("blur"), an InputError (missing file) when it holds a '/' or a '.'.
Filter filterFromSpec(std::string_view spec);
// The names filterFromSpec understands, for help texts.
std::string_view filterSpecHelp();

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
