// `auto`: a timed trial on the first call, on a sample of the image, its choice remembered per device and
// size class (whatever the bin count), in memory and in a file that a new process reads.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "engine/ops/histogram/auto_strategy.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/runtime/runtime.hpp"
#include "histogram_test_images.hpp"

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
    const std::string chosenName = first.strategyName();
    const Strategy& chosen = findStrategy(chosenName);
    EXPECT_TRUE(chosen.runsOnDevice());
    EXPECT_NE(first.strategyName(), "auto");
    EXPECT_NE(choicesFile().find("\t" + chosenName + "\n"), std::string::npos) << choicesFile();

    const Result second = runAuto(image);
    EXPECT_EQ(autoTrialCount(), trialsBefore + 1) << "a remembered choice runs no trial";
    EXPECT_EQ(second.strategyName(), first.strategyName());
    EXPECT_EQ(second.histogram, expected);

    // Same size class (log2 of the pixel count): 250 x 200 and 300 x 200 both have 2^15..2^16 pixels.
    runAuto(test_images::makeImage(250, 200, test_images::Pattern::Gradient));
    EXPECT_EQ(autoTrialCount(), trialsBefore + 1);

    forgetAutoChoices();  // as a new process starts
    const Result fresh = runAuto(image);
    EXPECT_EQ(autoTrialCount(), trialsBefore + 1) << "the choice comes from the file";
    EXPECT_EQ(fresh.strategyName(), first.strategyName());
}

TEST_F(AutoStrategy, AnotherSizeClassHasItsOwnTrialAndBinCountsShareAChoice) {
    const auto trialsBefore = autoTrialCount();
    runAuto(test_images::makeImage(64, 64, test_images::Pattern::Uniform));
    const ImageRGBA8 image = test_images::makeImage(640, 640, test_images::Pattern::Gradient);
    const Result at256 = runAuto(image);
    EXPECT_EQ(autoTrialCount(), trialsBefore + 2);

    // Another bin count on the same device and size class: the choice made at 256 bins, no new trial.
    for (const int bins : {7, 100}) {
        const Result other = runAuto(image, bins);
        EXPECT_EQ(autoTrialCount(), trialsBefore + 2) << bins << " bins";
        EXPECT_EQ(other.strategyName(), at256.strategyName());
        EXPECT_EQ(other.histogram, referenceHistogram(image.pixels.data(), image.pixelCount(), bins));
    }
    const std::string file = choicesFile();
    EXPECT_EQ(std::count(file.begin(), file.end(), '\n'), 2) << file;
}

TEST_F(AutoStrategy, TellsItsObserverEachCandidateInTurnOnTheCallingThread) {
    const DeviceInfo& device = runtime_->open("0:0").info();
    std::vector<std::string> expected;
    for (const Strategy* strategy : strategies())
        if (strategy->runsOnDevice() && strategy->name() != "auto" &&
            strategy->supported(&device, {}, Params{256}).ok)
            expected.emplace_back(strategy->name());
    ASSERT_GE(expected.size(), 2u);

    struct Step {
        int candidate;
        int candidates;
        std::string strategy;
        std::thread::id thread;
    };
    std::vector<Step> steps;
    {
        const ScopedAutoTrialObserver observer([&](int candidate, int candidates, std::string_view strategy) {
            steps.push_back({candidate, candidates, std::string(strategy), std::this_thread::get_id()});
        });
        // Larger than the trial's sample: the candidates are timed on bands copied from it, and the chosen
        // strategy still counts every pixel.
        const ImageRGBA8 image = test_images::makeImage(1024, 600, test_images::Pattern::Gradient);
        ASSERT_GT(image.pixelCount(), kAutoSamplePixels);
        const Result result = runAuto(image);
        EXPECT_EQ(result.histogram, referenceHistogram(image.pixels.data(), image.pixelCount(), 256));
        ASSERT_EQ(steps.size(), expected.size());
        for (std::size_t i = 0; i < steps.size(); ++i) {
            EXPECT_EQ(steps[i].candidate, static_cast<int>(i + 1));
            EXPECT_EQ(steps[i].candidates, static_cast<int>(expected.size()));
            EXPECT_EQ(steps[i].strategy, expected[i]);
            EXPECT_EQ(steps[i].thread, std::this_thread::get_id());
        }
        EXPECT_NE(std::find(expected.begin(), expected.end(), result.strategyName()), expected.end());

        runAuto(image, 16);  // remembered: no trial, nothing to tell
        EXPECT_EQ(steps.size(), expected.size());
    }
    // Out of the observer's scope, trials tell nobody.
    runAuto(test_images::makeImage(16, 16, test_images::Pattern::Uniform));
    EXPECT_EQ(steps.size(), expected.size());
}

TEST(AutoTrialRace, KeepsTheFastestAndDropsACandidateClearlySlowerThanIt) {
    TrialRace race;
    EXPECT_FALSE(race.fastest());
    EXPECT_TRUE(race.record(0, 1000));
    EXPECT_TRUE(race.record(0, 900));
    EXPECT_EQ(race.fastest(), 0u);
    // Up to kDropFactor times the best run so far is worth another run; beyond it, not.
    EXPECT_TRUE(race.record(1, 1800));
    EXPECT_FALSE(race.record(1, 1801));
    EXPECT_EQ(race.fastest(), 0u);
    // A faster candidate takes the lead, and the bar moves with it.
    EXPECT_TRUE(race.record(2, 400));
    EXPECT_EQ(race.fastest(), 2u);
    EXPECT_FALSE(race.record(3, 801));
    EXPECT_TRUE(race.record(3, 800));
    EXPECT_EQ(race.fastest(), 2u);
}

TEST_F(AutoStrategy, FollowsAChoiceWrittenInTheFileAndRetriesAnUnknownOne) {
    const ImageRGBA8 image = test_images::makeImage(100, 100, test_images::Pattern::Gradient);
    const Result first = runAuto(image);
    const std::string firstName = first.strategyName();
    const std::string other = firstName == "global-atomic" ? "local-atomic" : "global-atomic";

    // Rewrite the chosen strategy in the file, as another process's choice would read.
    std::string text = choicesFile();
    const auto at = text.find("\t" + firstName + "\n");
    ASSERT_NE(at, std::string::npos);
    std::ofstream(directory_ / kAutoChoicesFile) << text.replace(at + 1, firstName.size(), other);
    forgetAutoChoices();
    const auto trialsBefore = autoTrialCount();
    const Result edited = runAuto(image);
    EXPECT_EQ(edited.strategyName(), other);
    EXPECT_EQ(autoTrialCount(), trialsBefore);
    EXPECT_EQ(edited.histogram, referenceHistogram(image.pixels.data(), image.pixelCount(), 256));

    std::ofstream(directory_ / kAutoChoicesFile) << text.replace(at + 1, other.size(), "no-such-strategy");
    forgetAutoChoices();
    const Result retried = runAuto(image);
    EXPECT_EQ(autoTrialCount(), trialsBefore + 1);
    EXPECT_NE(retried.strategyName(), "no-such-strategy");
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
