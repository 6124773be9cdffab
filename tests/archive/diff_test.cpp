// The A/B diff: the bootstrap interval against a case whose resampling distribution is computed by hand, its
// reproducibility, and the verdicts on synthetic runs: noise alone, a -D change that doubles a kernel's time,
// and what else differs (spec, build options, results).
#include "archive/diff.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "archive/export.hpp"

namespace hs::archive {
namespace {

TEST(Bootstrap, ThePercentileIsTheNearestRank) {
    const std::vector<double> sorted{1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
    EXPECT_EQ(percentile(sorted, 0.025), 1);   // rank ceil(0.25) = 1
    EXPECT_EQ(percentile(sorted, 0.5), 5);     // rank 5
    EXPECT_EQ(percentile(sorted, 0.51), 6);    // rank ceil(5.1) = 6
    EXPECT_EQ(percentile(sorted, 0.975), 10);  // rank ceil(9.75) = 10
    EXPECT_EQ(percentile({4}, 0.0), 4);
}

// A = {10, 10, 10}: every resample's median is 10. B = {10, 20, 20}: a resample of three has median 20 when
// at least two draws are 20, probability 3·(2/3)²·(1/3) + (2/3)³ = 20/27, else 10 (7/27). So the ratios are
// 1 (7/27 ≈ 0.259) and 2 (20/27 ≈ 0.741): the 2.5 % percentile is 1 and the 97.5 % one is 2.
TEST(Bootstrap, TheIntervalMatchesAHandComputedResamplingDistribution) {
    const std::vector<double> a{10, 10, 10}, b{10, 20, 20};
    const auto ratios = bootstrapRatios(a, b, 20'000);
    ASSERT_EQ(ratios.size(), 20'000u);
    EXPECT_TRUE(std::all_of(ratios.begin(), ratios.end(), [](double r) { return r == 1 || r == 2; }));
    const double twos = static_cast<double>(std::count(ratios.begin(), ratios.end(), 2.0)) / 20'000;
    EXPECT_NEAR(twos, 20.0 / 27, 0.015);  // 5 standard errors (0.0031) of a fraction of 20 000
    const Interval interval = bootstrapInterval(a, b);
    EXPECT_EQ(interval.low, 1);
    EXPECT_EQ(interval.high, 2);
}

TEST(Bootstrap, TheSameInputAndSeedGiveTheSameResampling) {
    const std::vector<double> a{98, 103, 101, 99, 100, 97, 104}, b{120, 118, 125, 119, 122};
    EXPECT_EQ(bootstrapRatios(a, b), bootstrapRatios(a, b));
    const Interval first = bootstrapInterval(a, b), second = bootstrapInterval(a, b);
    EXPECT_EQ(first.low, second.low);
    EXPECT_EQ(first.high, second.high);
    EXPECT_NE(bootstrapRatios(a, b, 200, 1), bootstrapRatios(a, b, 200, 2)) << "the seed is what fixes it";
}

// A run of one kernel per repetition ("histogram: count"), with `options` as its build's -D options.
Record runOf(std::int64_t id, const std::vector<std::uint64_t>& kernelNs,
             const std::string& options = "-D BINS=256") {
    Record run;
    run.id = id;
    run.version = "v";
    run.device = "pthread-cpu";
    run.driver = "5.0";
    run.image = {"/a.png", 64, 64, "h"};
    run.stages = {
        {"histogram", "local-atomic", "local-atomic", "", {{"bins", "256"}}, {{"histogram", options, "s"}}}};
    run.bins = 2;
    run.histogram = {{"r", {10, 20}}};
    for (const auto ns : kernelNs) {
        ++run.repetitions;
        run.timings.push_back({run.repetitions, "upload", "upload: write", "upload", "pthread-cpu", 500});
        run.timings.push_back(
            {run.repetitions, "histogram", "histogram: count", "kernel", "pthread-cpu", ns});
    }
    return run;
}

const TimeComparison& timeOf(const Diff& diff, const std::string& scope) {
    const auto found = std::find_if(diff.times.begin(), diff.times.end(),
                                    [&](const TimeComparison& time) { return time.scope == scope; });
    EXPECT_NE(found, diff.times.end()) << scope;
    return *found;
}

// Noise: two sets of repetitions from one distribution (a fixed pseudo-random spread of ±5 %).
TEST(Diff, TwoRunsThatDifferOnlyByNoiseShowNoDifference) {
    const Record a = runOf(1, {1000, 1040, 980, 1010, 960, 1030, 990, 1050, 970, 1000});
    const Record b = runOf(2, {1020, 970, 1000, 1045, 985, 955, 1010, 1035, 990, 1005});
    const Diff result = diff({a}, {b});
    ASSERT_EQ(result.times.size(), 4u) << "one kernel, two stages (upload, histogram), the total";
    for (const auto& time : result.times) {
        EXPECT_EQ(time.verdict, Verdict::NoDifference) << time.scope << " " << time.name;
        EXPECT_LE(time.interval.low, 1);
        EXPECT_GE(time.interval.high, 1);
    }
    EXPECT_EQ(timeOf(result, "kernel").a.size(), 10u);
    EXPECT_TRUE(result.differences.empty());
    EXPECT_TRUE(result.bins.empty());
}

// A -D option that makes the kernel do its work twice: twice the time, the same noise.
TEST(Diff, ADefineThatDoublesAKernelsTimeIsSlowerWithAnIntervalAboveOne) {
    const std::vector<std::uint64_t> base{1000, 1040, 980, 1010, 960, 1030, 990, 1050};
    std::vector<std::uint64_t> doubled;
    for (const auto ns : base) doubled.push_back(2 * ns + 15);
    const Diff result = diff({runOf(1, base)}, {runOf(2, doubled, "-D BINS=256 -D TWICE")});
    const TimeComparison& kernel = timeOf(result, "kernel");
    EXPECT_EQ(kernel.name, "histogram: count");
    EXPECT_EQ(kernel.verdict, Verdict::Slower);
    EXPECT_GT(kernel.interval.low, 1);
    EXPECT_NEAR(kernel.ratio, 2.0, 0.05);
    EXPECT_EQ(timeOf(result, "total").verdict, Verdict::Slower);
    // The upload is as it was.
    const auto upload = std::find_if(result.times.begin(), result.times.end(),
                                     [](const TimeComparison& time) { return time.name == "upload"; });
    ASSERT_NE(upload, result.times.end());
    EXPECT_EQ(upload->verdict, Verdict::NoDifference);
    ASSERT_EQ(result.differences.size(), 1u);
    EXPECT_EQ(result.differences[0].what, "stage 1 build options");
    EXPECT_EQ(result.differences[0].b, "histogram -D BINS=256 -D TWICE");
    // And the other way round, faster.
    EXPECT_EQ(timeOf(diff({runOf(2, doubled)}, {runOf(1, base)}), "kernel").verdict, Verdict::Faster);
}

TEST(Diff, AChangeBelowTheMinimumEffectIsNoDifferenceEvenWhenTheIntervalExcludesOne) {
    const Diff result = diff({runOf(1, {1000, 1000, 1000, 1000})}, {runOf(2, {1010, 1010, 1010, 1010})});
    const TimeComparison& kernel = timeOf(result, "kernel");
    EXPECT_GT(kernel.interval.low, 1) << "no noise at all: the interval is the point 1.01";
    EXPECT_EQ(kernel.verdict, Verdict::NoDifference) << "1 % is below the 2 % minimum effect";
}

TEST(Diff, FewerThanThreeRepetitionsGiveNoVerdict) {
    const Diff result = diff({runOf(1, {1000, 1000})}, {runOf(2, {5000, 5000, 5000})});
    EXPECT_EQ(timeOf(result, "kernel").verdict, Verdict::TooFewSamples);
    EXPECT_EQ(timeOf(result, "kernel").ratio, 5);
}

TEST(Diff, AKernelOnlyOneSideRanIsSaidSoWithItsTimes) {
    Record b = runOf(2, {700, 710, 690});
    for (auto& timing : b.timings)
        if (timing.kind == "kernel") timing.name = "histogram: private_uchar";
    const Diff result = diff({runOf(1, {1000, 1010, 990})}, {b});
    ASSERT_GE(result.times.size(), 2u);
    EXPECT_EQ(result.times[0].name, "histogram: count");
    EXPECT_EQ(result.times[0].verdict, Verdict::OnlyInA);
    EXPECT_EQ(result.times[0].summaryA.median, 1000);
    EXPECT_EQ(result.times[1].name, "histogram: private_uchar");
    EXPECT_EQ(result.times[1].verdict, Verdict::OnlyInB);
    EXPECT_EQ(result.times[1].summaryB.median, 700);
    EXPECT_EQ(timeOf(result, "total").verdict, Verdict::Faster);
}

TEST(Diff, GroupsPoolTheirRepetitionsAndSayWhereTheirRunsDiffer) {
    Record a2 = runOf(3, {1010, 990});
    a2.device = "other-cpu";
    const Diff result = diff({runOf(1, {1000, 1020}), a2}, {runOf(2, {2000, 2040}), runOf(4, {1980, 2010})});
    EXPECT_EQ(result.idsA, (std::vector<std::int64_t>{1, 3}));
    const TimeComparison& kernel = timeOf(result, "kernel");
    EXPECT_EQ(kernel.a, (std::vector<double>{1000, 1020, 1010, 990}));
    EXPECT_EQ(kernel.verdict, Verdict::Slower);
    ASSERT_EQ(result.differences.size(), 1u);
    EXPECT_EQ(result.differences[0].what, "A: device");
    EXPECT_EQ(result.differences[0].b, "other-cpu");
}

TEST(Diff, SpecDeviceImageAndResultsDifferencesAreListed) {
    Record a = runOf(1, {1000, 1000, 1000});
    Record b = runOf(2, {1000, 1000, 1000});
    b.driver = "6.0";
    b.image.hash = "other";
    b.stages[0].strategy = "private-uchar";
    b.stages[0].values["bins"] = "64";
    b.histogram["r"] = {11, 19};
    b.outputHash = "x";
    const Diff result = diff({a}, {b});
    std::vector<std::string> what;
    for (const auto& difference : result.differences) what.push_back(difference.what);
    EXPECT_EQ(what, (std::vector<std::string>{"driver", "image content", "stage 1 strategy", "stage 1 values",
                                              "output image"}));
    ASSERT_EQ(result.bins.size(), 2u);
    EXPECT_EQ(result.bins[0].channel, "r");
    EXPECT_EQ(result.bins[0].bin, 0);
    EXPECT_EQ(result.bins[0].a, 10u);
    EXPECT_EQ(result.bins[0].b, 11u);
    const std::string text = diffText(result);
    EXPECT_NE(text.find("driver: 5.0  ->  6.0"), std::string::npos) << text;
    EXPECT_NE(text.find("2 histogram bin(s) differ: r[0] 10 -> 11, r[1] 20 -> 19"), std::string::npos)
        << text;
}

// A 5 x 3 image of distinct pixels, and the same with three channels of two pixels changed by hand.
ImageRGBA8 handMadeImage() {
    ImageRGBA8 image(5, 3);
    for (std::size_t i = 0; i < image.pixels.size(); ++i) image.pixels[i] = static_cast<std::uint8_t>(i * 3);
    return image;
}

TEST(Diff, ThePixelsThatDifferAreCountedWithTheMaximumAndTheFirst) {
    const ImageRGBA8 left = handMadeImage();
    ImageRGBA8 right = left;
    const auto at = [&](int x, int y, int channel) -> std::uint8_t& {
        return right.pixels[static_cast<std::size_t>((y * 5 + x) * 4 + channel)];
    };
    at(4, 0, 1) += 37;  // (4, 0) g: the first in row order
    at(4, 0, 2) -= 5;   // the same pixel again: counted once
    at(1, 2, 3) -= 60;  // (1, 2) a: the largest
    Record a = runOf(1, {1000, 1000, 1000});
    Record b = runOf(2, {1000, 1000, 1000});
    for (auto [record, image] : {std::pair<Record*, const ImageRGBA8*>{&a, &left}, {&b, &right}}) {
        OutputImage output = outputOf(image->width, image->height, image->pixels.data());
        record->outputHash = output.hash;
        record->outputPng = output.png;
    }
    ASSERT_FALSE(a.outputPng.empty());
    EXPECT_EQ(keptOutput(b).pixels, right.pixels) << "kept losslessly";

    const Diff result = diff({a}, {b});
    ASSERT_TRUE(result.pixels.has_value());
    const PixelComparison& pixels = *result.pixels;
    EXPECT_TRUE(pixels.compared) << pixels.reason;
    EXPECT_EQ(pixels.width, 5);
    EXPECT_EQ(pixels.differing, 2u);
    EXPECT_EQ(pixels.maxDifference, 60);
    EXPECT_EQ(pixels.firstX, 4);
    EXPECT_EQ(pixels.firstY, 0);
    EXPECT_EQ(pixels.firstChannel, "g");
    const std::string text = diffText(result);
    EXPECT_NE(text.find("output pixels: 2 of 15 differ, max difference 60, first at (4, 0) channel g"),
              std::string::npos)
        << text;

    // The same pixels: nothing differs.
    EXPECT_EQ(diff({a}, {a}).pixels->differing, 0u);
    EXPECT_NE(diffText(diff({a}, {a})).find("output pixels: the same"), std::string::npos);

    // Pixels not kept (over the cap): the diff says it cannot compare them.
    Record unkept = b;
    unkept.outputPng.clear();
    const auto notKept = comparePixels(a, unkept);
    ASSERT_TRUE(notKept.has_value());
    EXPECT_FALSE(notKept->compared);
    EXPECT_NE(notKept->reason.find("run 2's output pixels were not kept"), std::string::npos)
        << notKept->reason;

    // Outputs of other sizes are not compared pixel by pixel.
    const ImageRGBA8 wider(6, 3);
    const OutputImage other = outputOf(wider.width, wider.height, wider.pixels.data());
    b.outputHash = other.hash;
    b.outputPng = other.png;
    EXPECT_EQ(comparePixels(a, b)->reason, "the output sizes differ: 5x3 and 6x3");

    // No image stage on either side: no pixels to speak of.
    EXPECT_FALSE(diff({runOf(1, {1})}, {runOf(2, {1})}).pixels.has_value());
}

}  // namespace
}  // namespace hs::archive
