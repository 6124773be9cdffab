// histoscope-bench: measures the engine's operations on generated or given pixels (see --help). A benchmark,
// not a test: it prints figures; a measurement that cannot run is reported as skipped with its reason.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <memory>
#include <new>
#include <sstream>
#include <string_view>

#include "bench/inputs.hpp"
#include "bench/suite.hpp"
#include "engine/runtime/device_properties.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"
#include "engine/stages/builtin.hpp"
#include "engine/util/json_writer.hpp"
#include "histoscope_version.hpp"
#include "io/files/files.hpp"
#include "session/session.hpp"

namespace hs::bench {

namespace {

void runSuites(SuiteContext& context, const std::string& name, const ImageRGBA8& image) {
    PixelSource pixels(image);
    Input input{name, image, pixels};
    const std::size_t rowsBefore = context.report.rows().size();
    for (const auto& suite : suites()) {
        if (Options::selected(context.options.suites, suite.name)) suite.run(context, input);
    }
    if (context.options.record) {
        const std::vector<Row> measured(
            context.report.rows().begin() + static_cast<std::ptrdiff_t>(rowsBefore),
            context.report.rows().end());
        context.recorded += context.options.record->record(context, measured, name, image);
    }
    if (context.baselines == nullptr) return;
    try {
        TimingLog upload;  // not timed: the baselines read what is already on the device
        const cl::Buffer& onDevice = pixels.device(*context.device, upload);
        // The upload is non-blocking and reads `image`, which the caller frees once this returns; a baseline
        // measured before for this size enqueues nothing that would wait for it.
        upload.collect();
        context.baselines->streamRead(onDevice, image.byteCount());
        context.baselines->copy(image.byteCount());
    } catch (const OpenClError& error) {
        std::cerr << "baselines skipped: " << error.what() << '\n';
    }
}

void writeJson(std::ostream& out, const Options& options, const DeviceContext* device, const Report& report,
               const measure::Baselines* baselines) {
    JsonWriter json(out);
    json.beginObject();
    json.field("tool", "histoscope-bench");
    json.key("device");
    if (device) {
        json.beginObject();
        writeDeviceMembers(json, device->info());
        // The schema calls it "opencl"; results recorded before the schema (bench/results) call it "version".
        json.field("version", device->info().openclVersion);
        json.endObject();
    } else {
        json.null();
    }
    json.key("settings").beginObject();
    json.field("repetitions", options.repetitions).field("warmup_runs", 1).field("bins", options.bins);
    json.field("kernel_time",
               "sum of kernel-stage profiling events of one run; host strategies: steady clock");
    json.field("gbps", "bytes of input / median time");
    json.endObject();
    json.key("baselines").beginArray();
    if (baselines) {
        for (const auto& [key, baseline] : baselines->measured()) {
            const auto& [kernel, bytes] = key;
            const std::uint64_t moved = kernel == "copy" ? 2 * bytes : bytes;
            json.beginObject().field("kernel", kernel).field("bytes", bytes).field("bytes_moved", moved);
            writeSummary(json, baseline);
            json.field("gbps", measure::gigabytesPerSecond(moved, baseline.median));
            json.field("shape", baseline.shape).endObject();
        }
    }
    json.endArray();
    json.key("results");
    report.writeJson(json);
    json.endObject();
    out << '\n';
}

int run(const Options& options) {
    // Before any measuring, so that none is wasted on a JSON file that cannot be written.
    if (options.jsonPath) io::checkReplaceable(*options.jsonPath);
    session::Session session;
    DeviceContext* device = nullptr;
    std::string deviceProblem;
    try {
        device = &session.device(options.device);
    } catch (const OpenClError& error) {
        deviceProblem = error.what();
    }
    std::unique_ptr<measure::Baselines> baselines;
    if (device) baselines = std::make_unique<measure::Baselines>(*device, options.repetitions);
    Report report;
    SuiteContext context{options, device, deviceProblem, baselines.get(), report, session};
    std::ostream& table = options.jsonOnStdout ? std::cerr : std::cout;
    if (device)
        table << "device " << device->info().selector() << ": " << device->info().name << " ("
              << device->info().platformName << ", " << device->info().driverVersion << ")\n";
    else
        table << "no OpenCL device: " << deviceProblem << "\n";

    for (const auto& pattern : options.patterns) {
        if (std::find(patternNames().begin(), patternNames().end(), pattern) == patternNames().end())
            throw UsageError("unknown pattern '" + pattern +
                             "' (known: uniform, all-equal, gaussian, gradient, natural)");
    }
    if (options.raw) {
        const ImageRGBA8 image = io::readRawRgba(options.raw->path, options.raw->width, options.raw->height);
        runSuites(context, options.raw->path.substr(options.raw->path.find_last_of('/') + 1), image);
    } else {
        for (const double mib : options.sizesMiB) {
            for (const auto& pattern : patternNames()) {
                if (!Options::selected(options.patterns, pattern)) continue;
                const ImageRGBA8 image = makePattern(pattern, static_cast<std::uint64_t>(mib * 1024 * 1024));
                runSuites(context, pattern, image);
            }
        }
    }
    report.printTable(table);
    if (options.record)
        table << "recorded " << context.recorded << " run(s) in " << options.record->where()
              << " (histoscope-cli runs list)\n";
    if (baselines) {
        for (const auto& [key, baseline] : baselines->measured()) {
            const std::uint64_t moved = key.first == "copy" ? 2 * key.second : key.second;
            const measure::Summary& stats = baseline;
            char line[256];
            std::snprintf(line, sizeof line,
                          "baseline %-11s %9.2f MiB  min %.3f  median %.3f  max %.3f ms  %.3f GB/s  (%s)\n",
                          key.first.c_str(), static_cast<double>(key.second) / (1024.0 * 1024.0),
                          stats.min / 1e6, stats.median / 1e6, stats.max / 1e6,
                          measure::gigabytesPerSecond(moved, stats.median), baseline.shape.c_str());
            table << line;
        }
    }
    if (options.jsonOnStdout) writeJson(std::cout, options, device, report, baselines.get());
    if (options.jsonPath) {
        std::ostringstream json;
        writeJson(json, options, device, report, baselines.get());
        io::writeFileAtomically(*options.jsonPath, json.str());
    }
    return 0;
}

}  // namespace

}  // namespace hs::bench

int main(int argc, char** argv) {
    // Answered before the options are parsed, as it takes none of them.
    if (argc == 2 && std::string_view(argv[1]) == "--version") {
        std::printf("histoscope-bench %s\n", HISTOSCOPE_VERSION_LINE);
        return 0;
    }
    try {
        const auto options = hs::bench::parseOptions(argc, argv);
        return options ? hs::bench::run(*options) : 0;
    } catch (const hs::Error& error) {
        std::string message = error.what();
        for (auto& c : message) {
            if (c == '\n') c = ' ';
        }
        std::fprintf(stderr, "histoscope-bench: %s\n", message.c_str());
        return hs::exitCodeFor(error.kind());
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "histoscope-bench: out of memory\n");
        return 3;
    } catch (const std::exception& error) {
        // A bug, not a user's mistake: still one line rather than an abort without a word.
        std::fprintf(stderr, "histoscope-bench: internal error: %s\n", error.what());
        return 1;
    }
}
