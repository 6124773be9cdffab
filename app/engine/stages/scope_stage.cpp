// The scope stage kind: scope::computeScope with its strategies, a measurement (waveform, parade or
// vectorscope) of the image the stages before it made. Configured by --kind, --channel, --columns, --roi and
// --ignore-transparent.
#include <charconv>

#include "engine/runtime/error.hpp"
#include "engine/stages/builtin.hpp"
#include "engine/stages/shared_options.hpp"

namespace hs::stages {

namespace {

constexpr std::string_view kKind = "kind";
constexpr std::string_view kChannel = "channel";
constexpr std::string_view kColumns = "columns";

class ScopeKind;
const ScopeKind& scopeKind();

class ScopeStage final : public Stage {
  public:
    ScopeStage(Values values, const scope::Params& params, const scope::Strategy& strategy)
        : Stage(std::move(values)), params_(params), strategy_(&strategy) {}

    const StageKind& kind() const override;
    const StrategyInfo* requestedStrategy() const override { return strategy_; }
    StageRun run(DeviceContext* device, PixelSource& input) const override {
        scope::Result result = scope::computeScope(device, input, params_, *strategy_);
        StageRun out;
        static_cast<RunRecord&>(out) = std::move(result);
        out.scope.emplace(std::move(result.counts));
        return out;
    }
    ImageRGBA8 reference(const ImageRGBA8& input) const override { return input; }
    void writeJson(JsonWriter& json) const override {
        json.field("kind", scope::kindName(params_.kind));
        if (params_.kind == scope::Kind::Waveform) json.field("channel", scope::channelName(params_.channel));
        if (params_.kind != scope::Kind::Vectorscope) json.field("requested_columns", params_.columns);
        json.field("ignore_transparent", params_.ignoreTransparent);
        if (params_.roi) json.field("roi", params_.roi->text());
    }
    std::string summary() const override {
        std::string text(scope::kindName(params_.kind));
        if (params_.kind == scope::Kind::Waveform)
            text += " of " + std::string(scope::channelName(params_.channel));
        if (params_.kind != scope::Kind::Vectorscope && params_.columns > 0)
            text += ", " + std::to_string(params_.columns) + " columns";
        if (params_.ignoreTransparent) text += ", alpha 0 ignored";
        if (params_.roi) text += ", region " + params_.roi->text();
        return text;
    }
    const scope::Params& params() const { return params_; }

  private:
    scope::Params params_;
    const scope::Strategy* strategy_;
};

int parseColumns(std::string_view text) {
    int value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < 1 || value > scope::kMaxColumns)
        throw UsageError("--columns expects an integer within 1.." + std::to_string(scope::kMaxColumns) +
                         ", got '" + std::string(text) + "'");
    return value;
}

class ScopeKind final : public StageKind {
  public:
    std::string_view name() const override { return "scope"; }
    std::string_view label() const override { return "Scope"; }
    std::string_view help() const override {
        return "Counts a waveform (value by column), the RGB parade or the vectorscope (Cr by Cb).";
    }
    int order() const override { return 95; }
    bool producesImage() const override { return false; }
    const std::vector<Parameter>& parameters() const override {
        static const std::vector<Parameter> list = {
            {.name = std::string(kKind),
             .placeholder = "KIND",
             .label = "Scope",
             .help = "waveform (256 values x column bins), parade (the r, g and b waveforms) or vectorscope "
                     "(256 Cr x 256 Cb, full-range BT.601).",
             .type = Parameter::Type::Choice,
             .choices = {"waveform", "parade", "vectorscope"},
             .defaultText = "waveform"},
            {.name = std::string(kChannel),
             .placeholder = "CHANNEL",
             .label = "Channel",
             .help = "The waveform's channel: luma, r, g or b.",
             .type = Parameter::Type::Choice,
             .choices = {"luma", "r", "g", "b"},
             .defaultText = "luma"},
            {.name = std::string(kColumns),
             .placeholder = "N",
             .label = "Columns",
             .help = "Column bins of a waveform or parade, 1.." + std::to_string(scope::kMaxColumns) +
                     " (column x goes to bin x * N / width); default min(width, 1024).",
             .type = Parameter::Type::Integer,
             .min = 0,
             .max = scope::kMaxColumns,
             .defaultValue = 0,
             .automaticText = "min(width, 1024)"},
            {.name = std::string(options::kRoi.name),
             .placeholder = std::string(options::kRoi.valueName),
             .label = "Region",
             .help = std::string(options::kRoi.help),
             .type = Parameter::Type::Text},
            {.name = std::string(options::kIgnoreTransparent.name),
             .label = "Ignore transparent",
             .help = "Leave pixels of alpha 0 out.",
             .type = Parameter::Type::Flag},
        };
        return list;
    }
    std::vector<const StrategyInfo*> strategies() const override {
        return {scope::strategies().begin(), scope::strategies().end()};
    }
    std::string_view defaultStrategy() const override { return "local-atomic"; }
    std::shared_ptr<const Stage> configure(const Values& values, std::string_view strategy,
                                           const FileReader&) const override {
        requireKnownValues(*this, values);
        scope::Params params;
        if (const auto kind = values.find(kKind); kind != values.end())
            params.kind = scope::parseKind(kind->second, "--kind");
        if (const auto channel = values.find(kChannel); channel != values.end()) {
            if (params.kind != scope::Kind::Waveform)
                throw UsageError("--channel is the waveform's; the " +
                                 std::string(scope::kindName(params.kind)) + " has none");
            params.channel = scope::parseChannel(channel->second, "--channel");
        }
        if (const auto columns = values.find(kColumns); columns != values.end()) {
            if (params.kind == scope::Kind::Vectorscope)
                throw UsageError(
                    "--columns is the waveform's and the parade's; the vectorscope has 256 Cb columns");
            params.columns = parseColumns(columns->second);
        }
        if (const auto roi = values.find(options::kRoi.name); roi != values.end())
            params.roi = parseRegion(roi->second, "--" + std::string(options::kRoi.name));
        params.ignoreTransparent = values.contains(options::kIgnoreTransparent.name);
        return std::make_shared<ScopeStage>(
            values, params, scope::findStrategy(strategy.empty() ? defaultStrategy() : strategy));
    }
};

const ScopeKind& scopeKind() {
    static const ScopeKind kind;
    return kind;
}

const StageKind& ScopeStage::kind() const {
    return scopeKind();
}

[[maybe_unused]] const bool registered = registerKind(scopeKind());

}  // namespace

std::shared_ptr<const Stage> scopeStage(const scope::Params& params, const scope::Strategy& strategy) {
    Values values{{std::string(kKind), std::string(scope::kindName(params.kind))}};
    if (params.kind == scope::Kind::Waveform) values.emplace(kChannel, scope::channelName(params.channel));
    if (params.kind != scope::Kind::Vectorscope && params.columns > 0)
        values.emplace(kColumns, std::to_string(params.columns));
    if (params.roi) values.emplace(options::kRoi.name, params.roi->text());
    if (params.ignoreTransparent) values.emplace(options::kIgnoreTransparent.name, "");
    return std::make_shared<ScopeStage>(std::move(values), params, strategy);
}

const scope::Params* scopeParamsOf(const Stage& stage) {
    const auto* counting = dynamic_cast<const ScopeStage*>(&stage);
    return counting ? &counting->params() : nullptr;
}

}  // namespace hs::stages
