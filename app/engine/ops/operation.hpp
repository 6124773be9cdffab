#pragma once
// The one contract every operation's strategies keep (histogram, rotate, convolve, and whatever comes next),
// so the CLI, the GUI, the bench and the tests present, choose and run them all alike; and the one registry
// style they are found in. An operation is a small traits struct:
//
//     struct Operation {
//         static constexpr OperationKind kKind = OperationKind::Histogram;
//         static constexpr std::string_view kStrategyNoun = "strategy";  // "unknown strategy x"
//         static constexpr std::string_view kFallback = "";  // runs where another cannot; "": none
//         using Params = ...;  using Input = PixelSource;
//         using Result = ...;  // derives RunRecord
//         using Shape = ...;   // optional, what support depends on; ImageShape when left out
//     };
//
// Each strategy is one object of a Strategy<Operation> subclass that registers itself from its own .cpp:
//
//     const MyStrategy strategy;
//     const Registration<Operation> registration(strategy, 45);  // 45: its place in list()

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/ops/strategy.hpp"
#include "engine/runtime/device_info.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"
#include "engine/runtime/timing.hpp"

namespace hs {

enum class OperationKind { Rotate, Convolve, Histogram, Bow, Scope };

// "rotate", "convolve", "histogram", "bow", "scope": the names the JSON, the timings and the views use.
std::string_view operationName(OperationKind kind);

// The size of the image a strategy is asked about.
struct ImageShape {
    int width = 0;
    int height = 0;
};

// The size of the input an operation's strategies are asked about (support, kernel build): Op::Shape where
// the operation declares one (visual words: descriptors x centroids), else ImageShape (the image operations).
template <class Op>
struct ShapeOf {
    using type = ImageShape;
};
template <class Op>
requires requires {
    typename Op::Shape;
}
struct ShapeOf<Op> {
    using type = typename Op::Shape;
};

// What every strategy says about itself, whatever its operation: what a report or a view shows.
class StrategyInfo {
  public:
    virtual ~StrategyInfo() = default;
    virtual OperationKind operation() const = 0;
    virtual std::string_view name() const = 0;
    virtual std::string_view description() const = 0;
    // False for strategies that compute on the host (they take a null DeviceContext).
    virtual bool runsOnDevice() const = 0;
    // The -D values it lets a sweep choose (ops/tuning.hpp); none by default.
    virtual std::vector<Tunable> tunables() const { return {}; }
};

// What a run says beside its output. Every operation's Result derives from it.
struct RunRecord {
    const StrategyInfo* strategy = nullptr;  // the strategy that ran (a fallback, or auto's choice)
    std::string note;                        // why it is not the requested one; empty when it is
    std::vector<Timing> timings;             // every command, in order
    std::vector<KernelBuild> builds;         // the programs it built (none on the host)

    // The name of the strategy that ran; empty when none did (a transfer).
    std::string strategyName() const { return strategy ? std::string(strategy->name()) : std::string(); }
};

template <class Op>
class Strategy : public StrategyInfo {
  public:
    using Params = typename Op::Params;
    using Input = typename Op::Input;
    using Result = typename Op::Result;
    using Shape = typename ShapeOf<Op>::type;

    OperationKind operation() const final { return Op::kKind; }
    // Whether it can run on `device` (null: no device; device strategies then say no, see supportOn) for
    // an input of `shape` with `params`; the reason is in words a user understands.
    virtual Support supported(const DeviceInfo* device, Shape shape, const Params& params) const = 0;
    // The program a device strategy builds for these; none for host strategies.
    virtual std::optional<KernelBuild> kernelBuild(const DeviceInfo& device, const Params& params,
                                                   Shape shape) const {
        (void)device, (void)params, (void)shape;
        return std::nullopt;
    }
    // `device` is non-null for device strategies. Preconditions (validated params, support) are checked by
    // the operation's entry point, which is what callers use.
    virtual Result run(DeviceContext* device, Input& input, const Params& params) const = 0;
};

// Every registered strategy of an operation, in presentation order.
template <class Op>
class Registry {
  public:
    static const std::vector<const Strategy<Op>*>& list() { return state().list; }

    // The strategy called `name`, in any case ("Local-Atomic" finds local-atomic). Throws UsageError
    // "unknown <noun> 'name' (known: a, b, c)".
    static const Strategy<Op>& find(std::string_view name) {
        return findByName(list(), name, Op::kStrategyNoun);
    }

    // The strategy that runs where the requested one cannot; null for operations without one.
    static const Strategy<Op>* fallback() {
        if (Op::kFallback.empty()) return nullptr;
        return &find(Op::kFallback);
    }

    // Called by Registration, during static initialisation.
    static void add(const Strategy<Op>& strategy, int order) {
        auto& s = state();
        const auto at = std::upper_bound(s.orders.begin(), s.orders.end(), order);
        const auto index = at - s.orders.begin();
        s.orders.insert(at, order);
        s.list.insert(s.list.begin() + index, &strategy);
    }

  private:
    struct State {
        std::vector<int> orders;
        std::vector<const Strategy<Op>*> list;
    };
    static State& state() {
        static State s;
        return s;
    }
};

// Registers `strategy` (an object of static storage) at `order` among its operation's strategies.
template <class Op>
struct Registration {
    Registration(const Strategy<Op>& strategy, int order) { Registry<Op>::add(strategy, order); }
};

// Whether `strategy` can run on `device` (null: none); a device strategy without a device cannot.
template <class Op>
Support supportOn(const DeviceInfo* device, typename ShapeOf<Op>::type shape,
                  const typename Op::Params& params, const Strategy<Op>& strategy) {
    if (strategy.runsOnDevice() && device == nullptr) return Support::no("needs an OpenCL device");
    return strategy.supported(device, shape, params);
}

// A strategy of any operation and whether it runs where it was asked about: a row of a strategy list.
struct StrategySupport {
    const StrategyInfo* strategy = nullptr;
    Support support;
};

// Every registered strategy of the operation, in order, with supportOn(device, shape, params): what
// `histoscope-cli strategies` lists.
template <class Op>
std::vector<StrategySupport> supportList(const DeviceInfo* device, typename ShapeOf<Op>::type shape,
                                         const typename Op::Params& params) {
    std::vector<StrategySupport> rows;
    for (const Strategy<Op>* strategy : Registry<Op>::list())
        rows.push_back({strategy, supportOn<Op>(device, shape, params, *strategy)});
    return rows;
}

template <class Op>
struct Choice {
    const Strategy<Op>* strategy = nullptr;
    std::string note;  // empty when the requested strategy runs
};

// The requested strategy when it can run; otherwise the operation's fallback with a note naming the device
// and the reason. Throws OpenClError when neither can run (or the operation has no fallback).
template <class Op>
Choice<Op> chooseRunnable(const DeviceInfo* device, typename ShapeOf<Op>::type shape,
                          const typename Op::Params& params, const Strategy<Op>& requested) {
    const std::string name(requested.name());
    if (requested.runsOnDevice() && device == nullptr)
        throw OpenClError("running " + name, 0, "strategy " + name + " needs an OpenCL device");
    const Support support = requested.supported(device, shape, params);
    if (support.ok) return {&requested, {}};
    const std::string where = device ? "device " + device->name + ": " : std::string();
    const std::string why = where + "strategy " + name + " unsupported: " + support.reason;
    const Strategy<Op>* fallback = Registry<Op>::fallback();
    if (fallback == nullptr || fallback == &requested) throw OpenClError("running " + name, 0, why);
    const Support fallbackSupport = supportOn(device, shape, params, *fallback);
    if (!fallbackSupport.ok)
        throw OpenClError(
            "running " + name, 0,
            why + "; " + std::string(fallback->name()) + " unsupported: " + fallbackSupport.reason);
    return {fallback, why + "; used " + std::string(fallback->name())};
}

// Chooses (chooseRunnable) and runs; the result's note says why another strategy ran, then what the strategy
// itself noted (a run in bands). The operation's entry point validates its params first.
template <class Op>
typename Op::Result runChosen(DeviceContext* device, typename Op::Input& input,
                              typename ShapeOf<Op>::type shape, const typename Op::Params& params,
                              const Strategy<Op>& requested) {
    auto choice = chooseRunnable<Op>(device ? &device->info() : nullptr, shape, params, requested);
    auto result = choice.strategy->run(device, input, params);
    // The strategy's own note (a run in tiles) follows the choice's.
    if (!choice.note.empty()) result.note = choice.note + (result.note.empty() ? "" : "; " + result.note);
    return result;
}

}  // namespace hs
