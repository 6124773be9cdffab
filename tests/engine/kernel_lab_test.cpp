// The kernel lab's engine: @param annotations, build logs on source lines (real PoCL logs, an NVIDIA sample),
// the user-kernel stage against a CPU reference, its build failure's one line, strategy tunables (a sweep's
// scoped values, the stored best that `auto` then uses) and the sweep's grid.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "engine/lab/annotations.hpp"
#include "engine/lab/build_log.hpp"
#include "engine/lab/sweep.hpp"
#include "engine/ops/histogram/auto_strategy.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/pipeline/pipeline.hpp"
#include "engine/ops/tuning.hpp"
#include "engine/runtime/program_cache.hpp"
#include "engine/stages/stage.hpp"
#include "histogram_test_images.hpp"
#include "pipeline_test_support.hpp"

namespace hs {
namespace {

const std::filesystem::path kProject = std::filesystem::path(HISTOSCOPE_ENGINE_SOURCE_DIR) / ".." / "..";

std::string readText(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// --- annotations

TEST(KernelAnnotations, ReadTheKernelNameAndParamsInTheOrderWritten) {
    const std::string source =
        "// helper comment\n"
        "  //   @param float gain 0 4.5 1.25\n"
        "// @param int radius -3 3 0\n"
        "float helper(float v) { return v; }\n"
        "// kernel void commented_out(\n"
        "__kernel void blur(global const uchar4* src, global uchar4* dst, int width, int height,\n"
        "                   float gain, int radius) {}\n"
        "kernel void second(global const uchar4* src) {}\n";
    const lab::KernelSource parsed = lab::parseKernelSource(source, "k.cl");
    EXPECT_EQ(parsed.kernelName, "blur");
    ASSERT_EQ(parsed.params.size(), 2u);
    EXPECT_EQ(parsed.params[0], (lab::KernelParam{lab::KernelParam::Type::Float, "gain", 0, 4.5, 1.25, 2}));
    EXPECT_EQ(parsed.params[1], (lab::KernelParam{lab::KernelParam::Type::Int, "radius", -3, 3, 0, 3}));
}

TEST(KernelAnnotations, AMalformedParamLineIsAnInputErrorNamingFileAndLine) {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"// @param int amount 0 255", "needs 5 fields"},
        {"// @param int amount 0 255 1 2", "needs 5 fields"},
        {"// @param double amount 0 1 0", "type 'double' is neither int nor float"},
        {"// @param int 2amount 0 1 0", "name '2amount' is not an identifier"},
        {"// @param int amount 0 1.5 1", "MAX '1.5' is not an int"},
        {"// @param float amount zero 1 0", "MIN 'zero' is not a float"},
        {"// @param int amount 5 1 3", "MIN 5 is above MAX 1"},
        {"// @param int amount 0 10 11", "DEFAULT 11 is outside 0..10"},
        {"// @param int x 0 1 0\n// @param float x 0 1 0", "'x' is declared twice (first on line 2)"},
    };
    for (const auto& [lines, expected] : cases) {
        const std::string source =
            "kernel void k(global const uchar4* s, global uchar4* d, int w, int h) {}\n" + lines + "\n";
        const int badLine = lines.find('\n') == std::string::npos ? 2 : 3;
        try {
            lab::parseKernelSource(source, "dir/k.cl");
            ADD_FAILURE() << "accepted: " << lines;
        } catch (const InputError& error) {
            const std::string message = error.what();
            EXPECT_EQ(message.rfind("dir/k.cl:" + std::to_string(badLine) + ": @param: ", 0), 0u) << message;
            EXPECT_NE(message.find(expected), std::string::npos) << message;
        }
    }
}

TEST(KernelAnnotations, AFileWithoutAKernelIsRefused) {
    EXPECT_THROW(lab::parseKernelSource("// kernel void k(\nvoid f() {}\n", "k.cl"), InputError);
}

TEST(KernelAnnotations, ValuesAreCheckedAgainstTypeAndRange) {
    const lab::KernelParam amount{lab::KernelParam::Type::Int, "amount", 0, 255, 255, 1};
    EXPECT_EQ(lab::parseParamValue(amount, "17"), 17);
    EXPECT_THROW(lab::parseParamValue(amount, "1.5"), UsageError);
    EXPECT_THROW(lab::parseParamValue(amount, "256"), UsageError);
    const lab::KernelParam gain{lab::KernelParam::Type::Float, "gain", 0, 2, 1, 1};
    EXPECT_EQ(lab::parseParamValue(gain, "0.5"), 0.5);
    EXPECT_THROW(lab::parseParamValue(gain, "2.5"), UsageError);
    EXPECT_THROW(lab::parseParamValue(gain, "nan"), UsageError);
}

// --- build logs

lab::ParsedLog parseKept(const std::string& name) {
    const std::string log = readText(kProject / "tests/data/build_logs" / name);
    EXPECT_FALSE(log.empty()) << name;
    return lab::parseBuildLog(log);
}

using Severity = lab::Diagnostic::Severity;

TEST(BuildLogs, PoclsRealLogPutsTheErrorOnLine12) {
    const auto parsed = parseKept("pocl-3.1_error_on_line_12.log");
    ASSERT_EQ(parsed.diagnostics.size(), 1u);
    EXPECT_EQ(parsed.diagnostics[0],
              (lab::Diagnostic{12, 5, Severity::Error, "use of undeclared identifier 'undeclared'"}));
}

TEST(BuildLogs, PoclsRealLogKeepsEveryErrorInOrder) {
    const auto parsed = parseKept("pocl-3.1_warn_and_errors.log");
    ASSERT_EQ(parsed.diagnostics.size(), 3u);
    EXPECT_EQ(parsed.diagnostics[0],
              (lab::Diagnostic{4, 29, Severity::Error, "expected ';' at end of declaration"}));
    EXPECT_EQ(parsed.diagnostics[1],
              (lab::Diagnostic{6, 23, Severity::Error, "use of undeclared identifier 'nothing'"}));
    EXPECT_EQ(parsed.diagnostics[2],
              (lab::Diagnostic{8, 5, Severity::Error, "void function 'k' should not return a value"}));
    EXPECT_EQ(parsed.firstError(), &parsed.diagnostics[0]);
    EXPECT_EQ(parseKept("pocl-3.1_preprocessor.log").diagnostics.at(0),
              (lab::Diagnostic{1, 10, Severity::Error, "'missing_header.h' file not found"}));
}

TEST(BuildLogs, NvidiaLogPutsTheErrorOnLine12) {
    const auto parsed = parseKept("nvidia-580.159.04_error_on_line_12.log");
    ASSERT_EQ(parsed.diagnostics.size(), 1u);
    EXPECT_EQ(parsed.diagnostics[0],
              (lab::Diagnostic{12, 5, Severity::Error, "use of undeclared identifier 'undeclared'"}));
}

TEST(BuildLogs, PtxasErrorsHaveNoSourceLineAndItsInfoLinesAreNoDiagnostics) {
    const auto parsed = parseKept("nvidia-SAMPLE-not-captured_ptxas.log");
    ASSERT_EQ(parsed.diagnostics.size(), 1u);
    EXPECT_EQ(parsed.diagnostics[0].line, 0);
    EXPECT_EQ(parsed.diagnostics[0].severity, Severity::Error);
    EXPECT_EQ(parsed.diagnostics[0].message,
              "ptxas: Entry function 'local_atomic' uses too much shared data (0x10004 bytes, 0xc000 max)");
}

TEST(BuildLogs, ClangFormsWithFileNamesAndSeveritiesAndAnUnknownFormatKeptRaw) {
    const auto parsed = lab::parseBuildLog(
        "/tmp/dir/user.cl:3:14: warning: unused variable 'v'\n"
        "  int v;\n"
        "<source>:7:1: fatal error: expected '}'\r\n"
        "input.cl:9: note: declared here\n");
    ASSERT_EQ(parsed.diagnostics.size(), 3u);
    EXPECT_EQ(parsed.diagnostics[0], (lab::Diagnostic{3, 14, Severity::Warning, "unused variable 'v'"}));
    EXPECT_EQ(parsed.diagnostics[1], (lab::Diagnostic{7, 1, Severity::Error, "expected '}'"}));
    EXPECT_EQ(parsed.diagnostics[2], (lab::Diagnostic{9, 0, Severity::Note, "declared here"}));
    EXPECT_EQ(parsed.firstError(), &parsed.diagnostics[1]);

    const std::string unknown = "Error: kernel compile failed somewhere\n";
    const auto raw = lab::parseBuildLog(unknown);
    EXPECT_FALSE(raw.recognised());
    EXPECT_EQ(raw.raw, unknown);
    EXPECT_EQ(raw.firstError(), nullptr);
}

// --- the user-kernel stage

std::string readStage(const std::string& path, std::uint64_t maxBytes, std::string_view what) {
    const std::string text = readText(path);
    if (text.empty() || text.size() > maxBytes)
        throw InputError(path + ": cannot read the " + std::string(what));
    return text;
}

std::shared_ptr<const stages::Stage> kernelStage(const stages::Values& values) {
    return stages::findKind("kernel").configure(values, "", readStage);
}

// kernels/templates/invert.cl, by hand: out = in + (255 - 2 in) * amount / 255 on R, G, B (int division,
// truncated), alpha kept.
ImageRGBA8 referenceInvert(const ImageRGBA8& input, int amount) {
    ImageRGBA8 out = input;
    for (std::size_t i = 0; i < out.pixels.size(); ++i) {
        if (i % 4 == 3) continue;
        const int in = input.pixels[i];
        out.pixels[i] = static_cast<std::uint8_t>(in + (255 - 2 * in) * amount / 255);
    }
    return out;
}

TEST(UserKernelStage, TheInvertTemplateWithAParamMatchesItsCpuReferenceAtAnyWorkGroupSize) {
    const std::string invert = (kProject / "kernels/templates/invert.cl").string();
    const ImageRGBA8 image = testing::noiseImage(37, 11, 5);  // 37: no work-group size divides it
    for (const std::string group : {"0", "1", "16", "64"}) {
        for (const int amount : {255, 100, 0}) {
            const auto stage = kernelStage(
                {{"kernel", invert}, {"param", "amount=" + std::to_string(amount)}, {"kernel-group", group}});
            PixelSource pixels(image);
            pipeline::Result result =
                pipeline::runPipeline(testing::testDevice(), pixels, stages::StageList{stage});
            const auto difference = testing::compare(result.readBack(), referenceInvert(image, amount));
            EXPECT_EQ(difference.differing, 0u)
                << "group " << group << " amount " << amount << ": " << difference.first;
        }
    }
    // Without --param, the @param's default (255: the full inverse).
    PixelSource pixels(image);
    pipeline::Result result = pipeline::runPipeline(testing::testDevice(), pixels,
                                                    stages::StageList{kernelStage({{"kernel", invert}})});
    EXPECT_EQ(testing::compare(result.readBack(), referenceInvert(image, 255)).differing, 0u);
    // It has no CPU reference of ours, and says so rather than passing the input off as one.
    EXPECT_THROW(kernelStage({{"kernel", invert}})->reference(image), UsageError);
}

TEST(UserKernelStage, ABuildFailureIsOneLineStartingWithFileLineColumnOfTheFirstError) {
    const std::string path = (kProject / "tests/data/kernels/error_on_line_12.cl").string();
    const auto stage = kernelStage({{"kernel", path}});
    PixelSource pixels(testing::noiseImage(4, 4, 1));
    try {
        pipeline::runPipeline(testing::testDevice(), pixels, stages::StageList{stage});
        FAIL() << "the broken kernel built";
    } catch (const OpenClError& error) {
        const std::string message = error.what();
        EXPECT_EQ(message.rfind(path + ":12:5: error: use of undeclared identifier 'undeclared'", 0), 0u)
            << message;
        EXPECT_NE(message.find("(device " + testing::testDevice().info().name + ")"), std::string::npos)
            << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
        EXPECT_NE(error.buildLog().find("undeclared"), std::string::npos);
        // On the GPU machine, where the device is NVIDIA's: HISTOSCOPE_CAPTURE_BUILD_LOG=FILE keeps the
        // driver's log as test data for tests/data/build_logs/ (its README).
        if (const char* capture = std::getenv("HISTOSCOPE_CAPTURE_BUILD_LOG"))
            std::ofstream(capture, std::ios::binary) << error.buildLog();
    }
}

TEST(UserKernelStage, RefusesUnknownOrBadParamsAndAKernelWhoseArgumentsDisagreeWithItsParams) {
    const std::string invert = (kProject / "kernels/templates/invert.cl").string();
    EXPECT_THROW(kernelStage({{"kernel", invert}, {"param", "radius=3"}}), UsageError);
    EXPECT_THROW(kernelStage({{"kernel", invert}, {"param", "amount=300"}}), UsageError);
    EXPECT_THROW(kernelStage({{"kernel", invert}, {"param", "amount=1\namount=2"}}), UsageError);
    EXPECT_THROW(kernelStage({{"kernel", invert}, {"param", "amount"}}), UsageError);
    EXPECT_THROW(kernelStage({{"kernel", invert}, {"kernel-group", "2000"}}), UsageError);
    EXPECT_THROW(kernelStage({{"param", "amount=1"}}), UsageError);

    const auto directory = std::filesystem::temp_directory_path() /
                           ("histoscope-lab-test-" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(directory);
    const auto extra = (directory / "extra.cl").string();
    // One @param more than the kernel takes.
    std::ofstream(extra) << "// @param int unused 0 1 0\n"
                            "kernel void copy(global const uchar4* s, global uchar4* d, int w, int h) {}\n";
    PixelSource pixels(testing::noiseImage(4, 4, 1));
    try {
        pipeline::runPipeline(testing::testDevice(), pixels,
                              stages::StageList{kernelStage({{"kernel", extra}})});
        ADD_FAILURE() << "ran with an argument too many";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("takes 4 arguments"), std::string::npos) << error.what();
    }
    std::filesystem::remove_all(directory);
}

// --- tunables

TEST(Tunables, TheSubHistogramStrategiesDeclareTheirDefines) {
    for (const char* name : {"local-atomic", "partial-reduce"}) {
        std::vector<std::string> names;
        for (const auto& tunable : histogram::findStrategy(name).tunables()) names.push_back(tunable.name);
        EXPECT_EQ(names, (std::vector<std::string>{"WG", "COPIES", "CHUNK_QUADS"})) << name;
    }
    EXPECT_TRUE(histogram::findStrategy("serial").tunables().empty());
}

TEST(Tunables, AScopedValueBuildsTheKernelWithItAndStillCountsRight) {
    const ImageRGBA8 image =
        histogram::test_images::makeImage(300, 70, histogram::test_images::Pattern::Uniform);
    const auto reference = histogram::referenceHistogram(image.pixels.data(), image.pixelCount(), 256);
    const auto& strategy = histogram::findStrategy("local-atomic");
    const auto count = [&] {
        PixelSource pixels(image);
        return histogram::computeHistogram(&testing::testDevice(), pixels, histogram::Params{}, strategy);
    };
    {
        const tuning::ScopedTuning tuned("local-atomic", {{"WG", 32}, {"COPIES", 4}, {"CHUNK_QUADS", 3}});
        const auto result = count();
        ASSERT_EQ(result.builds.size(), 1u);
        EXPECT_NE(result.builds[0].options.find("-D WG=32 -D COPIES=4 -D CHUNK_QUADS=3"), std::string::npos)
            << result.builds[0].options;
        EXPECT_EQ(result.histogram, reference);
    }
    const auto untuned = count();
    EXPECT_EQ(untuned.builds.at(0).options.find("-D WG=32 "), std::string::npos) << untuned.builds[0].options;
}

TEST(Tunables, TheStoredBestIsWhatAutoRunsWith) {
    histogram::forgetAutoChoices();
    tuning::forgetStored();
    const auto directory = std::filesystem::temp_directory_path() /
                           ("histoscope-tuning-test-" + std::to_string(std::random_device{}()));
    {
        Runtime runtime(ProgramCacheSettings{true, directory});
        DeviceContext& device = runtime.open("0:0");
        const ImageRGBA8 image =
            histogram::test_images::makeImage(100, 100, histogram::test_images::Pattern::Gradient);
        const auto runAuto = [&] {
            PixelSource pixels(image);
            return histogram::computeHistogram(&device, pixels, histogram::Params{},
                                               histogram::findStrategy("auto"));
        };
        runAuto();  // its choice goes into the file, which is then made local-atomic, as if measured so
        std::string choices = readText(directory / histogram::kAutoChoicesFile);
        const auto tab = choices.rfind('\t');
        ASSERT_NE(tab, std::string::npos);
        std::ofstream(directory / histogram::kAutoChoicesFile)
            << choices.substr(0, tab + 1) + "local-atomic\n";

        tuning::store(device.programCache(), device.info(), "local-atomic", {{"WG", 8}, {"COPIES", 2}});
        EXPECT_EQ(readText(directory / tuning::kTuningFile),
                  tuning::deviceKey(device.info()) + "\tlocal-atomic\tCOPIES=2,WG=8\n");
        // A new process: nothing in memory, the files read again.
        histogram::forgetAutoChoices();
        tuning::forgetStored();
        const auto result = runAuto();
        EXPECT_EQ(result.strategyName(), "local-atomic");
        ASSERT_EQ(result.builds.size(), 1u);
        EXPECT_NE(result.builds[0].options.find("-D WG=8 -D COPIES=2 "), std::string::npos)
            << result.builds[0].options;
        EXPECT_EQ(result.histogram,
                  histogram::referenceHistogram(image.pixels.data(), image.pixelCount(), 256));
    }
    histogram::forgetAutoChoices();
    tuning::forgetStored();
    std::filesystem::remove_all(directory);
}

// --- the sweep's grid

TEST(SweepGrid, EveryCombinationOnceTheLastAxisFastest) {
    const std::vector<lab::Axis> axes = {lab::parseAxis("WG=32,64"), lab::parseAxis("COPIES=1,2,4")};
    const auto points = lab::grid(axes);
    ASSERT_EQ(points.size(), 6u);
    const std::vector<std::pair<std::string, std::string>> expected[] = {
        {{"WG", "32"}, {"COPIES", "1"}}, {{"WG", "32"}, {"COPIES", "2"}}, {{"WG", "32"}, {"COPIES", "4"}},
        {{"WG", "64"}, {"COPIES", "1"}}, {{"WG", "64"}, {"COPIES", "2"}}, {{"WG", "64"}, {"COPIES", "4"}}};
    for (std::size_t i = 0; i < points.size(); ++i) EXPECT_EQ(points[i], expected[i]) << i;
    EXPECT_THROW(lab::grid({lab::parseAxis("WG=1"), lab::parseAxis("WG=2")}), UsageError);
    EXPECT_THROW(lab::grid({lab::parseAxis("A=1,2,3,4"), lab::parseAxis("B=1,2,3")}, 11), UsageError);
    EXPECT_THROW(lab::parseAxis("WG"), UsageError);
    EXPECT_THROW(lab::parseAxis("WG=1,,2"), UsageError);
    EXPECT_THROW(lab::parseAxis("WG=1,1"), UsageError);
}

TEST(SweepGrid, AxesAreCheckedAgainstTheStrategysTunables) {
    const auto tunables = histogram::findStrategy("local-atomic").tunables();
    EXPECT_NO_THROW(lab::checkAxis(lab::parseAxis("COPIES=1,2,8"), tunables, "local-atomic"));
    EXPECT_THROW(lab::checkAxis(lab::parseAxis("COPIES=3"), tunables, "local-atomic"), UsageError);
    EXPECT_THROW(lab::checkAxis(lab::parseAxis("WG=0"), tunables, "local-atomic"), UsageError);
    EXPECT_THROW(lab::checkAxis(lab::parseAxis("WG=x"), tunables, "local-atomic"), UsageError);
    try {
        lab::checkAxis(lab::parseAxis("BINS=1"), tunables, "local-atomic");
        ADD_FAILURE();
    } catch (const UsageError& error) {
        EXPECT_NE(std::string(error.what()).find("(it has: WG, COPIES, CHUNK_QUADS)"), std::string::npos)
            << error.what();
    }
}

}  // namespace
}  // namespace hs
