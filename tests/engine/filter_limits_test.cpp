// Filters whose numbers the kernels cannot hold: each is refused with the limit in words, never computed.
// Before these checks `gaussian:1e9` overflowed an int and ran as a 1x1 filter, and taps beyond float range
// made the convolution strategies disagree.
#include <gtest/gtest.h>

#include <cfloat>
#include <functional>

#include "engine/ops/convolve/filter.hpp"
#include "engine/runtime/error.hpp"
#include "expect_error.hpp"

namespace hs::convolve {
namespace {

using test::messageOf;

using test::mentions;

TEST(FilterLimits, HugeGaussianSigmaIsAUsageErrorNamingTheLimit) {
    for (const std::string spec : {"gaussian:1e9", "gaussian:7e8", "gaussian:1e300", "gaussian:16",
                                   "gaussian:1e9:5", "gaussian:2147483648"}) {
        SCOPED_TRACE(spec);
        const std::string problem = messageOf<UsageError>([&] { namedFilterFromSpec(spec); });
        EXPECT_TRUE(mentions(problem, "sigma")) << problem;
        EXPECT_TRUE(mentions(problem, "15x15")) << problem;
    }
    // The widest Gaussian still allowed is the largest filter.
    EXPECT_EQ(namedFilterFromSpec("gaussian:15")->width, kMaxFilterSize);
    EXPECT_EQ(namedFilterFromSpec("gaussian:3")->width, kMaxFilterSize)
        << "2 * ceil(3 sigma) + 1 capped at 15";
    EXPECT_EQ(namedFilterFromSpec("gaussian:15:3")->width, 3);
}

TEST(FilterLimits, TapsBeyondFloatRangeAreRefused) {
    for (const std::string text : {"1e39 1\n", "1 -1e39\n", "1 1\n/ 1e-320\n", "1 1\n/ 1e39\n",
                                   "1e38 1e38 1e38\n", "1e30 1\n/ 1e-10\n"}) {
        SCOPED_TRACE(text);
        const std::string problem = messageOf<UsageError>([&] { parseFilterText(text); });
        EXPECT_TRUE(mentions(problem, "float")) << problem;
    }
    // Large numbers that cancel in the quotient are fine: the kernels see taps of 1.
    const Filter scaled = parseFilterText("1e30 1e30\n/ 2e30\n");
    EXPECT_NO_THROW(validate(scaled));
}

TEST(FilterLimits, FilterFileBeyondFloatRangeNamesTheFile) {
    const std::string problem =
        messageOf<InputError>([] { parseFilterFile("1 2 1\n2 1e39 2\n1 2 1\n", "filters/big.txt"); });
    EXPECT_TRUE(mentions(problem, "filters/big.txt")) << problem;
    EXPECT_TRUE(mentions(problem, "line 2")) << problem;
    EXPECT_TRUE(mentions(problem, "float")) << problem;
}

TEST(FilterLimits, ValidateRefusesAProgrammaticFilterBeyondFloatRange) {
    Filter filter = boxFilter(3);
    filter.taps[4] = 1e39;
    EXPECT_TRUE(mentions(messageOf<UsageError>([&] { validate(filter); }), "float"));
    Filter magnitude = sobelFilter();
    // a^2 + b^2 overflows float although each sum fits.
    for (auto& tap : magnitude.taps) tap *= 1e17;
    EXPECT_TRUE(mentions(messageOf<UsageError>([&] { validate(magnitude); }), "float"));
}

}  // namespace
}  // namespace hs::convolve
