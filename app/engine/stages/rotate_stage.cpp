// The rotate stage kind: rotate::rotate with its strategies, configured by --angle, --sampling, --fit-canvas.
#include <charconv>

#include "stages/builtin.hpp"
#include "stages/shared_options.hpp"

namespace hs::stages {

namespace {

class RotateKind;
const RotateKind& rotateKind();

class RotateStage final : public Stage {
  public:
    RotateStage(Values values, const rotate::Params& params, const rotate::Strategy& strategy)
        : Stage(std::move(values)), params_(params), strategy_(&strategy) {}

    const StageKind& kind() const override;
    const StrategyInfo* requestedStrategy() const override { return strategy_; }
    StageRun run(DeviceContext* device, PixelSource& input) const override {
        rotate::Result result = rotate::rotate(requireDevice(device, kind()), input, params_, *strategy_);
        return imageRun(std::move(result));
    }
    ImageRGBA8 reference(const ImageRGBA8& input) const override {
        return rotate::referenceRotate(input, params_);
    }
    void writeJson(JsonWriter& json) const override {
        json.field("angle_degrees", params_.angleDegrees);
        json.field("sampling", rotate::filterModeName(params_.filterMode));
        json.field("fit_canvas", params_.fitCanvas);
    }
    std::string summary() const override {
        return numberText(params_.angleDegrees) + " degrees, " +
               std::string(rotate::filterModeName(params_.filterMode)) +
               (params_.fitCanvas ? ", fit canvas" : "");
    }

  private:
    rotate::Params params_;
    const rotate::Strategy* strategy_;
};

class RotateKind final : public StageKind {
  public:
    std::string_view name() const override { return "rotate"; }
    std::string_view label() const override { return "Rotate"; }
    std::string_view help() const override { return "Rotates the image about its centre."; }
    int order() const override { return 10; }
    bool producesImage() const override { return true; }
    const std::vector<Parameter>& parameters() const override {
        static const std::vector<Parameter> list = {
            {.name = std::string(options::kAngle.name),
             .placeholder = std::string(options::kAngle.valueName),
             .label = "Angle",
             .help = std::string(options::kAngle.help),
             .type = Parameter::Type::Real,
             .min = -180,
             .max = 180,
             .defaultValue = 0,
             .step = 1},
            {.name = std::string(options::kSampling.name),
             .placeholder = std::string(options::kSampling.valueName),
             .label = "Sampling",
             .help = std::string(options::kSampling.help),
             .type = Parameter::Type::Choice,
             .choices = {"linear", "nearest"},
             .defaultText = std::string(options::kSampling.defaultValue)},
            {.name = std::string(options::kFitCanvas.name),
             .label = "Fit canvas",
             .help = std::string(options::kFitCanvas.help),
             .type = Parameter::Type::Flag},
        };
        return list;
    }
    std::string_view trigger() const override { return options::kAngle.name; }
    std::vector<const StrategyInfo*> strategies() const override {
        return {rotate::strategies().begin(), rotate::strategies().end()};
    }
    std::string_view defaultStrategy() const override { return "image-sampler"; }
    std::shared_ptr<const Stage> configure(const Values& values, std::string_view strategy,
                                           const FileReader&) const override {
        requireKnownValues(*this, values);
        const auto angle = values.find(options::kAngle.name);
        const auto sampling = values.find(options::kSampling.name);
        const auto params = options::parseRotation(
            angle == values.end() ? std::nullopt : std::optional<std::string>(angle->second),
            sampling == values.end() ? std::nullopt : std::optional<std::string>(sampling->second),
            values.contains(options::kFitCanvas.name));
        if (!params) throw UsageError("rotate: --angle is required");
        return rotateStage(*params, rotate::findStrategy(strategy.empty() ? defaultStrategy() : strategy));
    }
};

const RotateKind& rotateKind() {
    static const RotateKind kind;
    return kind;
}

const StageKind& RotateStage::kind() const {
    return rotateKind();
}

[[maybe_unused]] const bool registered = registerKind(rotateKind());

}  // namespace

std::string numberText(double value) {
    char text[32];
    const auto end = std::to_chars(text, text + sizeof text, value).ptr;
    return {text, end};
}

std::shared_ptr<const Stage> rotateStage(const rotate::Params& params, const rotate::Strategy& strategy) {
    Values values{
        {std::string(options::kAngle.name), numberText(params.angleDegrees)},
        {std::string(options::kSampling.name), std::string(rotate::filterModeName(params.filterMode))}};
    if (params.fitCanvas) values.emplace(options::kFitCanvas.name, "");
    return std::make_shared<RotateStage>(std::move(values), params, strategy);
}

}  // namespace hs::stages
