#include "engine/lab/edited_strategy.hpp"

#include "engine/lab/reference_check.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"
#include "engine/stages/builtin.hpp"

namespace hs::lab {

namespace {

// A measurement stage's CPU reference: the histogram with its serial strategy, the golden loop over the
// pixels (null for the scopes, whose edits are not checked yet).
std::shared_ptr<const stages::Stage> hostReference(const stages::Stage& stage) {
    if (const auto* params = stages::histogramParamsOf(stage))
        return stages::histogramStage(*params, histogram::findStrategy("serial"));
    return nullptr;
}

class EditedStrategyStage final : public stages::Stage {
  public:
    EditedStrategyStage(std::shared_ptr<const stages::Stage> inner, std::string label, std::string text)
        : Stage(inner->values()),
          inner_(std::move(inner)),
          strategy_(inner_->requestedStrategy()),
          source_(kernelSourceOf(*strategy_)),
          label_(std::move(label)),
          text_(std::move(text)) {
        if (!inner_->kind().producesImage()) {
            reference_ = hostReference(*inner_);
            if (!reference_)
                throw UsageError(
                    std::string(inner_->kind().name()) +
                    ": an edited strategy runs in the histogram, rotate and convolve stages only");
        }
    }

    const stages::StageKind& kind() const override { return inner_->kind(); }
    const StrategyInfo* requestedStrategy() const override { return strategy_; }

    stages::StageRun run(DeviceContext* on, PixelSource& input) const override {
        DeviceContext& device = stages::requireDevice(on, kind());
        // The check's transfers are its own, not the stage's: they stay out of its timings.
        TimingLog untimed;
        ImageRGBA8 before(input.width(), input.height());
        input.copyTo(before.pixels.data(), untimed);
        stages::StageRun ran;
        {
            const DeviceContext::SourceOverride edited(device, source_, label_, text_);
            ran = inner_->run(&device, input);
        }
        for (KernelBuild& build : ran.builds) {
            if (build.source != source_) continue;
            build.source = label_;
            build.text = text_;
        }
        ReferenceCheck check;
        if (ran.strategy != strategy_) {
            check.problem = "not checked: " + ran.strategyName() + " ran instead (" + ran.note + ")";
        } else if (ran.image) {
            ImageRGBA8 after(ran.image->width(), ran.image->height());
            ran.image->copyTo(after.pixels.data(), untimed);
            check = compareImages(inner_->reference(before), after);
        } else if (ran.values) {
            PixelSource pixels(before);
            const stages::StageRun expected = reference_->run(nullptr, pixels);
            check = compareHistograms(*expected.values, *ran.values);

        } else {
            check.problem = "not checked: the " + std::string(kind().name()) +
                            " stage's result has no CPU reference to compare with";
        }
        ran.referenceCheck = std::move(check);
        return ran;
    }

    ImageRGBA8 reference(const ImageRGBA8& input) const override { return inner_->reference(input); }

    void writeJson(JsonWriter& json) const override {
        inner_->writeJson(json);
        json.field("edited_source", label_);
    }

    std::string summary() const override { return inner_->summary() + " (edited: " + label_ + ")"; }

  private:
    std::shared_ptr<const stages::Stage> inner_;
    const StrategyInfo* strategy_;
    std::string source_;
    std::string label_;
    std::string text_;
    std::shared_ptr<const stages::Stage>
        reference_;  // a measurement's host strategy; null for an image stage
};

}  // namespace

std::string kernelSourceOf(const StrategyInfo& strategy) {
    return std::string(operationName(strategy.operation()));
}

std::shared_ptr<const stages::Stage> editedStrategy(std::shared_ptr<const stages::Stage> stage,
                                                    std::string label, std::string text) {
    const StrategyInfo* strategy = stage->requestedStrategy();
    const std::string kind(stage->kind().name());
    if (strategy == nullptr) throw UsageError(kind + ": has no strategy whose kernel could be edited");
    const std::string name(strategy->name());
    if (!strategy->runsOnDevice())
        throw UsageError(kind + " strategy " + name + " runs on the host: it has no kernel to edit");
    if (name == "auto")
        throw UsageError(kind +
                         " strategy auto chooses among the others: name the strategy whose kernel is edited");
    return std::make_shared<EditedStrategyStage>(std::move(stage), std::move(label), std::move(text));
}

}  // namespace hs::lab
