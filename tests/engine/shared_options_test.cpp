// The option rules every front end shares (histoscope, histoscope-cli, histoscope-bench): values accepted,
// values refused with a message naming the option, and strategy names in any case.
#include <gtest/gtest.h>

#include <string>

#include "expect_error.hpp"
#include "ops/convolve/convolve.hpp"
#include "ops/histogram/histogram.hpp"
#include "ops/rotate/rotate.hpp"
#include "runtime/error.hpp"
#include "stages/shared_options.hpp"

namespace hs::options {
namespace {

// The UsageError's message, or a test failure when `parse` accepts.
std::string refusal(const std::function<void()>& parse) {
    return test::messageOf<UsageError>(parse);
}

TEST(SharedOptions, AnglesAreAnyFiniteNumberReducedIntoTheHalfOpenTurn) {
    EXPECT_EQ(parseAngle("30"), 30);
    EXPECT_EQ(parseAngle("-45"), -45);
    EXPECT_EQ(parseAngle("+12.5"), 12.5);
    EXPECT_EQ(parseAngle("400"), 40);
    EXPECT_EQ(parseAngle("-180"), 180);
    EXPECT_EQ(parseAngle("1e3"), -80);  // 1000 = 3 turns - 80
    for (const char* bad : {"nan", "NaN", "inf", "-inf", "infinity", "north", "", "12deg", "1,5", "--3"}) {
        const std::string message = refusal([&] { parseAngle(bad); });
        EXPECT_EQ(message, "--angle expects a finite number of degrees, got '" + std::string(bad) + "'");
    }
}

TEST(SharedOptions, SamplingAndBins) {
    EXPECT_EQ(parseSampling("nearest"), rotate::FilterMode::Nearest);
    EXPECT_EQ(parseSampling("Linear"), rotate::FilterMode::Linear);
    EXPECT_EQ(refusal([] { parseSampling("cubic"); }), "--sampling must be linear or nearest, got 'cubic'");
    EXPECT_EQ(parseBins("1"), 1);
    EXPECT_EQ(parseBins("256"), 256);
    for (const char* bad : {"0", "257", "-3", "many", "2.5", ""})
        EXPECT_EQ(refusal([&] { parseBins(bad); }),
                  "--bins must be an integer within 1..256, got '" + std::string(bad) + "'");
}

TEST(SharedOptions, RotationNeedsAnAngleForItsSampling) {
    EXPECT_FALSE(parseRotation(std::nullopt, std::nullopt));
    const auto plain = parseRotation(std::string("400"), std::nullopt);
    ASSERT_TRUE(plain);
    EXPECT_EQ(plain->angleDegrees, 40);
    EXPECT_EQ(plain->filterMode, rotate::FilterMode::Linear);
    const auto nearest = parseRotation(std::string("-90"), std::string("NEAREST"));
    ASSERT_TRUE(nearest);
    EXPECT_EQ(nearest->angleDegrees, -90);
    EXPECT_EQ(nearest->filterMode, rotate::FilterMode::Nearest);
    EXPECT_EQ(refusal([] { parseRotation(std::nullopt, std::string("nearest")); }),
              "--sampling applies to --angle, which is not given");
}

TEST(SharedOptions, StrategyNamesMatchInAnyCase) {
    for (const auto* strategy : histogram::strategies()) {
        std::string upper(strategy->name());
        for (auto& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
        EXPECT_EQ(&histogram::findStrategy(upper), strategy) << upper;
    }
    for (const auto* strategy : rotate::strategies()) {
        std::string mixed(strategy->name());
        mixed[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(mixed[0])));
        EXPECT_EQ(&rotate::findStrategy(mixed), strategy) << mixed;
    }
    EXPECT_EQ(&convolve::findStrategy("LOCAL-TILED"), &convolve::findStrategy("local-tiled"));
    const std::string unknown = refusal([] { histogram::findStrategy("fastest"); });
    EXPECT_NE(unknown.find("unknown strategy 'fastest' (known: "), std::string::npos) << unknown;
    // A name is matched whole, not as a piece.
    EXPECT_THROW(histogram::findStrategy("serial-ish"), UsageError);
    EXPECT_THROW(histogram::findStrategy("seria"), UsageError);
}

}  // namespace
}  // namespace hs::options
