// The histogram stage kind: histogram::computeHistogram with its strategies, a measurement of the image the
// stages before it made. Configured by --bins, --ignore-transparent and --roi.
#include "engine/stages/builtin.hpp"
#include "engine/stages/shared_options.hpp"

namespace hs::stages {

namespace {

class HistogramKind;
const HistogramKind& histogramKind();

class HistogramStage final : public Stage {
  public:
    HistogramStage(Values values, const histogram::Params& params, const histogram::Strategy& strategy)
        : Stage(std::move(values)), params_(params), strategy_(&strategy) {}

    const StageKind& kind() const override;
    const StrategyInfo* requestedStrategy() const override { return strategy_; }
    StageRun run(DeviceContext* device, PixelSource& input) const override {
        histogram::Result result = histogram::computeHistogram(device, input, params_, *strategy_);
        StageRun out;
        static_cast<RunRecord&>(out) = std::move(result);
        out.histogram.emplace(std::move(result.histogram));
        out.values.emplace(std::move(result.values));
        return out;
    }
    ImageRGBA8 reference(const ImageRGBA8& input) const override { return input; }
    void writeJson(JsonWriter& json) const override {
        json.field("bins", params_.bins);
        json.field("ignore_transparent", params_.ignoreTransparent);
        if (params_.roi) json.field("roi", params_.roi->text());
    }
    const histogram::Params& params() const { return params_; }
    std::string summary() const override {
        return std::to_string(params_.bins) + " bins" +
               (params_.ignoreTransparent ? ", alpha 0 ignored" : "") +
               (params_.roi ? ", region " + params_.roi->text() : "");
    }

  private:
    histogram::Params params_;
    const histogram::Strategy* strategy_;
};

class HistogramKind final : public StageKind {
  public:
    std::string_view name() const override { return "histogram"; }
    std::string_view label() const override { return "Histogram"; }
    std::string_view help() const override { return "Counts the values of r, g, b, a and luma."; }
    int order() const override { return 90; }
    bool producesImage() const override { return false; }
    const std::vector<Parameter>& parameters() const override {
        static const std::vector<Parameter> list = {
            {.name = std::string(options::kBins.name),
             .placeholder = std::string(options::kBins.valueName),
             .label = "Bins",
             .help = std::string(options::kBins.help),
             .type = Parameter::Type::Integer,
             .min = 1,
             .max = histogram::kMaxBins,
             .defaultValue = histogram::kMaxBins,
             .defaultText = std::string(options::kBins.defaultValue)},
            {.name = std::string(options::kIgnoreTransparent.name),
             .label = "Ignore transparent",
             .help = std::string(options::kIgnoreTransparent.help),
             .type = Parameter::Type::Flag},
            {.name = std::string(options::kRoi.name),
             .placeholder = std::string(options::kRoi.valueName),
             .label = "Region",
             .help = std::string(options::kRoi.help),
             .type = Parameter::Type::Text},
        };
        return list;
    }
    std::vector<const StrategyInfo*> strategies() const override {
        return {histogram::strategies().begin(), histogram::strategies().end()};
    }
    std::string_view defaultStrategy() const override { return options::kStrategy.defaultValue; }
    std::shared_ptr<const Stage> configure(const Values& values, std::string_view strategy,
                                           const FileReader&) const override {
        requireKnownValues(*this, values);
        histogram::Params params;
        if (const auto bins = values.find(options::kBins.name); bins != values.end())
            params.bins = options::parseBins(bins->second);
        params.ignoreTransparent = values.contains(options::kIgnoreTransparent.name);
        if (const auto roi = values.find(options::kRoi.name); roi != values.end())
            params.roi = parseRegion(roi->second, "--" + std::string(options::kRoi.name));
        return histogramStage(params,
                              histogram::findStrategy(strategy.empty() ? defaultStrategy() : strategy));
    }
};

const HistogramKind& histogramKind() {
    static const HistogramKind kind;
    return kind;
}

const StageKind& HistogramStage::kind() const {
    return histogramKind();
}

[[maybe_unused]] const bool registered = registerKind(histogramKind());

}  // namespace

std::shared_ptr<const Stage> histogramStage(const histogram::Params& params,
                                            const histogram::Strategy& strategy) {
    Values values{{std::string(options::kBins.name), std::to_string(params.bins)}};
    if (params.ignoreTransparent) values.emplace(options::kIgnoreTransparent.name, "");
    if (params.roi) values.emplace(options::kRoi.name, params.roi->text());
    return std::make_shared<HistogramStage>(std::move(values), params, strategy);
}

const histogram::Params* histogramParamsOf(const Stage& stage) {
    const auto* counting = dynamic_cast<const HistogramStage*>(&stage);
    return counting ? &counting->params() : nullptr;
}

}  // namespace hs::stages
