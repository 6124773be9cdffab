// The display paths against a CPU-computed pattern, read back from the texture by GL itself. Runs under
// Xvfb: here (Mesa llvmpipe + PoCL: copy only) and on the GPU machine (NVIDIA GLX + OpenCL: shared and copy).
// HISTOSCOPE_EXPECT_INTEROP=copy|shared states which path the decision must choose on the machine at hand.
#include <gtest/gtest.h>

#include <GL/gl.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "engine/measure/measure.hpp"
#include "engine/runtime/error.hpp"
#include "glx_session.hpp"
#include "interop/texture_sink.hpp"

namespace hs::interop {
namespace {

// Every channel a different function of (x, y), and of `seed` for b and a, so a stale frame, swapped
// channels, a transposed or flipped image, or a row-pitch error all show.
const char* kPatternKernel = R"CL(
__kernel void pattern(__global uchar4* out, int width, uint seed) {
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    out[y * width + x] = (uchar4)((uchar)x, (uchar)y, (uchar)(x * 3 + y * 5 + seed), (uchar)((x ^ (y * 7)) + seed));
}
)CL";

ImageRGBA8 expectedPattern(int width, int height, unsigned seed) {
    ImageRGBA8 image(width, height);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            std::uint8_t* p = image.pixel(x, y);
            p[0] = static_cast<std::uint8_t>(x % 256);
            p[1] = static_cast<std::uint8_t>(y % 256);
            p[2] = static_cast<std::uint8_t>((3u * x + 5u * y + seed) % 256);
            p[3] = static_cast<std::uint8_t>((static_cast<unsigned>(x ^ (7 * y)) + seed) % 256);
        }
    }
    return image;
}

// Pixels written by a kernel into a buffer of `device`, the way a pipeline's last stage leaves them.
cl::Buffer patternBuffer(DeviceContext& device, int width, int height, unsigned seed) {
    cl::Program program = device.programFromText("interop-pattern.cl", kPatternKernel, "");
    cl::Buffer buffer(device.context(), CL_MEM_READ_WRITE, static_cast<std::size_t>(width) * height * 4);
    cl::KernelFunctor<cl::Buffer, cl_int, cl_uint> pattern(program, "pattern");
    pattern(cl::EnqueueArgs(device.queue(), cl::NDRange(static_cast<cl::size_type>(width),
                                                        static_cast<cl::size_type>(height))),
            buffer, width, seed);
    device.queue().finish();
    return buffer;
}

PixelSource devicePattern(DeviceContext& device, int width, int height, unsigned seed) {
    return PixelSource(device, patternBuffer(device, width, height, seed), width, height);
}

::testing::AssertionResult samePixels(const ImageRGBA8& actual, const ImageRGBA8& expected) {
    if (actual.width != expected.width || actual.height != expected.height)
        return ::testing::AssertionFailure() << actual.width << "x" << actual.height << " instead of "
                                             << expected.width << "x" << expected.height;
    const auto mismatch = std::mismatch(actual.pixels.begin(), actual.pixels.end(), expected.pixels.begin());
    if (mismatch.first == actual.pixels.end()) return ::testing::AssertionSuccess();
    const auto offset = static_cast<std::size_t>(mismatch.first - actual.pixels.begin());
    const std::size_t pixel = offset / 4;
    return ::testing::AssertionFailure()
           << "first difference at x=" << pixel % actual.width << " y=" << pixel / actual.width << " channel "
           << offset % 4 << ": " << int(*mismatch.first) << " instead of " << int(*mismatch.second);
}

std::string expectedPath() {
    const char* value = std::getenv("HISTOSCOPE_EXPECT_INTEROP");
    return value ? value : "";
}

bool hasRecord(const std::vector<Timing>& timings, Stage stage, const std::string& name) {
    return std::any_of(timings.begin(), timings.end(),
                       [&](const Timing& t) { return t.stage == stage && t.name == name; });
}

class Interop : public ::testing::Test {
  protected:
    static void SetUpTestSuite() {
        glx_ = std::make_unique<GlxSession>();
        runtime_ = std::make_unique<Runtime>();
        engine_ = &runtime_->open("");
        std::cout << "GL renderer: " << glGetString(GL_RENDERER) << " (" << glGetString(GL_VERSION) << ")\n"
                  << "OpenCL device: " << engine_->info().name << " on " << engine_->info().platformName
                  << "\n";
    }
    static void TearDownTestSuite() {
        runtime_.reset();
        glx_.reset();
    }

    std::unique_ptr<TextureSink> sink(PathPreference preference) {
        return std::make_unique<TextureSink>(glx_->handles(), *engine_, runtime_->programCache(), preference);
    }
    // The automatic sink, and a forced copy sink: both paths where the machine shares, the copy path twice
    // (through two decisions) where it does not.
    std::vector<std::unique_ptr<TextureSink>> everyPath() {
        std::vector<std::unique_ptr<TextureSink>> sinks;
        sinks.push_back(sink(PathPreference::Auto));
        sinks.push_back(sink(PathPreference::ForceCopy));
        return sinks;
    }

    static std::unique_ptr<GlxSession> glx_;
    static std::unique_ptr<Runtime> runtime_;
    static DeviceContext* engine_;
};

std::unique_ptr<GlxSession> Interop::glx_;
std::unique_ptr<Runtime> Interop::runtime_;
DeviceContext* Interop::engine_ = nullptr;

TEST_F(Interop, DecisionNamesItsPathAndReason) {
    const auto automatic = sink(PathPreference::Auto);
    std::cout << "decision: " << displayPathName(automatic->path()) << " (" << automatic->reason() << ")\n";
    EXPECT_FALSE(automatic->reason().empty());

    const SharingDecision decision = decideSharing(glx_->handles(), engine_->device());
    EXPECT_EQ(decision.path, automatic->path());
    if (expectedPath() == "copy") {
        EXPECT_EQ(automatic->path(), DisplayPath::Copy);
        // Names the platform that declined, so the user sees which driver to blame.
        EXPECT_NE(automatic->reason().find(engine_->info().platformName), std::string::npos);
        EXPECT_EQ(&automatic->pipelineDevice(), engine_);
        EXPECT_EQ(decision.glDevice(), nullptr);  // llvmpipe and PoCL: no device shares at all
    } else if (expectedPath() == "shared") {
        EXPECT_EQ(automatic->path(), DisplayPath::Shared);
        EXPECT_NE(automatic->reason().find(engine_->info().name), std::string::npos);
        EXPECT_NE(automatic->pipelineDevice().context()(), engine_->context()());
        EXPECT_EQ(automatic->pipelineDevice().device()(), engine_->device()());
        EXPECT_EQ(decision.glDevice(), engine_->device()());
    }
}

TEST_F(Interop, ForcedCopyUsesTheEngineDevice) {
    const auto copy = sink(PathPreference::ForceCopy);
    EXPECT_EQ(copy->path(), DisplayPath::Copy);
    EXPECT_EQ(copy->reason(), "copy path requested");
    EXPECT_EQ(&copy->pipelineDevice(), engine_);
}

TEST_F(Interop, RefusesUnsetOrNonCurrentHandles) {
    EXPECT_THROW(TextureSink(GlxHandles{}, *engine_, runtime_->programCache()), UsageError);
    EXPECT_THROW(decideSharing(GlxHandles{}, engine_->device()), UsageError);
    EXPECT_THROW(TextureSink(glx_->idleHandles(), *engine_, runtime_->programCache()), UsageError);
    EXPECT_THROW(decideSharing(glx_->idleHandles(), engine_->device()), UsageError);
}

TEST_F(Interop, EveryPathWritesTheKernelsPattern) {
    struct Frame {
        int width, height;
        unsigned seed;
    };
    // Odd sizes, a resize back and forth, and the same size twice with new content.
    const Frame frames[] = {{1, 1, 0}, {3, 1, 1}, {257, 131, 2}, {1023, 767, 3}, {1023, 767, 4}, {5, 7, 5}};
    for (auto& target : everyPath()) {
        SCOPED_TRACE(displayPathName(target->path()));
        for (const Frame& frame : frames) {
            SCOPED_TRACE(std::to_string(frame.width) + "x" + std::to_string(frame.height));
            PixelSource pixels =
                devicePattern(target->pipelineDevice(), frame.width, frame.height, frame.seed);
            TimingLog log;
            EXPECT_EQ(target->present(pixels, log), target->path());
            log.collect();
            EXPECT_TRUE(
                samePixels(readTexture(*target), expectedPattern(frame.width, frame.height, frame.seed)));
        }
    }
}

TEST_F(Interop, SharedAndCopyPathsGiveTheSameBytes) {
    auto sinks = everyPath();
    if (sinks[0]->path() != DisplayPath::Shared)
        GTEST_SKIP() << "only the copy path exists here: " << sinks[0]->reason();
    std::vector<ImageRGBA8> textures;
    for (auto& target : sinks) {
        PixelSource pixels = devicePattern(target->pipelineDevice(), 641, 479, 7);
        TimingLog log;
        target->present(pixels, log);
        log.collect();
        textures.push_back(readTexture(*target));
    }
    EXPECT_TRUE(samePixels(textures[0], textures[1]));
    EXPECT_TRUE(samePixels(textures[0], expectedPattern(641, 479, 7)));
}

TEST_F(Interop, HostPixelsAreUploadedWithoutReadback) {
    const ImageRGBA8 image = expectedPattern(333, 17, 9);
    for (auto& target : everyPath()) {
        SCOPED_TRACE(displayPathName(target->path()));
        PixelSource pixels(image);
        TimingLog log;
        EXPECT_EQ(target->present(pixels, log), DisplayPath::Copy);
        const auto timings = log.collect();
        EXPECT_TRUE(hasRecord(timings, Stage::Interop, "glTexSubImage2D upload"));
        EXPECT_TRUE(std::none_of(timings.begin(), timings.end(),
                                 [](const Timing& t) { return t.stage == Stage::Readback; }));
        EXPECT_TRUE(samePixels(readTexture(*target), image));
    }
}

TEST_F(Interop, RecordsTheStagesOfItsPath) {
    for (auto& target : everyPath()) {
        SCOPED_TRACE(displayPathName(target->path()));
        PixelSource pixels = devicePattern(target->pipelineDevice(), 64, 48, 3);
        TimingLog log;
        target->present(pixels, log);
        const auto timings = log.collect();
        if (target->path() == DisplayPath::Shared) {
            EXPECT_TRUE(hasRecord(timings, Stage::Interop, "acquire GL texture"));
            EXPECT_TRUE(hasRecord(timings, Stage::Interop, "copy pixels into GL texture"));
            EXPECT_TRUE(hasRecord(timings, Stage::Interop, "release GL texture"));
            EXPECT_FALSE(hasRecord(timings, Stage::Readback, "read pixels"));
        } else {
            EXPECT_TRUE(hasRecord(timings, Stage::Readback, "read pixels"));
            EXPECT_TRUE(hasRecord(timings, Stage::Interop, "glTexSubImage2D upload"));
        }
    }
}

TEST_F(Interop, LeavesGlStateAsFound) {
    GLuint other = 0;
    glGenTextures(1, &other);
    glBindTexture(GL_TEXTURE_2D, other);
    glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 3);
    for (auto& target : everyPath()) {
        PixelSource pixels = devicePattern(target->pipelineDevice(), 9, 5, 1);
        TimingLog log;
        target->present(pixels, log);
        log.collect();
        GLint bound = 0, alignment = 0, rowLength = 0;
        glGetIntegerv(GL_TEXTURE_BINDING_2D, &bound);
        glGetIntegerv(GL_UNPACK_ALIGNMENT, &alignment);
        glGetIntegerv(GL_UNPACK_ROW_LENGTH, &rowLength);
        EXPECT_EQ(static_cast<GLuint>(bound), other);
        EXPECT_EQ(alignment, 1);
        EXPECT_EQ(rowLength, 3);
    }
    glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glBindTexture(GL_TEXTURE_2D, 0);
    glDeleteTextures(1, &other);
}

TEST_F(Interop, DestroyingTheSinkDeletesItsTextureAndAnotherCanFollow) {
    for (int round = 0; round < 2; ++round) {
        auto target = sink(PathPreference::Auto);
        const GLuint texture = target->texture();
        {
            PixelSource pixels =
                devicePattern(target->pipelineDevice(), 31, 29, static_cast<unsigned>(round));
            TimingLog log;
            target->present(pixels, log);
            log.collect();
        }
        EXPECT_TRUE(glIsTexture(texture));
        EXPECT_TRUE(samePixels(readTexture(*target), expectedPattern(31, 29, static_cast<unsigned>(round))));
        target.reset();
        EXPECT_FALSE(glIsTexture(texture));
    }
}

// Figures, not assertions: present() of a 1920x1080 frame per path, host wall time and each record's own
// time.
TEST_F(Interop, PrintsPresentTimings) {
    constexpr int kWidth = 1920, kHeight = 1080, kFrames = 20;
    const auto summary = [](const std::vector<std::uint64_t>& ns) {
        const auto figures = measure::Summary::of({ns.begin(), ns.end()});
        std::ostringstream text;
        text << std::fixed << std::setprecision(3) << figures.min / 1e6 << " / " << figures.median / 1e6
             << " / " << figures.max / 1e6;
        return text.str();
    };
    for (auto& target : everyPath()) {
        const cl::Buffer buffer = patternBuffer(target->pipelineDevice(), kWidth, kHeight, 0);
        std::vector<std::uint64_t> wall;
        std::map<std::string, std::vector<std::uint64_t>> records;
        for (int frame = -1; frame < kFrames; ++frame) {
            // A fresh source each frame, so the copy path reads back every time as a new pipeline result
            // would.
            PixelSource pixels(target->pipelineDevice(), buffer, kWidth, kHeight);
            TimingLog log;
            const auto start = std::chrono::steady_clock::now();
            target->present(pixels, log);
            const auto end = std::chrono::steady_clock::now();
            const auto timings = log.collect();
            if (frame < 0) continue;  // untimed warm-up: first texture allocation and image creation
            wall.push_back(static_cast<std::uint64_t>(
                std::chrono::duration_cast<std::chrono::nanoseconds>(end - start).count()));
            for (const auto& timing : timings)
                records[std::string(stageName(timing.stage)) + " " + timing.name].push_back(
                    timing.durationNs());
        }
        std::cout << "present " << kWidth << "x" << kHeight << ", path " << displayPathName(target->path())
                  << ", " << kFrames << " frames, ms min / median / max:\n  wall " << summary(wall) << "\n";
        for (const auto& [name, ns] : records) std::cout << "  " << name << " " << summary(ns) << "\n";
    }
}

}  // namespace
}  // namespace hs::interop
