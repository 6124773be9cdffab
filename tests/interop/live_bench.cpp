// The live pipeline per frame without Qt (issue 11): rotate (bilinear) + convolution + histogram on the
// device, then the hand-off of the processed frame to a GL texture, through OpenCL–GL sharing (the shared
// path) and through the host (read back + glTexSubImage2D, the copy path), in one run, on a GLX context of
// $DISPLAY. The GUI does the same per frame (ui/controller.cpp: pipeline::runPipeline, then
// DisplayLink::present, which is TextureSink::present and a glFinish); here the input frame already lives on
// the device, so the figures are the pipeline's and the hand-off's, without the upload of a new frame.
//
// Per size and path: wall time per frame (from the first enqueue until present() has returned and glFinish
// has completed), the device time of the frame's commands from their events (kernels, transfers, interop
// commands) and the kernels' alone, each as min / median / max over the measured frames. Prints a table and,
// with --json, writes it as JSON.
//
// Correctness: after the measured frames, each texture is read back through glGetTexImage; every path's
// texture must equal the copy path's pixels (read back from the pipeline's result). Exit codes: 0 equal,
// 1 a difference (or --require-shared and no shared path), 2 usage, 3 input, 4 OpenCL/GL failure.
#include <GL/gl.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "glx_session.hpp"
#include "interop/texture_sink.hpp"
#include "measure/measure.hpp"
#include "ops/pipeline/pipeline.hpp"
#include "runtime/atomic_file.hpp"
#include "runtime/error.hpp"
#include "util/json_writer.hpp"

namespace hs::interop {
namespace {

using Clock = std::chrono::steady_clock;

constexpr const char* kUsage =
    "usage: histoscope-live-bench [--sizes WxH,...] [--frames N] [--warmup N] [--angle DEG] [--filter SPEC]\n"
    "                             [--rotate NAME] [--convolve NAME] [--histogram NAME] [--device SEL]\n"
    "                             [--require-shared] [--json FILE]\n"
    "Defaults: --sizes 1920x1080,3840x2160 --frames 50 --warmup 5 --angle 33 --filter gaussian:1:5\n"
    "          --histogram local-atomic, the registries' first rotation and convolution strategies.\n";

struct Options {
    std::vector<std::pair<int, int>> sizes{{1920, 1080}, {3840, 2160}};
    int frames = 50;
    int warmup = 5;
    double angle = 33.0;
    std::string filter = "gaussian:1:5";
    std::string rotateStrategy;
    std::string convolveStrategy;
    std::string histogramStrategy = "local-atomic";
    std::string device;
    bool requireShared = false;
    std::string json;
};

int positiveInt(const std::string& text, const std::string& option) {
    std::size_t used = 0;
    int value = 0;
    try {
        value = std::stoi(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || value < 1)
        throw UsageError(option + " takes a positive integer, not '" + text + "'");
    return value;
}

std::vector<std::pair<int, int>> parseSizes(const std::string& text) {
    std::vector<std::pair<int, int>> sizes;
    std::istringstream list(text);
    for (std::string item; std::getline(list, item, ',');) {
        const auto x = item.find('x');
        if (x == std::string::npos) throw UsageError("--sizes takes WxH,..., not '" + text + "'");
        sizes.emplace_back(positiveInt(item.substr(0, x), "--sizes"),
                           positiveInt(item.substr(x + 1), "--sizes"));
    }
    if (sizes.empty()) throw UsageError("--sizes names no size");
    return sizes;
}

std::optional<Options> parseOptions(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= argc) throw UsageError(arg + " needs a value");
            return argv[++i];
        };
        if (arg == "--help" || arg == "-h") {
            std::cout << kUsage;
            return std::nullopt;
        } else if (arg == "--sizes") {
            options.sizes = parseSizes(value());
        } else if (arg == "--frames") {
            options.frames = positiveInt(value(), arg);
        } else if (arg == "--warmup") {
            options.warmup = positiveInt(value(), arg);
        } else if (arg == "--angle") {
            options.angle = std::stod(value());
        } else if (arg == "--filter") {
            options.filter = value();
        } else if (arg == "--rotate") {
            options.rotateStrategy = value();
        } else if (arg == "--convolve") {
            options.convolveStrategy = value();
        } else if (arg == "--histogram") {
            options.histogramStrategy = value();
        } else if (arg == "--device") {
            options.device = value();
        } else if (arg == "--require-shared") {
            options.requireShared = true;
        } else if (arg == "--json") {
            options.json = value();
        } else {
            throw UsageError("unknown option '" + arg + "'\n" + kUsage);
        }
    }
    return options;
}

pipeline::Spec pipelineSpec(const Options& options) {
    pipeline::Spec spec;
    pipeline::RotateStage rotation;
    rotation.params = rotate::Params{options.angle, rotate::FilterMode::Linear, false};
    if (!options.rotateStrategy.empty()) rotation.strategy = &rotate::findStrategy(options.rotateStrategy);
    spec.rotation = rotation;
    const auto filter = convolve::namedFilterFromSpec(options.filter);
    if (!filter) throw UsageError("--filter takes a named filter (" + convolve::filterSpecHelp() + ")");
    pipeline::ConvolveStage convolution{*filter};
    if (!options.convolveStrategy.empty())
        convolution.strategy = &convolve::findStrategy(options.convolveStrategy);
    spec.convolution = convolution;
    spec.histogram = pipeline::HistogramStage{{}, &histogram::findStrategy(options.histogramStrategy)};
    return spec;
}

// A frame with structure at every scale (gradients, a checkerboard, hashed noise, varying alpha), so that
// the rotation and the filter change every pixel and the histogram is spread.
ImageRGBA8 inputFrame(int width, int height) {
    ImageRGBA8 image(width, height);
    for (int y = 0; y < height; ++y) {
        for (int x = 0; x < width; ++x) {
            std::uint8_t* p = image.pixel(x, y);
            const unsigned hash =
                (static_cast<unsigned>(x) * 73856093u) ^ (static_cast<unsigned>(y) * 19349663u);
            p[0] = static_cast<std::uint8_t>(x * 255 / std::max(width - 1, 1));
            p[1] = static_cast<std::uint8_t>(y * 255 / std::max(height - 1, 1));
            p[2] = static_cast<std::uint8_t>((((x / 32) + (y / 32)) % 2) * 160 + (hash % 96));
            p[3] = static_cast<std::uint8_t>(255 - (hash >> 8) % 64);
        }
    }
    return image;
}

// Empty when equal, else where the first difference is.
std::string difference(const ImageRGBA8& actual, const ImageRGBA8& expected) {
    if (actual.width != expected.width || actual.height != expected.height)
        return std::to_string(actual.width) + "x" + std::to_string(actual.height) + " instead of " +
               std::to_string(expected.width) + "x" + std::to_string(expected.height);
    const auto mismatch = std::mismatch(actual.pixels.begin(), actual.pixels.end(), expected.pixels.begin());
    if (mismatch.first == actual.pixels.end()) return {};
    const auto offset = static_cast<std::size_t>(mismatch.first - actual.pixels.begin());
    const std::size_t pixel = offset / 4;
    return "first difference at x=" + std::to_string(pixel % actual.width) +
           " y=" + std::to_string(pixel / actual.width) + " channel " + std::to_string(offset % 4) + ": " +
           std::to_string(int(*mismatch.first)) + " instead of " + std::to_string(int(*mismatch.second));
}

struct PathRun {
    std::string requested;  // "auto" (shared where the driver allows) or "copy"
    std::string path;       // the path the frames took
    std::string reason;
    std::string ran;  // "rotate buffer → convolve ... → histogram ...": the strategies that ran
    std::vector<double> wallMs;
    std::vector<double> deviceMs;
    std::vector<double> kernelMs;
    std::map<std::string, std::vector<double>> stageMs;  // device time per pipeline stage and "display"
    ImageRGBA8 texture;
    ImageRGBA8 pixels;  // the pipeline's output, read back after the frames
};

double ms(std::uint64_t ns) {
    return static_cast<double>(ns) / 1e6;
}

// Records without a stage are the hand-off to the display, which the bench times itself.
std::string stageOf(const Timing& timing) {
    return timing.step.empty() ? "display" : timing.step;
}

PathRun runPath(GlxSession& glx, Runtime& runtime, DeviceContext& engine, const pipeline::Spec& spec,
                const ImageRGBA8& frame, PathPreference preference, const Options& options) {
    TextureSink sink(glx.handles(), engine, runtime.programCache(), preference);
    DeviceContext& device = sink.pipelineDevice();
    PathRun run;
    run.requested = preference == PathPreference::ForceCopy ? "copy" : "auto";
    run.reason = sink.reason();
    // The frame resident on the device the pipeline runs on (the sink's GL-sharing context when shared).
    const cl::Buffer input = withClErrors("device " + engine.info().name + ": uploading the frame", [&] {
        return cl::Buffer(device.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, frame.byteCount(),
                          const_cast<std::uint8_t*>(frame.pixels.data()));
    });
    std::optional<pipeline::Result> last;
    for (int index = -options.warmup; index < options.frames; ++index) {
        PixelSource source(device, input, frame.width, frame.height);
        TimingLog display;
        const auto start = Clock::now();
        pipeline::Result result = pipeline::runPipeline(device, source, spec);
        const DisplayPath took = sink.present(result.image, display);
        glFinish();
        const auto end = Clock::now();
        std::vector<Timing> timings = result.timings();
        for (auto& timing : display.collect()) timings.push_back(std::move(timing));
        run.path = std::string(displayPathName(took));
        if (index >= 0) {
            run.wallMs.push_back(std::chrono::duration<double, std::milli>(end - start).count());
            std::map<std::string, std::uint64_t> stages;
            std::uint64_t deviceNs = 0;
            for (const Timing& timing : timings) {
                if (timing.host) continue;
                deviceNs += timing.durationNs();
                stages[stageOf(timing)] += timing.durationNs();
            }
            run.deviceMs.push_back(ms(deviceNs));
            run.kernelMs.push_back(ms(totalNs(timings, Stage::Kernel)));
            for (const auto& [stage, ns] : stages) run.stageMs[stage].push_back(ms(ns));
        }
        last = std::move(result);
    }
    std::vector<std::string> ran;
    for (const auto& stage : last->stages)
        if (stage.strategy) ran.push_back(stage.stage + " " + std::string(stage.strategy->name()));
    for (const auto& part : ran) run.ran += (run.ran.empty() ? "" : " → ") + part;
    run.texture = readTexture(sink);
    run.pixels = last->readBack();
    return run;
}

std::string figures(const std::vector<double>& samples) {
    const auto summary = measure::Summary::of(samples);
    std::ostringstream text;
    text << std::fixed << std::setprecision(3) << summary.median << " (" << summary.min << "–" << summary.max
         << ")";
    return text.str();
}

void writeSummary(JsonWriter& json, std::string_view name, const std::vector<double>& samples) {
    const auto summary = measure::Summary::of(samples);
    json.key(name).beginObject();
    json.field("median", summary.median).field("min", summary.min).field("max", summary.max);
    json.endObject();
}

struct SizeRuns {
    int width = 0;
    int height = 0;
    std::vector<PathRun> paths;
    std::string mismatch;  // empty when every texture equals the copy path's pixels
};

int run(int argc, char** argv) {
    const auto parsed = parseOptions(argc, argv);
    if (!parsed) return 0;
    const Options& options = *parsed;
    const pipeline::Spec spec = pipelineSpec(options);

    GlxSession glx;
    Runtime runtime;
    DeviceContext& engine = runtime.open(options.device);
    const std::string renderer = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
    std::cout << "GL renderer: " << renderer << "\nOpenCL device: " << engine.info().name << " on "
              << engine.info().platformName << "\nper frame: rotate " << options.angle << "° bilinear → "
              << spec.convolution->filter.label << " → histogram; " << options.frames << " frames after "
              << options.warmup << " warm-up; ms median (min–max)\n";

    std::vector<SizeRuns> sizes;
    bool failed = false;
    for (const auto& [width, height] : options.sizes) {
        const ImageRGBA8 frame = inputFrame(width, height);
        SizeRuns size{width, height, {}, {}};
        for (const PathPreference preference : {PathPreference::Auto, PathPreference::ForceCopy})
            size.paths.push_back(runPath(glx, runtime, engine, spec, frame, preference, options));
        const ImageRGBA8& expected = size.paths.back().pixels;  // the copy path's pixels
        for (const PathRun& path : size.paths) {
            if (std::string problem = difference(path.texture, expected); !problem.empty())
                size.mismatch = path.requested + " (" + path.path + ") texture: " + problem;
            if (std::string problem = difference(path.pixels, expected); !problem.empty())
                size.mismatch = path.requested + " (" + path.path + ") pixels: " + problem;
        }
        for (const PathRun& path : size.paths) {
            std::cout << width << "x" << height << "  " << std::left << std::setw(6) << path.path
                      << std::right << "  wall " << figures(path.wallMs) << "  device "
                      << figures(path.deviceMs) << "  kernels " << figures(path.kernelMs)
                      << "\n    by stage:";
            for (const auto& [stage, samples] : path.stageMs)
                std::cout << " " << stage << " " << figures(samples);
            std::cout << "\n    " << path.ran << "; " << path.requested << ": " << path.reason << "\n";
        }
        std::cout << "  texture read back (glGetTexImage) = copy path's pixels: "
                  << (size.mismatch.empty() ? "yes" : "NO, " + size.mismatch) << "\n";
        failed = failed || !size.mismatch.empty();
        if (options.requireShared && size.paths.front().path != "shared") {
            std::cout << "  shared path required but not taken: " << size.paths.front().reason << "\n";
            failed = true;
        }
        sizes.push_back(std::move(size));
    }

    if (!options.json.empty()) {
        writeFileAtomically(options.json, jsonDocument([&](JsonWriter& json) {
                                json.beginObject();
                                json.field("device", engine.info().name)
                                    .field("platform", engine.info().platformName)
                                    .field("gl_renderer", renderer)
                                    .field("frames", options.frames)
                                    .field("warmup", options.warmup)
                                    .field("angle_degrees", options.angle)
                                    .field("filter", spec.convolution->filter.label);
                                json.key("runs").beginArray();
                                for (const SizeRuns& size : sizes) {
                                    for (const PathRun& path : size.paths) {
                                        json.beginObject();
                                        json.field("width", size.width)
                                            .field("height", size.height)
                                            .field("requested", path.requested)
                                            .field("path", path.path)
                                            .field("reason", path.reason)
                                            .field("strategies", path.ran);
                                        writeSummary(json, "wall_ms", path.wallMs);
                                        writeSummary(json, "device_ms", path.deviceMs);
                                        writeSummary(json, "kernel_ms", path.kernelMs);
                                        json.key("stage_device_ms").beginObject();
                                        for (const auto& [stage, samples] : path.stageMs)
                                            writeSummary(json, stage, samples);
                                        json.endObject();
                                        json.field("texture_equals_copy_pixels", size.mismatch.empty());
                                        json.endObject();
                                    }
                                }
                                json.endArray();
                                json.endObject();
                            }));
    }
    return failed ? 1 : 0;
}

}  // namespace
}  // namespace hs::interop

int main(int argc, char** argv) {
    try {
        return hs::interop::run(argc, argv);
    } catch (const hs::Error& e) {
        std::cerr << "histoscope-live-bench: " << e.what() << "\n";
        return e.kind() == hs::ErrorKind::Usage ? 2 : e.kind() == hs::ErrorKind::Input ? 3 : 4;
    } catch (const std::exception& e) {
        std::cerr << "histoscope-live-bench: " << e.what() << "\n";
        return 4;
    }
}
