#pragma once
// Stages as registered kinds. A kind (rotate, convolve, equalize, histogram, ...) declares its name, label,
// parameters and strategies once, in its own file under stages/, and registers itself; the command-line
// options, the GUI's panel page, the settings keys and the JSON a run reports are made from that
// declaration. A run's stages are an ordered list of configured stages (`Stage`), each made by its kind
// from the values a user gave, as text:
//
//     const stages::StageKind& kind = stages::findKind("rotate");
//     auto stage = kind.configure({{"angle", "30"}}, "", readFile);   // UsageError on a bad value
//
// A stage runs on a device from the pixels the previous one left there (pipeline::runPipeline), and has a
// CPU reference that tests compare it with.

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/image/image.hpp"
#include "engine/image/pixel_source.hpp"
#include "engine/lab/reference_check.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/operation.hpp"
#include "engine/ops/parameter.hpp"
#include "engine/ops/scope/scope.hpp"
#include "engine/util/json_writer.hpp"

namespace hs {
class DeviceContext;
}

namespace hs::stages {

// The values a user gave, as text, by parameter name; a flag is present ("") or absent.
using Values = std::map<std::string, std::string, std::less<>>;

// Reads a whole file named by a value (a filter file), at most `maxBytes`; throws InputError naming the file
// and `what`. The front end's reader (io/files), so that the engine opens no file of a user's itself.
using FileReader =
    std::function<std::string(const std::string& path, std::uint64_t maxBytes, std::string_view what)>;

// What one stage gives back: what ran (strategy, note, timings, builds) and its output: an image stage's
// pixels on the device, or a measurement stage's counts.
struct StageRun : RunRecord {
    std::optional<PixelSource> image;
    std::optional<histogram::Histogram> histogram;  // the requested bins
    std::optional<histogram::Histogram> values;     // the 256 values
    std::optional<scope::Counts> scope;             // a scope stage's counts
    // An edited built-in strategy's result against the stage's CPU reference (lab/edited_strategy.hpp).
    std::optional<lab::ReferenceCheck> referenceCheck;
};

class StageKind;

// A configured stage: its kind, the values it was made from, and how it runs.
class Stage {
  public:
    virtual ~Stage() = default;
    virtual const StageKind& kind() const = 0;
    // The strategy asked for; null for a kind without strategies.
    virtual const StrategyInfo* requestedStrategy() const = 0;
    // Runs on `device` from `input` (which it only reads). An image stage returns its output image. Without a
    // device (null) only a measurement with a host strategy runs; an image stage throws UsageError.
    virtual StageRun run(DeviceContext* device, PixelSource& input) const = 0;
    // The CPU reference of what run computes: the output image (a measurement stage returns its input).
    virtual ImageRGBA8 reference(const ImageRGBA8& input) const = 0;
    // The stage's own members of its object in a report's "stages" array ("angle_degrees", "filter", ...).
    virtual void writeJson(JsonWriter& json) const = 0;
    // One line for a text report: "30 degrees, linear", "Gaussian σ=2".
    virtual std::string summary() const = 0;
    // What its strategy's stored tunings depend on beside the strategy (tuning::key's variant); empty:
    // nothing.
    virtual std::string tuningVariant() const { return {}; }

    const Values& values() const { return values_; }

  protected:
    explicit Stage(Values values) : values_(std::move(values)) {}

  private:
    Values values_;
};

using StageList = std::vector<std::shared_ptr<const Stage>>;

class StageKind {
  public:
    virtual ~StageKind() = default;
    virtual std::string_view name() const = 0;   // "rotate": option prefix, JSON, settings
    virtual std::string_view label() const = 0;  // "Rotate": the GUI
    virtual std::string_view help() const = 0;   // one sentence: what it does
    // Place in lists (GUI pages, help), ascending.
    virtual int order() const = 0;
    // Whether it outputs an image (rotate, convolve, equalize) or measures one (histogram).
    virtual bool producesImage() const = 0;
    virtual const std::vector<Parameter>& parameters() const = 0;
    // The parameter whose option adds the stage to a command line ("angle" adds a rotation); empty: the
    // kind's own flag (--equalize).
    virtual std::string_view trigger() const { return {}; }
    // Its strategies in presentation order; empty for a kind without a choice of strategy.
    virtual std::vector<const StrategyInfo*> strategies() const { return {}; }
    // The strategy every front end uses when none is named; empty without strategies.
    virtual std::string_view defaultStrategy() const { return {}; }
    // A stage from `values` (unknown names refused) and `strategy` (empty: the default); throws UsageError
    // "<option>: <what>" for a bad value.
    virtual std::shared_ptr<const Stage> configure(const Values& values, std::string_view strategy,
                                                   const FileReader& readFile) const = 0;

    // The parameter called `name`; null when the kind has none.
    const Parameter* parameter(std::string_view name) const;
};

// The device an image stage of `kind` runs on; throws UsageError naming the kind when there is none.
DeviceContext& requireDevice(DeviceContext* device, const StageKind& kind);

// Registers `kind` (an object of static storage); from its own file, during static initialisation.
bool registerKind(const StageKind& kind);
// Every registered kind, by order().
std::vector<const StageKind*> kinds();
// The kind called `name`; throws UsageError "unknown stage 'x' (known: ...)".
const StageKind& findKind(std::string_view name);

// Throws UsageError naming the first of `values` that `kind` does not declare.
void requireKnownValues(const StageKind& kind, const Values& values);
// The value given for `name`, else the parameter's default text (nullopt when it has none).
std::optional<std::string> valueOr(const StageKind& kind, const Values& values, std::string_view name);

// Every stage of `stages` after the first measurement stage must be a measurement too: an image stage
// after a histogram would leave that histogram counting an image the run does not output. Throws
// UsageError naming the two stages.
void validateOrder(const StageList& stages);

}  // namespace hs::stages
