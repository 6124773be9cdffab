// The convolve stage kind: convolve::convolve with its strategies, configured by --filter SPEC.
#include "engine/stages/builtin.hpp"
#include "engine/stages/shared_options.hpp"

namespace hs::stages {

namespace {

class ConvolveKind;
const ConvolveKind& convolveKind();

class ConvolveStage final : public Stage {
  public:
    ConvolveStage(Values values, convolve::Filter filter, const convolve::Strategy& strategy)
        : Stage(std::move(values)), filter_(std::move(filter)), strategy_(&strategy) {}

    const StageKind& kind() const override;
    const StrategyInfo* requestedStrategy() const override { return strategy_; }
    StageRun run(DeviceContext* device, PixelSource& input) const override {
        convolve::Result result =
            convolve::convolve(requireDevice(device, kind()), input, filter_, *strategy_);
        return imageRun(std::move(result));
    }
    ImageRGBA8 reference(const ImageRGBA8& input) const override {
        return convolve::referenceConvolve(input, filter_);
    }
    void writeJson(JsonWriter& json) const override {
        json.key("filter").beginObject().field("label", filter_.label).field("width", filter_.width);
        json.field("height", filter_.height).field("integer", filter_.isInteger()).endObject();
    }
    std::string summary() const override { return filter_.label; }
    std::string tuningVariant() const override { return convolve::tuningVariant(filter_); }
    const convolve::Filter& filter() const { return filter_; }

  private:
    convolve::Filter filter_;
    const convolve::Strategy* strategy_;
};

class ConvolveKind final : public StageKind {
  public:
    std::string_view name() const override { return "convolve"; }
    std::string_view label() const override { return "Convolve"; }
    std::string_view help() const override { return "Correlates the image with a filter, edges clamped."; }
    int order() const override { return 20; }
    bool producesImage() const override { return true; }
    const std::vector<Parameter>& parameters() const override {
        static const std::vector<Parameter> list = {
            {.name = std::string(options::filterOption().name),
             .placeholder = std::string(options::filterOption().valueName),
             .label = "Filter",
             .help = std::string(options::filterOption().help),
             .type = Parameter::Type::Text},
        };
        return list;
    }
    std::string_view trigger() const override { return "filter"; }
    std::vector<const StrategyInfo*> strategies() const override {
        return {convolve::strategies().begin(), convolve::strategies().end()};
    }
    std::string_view defaultStrategy() const override { return "local-tiled"; }
    std::shared_ptr<const Stage> configure(const Values& values, std::string_view strategy,
                                           const FileReader& readFile) const override {
        requireKnownValues(*this, values);
        const auto spec = values.find("filter");
        if (spec == values.end()) throw UsageError("convolve: --filter is required");
        const auto& chosen = convolve::findStrategy(strategy.empty() ? defaultStrategy() : strategy);
        convolve::Filter filter = convolve::filterFromSpec(spec->second, [&](const std::string& path) {
            return readFile(path, convolve::kMaxFilterFileBytes, "filter file");
        });
        return std::make_shared<ConvolveStage>(values, std::move(filter), chosen);
    }
};

const ConvolveKind& convolveKind() {
    static const ConvolveKind kind;
    return kind;
}

const StageKind& ConvolveStage::kind() const {
    return convolveKind();
}

[[maybe_unused]] const bool registered = registerKind(convolveKind());

}  // namespace

std::shared_ptr<const Stage> convolveStage(convolve::Filter filter, const convolve::Strategy& strategy,
                                           std::string spec) {
    Values values{{"filter", spec.empty() ? filter.label : std::move(spec)}};
    return std::make_shared<ConvolveStage>(std::move(values), std::move(filter), strategy);
}

const convolve::Filter* filterOf(const Stage& stage) {
    const auto* convolution = dynamic_cast<const ConvolveStage*>(&stage);
    return convolution ? &convolution->filter() : nullptr;
}

}  // namespace hs::stages
