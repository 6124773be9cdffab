// Scopes (ops/scope): the reference against hand-computed cases, every strategy against the reference bit for
// bit (odd sizes, column bins that do not divide the width, transparent pixels, regions on the border and of
// one pixel), the region's rules, the stage kind's options, and the session bringing the counts back. Also
// the histogram of a region against the histogram of the cropped image, cropped here by hand.
#include "engine/ops/scope/scope.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <type_traits>

#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/tuning.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"
#include "engine/stages/builtin.hpp"
#include "expect_error.hpp"
#include "pipeline_test_support.hpp"
#include "session/session.hpp"

namespace hs::scope {
namespace {

using hs::test::mentions;
using hs::test::messageOf;

ImageRGBA8 imageOf(int width, int height, const std::vector<std::array<std::uint8_t, 4>>& pixels) {
    ImageRGBA8 image(width, height);
    for (std::size_t i = 0; i < pixels.size(); ++i)
        std::copy(pixels[i].begin(), pixels[i].end(),
                  image.pixel(static_cast<int>(i) % width, static_cast<int>(i) / width));
    return image;
}

// Noise with flat patches (8x8 blocks of one colour, so that runs of equal values down a column occur) and
// about one pixel in six of alpha 0.
ImageRGBA8 patchyImage(int width, int height, unsigned seed) {
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> byte(0, 255);
    ImageRGBA8 image = testing::noiseImage(width, height, seed);
    for (int by = 0; by < height; by += 8) {
        for (int bx = 0; bx < width; bx += 8) {
            if (byte(random) % 3 != 0) continue;
            const std::array<std::uint8_t, 4> colour{static_cast<std::uint8_t>(byte(random)),
                                                     static_cast<std::uint8_t>(byte(random)),
                                                     static_cast<std::uint8_t>(byte(random)), 255};
            for (int y = by; y < std::min(height, by + 8); ++y)
                for (int x = bx; x < std::min(width, bx + 8); ++x)
                    std::copy(colour.begin(), colour.end(), image.pixel(x, y));
        }
    }
    for (std::size_t i = 0; i < image.pixelCount(); ++i) {
        if (byte(random) % 6 == 0) image.pixels[i * 4 + 3] = 0;
    }
    return image;
}

Runtime& runtime() {
    static Runtime instance;
    return instance;
}

DeviceContext* deviceFor(const Strategy& strategy) {
    return strategy.runsOnDevice() ? &runtime().open("0:0") : nullptr;
}

Counts run(const Strategy& strategy, const ImageRGBA8& image, const Params& params) {
    PixelSource pixels(image);
    const Result result = computeScope(deviceFor(strategy), pixels, params, strategy);
    EXPECT_EQ(result.strategyName(), strategy.name()) << "no fallback here";
    return result.counts;
}

Params waveform(Channel channel, int columns = 0) {
    Params params;
    params.channel = channel;
    params.columns = columns;
    return params;
}

// The counts of one plane, row-major, from rows of (value, column bin, count) entries.
std::vector<std::uint32_t> plane(int columns, std::initializer_list<std::array<int, 3>> entries) {
    std::vector<std::uint32_t> counts(static_cast<std::size_t>(kValues) * static_cast<std::size_t>(columns),
                                      0);
    for (const auto& [value, column, count] : entries)
        counts[static_cast<std::size_t>(value) * static_cast<std::size_t>(columns) +
               static_cast<std::size_t>(column)] = static_cast<std::uint32_t>(count);
    return counts;
}

TEST(ScopeReference, TwoColumnWaveformCountedByHand) {
    // Column 0: (0,0,0), (255,255,255), (10,20,30); column 1: (200,100,50) twice, (0,0,0).
    // Lumas: 0 -> 500/1000 = 0; white -> 255500/1000 = 255; (10,20,30) -> (2990+11740+3420+500)/1000 = 18;
    // (200,100,50) -> (59800+58700+5700+500)/1000 = 124.
    const ImageRGBA8 image = imageOf(2, 3,
                                     {{0, 0, 0, 255},
                                      {200, 100, 50, 255},
                                      {255, 255, 255, 255},
                                      {200, 100, 50, 255},
                                      {10, 20, 30, 255},
                                      {0, 0, 0, 255}});
    const Counts luma = referenceScope(image.pixels.data(), 2, 3, waveform(Channel::Luma));
    ASSERT_EQ(luma.shape(), (std::vector<std::size_t>{256, 2}));
    EXPECT_EQ(luma.counts, plane(2, {{0, 0, 1}, {255, 0, 1}, {18, 0, 1}, {124, 1, 2}, {0, 1, 1}}));
    const Counts red = referenceScope(image.pixels.data(), 2, 3, waveform(Channel::R));
    EXPECT_EQ(red.counts, plane(2, {{0, 0, 1}, {255, 0, 1}, {10, 0, 1}, {200, 1, 2}, {0, 1, 1}}));
    // One column bin: both columns in it (x * 1 / 2 = 0).
    const Counts one = referenceScope(image.pixels.data(), 2, 3, waveform(Channel::Luma, 1));
    EXPECT_EQ(one.counts, plane(1, {{0, 0, 2}, {255, 0, 1}, {18, 0, 1}, {124, 0, 2}}));
    // Every strategy agrees.
    for (const auto* strategy : strategies()) {
        SCOPED_TRACE(std::string(strategy->name()));
        EXPECT_EQ(run(*strategy, image, waveform(Channel::Luma)), luma);
        EXPECT_EQ(run(*strategy, image, waveform(Channel::Luma, 1)), one);
    }
}

TEST(ScopeReference, PureRedIsOnePointOfTheVectorscope) {
    // Cb = (-11059*255 - 0 + 0 + 8421375) >> 16 = 5601330 >> 16 = 85 (5601330 / 65536 = 85.47);
    // Cr = (32768*255 - 0 - 0 + 8421375) >> 16 = 16777215 >> 16 = 255.
    static_assert(cb(255, 0, 0) == 85 && cr(255, 0, 0) == 255);
    // Grey sits at the centre: (8421375 >> 16) = 128 for any R = G = B (the weights of each sum to 0).
    static_assert(cb(77, 77, 77) == 128 && cr(77, 77, 77) == 128);
    ImageRGBA8 image(5, 3);
    for (std::size_t i = 0; i < image.pixelCount(); ++i)
        image.pixels[i * 4] = 255, image.pixels[i * 4 + 3] = 255;
    Params params;
    params.kind = Kind::Vectorscope;
    for (const auto* strategy : strategies()) {
        SCOPED_TRACE(std::string(strategy->name()));
        const Counts counts = run(*strategy, image, params);
        ASSERT_EQ(counts.shape(), (std::vector<std::size_t>{256, 256}));
        EXPECT_EQ(counts.at(0, 255, 85), 15u);
        std::uint64_t total = 0;
        for (const auto count : counts.counts) total += count;
        EXPECT_EQ(total, 15u) << "nothing anywhere else";
    }
}

TEST(ScopeReference, ParadeIsTheRedGreenAndBlueWaveforms) {
    const ImageRGBA8 image = patchyImage(37, 11, 3);
    for (const auto* strategy : strategies()) {
        SCOPED_TRACE(std::string(strategy->name()));
        Params parade = waveform(Channel::Luma, 5);
        parade.kind = Kind::Parade;
        const Counts counts = run(*strategy, image, parade);
        ASSERT_EQ(counts.shape(), (std::vector<std::size_t>{3, 256, 5}));
        const std::size_t planeSize = 256 * 5;
        for (const auto& [index, channel] : {std::pair{0, Channel::R}, {1, Channel::G}, {2, Channel::B}}) {
            const Counts single = run(*strategy, image, waveform(channel, 5));
            EXPECT_TRUE(std::equal(single.counts.begin(), single.counts.end(),
                                   counts.counts.begin() + static_cast<std::ptrdiff_t>(
                                                               static_cast<std::size_t>(index) * planeSize)))
                << "plane " << index;
        }
    }
}

TEST(ScopeReference, AWaveformSummedOverItsColumnsIsTheHistogramOfItsChannel) {
    // An independent check of the reference's binning: whatever the columns, every pixel lands in one of
    // them.
    const ImageRGBA8 image = patchyImage(41, 9, 8);
    const histogram::Histogram expected =
        histogram::referenceHistogram(image.pixels.data(), image.pixelCount(), 256, true);
    for (const int columns : {1, 7, 41, 100}) {
        Params params = waveform(Channel::Luma, columns);
        params.ignoreTransparent = true;
        const Counts counts = referenceScope(image.pixels.data(), image.width, image.height, params);
        for (int value = 0; value < 256; ++value) {
            std::uint64_t sum = 0;
            for (int column = 0; column < columns; ++column) sum += counts.at(0, value, column);
            ASSERT_EQ(sum, expected[histogram::Channel::Luma][static_cast<std::size_t>(value)])
                << "value " << value << ", " << columns << " columns";
        }
    }
}

struct Case {
    int width;
    int height;
    std::optional<Region> roi;
};

// Odd sizes; regions on the right and bottom border, inside, and of one pixel.
const Case kCases[] = {
    {1, 1, std::nullopt},
    {7, 5, std::nullopt},
    {33, 17, std::nullopt},
    {1023, 29, std::nullopt},
    {300, 40, Region{290, 31, 10, 9}},
    {300, 40, Region{0, 0, 1, 1}},
    {300, 40, Region{299, 39, 1, 1}},
    {61, 70, Region{3, 5, 37, 64}},
};

std::vector<Params> everyScope() {
    std::vector<Params> list;
    for (const int columns : {0, 1, 7, 2000}) {
        for (const auto channel : {Channel::Luma, Channel::R, Channel::G, Channel::B})
            list.push_back(waveform(channel, columns));
        Params parade = waveform(Channel::Luma, columns);
        parade.kind = Kind::Parade;
        list.push_back(parade);
    }
    Params vectorscope;
    vectorscope.kind = Kind::Vectorscope;
    list.push_back(vectorscope);
    return list;
}

class EveryScopeStrategy : public ::testing::TestWithParam<std::string> {};

TEST_P(EveryScopeStrategy, EqualsTheReferenceBitForBit) {
    const Strategy& strategy = findStrategy(GetParam());
    DeviceContext* device = deviceFor(strategy);
    unsigned seed = 1;
    for (const auto& [width, height, roi] : kCases) {
        const ImageRGBA8 image = patchyImage(width, height, ++seed);
        PixelSource pixels(image);  // uploaded once for every scope
        for (Params params : everyScope()) {
            for (const bool ignore : {false, true}) {
                params.roi = roi;
                params.ignoreTransparent = ignore;
                SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height) + " " +
                             std::string(kindName(params.kind)) + " " +
                             std::string(channelName(params.channel)) + " columns " +
                             std::to_string(params.columns) + (roi ? " roi " + roi->text() : "") +
                             (ignore ? " ignoring alpha 0" : ""));
                const Result result = computeScope(device, pixels, params, strategy);
                const Counts expected = referenceScope(image.pixels.data(), width, height, params);
                ASSERT_EQ(result.counts.shape(), expected.shape());
                ASSERT_EQ(result.counts, expected);
                EXPECT_EQ(result.strategyName(), strategy.name());
                EXPECT_EQ(result.region, roi.value_or(Region{0, 0, width, height}));
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Strategies, EveryScopeStrategy,
                         ::testing::Values("serial", "global-atomic", "local-atomic"), testing::paramName);

ImageRGBA8 oneColour(int width, int height, std::array<std::uint8_t, 4> colour) {
    ImageRGBA8 image(width, height);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) std::copy(colour.begin(), colour.end(), image.pixel(x, y));
    return image;
}

// local-atomic under its tunables' defaults, the values of the kernels before them (one row per load, 32-bit
// window of 64, no slots) and odd ones (every batch of rows, which need not divide a band;
// the smallest 16-bit window, one slot every outside chroma competes for, many groups, 4-pixel loads in few
// groups, whose 16-bit window must still see fewer than 65536 pixels a group): on frames of one colour beyond
// 65535 pixels (grey lands in the window, so a 16-bit counter would carry unless each group counts fewer; a
// saturated colour lands outside it, in a slot; runs longer than a work-item's rows) and on noise (chroma
// all over, slots taken and collided). One ctest per tuning: all in one took a minute on a fresh 2-core
// machine with two busy loops beside the suite.
const std::vector<tuning::Values> kTunings{
    {},
    {{"UNROLL", 1}, {"GROUPS_PER_CU", 4}, {"WINDOW", 64}, {"COUNTER_BITS", 32}, {"OUTSIDE_SLOTS", 0}},
    {{"UNROLL", 4},
     {"WG", 64},
     {"GROUPS_PER_CU", 1},
     {"WINDOW", 8},
     {"COUNTER_BITS", 16},
     {"OUTSIDE_SLOTS", 1}},
    {{"UNROLL", 16}, {"GROUPS_PER_CU", 16}, {"OUTSIDE_SLOTS", 16}, {"STRIP", 3}},
    {{"UNROLL", 8}, {"WINDOW", 32}, {"RUNS", 0}},
    {{"UNROLL", 2}, {"COUNTER_BITS", 32}},
    {{"WIDE", 4}, {"UNROLL", 2}, {"GROUPS_PER_CU", 1}},
};

class LocalAtomicTunings : public ::testing::TestWithParam<std::size_t> {};

TEST_P(LocalAtomicTunings, EqualTheReferenceBitForBit) {
    const Strategy& strategy = findStrategy("local-atomic");
    DeviceContext* device = deviceFor(strategy);
    const tuning::Values& values = kTunings.at(GetParam());
    const std::vector<std::pair<std::string, ImageRGBA8>> images{
        {"grey", oneColour(600, 500, {90, 90, 90, 255})},
        {"saturated", oneColour(600, 500, {250, 20, 40, 255})},
        {"noise", testing::noiseImage(257, 263, 5)},
        {"patchy", patchyImage(300, 200, 6)},
    };
    Params parade;
    parade.kind = Kind::Parade;
    Params vectorscope;
    vectorscope.kind = Kind::Vectorscope;
    const tuning::ScopedTuning scoped(tuning::key("scope", strategy.name()), values);
    for (const auto& [name, image] : images) {
        PixelSource pixels(image);
        for (const Params& params : {waveform(Channel::Luma), parade, vectorscope}) {
            std::string tuned;
            for (const auto& [tunable, value] : values) tuned += " " + tunable + "=" + std::to_string(value);
            SCOPED_TRACE(name + " " + std::string(kindName(params.kind)) + tuned);
            const Result result = computeScope(device, pixels, params, strategy);
            ASSERT_EQ(result.counts, referenceScope(image.pixels.data(), image.width, image.height, params));
            ASSERT_EQ(result.builds.size(), 1u);
            for (const auto& [tunable, value] : values) {
                if (params.kind != Kind::Vectorscope &&
                    (tunable == "WINDOW" || tunable == "COUNTER_BITS" || tunable == "OUTSIDE_SLOTS"))
                    continue;
                if (params.kind == Kind::Vectorscope && tunable == "STRIP") continue;
                if (tunable == "WIDE" && image.width % 4 != 0) continue;  // loads a pixel at a time
                if (tunable == "GROUPS_PER_CU") continue;                 // a launch size, not a build option
                // WIDE=4 (the default where a row holds whole quads) batches at most 4 rows.
                const bool quads = mentions(result.builds.front().options, "-D WIDE=4");
                const int built = tunable == "UNROLL" && quads ? std::min(value, 4) : value;
                EXPECT_TRUE(
                    mentions(result.builds.front().options, "-D " + tunable + "=" + std::to_string(built)))
                    << result.builds.front().options;
            }
        }
    }
    // By hand: every grey pixel at Cb = Cr = 128, more than 16 bits of them.
    const ImageRGBA8& grey = images.front().second;
    PixelSource pixels(grey);
    EXPECT_EQ(computeScope(device, pixels, vectorscope, strategy).counts.at(0, 128, 128), grey.pixelCount());
}

INSTANTIATE_TEST_SUITE_P(Every, LocalAtomicTunings, ::testing::Range<std::size_t>(0, kTunings.size()));

// local-atomic's WIDE=4 (4 adjacent pixels a load) against the reference: rectangles whose quads hold
// pixels outside them (an odd x, widths not a multiple of 4, one pixel wide, the right border), column bins
// that do not divide the width or outnumber its pixels (strips sharing a bin at their edges, or falling back
// to a pixel a load), rows counted in batches of 1 to 4, groups narrower than a strip, the vectorscope's
// 16-bit window that caps a group's pixels. An image whose pitch is not a multiple of 4 falls back to WIDE=1.
const std::vector<tuning::Values> kWideTunings{
    {{"WIDE", 4}},
    {{"WIDE", 4}, {"UNROLL", 2}, {"GROUPS_PER_CU", 2}, {"RUNS", 0}},
    {{"WIDE", 4}, {"UNROLL", 16}, {"WG", 8}, {"GROUPS_PER_CU", 1}, {"WINDOW", 8}, {"OUTSIDE_SLOTS", 1}},
    {{"WIDE", 4}, {"UNROLL", 4}, {"STRIP", 4}, {"COUNTER_BITS", 32}},
};

class LocalAtomicTuningsWide : public ::testing::TestWithParam<std::size_t> {};

TEST_P(LocalAtomicTuningsWide, EqualTheReferenceBitForBit) {
    const Strategy& strategy = findStrategy("local-atomic");
    DeviceContext* device = deviceFor(strategy);
    const tuning::Values& values = kWideTunings.at(GetParam());
    struct WideCase {
        int width, height;
        std::optional<Region> roi;
    };
    const WideCase cases[] = {
        {300, 40, std::nullopt},         {300, 40, Region{3, 5, 37, 30}}, {300, 40, Region{1, 0, 1, 40}},
        {300, 40, Region{297, 2, 3, 9}}, {64, 70, Region{5, 1, 6, 69}},   {301, 23, std::nullopt},
        {301, 23, Region{7, 3, 13, 11}},
    };
    Params parade;
    parade.kind = Kind::Parade;
    Params vectorscope;
    vectorscope.kind = Kind::Vectorscope;
    // Every other tuning ignores transparent pixels (a build each way is enough); the images differ by
    // tuning.
    const bool ignoreTransparent = GetParam() % 2 == 0;
    unsigned seed = 40 + static_cast<unsigned>(GetParam() * std::size(cases));
    const tuning::ScopedTuning scoped(tuning::key("scope", strategy.name()), values);
    std::string tuned;
    for (const auto& [tunable, value] : values) tuned += " " + tunable + "=" + std::to_string(value);
    for (const auto& [width, height, roi] : cases) {
        const ImageRGBA8 image = patchyImage(width, height, ++seed);
        PixelSource pixels(image);
        for (Params params : {waveform(Channel::Luma), waveform(Channel::G, 7), waveform(Channel::R, 2000),
                              parade, vectorscope}) {
            params.roi = roi;
            params.ignoreTransparent = ignoreTransparent;
            SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height) + " " +
                         std::string(kindName(params.kind)) + " columns " + std::to_string(params.columns) +
                         (roi ? " roi " + roi->text() : "") +
                         (params.ignoreTransparent ? " ignoring alpha 0" : "") + tuned);
            const Result result = computeScope(device, pixels, params, strategy);
            ASSERT_EQ(result.counts, referenceScope(image.pixels.data(), width, height, params));
            const std::string& options = result.builds.front().options;
            // A pitch not a multiple of 4 loads a pixel at a time; so does a strip too narrow for a quad.
            if (width % 4 != 0) {
                EXPECT_TRUE(mentions(options, "-D WIDE=1")) << options;
            } else if (params.kind == Kind::Vectorscope || (params.columns == 0 && values.size() < 4)) {
                EXPECT_TRUE(mentions(options, "-D WIDE=4")) << options;
            }
            if (mentions(options, "-D WIDE=4")) {
                EXPECT_FALSE(mentions(options, "-D UNROLL=16")) << options;
            }
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Every, LocalAtomicTuningsWide,
                         ::testing::Range<std::size_t>(0, kWideTunings.size()));

TEST(ScopeRegion, TheDefaultColumnsAreTheRegionsWidthUpTo1024) {
    Params params;
    EXPECT_EQ(Counts(params, 300).columns, 300);
    EXPECT_EQ(Counts(params, 3840).columns, 1024);
    params.columns = 7;
    EXPECT_EQ(Counts(params, 3840).columns, 7);
    params.kind = Kind::Vectorscope;
    EXPECT_EQ(Counts(params, 3840).columns, 256);
}

TEST(ScopeRegion, ARegionOutsideTheImageIsAUsageErrorNamingItsSize) {
    const ImageRGBA8 image = patchyImage(7, 5, 1);
    for (const auto* strategy : strategies()) {
        for (const Region outside : {Region{0, 0, 8, 1}, Region{6, 4, 2, 1}, Region{7, 0, 1, 1}}) {
            Params params;
            params.roi = outside;
            PixelSource pixels(image);
            const std::string message =
                messageOf<UsageError>([&] { computeScope(deviceFor(*strategy), pixels, params, *strategy); });
            EXPECT_TRUE(mentions(message, "--roi " + outside.text() + " lies outside the 7x5 image"))
                << message;
        }
    }
}

TEST(ScopeRegion, TheTextIsFourIntegersWithAPositiveSize) {
    EXPECT_EQ(parseRegion("3,4,5,6", "--roi"), (Region{3, 4, 5, 6}));
    for (const char* bad : {"", "1,2,3", "1,2,3,4,5", "1, 2,3,4", "-1,0,1,1", "0,0,0,1", "0,0,1,0", "a,b,c,d",
                            "1,2,3,4x", "0,0,99999999999,1"}) {
        const std::string message = messageOf<UsageError>([&] { parseRegion(bad, "--roi"); });
        EXPECT_TRUE(mentions(message, "--roi expects X,Y,W,H")) << bad << ": " << message;
    }
}

TEST(ScopeStage, ConfiguresFromTheOptionsAndRefusesWhatItsKindHasNot) {
    const stages::StageKind& kind = stages::findKind("scope");
    EXPECT_FALSE(kind.producesImage());
    const auto stage = kind.configure(
        {{"kind", "Parade"}, {"columns", "12"}, {"roi", "1,2,3,4"}, {"ignore-transparent", ""}},
        "global-atomic", {});
    EXPECT_EQ(stage->summary(), "parade, 12 columns, alpha 0 ignored, region 1,2,3,4");
    EXPECT_EQ(stage->requestedStrategy()->name(), "global-atomic");
    const auto refusal = [&](const stages::Values& values) {
        return messageOf<UsageError>([&] { kind.configure(values, "", {}); });
    };
    EXPECT_TRUE(
        mentions(refusal({{"kind", "histogram"}}), "--kind expects one of waveform, parade, vectorscope"));
    EXPECT_TRUE(
        mentions(refusal({{"kind", "vectorscope"}, {"channel", "r"}}), "--channel is the waveform's"));
    EXPECT_TRUE(mentions(refusal({{"kind", "vectorscope"}, {"columns", "4"}}), "the vectorscope has 256 Cb"));
    EXPECT_TRUE(mentions(refusal({{"columns", "0"}}), "--columns expects an integer within 1..8192"));
    EXPECT_TRUE(mentions(refusal({{"columns", "8193"}}), "--columns expects"));
    EXPECT_TRUE(mentions(refusal({{"channel", "a"}}), "--channel expects one of luma, r, g, b"));
    EXPECT_TRUE(mentions(refusal({{"roi", "1,2"}}), "--roi expects X,Y,W,H"));
    EXPECT_TRUE(mentions(messageOf<UsageError>([&] { kind.configure({}, "fastest", {}); }),
                         "unknown scope strategy 'fastest'"));
}

TEST(ScopeStage, TheSessionBringsTheCountsBackOnADeviceAndOnTheHost) {
    session::Session session;
    const auto image = std::make_shared<const ImageRGBA8>(patchyImage(45, 31, 9));
    const stages::StageKind& kind = stages::findKind("scope");
    Params params;
    params.kind = Kind::Vectorscope;
    params.roi = Region{4, 3, 40, 20};
    const Counts expected = referenceScope(image->pixels.data(), 45, 31, params);
    session::RunSpec spec;
    spec.image = image;
    spec.device = "0:0";
    spec.stages = {kind.configure({{"kind", "vectorscope"}, {"roi", "4,3,40,20"}}, "", {})};
    const session::RunReport onDevice = session.run(spec);
    ASSERT_TRUE(onDevice.result.scope);
    EXPECT_EQ(*onDevice.result.scope, expected);
    ASSERT_NE(onDevice.result.stage("scope"), nullptr);
    EXPECT_EQ(onDevice.result.stage("scope")->strategyName(), "local-atomic");

    spec.onHost = true;
    spec.stages = {kind.configure({{"kind", "vectorscope"}, {"roi", "4,3,40,20"}}, "serial", {})};
    const session::RunReport onHost = session.run(spec);
    ASSERT_TRUE(onHost.result.scope);
    EXPECT_EQ(*onHost.result.scope, expected);
}

// The scope's local-atomic and the histogram's share a name and the tunable WG: each takes only its own
// values (a WG stored for the histogram once made the scope's kernel build with it, and fail where the
// compiled kernel allowed less).
TEST(LocalAtomicTunings, TheHistogramsValuesAreNotTheScopes) {
    const Strategy& strategy = findStrategy("local-atomic");
    DeviceContext* device = deviceFor(strategy);
    const ImageRGBA8 image = patchyImage(64, 48, 3);
    PixelSource pixels(image);
    const Params params = waveform(Channel::Luma);
    {
        const tuning::ScopedTuning histogramOnly(tuning::key("histogram", "local-atomic"), {{"WG", 32}});
        const Result result = computeScope(device, pixels, params, strategy);
        ASSERT_EQ(result.builds.size(), 1u);
        EXPECT_FALSE(mentions(result.builds.front().options, "-D WG=32")) << result.builds.front().options;
    }
    const tuning::ScopedTuning scopeOnly(tuning::key("scope", "local-atomic"), {{"WG", 32}});
    const Result result = computeScope(device, pixels, params, strategy);
    ASSERT_EQ(result.builds.size(), 1u);
    EXPECT_TRUE(mentions(result.builds.front().options, "-D WG=32")) << result.builds.front().options;
    EXPECT_EQ(result.counts, referenceScope(image.pixels.data(), image.width, image.height, params));
}

// The histogram of a region: every strategy, pixels on the host and already on the device (the two ways
// launch::cropped packs them), against the reference of the image cropped here by hand.
TEST(HistogramRegion, EqualsTheHistogramOfTheCroppedImage) {
    const ImageRGBA8 image = patchyImage(131, 47, 4);
    DeviceContext& device = runtime().open("0:0");
    for (const Region region : {Region{0, 0, 1, 1}, Region{130, 46, 1, 1}, Region{100, 20, 31, 27},
                                Region{5, 7, 64, 33}, Region{0, 0, 131, 47}}) {
        ImageRGBA8 crop(region.width, region.height);
        for (int y = 0; y < region.height; ++y)
            for (int x = 0; x < region.width; ++x)
                for (int c = 0; c < 4; ++c) crop.pixel(x, y)[c] = image.pixel(region.x + x, region.y + y)[c];
        for (const bool ignore : {false, true}) {
            const histogram::Histogram expected =
                histogram::referenceHistogram(crop.pixels.data(), crop.pixelCount(), 64, ignore);
            for (const auto* strategy : histogram::strategies()) {
                SCOPED_TRACE(std::string(strategy->name()) + " region " + region.text());
                DeviceContext* on = strategy->runsOnDevice() ? &device : nullptr;
                const histogram::Params params{64, ignore, region};
                PixelSource onHost(image);
                EXPECT_EQ(histogram::computeHistogram(on, onHost, params, *strategy).histogram, expected);
                TimingLog log;
                PixelSource onDevice(device, PixelSource(image).device(device, log), image.width,
                                     image.height);
                log.collect();
                EXPECT_EQ(histogram::computeHistogram(on, onDevice, params, *strategy).histogram, expected);
            }
        }
    }
}

TEST(HistogramRegion, OutsideTheImageIsAUsageErrorNamingItsSize) {
    const ImageRGBA8 image = patchyImage(7, 5, 1);
    PixelSource pixels(image);
    const std::string message = messageOf<UsageError>([&] {
        histogram::computeHistogram(nullptr, pixels, {256, false, Region{5, 0, 3, 5}},
                                    histogram::findStrategy("serial"));
    });
    EXPECT_TRUE(mentions(message, "--roi 5,0,3,5 lies outside the 7x5 image")) << message;
}

// One channel type for the histogram and the waveform: the waveform of a channel is indexed, named and
// parsed as the histogram's channel; alpha, which only the histogram counts, is refused by name.
TEST(ScopeChannel, IsTheHistogramsChannelAndAWaveformOfAlphaIsRefused) {
    static_assert(std::is_same_v<Channel, histogram::Channel>);
    EXPECT_EQ(parseChannel("LUMA", "--channel"), histogram::Channel::Luma);
    EXPECT_EQ(channelName(parseChannel("g", "--channel")), "g");
    const ImageRGBA8 image = patchyImage(7, 5, 1);
    Params params;
    params.channel = histogram::Channel::A;
    PixelSource pixels(image);
    const std::string message =
        messageOf<UsageError>([&] { computeScope(nullptr, pixels, params, findStrategy("serial")); });
    EXPECT_TRUE(mentions(message, "a waveform counts r, g, b or luma, not a")) << message;
}

}  // namespace
}  // namespace hs::scope
