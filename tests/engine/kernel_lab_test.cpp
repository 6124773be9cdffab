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
#include "engine/ops/convolve/convolve.hpp"
#include "engine/ops/histogram/auto_strategy.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/pipeline/pipeline.hpp"
#include "engine/ops/rotate/rotate.hpp"
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
    // Its first line, the compiler's note on the kernel's noinline attribute, is no diagnostic of a line.
    const auto parsed = parseKept("nvidia-580.159.04_too_much_local.log");
    ASSERT_EQ(parsed.diagnostics.size(), 1u);
    EXPECT_EQ(parsed.diagnostics[0].line, 0);
    EXPECT_EQ(parsed.diagnostics[0].severity, Severity::Error);
    EXPECT_EQ(
        parsed.diagnostics[0].message,
        "ptxas: Entry function 'too_much_local' uses too much shared data (0x40008 bytes, 0x38c00 max)");
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

// A kernel whose local table (256 KiB + 4 bytes) outgrows every GPU's local memory: a driver that refuses it
// (NVIDIA's assembler) fails the run in one line naming the file and the device, the driver's log kept; one
// that has the memory (PoCL: 1 MiB) runs it and copies the image exactly.
TEST(UserKernelStage, ALocalTableLargerThanTheDevicesFailsInOneLineNamingTheFileElseRuns) {
    const std::string path = (kProject / "tests/data/kernels/too_much_local.cl").string();
    constexpr std::uint64_t kTableBytes = 65537 * 4;
    const DeviceInfo& device = testing::testDevice().info();
    const ImageRGBA8 image = testing::noiseImage(37, 9, 4);
    PixelSource pixels(image);
    try {
        pipeline::Result result = pipeline::runPipeline(testing::testDevice(), pixels,
                                                        stages::StageList{kernelStage({{"kernel", path}})});
        EXPECT_EQ(testing::compare(result.readBack(), image).differing, 0u);
    } catch (const OpenClError& error) {
        // Only a device short of the table's memory may refuse it.
        EXPECT_LT(device.localMemBytes, kTableBytes) << error.what();
        const std::string message = error.what();
        EXPECT_EQ(message.rfind(path + ":", 0), 0u) << message;
        EXPECT_NE(message.find("(device " + device.name + ")"), std::string::npos) << message;
        EXPECT_EQ(message.find('\n'), std::string::npos) << message;
        EXPECT_FALSE(error.buildLog().empty()) << message;
        // On the GPU machine: the driver's log as test data for tests/data/build_logs/ (its README).
        if (const char* capture = std::getenv("HISTOSCOPE_CAPTURE_LOCAL_LOG"))
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

TEST(Tunables, ARotationsValuesStayWithTheRotationThoughAConvolutionHasItsName) {
    const ImageRGBA8 image =
        histogram::test_images::makeImage(40, 30, histogram::test_images::Pattern::Uniform);
    EXPECT_EQ(tuning::key("histogram", "local-atomic"), "local-atomic");
    EXPECT_EQ(tuning::key("rotate", "image-sampler"), "rotate/image-sampler");
    EXPECT_EQ(tuning::key("convolve", "local-tiled", convolve::tuningVariant(convolve::boxFilter(5))),
              "convolve/local-tiled@5x5");
    const tuning::ScopedTuning tuned(tuning::key("rotate", "image-sampler"),
                                     {{"LOCAL_X", 2}, {"LOCAL_Y", 4}});
    PixelSource forRotation(image);
    const auto rotated =
        rotate::rotate(testing::testDevice(), forRotation, {30.0, rotate::FilterMode::Nearest, false},
                       rotate::findStrategy("image-sampler"));
    ASSERT_EQ(rotated.builds.size(), 1u);
    EXPECT_NE(rotated.builds[0].options.find("-D LOCAL_X=2 -D LOCAL_Y=4"), std::string::npos)
        << rotated.builds[0].options;
    PixelSource forConvolution(image);
    const auto convolved = convolve::convolve(testing::testDevice(), forConvolution, convolve::boxFilter(3),
                                              convolve::findStrategy("image-sampler"));
    ASSERT_EQ(convolved.builds.size(), 1u);
    EXPECT_EQ(convolved.builds[0].options.find("LOCAL_X"), std::string::npos) << convolved.builds[0].options;
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

TEST(SweepGrid, APointIsNamedByWhatItsBuildSaysAndSameBuildsAreMarked) {
    const lab::Point asked{{"WG", "1024"}, {"COPIES", "2"}, {"group", "64"}};
    // WG lowered by the strategy, COPIES as asked; group is no -D value: as asked.
    EXPECT_EQ(lab::builtPoint(asked, "-D BINS=256 -D WG=256 -D COPIES=2 -D CHUNK_QUADS=16"),
              (lab::Point{{"WG", "256"}, {"COPIES", "2"}, {"group", "64"}}));
    // A name that is the end of another's is not read from it, nor a value past a program's "; ".
    EXPECT_EQ(lab::builtPoint({{"X", "1"}}, "-D LOCAL_X=8; -D X=2"), (lab::Point{{"X", "2"}}));

    const auto point = [](std::string wg, double median, std::string builds) {
        lab::PointResult result;
        result.asked = {{"WG", wg}};
        result.built = lab::builtPoint(result.asked, builds);
        result.ns = measure::Summary{median, median, median};
        result.builds = builds;
        return result;
    };
    lab::Sweep sweep;
    sweep.axes = {lab::parseAxis("WG=64,512,1024,2048")};
    sweep.points = {point("64", 30, "-D WG=64"), point("512", 20, "-D WG=256"),
                    point("1024", 10, "-D WG=256"), point("2048", 5, "")};
    sweep.points[3].ns.reset();
    sweep.points[3].error = "failed";
    lab::markSameBuilds(sweep.points);
    EXPECT_FALSE(sweep.points[0].sameBuildAs);
    EXPECT_FALSE(sweep.points[1].sameBuildAs);
    EXPECT_EQ(sweep.points[2].sameBuildAs, std::optional<std::size_t>(1));
    EXPECT_FALSE(sweep.points[3].sameBuildAs);
    // The fastest point built what point 1 built: the best is point 1, the first of that program.
    EXPECT_EQ(sweep.best(), std::optional<std::size_t>(1));
    const std::string csv = lab::csv(sweep);
    EXPECT_EQ(csv.substr(0, csv.find('\n')),
              "WG,built_WG,min_ns,median_ns,max_ns,gbps,x_read,max_difference,same_build_as,error");
    EXPECT_NE(csv.find("\n1024,256,10,10,10,0,,,1,\n"), std::string::npos) << csv;
    EXPECT_NE(csv.find("\n2048,2048,,,,,,,,failed\n"), std::string::npos) << csv;
}

}  // namespace
}  // namespace hs
