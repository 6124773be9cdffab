// `auto`: a timed trial on the first call, its choice remembered per device and size class, in memory and in
// a file that a new process reads.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "histogram_test_images.hpp"
#include "ops/histogram/auto_strategy.hpp"
#include "ops/histogram/histogram.hpp"
#include "runtime/runtime.hpp"

namespace hs::histogram {
namespace {

class AutoStrategy : public ::testing::Test {
  protected:
    void SetUp() override {
        forgetAutoChoices();
        directory_ = std::filesystem::temp_directory_path() /
                     ("histoscope-auto-test-" + std::to_string(std::random_device{}()));
        runtime_ = std::make_unique<Runtime>(ProgramCacheSettings{true, directory_});
    }
    void TearDown() override {
        runtime_.reset();
        std::filesystem::remove_all(directory_);
    }

    Result runAuto(const ImageRGBA8& image, int bins = 256) {
        PixelSource pixels(image);
        return computeHistogram(&runtime_->open("0:0"), pixels, Params{bins}, findStrategy("auto"));
    }
    std::string choicesFile() const {
        std::ifstream in(directory_ / kAutoChoicesFile);
        std::stringstream text;
        text << in.rdbuf();
        return text.str();
    }

    std::filesystem::path directory_;
    std::unique_ptr<Runtime> runtime_;
};

TEST_F(AutoStrategy, TrialsOnceThenRemembersInMemoryAndInAFileANewProcessReads) {
    const ImageRGBA8 image = test_images::makeImage(300, 200, test_images::Pattern::Uniform);
    const Histogram expected = referenceHistogram(image.pixels.data(), image.pixelCount(), 256);
    const auto trialsBefore = autoTrialCount();

    const Result first = runAuto(image);
    EXPECT_EQ(autoTrialCount(), trialsBefore + 1);
    EXPECT_EQ(first.histogram, expected);
    const Strategy& chosen = findStrategy(first.strategy);
    EXPECT_TRUE(chosen.runsOnDevice());
    EXPECT_NE(first.strategy, "auto");
    EXPECT_NE(choicesFile().find("\t" + first.strategy + "\n"), std::string::npos) << choicesFile();

    const Result second = runAuto(image);
    EXPECT_EQ(autoTrialCount(), trialsBefore + 1) << "a remembered choice runs no trial";
    EXPECT_EQ(second.strategy, first.strategy);
    EXPECT_EQ(second.histogram, expected);

    // Same size class (log2 of the pixel count): 250 x 200 and 300 x 200 both have 2^15..2^16 pixels.
    runAuto(test_images::makeImage(250, 200, test_images::Pattern::Gradient));
    EXPECT_EQ(autoTrialCount(), trialsBefore + 1);

    forgetAutoChoices();  // as a new process starts
    const Result fresh = runAuto(image);
    EXPECT_EQ(autoTrialCount(), trialsBefore + 1) << "the choice comes from the file";
    EXPECT_EQ(fresh.strategy, first.strategy);
}

TEST_F(AutoStrategy, AnotherSizeClassOrBinCountHasItsOwnTrial) {
    const auto trialsBefore = autoTrialCount();
    runAuto(test_images::makeImage(64, 64, test_images::Pattern::Uniform));
    runAuto(test_images::makeImage(640, 640, test_images::Pattern::Uniform));
    runAuto(test_images::makeImage(640, 640, test_images::Pattern::Uniform), 7);
    EXPECT_EQ(autoTrialCount(), trialsBefore + 3);
}

TEST_F(AutoStrategy, FollowsAChoiceWrittenInTheFileAndRetriesAnUnknownOne) {
    const ImageRGBA8 image = test_images::makeImage(100, 100, test_images::Pattern::Gradient);
    const Result first = runAuto(image);
    const std::string other = first.strategy == "global-atomic" ? "local-atomic" : "global-atomic";

    // Rewrite the chosen strategy in the file, as another process's choice would read.
    std::string text = choicesFile();
    const auto at = text.find("\t" + first.strategy + "\n");
    ASSERT_NE(at, std::string::npos);
    std::ofstream(directory_ / kAutoChoicesFile) << text.replace(at + 1, first.strategy.size(), other);
    forgetAutoChoices();
    const auto trialsBefore = autoTrialCount();
    const Result edited = runAuto(image);
    EXPECT_EQ(edited.strategy, other);
    EXPECT_EQ(autoTrialCount(), trialsBefore);
    EXPECT_EQ(edited.histogram, referenceHistogram(image.pixels.data(), image.pixelCount(), 256));

    std::ofstream(directory_ / kAutoChoicesFile) << text.replace(at + 1, other.size(), "no-such-strategy");
    forgetAutoChoices();
    const Result retried = runAuto(image);
    EXPECT_EQ(autoTrialCount(), trialsBefore + 1);
    EXPECT_NE(retried.strategy, "no-such-strategy");
}

TEST_F(AutoStrategy, WithTheCacheDisabledItStillRemembersInMemoryAndWritesNothing) {
    const auto directory = directory_ / "disabled";
    Runtime runtime(ProgramCacheSettings{false, directory});
    const ImageRGBA8 image = test_images::makeImage(33, 33, test_images::Pattern::Uniform);
    const auto trialsBefore = autoTrialCount();
    for (int i = 0; i < 2; ++i) {
        PixelSource pixels(image);
        computeHistogram(&runtime.open("0:0"), pixels, Params{256}, findStrategy("auto"));
    }
    EXPECT_EQ(autoTrialCount(), trialsBefore + 1);
    EXPECT_FALSE(std::filesystem::exists(directory));
}

TEST_F(AutoStrategy, ItsTimingsIncludeTheTrialAndTheChosenRun) {
    const Result result = runAuto(test_images::makeImage(50, 40, test_images::Pattern::Uniform));
    const auto has = [&](Stage stage, const std::string& name) {
        return std::any_of(result.timings.begin(), result.timings.end(),
                           [&](const Timing& t) { return t.stage == stage && t.name == name; });
    };
    EXPECT_TRUE(has(Stage::Upload, "upload pixels"));
    EXPECT_TRUE(has(Stage::Other, "auto: trial"));
    EXPECT_TRUE(has(Stage::Readback, "read histogram"));
}

}  // namespace
}  // namespace hs::histogram
