#pragma once
// What the app asks to run (RunRequest) and what came of it (RunOutcome, RunFailure): the data the controller
// produces, the model keeps and the views show.

#include <QString>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/image/image.hpp"
#include "engine/image/region.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/pipeline/pipeline.hpp"
#include "engine/ops/produce_consume/produce_consume.hpp"
#include "engine/ops/scope/scope.hpp"
#include "engine/runtime/device_info.hpp"
#include "engine/runtime/error.hpp"
#include "ui/display/display_link.hpp"

namespace hs::ui {

// Pipeline mode (issue 10): the convolution on the request's device, the histogram on `consumer`, chunk by
// chunk (ops/produce_consume).
struct TwoDeviceStage {
    QString consumer;  // selector "P:D"; may be the request's device itself
    produce_consume::Mode mode = produce_consume::Mode::Auto;
    int chunks = 4;
};

// What to compute: an image, on which device, through which image stages, with which histogram strategy and
// bin count.
struct RunRequest {
    std::shared_ptr<const ImageRGBA8> image;
    QString device;  // selector "P:D"; empty runs host strategies without a device (and no image stage)
    const histogram::Strategy* strategy = nullptr;  // a registered histogram strategy
    int bins = histogram::kMaxBins;
    std::optional<pipeline::RotateStage> rotation;
    std::optional<pipeline::ConvolveStage> convolution;
    // The stages of the generated panel pages (equalize, ...), which run after rotation and convolution.
    stages::StageList otherStages;
    bool ignoreTransparent = false;  // histogram::Params::ignoreTransparent
    // Set: pipeline mode, which runs `convolution` (required) then the histogram over two devices; no
    // rotation.
    std::optional<TwoDeviceStage> twoDevices;
    // Processed images go through the host even where OpenCL could write the view's texture itself (to
    // compare the display paths, or to work around a driver).
    bool forceCopyDisplay = false;
    // The file the image came from, as the run archive records it; empty for pixels of no file.
    QString imagePath{};
    // The rectangle the histogram and the scopes count (in the processed image); none: every pixel.
    std::optional<Region> roi = std::nullopt;
    // The scopes to count after the histogram (the Scopes dock's, while it is shown); their region and
    // ignore-transparent come from the request (scopeParams).
    std::vector<scope::Params> scopes = {};
    // The kernel lab's edited built-in (engine/lab/edited_strategy.hpp): the stage of kind `stage` runs
    // `strategy` built from `text`, whatever strategy the panel or toolbar chose, and is checked against its
    // CPU reference.
    struct EditedStrategy {
        std::string stage;
        std::string strategy;
        std::string label;
        std::string text;
    };
    std::optional<EditedStrategy> edited = std::nullopt;

    histogram::Params histogramParams() const { return {bins, ignoreTransparent, roi}; }
    // `scopes` with the request's region and ignore-transparent; none in pipeline mode, whose consumer
    // counts the histogram alone.
    std::vector<scope::Params> scopeParams() const {
        std::vector<scope::Params> list;
        if (twoDevices) return list;
        for (scope::Params params : scopes) {
            params.roi = roi;
            params.ignoreTransparent = ignoreTransparent;
            list.push_back(params);
        }
        return list;
    }
    bool processesImage() const { return rotation || convolution || !otherStages.empty(); }
    // The image stages it asks for, in the order they run.
    stages::StageList imageStages() const {
        stages::StageList list = pipeline::stagesOf({rotation, convolution, std::nullopt});
        list.insert(list.end(), otherStages.begin(), otherStages.end());
        return list;
    }
};

// One stage as it ran: the strategy that ran, why it is not the requested one (empty when it is), and the
// programs it built.
struct StageOutcome {
    std::string stage;                       // the stage kind's name (pipeline::StageReport::stage)
    const StrategyInfo* strategy = nullptr;  // null for a kind without strategies (equalize)
    QString note;
    std::vector<KernelBuild> builds;
    std::optional<lab::ReferenceCheck> referenceCheck;  // an edited built-in's (RunRequest::edited)

    // The strategy's name and description; empty for a kind without strategies.
    QString strategyName() const { return strategy ? QString::fromUtf8(strategy->name()) : QString(); }
    QString strategyDescription() const {
        return strategy ? QString::fromUtf8(strategy->description()) : QString();
    }
};

struct RunOutcome {
    quint64 requestId = 0;
    RunRequest request;
    std::optional<DeviceInfo> device;
    // The histogram of the processed image; result.strategy is the histogram strategy that ran (auto's
    // choice) and result.timings holds every command of every stage, named "stage: command".
    histogram::Result result;
    std::vector<StageOutcome> stages;
    // The counts of the request's scopes, in its order.
    std::vector<scope::Counts> scopes;
    // The processed image, when an image stage ran.
    std::optional<DisplayFrame> frame;
    // How processed images reach the screen on this device; unset without a device.
    std::optional<DisplayStatus> display;
    // Pipeline mode: the run over both devices (each device's records, the mode that ran, the overlap) and
    // the consumer; `device` is the producer.
    std::optional<produce_consume::Result> twoDevices;
    std::optional<DeviceInfo> consumer;
    // Wall time of the run on the worker thread: its stages and the hand-off to the display.
    std::uint64_t workerNs = 0;
};

// A failure in words: the one-line message names the device or step; a kernel build failure carries the log.
struct RunFailure {
    quint64 requestId = 0;
    ErrorKind kind = ErrorKind::OpenCl;
    QString device;  // selector of the device involved, empty when none
    QString message;
    QString buildLog;
};

}  // namespace hs::ui
