// The kernel lab's edited built-in strategies (engine/lab/edited_strategy.hpp): a stage's strategy built from
// a user's edit of its kernels/ source, checked against the stage's CPU reference on every run. An unchanged
// copy matches; a copy broken on purpose names the first place it broke, which the test knows by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "engine/lab/edited_strategy.hpp"
#include "engine/lab/reference_check.hpp"
#include "engine/measure/compare.hpp"
#include "engine/ops/pipeline/pipeline.hpp"
#include "engine/runtime/kernel_sources.hpp"
#include "engine/stages/stage.hpp"
#include "pipeline_test_support.hpp"

namespace hs {
namespace {

std::string noFile(const std::string& path, std::uint64_t, std::string_view) {
    throw InputError(path + ": no file in this test");
}

// `text` with `from` replaced by `to`, once; fails the test when `from` is not there.
std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

std::shared_ptr<const stages::Stage> histogramStage(const std::string& strategy) {
    return stages::findKind("histogram").configure({}, strategy, noFile);
}

std::shared_ptr<const stages::Stage> boxStage(const std::string& strategy) {
    return stages::findKind("convolve").configure({{"filter", "box:3"}}, strategy, noFile);
}

pipeline::StageReport runEdited(std::shared_ptr<const stages::Stage> stage, const std::string& text,
                                const ImageRGBA8& image) {
    PixelSource pixels(image);
    pipeline::Result result =
        pipeline::runPipeline(testing::testDevice(), pixels,
                              stages::StageList{lab::editedStrategy(std::move(stage), "edited.cl", text)});
    EXPECT_EQ(result.stages.size(), 1u);
    return result.stages.front();
}

// local_atomic adds its group's counters to the global histogram; this copy skips counter 17, which is
// channel r (the first BINS = 256 counters), value 17.
const std::string kAddCounters = "if (sum != 0) atomic_add(&hist[i], sum);";
const std::string kSkipCounter17 = "if (sum != 0 && i != 17) atomic_add(&hist[i], sum);";

TEST(EditedStrategy, AnUnchangedLocalAtomicCopyMatchesTheCpuReference) {
    const ImageRGBA8 image = testing::noiseImage(61, 29, 3);
    const auto report =
        runEdited(histogramStage("local-atomic"), std::string(kernelSource("histogram")), image);
    EXPECT_EQ(report.strategyName(), "local-atomic");
    ASSERT_TRUE(report.referenceCheck);
    EXPECT_TRUE(report.referenceCheck->matches()) << report.referenceCheck->describe();
    EXPECT_EQ(report.referenceCheck->describe(), "matches the CPU reference");
    // The report names the edited text as the build's source.
    ASSERT_FALSE(report.builds.empty());
    EXPECT_EQ(report.builds.front().source, "edited.cl");
    EXPECT_EQ(report.builds.front().text, std::string(kernelSource("histogram")));
}

TEST(EditedStrategy, ALocalAtomicCopyThatDropsOneCounterNamesThatBin) {
    const ImageRGBA8 image = testing::noiseImage(61, 29, 3);
    std::uint64_t reds17 = 0;  // by hand: the pixels whose r is 17
    for (std::size_t i = 0; i < image.pixels.size(); i += 4) reds17 += image.pixels[i] == 17 ? 1 : 0;
    ASSERT_GT(reds17, 0u) << "the image must hold r = 17 for this test to mean anything";
    const std::string broken = replaced(std::string(kernelSource("histogram")), kAddCounters, kSkipCounter17);
    const auto report = runEdited(histogramStage("local-atomic"), broken, image);
    ASSERT_TRUE(report.referenceCheck);
    const lab::ReferenceCheck& check = *report.referenceCheck;
    EXPECT_FALSE(check.matches());
    ASSERT_TRUE(check.firstBin);
    EXPECT_EQ(check.firstBin->channel, histogram::Channel::R);
    EXPECT_EQ(check.firstBin->bin, 17);
    EXPECT_EQ(check.firstBin->expected, reds17);
    EXPECT_EQ(check.firstBin->got, 0u);
    EXPECT_EQ(check.maxDifference, reds17);
    EXPECT_EQ(check.describe(), "bin 17 of r: expected " + std::to_string(reds17) +
                                    ", got 0 (largest difference " + std::to_string(reds17) + ")");

    // The edit lived in that stage only: local-atomic from kernels/histogram.cl counts r = 17 again.
    PixelSource pixels(image);
    pipeline::Result plain = pipeline::runPipeline(testing::testDevice(), pixels,
                                                   stages::StageList{histogramStage("local-atomic")});
    ASSERT_TRUE(plain.values);
    EXPECT_EQ((*plain.values)[histogram::Channel::R][17], reds17);
}

// convolve_buffer writes each output pixel once; this copy flips the top bit of r at (3, 2).
const std::string kConvolveWrite = "    dst[y * width + x] = finish(s, divisor, src[y * width + x].w);";
const std::string kConvolveWriteFlipped =
    "    uchar4 v = finish(s, divisor, src[y * width + x].w);\n"
    "    if (x == 3 && y == 2) v.x ^= (uchar)0x80;\n"
    "    dst[y * width + x] = v;";

TEST(EditedStrategy, AConvolveCopyNamesTheFirstPixelItGotWrongAndAnUnchangedOneMatches) {
    const ImageRGBA8 image = testing::noiseImage(23, 9, 4);
    const auto same = runEdited(boxStage("buffer-naive"), std::string(kernelSource("convolve")), image);
    ASSERT_TRUE(same.referenceCheck);
    EXPECT_TRUE(same.referenceCheck->matches()) << same.referenceCheck->describe();

    const std::string broken =
        replaced(std::string(kernelSource("convolve")), kConvolveWrite, kConvolveWriteFlipped);
    const auto report = runEdited(boxStage("buffer-naive"), broken, image);
    ASSERT_TRUE(report.referenceCheck);
    const lab::ReferenceCheck& check = *report.referenceCheck;
    ASSERT_TRUE(check.firstPixel) << check.describe();
    const ImageRGBA8 expected = boxStage("buffer-naive")->reference(image);
    const int want = expected.pixel(3, 2)[0];
    EXPECT_EQ(check.firstPixel->x, 3);
    EXPECT_EQ(check.firstPixel->y, 2);
    EXPECT_EQ(check.firstPixel->channel, 0);
    EXPECT_EQ(check.firstPixel->expected, want);
    EXPECT_EQ(check.firstPixel->got, want ^ 0x80);
    EXPECT_EQ(check.maxDifference, 128u);
}

// Compare measures the edit as one more row after the registry's. A copy that does not build fails in its
// row alone, naming its file: that row ran the edit, the row of local-atomic itself did not.
TEST(EditedStrategy, CompareMeasuresTheEditBesideTheRegisteredStrategies) {
    const ImageRGBA8 image = testing::noiseImage(64, 32, 5);
    const std::string source(kernelSource("histogram"));
    const auto rowsOf = [&](const std::string& text) {
        return measure::compareHistogramStrategies(&testing::testDevice(), image, {}, 1, {},
                                                   measure::kCompareBaseline,
                                                   measure::EditedSource{"local-atomic", "edited.cl", text})
            .strategies;
    };
    const auto rows = rowsOf(source);
    ASSERT_EQ(rows.size(), histogram::strategies().size() + 1);
    EXPECT_EQ(rows.back().strategy, "local-atomic (edited: edited.cl)");
    EXPECT_TRUE(rows.back().measured()) << rows.back().unsupported;

    const auto broken = rowsOf(source + "\nthis does not build;\n");
    EXPECT_FALSE(broken.back().measured());
    EXPECT_NE(broken.back().unsupported.find("edited.cl"), std::string::npos) << broken.back().unsupported;
    const auto plain = std::find_if(broken.begin(), broken.end(),
                                    [](const auto& row) { return row.strategy == "local-atomic"; });
    ASSERT_NE(plain, broken.end());
    EXPECT_TRUE(plain->measured()) << plain->unsupported;
}

TEST(EditedStrategy, AHostStrategyOrAutoHasNoKernelToEdit) {
    EXPECT_THROW(lab::editedStrategy(histogramStage("serial"), "e.cl", "x"), UsageError);
    EXPECT_THROW(lab::editedStrategy(histogramStage("auto"), "e.cl", "x"), UsageError);
}

TEST(ReferenceCheck, ComparesImagesAndHistogramsInOrder) {
    ImageRGBA8 a(3, 2);
    ImageRGBA8 b = a;
    EXPECT_TRUE(lab::compareImages(a, b).matches());
    b.pixel(2, 0)[3] = 9;
    b.pixel(0, 1)[1] = 200;
    const lab::ReferenceCheck image = lab::compareImages(a, b);
    EXPECT_EQ(image.describe(), "pixel (2, 0) a: expected 0, got 9 (largest difference 200)");
    EXPECT_FALSE(lab::compareImages(a, ImageRGBA8(2, 2)).problem.empty());

    histogram::Histogram h;
    histogram::Histogram g = h;
    g[histogram::Channel::Luma][255] = 4;
    g[histogram::Channel::G][3] = 1;
    EXPECT_EQ(lab::compareHistograms(h, g).describe(),
              "bin 3 of g: expected 0, got 1 (largest difference 4)");
}

}  // namespace
}  // namespace hs
