// Rotation (linear, nearest) and convolution (3x3, 5x5, 15x15 Gaussians) per strategy. Device time is the sum
// of the operation's device commands (kernels, and the buffer-to-image copy of the image strategies, which a
// pipeline pays too); host transfers are excluded. GB/s counts the bytes read plus the bytes written (input +
// output image), and the ratio is to the copy kernel moving the same bytes in the same run. A rotation that
// reads an image is also reported without its buffer-to-image copy ("image input"), as a pipeline whose input
// already is an image would run it.
//
// Both operations run the same instructions whatever the pixel values, so they are measured on one pattern
// per size (the first selected one) and on raw inputs.
#include <algorithm>
#include <cstdio>

#include "bench/inputs.hpp"
#include "bench/suite.hpp"
#include "engine/ops/convolve/convolve.hpp"
#include "engine/ops/device_launch.hpp"
#include "engine/ops/rotate/rotate.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::bench {

namespace {

constexpr int kFilterSizes[] = {3, 5, 15};

bool measuredOn(const Options& options, const Input& input) {
    if (options.raw) return true;
    for (const auto& pattern : patternNames()) {
        if (Options::selected(options.patterns, pattern)) return pattern == input.name;
    }
    return false;
}

// Whether to measure `input`; if so, its pixels are put on the device first (untimed), as a pipeline stage
// finds them, so every strategy starts from the same device buffer whichever suite ran before.
bool prepare(SuiteContext& context, Input& input) {
    if (!measuredOn(context.options, input)) return false;
    if (context.device == nullptr) return true;
    try {
        TimingLog untimed;
        input.pixels.device(*context.device, untimed);
        untimed.collect();
    } catch (const Error&) {
        // Too large for the device, say: each row then reports why it cannot run.
    }
    return true;
}

// The operation's device work: kernels and device-side copies, not host transfers.
std::vector<Timing> deviceWork(std::vector<Timing> timings) {
    for (auto& timing : timings) {
        if (timing.stage == Stage::Other) timing.stage = Stage::Kernel;
    }
    return timings;
}

bool copiesIntoImage(const std::vector<Timing>& timings) {
    return std::any_of(timings.begin(), timings.end(),
                       [](const Timing& timing) { return timing.name == launch::kCopyToImageName; });
}

std::vector<Timing> withoutImageCopy(std::vector<Timing> timings) {
    std::erase_if(timings, [](const Timing& timing) { return timing.name == launch::kCopyToImageName; });
    return timings;
}

Row newRow(const std::string& suite, std::string subject, const Input& input) {
    Row row;
    row.suite = suite;
    row.subject = std::move(subject);
    row.input = input.name;
    row.bytes = 2 * input.image.byteCount();
    row.extra["image_bytes"] = static_cast<double>(input.image.byteCount());
    return row;
}

// Measures `run` into `row` and compares it with the copy kernel; an Error skips the row with its message.
void measureInto(SuiteContext& context, Input& input, Row& row,
                 const std::function<std::vector<Timing>()>& run) {
    try {
        row.take(measure::measure({measure::Clock::Kernel, 1, context.options.repetitions, row.bytes},
                                  [&] { return deviceWork(run()); }));
        const auto& copy = context.baselines->copy(input.image.byteCount());
        // A zero median (no kernel recorded) has no ratio: 0, as GB/s is then.
        const double ratio = measure::ratioToBaseline(*row.summary, copy).value_or(0.0);
        row.extra["copy_ratio"] = ratio;
        char text[48];
        std::snprintf(text, sizeof text, "%.3f x copy", ratio);
        row.detail = text + (row.detail.empty() ? "" : "; " + row.detail);
    } catch (const Error& error) {
        row.summary.reset();
        row.extra.erase("copy_ratio");
        row.detail = error.what();
    }
}

// Why a row cannot be measured (no device, or the strategy cannot run on this input); empty when it can.
std::string skipReason(const SuiteContext& context,
                       const std::function<Support(const DeviceInfo&)>& support) {
    if (context.device == nullptr) return context.deviceProblem;
    return support(context.device->info()).reason;
}

void runRotation(SuiteContext& context, Input& input) {
    if (!prepare(context, input)) return;
    for (const auto* strategy : rotate::strategies()) {
        if (!Options::selected(context.options.strategies, std::string(strategy->name()))) continue;
        for (const auto mode : {rotate::FilterMode::Linear, rotate::FilterMode::Nearest}) {
            if (context.options.sampling && *context.options.sampling != mode) continue;
            auto row = newRow("rotate",
                              std::string(strategy->name()) + " " + std::string(rotate::filterModeName(mode)),
                              input);
            row.extra["angle_degrees"] = context.options.angleDegrees;
            row.detail = skipReason(context, [&](const DeviceInfo& device) {
                return strategy->supported(&device, {input.image.width, input.image.height}, {});
            });
            if (row.detail.empty()) {
                const rotate::Params params{context.options.angleDegrees, mode};
                if (const auto build = strategy->kernelBuild(context.device->info(), params,
                                                             {input.image.width, input.image.height}))
                    row.detail = build->options;
                const auto run = [&] {
                    return rotate::rotate(*context.device, input.pixels, params, *strategy).timings;
                };
                measureInto(context, input, row, run);
                // A strategy that samples an image pays the copy of the buffer into one; a pipeline whose
                // input already is an image would not: measured beside it, without that copy.
                if (row.summary && copiesIntoImage(run())) {
                    auto imageRow = newRow("rotate", row.subject + " image input", input);
                    imageRow.extra = row.extra;
                    imageRow.detail = "without the " + std::string(launch::kCopyToImageName);
                    measureInto(context, input, imageRow, [&] { return withoutImageCopy(run()); });
                    context.report.add(std::move(row));
                    context.report.add(std::move(imageRow));
                    continue;
                }
            }
            context.report.add(std::move(row));
        }
    }
}

void runConvolution(SuiteContext& context, Input& input) {
    if (!prepare(context, input)) return;
    for (const int size : kFilterSizes) {
        const auto filter = convolve::gaussianFilter(size / 6.0, size);
        for (const auto* strategy : convolve::strategies()) {
            if (!Options::selected(context.options.strategies, std::string(strategy->name()))) continue;
            auto row = newRow(
                "convolve",
                std::string(strategy->name()) + " " + std::to_string(size) + "x" + std::to_string(size),
                input);
            row.extra["filter_size"] = size;
            row.detail = skipReason(context, [&](const DeviceInfo& device) {
                return strategy->supported(&device, {input.image.width, input.image.height}, filter);
            });
            if (row.detail.empty()) {
                row.detail = filter.label;
                if (const auto build = strategy->kernelBuild(context.device->info(), filter,
                                                             {input.image.width, input.image.height}))
                    row.detail += ", " + build->options;
                measureInto(context, input, row, [&] {
                    return convolve::convolve(*context.device, input.pixels, filter, *strategy).timings;
                });
            }
            context.report.add(std::move(row));
        }
    }
}

const RegisterSuite rotationSuite("rotate", runRotation);
const RegisterSuite convolutionSuite("convolve", runConvolution);

}  // namespace

}  // namespace hs::bench
