// Issue 21, item 13: a Gaussian too narrow to compute says that its sigma is too small, not that a tap is not
// a finite number; the narrow ones that compute (they are the identity in float) still run.
#include <gtest/gtest.h>

#include "engine/ops/convolve/filter.hpp"
#include "engine/runtime/error.hpp"
#include "expect_error.hpp"

namespace hs::convolve {
namespace {

using test::mentions;
using test::messageOf;

TEST(GaussianSigma, TooSmallToComputeIsSaidSo) {
    for (const char* spec : {"gaussian:1e-300", "gaussian:1e-200:3", "unsharp:1:1e-300"}) {
        SCOPED_TRACE(spec);
        const std::string message = messageOf<UsageError>([&] { namedFilterFromSpec(spec); });
        EXPECT_TRUE(mentions(message, "sigma")) << message;
        EXPECT_TRUE(mentions(message, "too small")) << message;
        EXPECT_FALSE(mentions(message, "finite")) << message;
    }
}

TEST(GaussianSigma, NarrowOnesStillRunAsTheIdentity) {
    for (const char* spec : {"gaussian:0.001", "gaussian:0.05"}) {
        SCOPED_TRACE(spec);
        const auto filter = namedFilterFromSpec(spec);
        ASSERT_TRUE(filter.has_value());
        validate(*filter);
        EXPECT_DOUBLE_EQ(filter->taps[filter->taps.size() / 2], 1.0);
    }
}

}  // namespace
}  // namespace hs::convolve
