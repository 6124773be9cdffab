#pragma once
// What the image operations (rotate, convolve) share as stages of a pipeline: a result whose pixels stay on
// the device, and the rule that picks a runnable strategy when the requested one cannot run (the result then
// says which one ran and why).

#include <string>
#include <string_view>
#include <vector>

#include "image/pixel_source.hpp"
#include "ops/strategy.hpp"
#include "runtime/error.hpp"
#include "runtime/timing.hpp"

namespace hs::pipeline {

struct StageResult {
    PixelSource image;  // on the device; image.host(log) reads it back
    std::vector<Timing> timings;
    std::string strategy;  // the strategy that ran
    std::string note;      // why it is not the requested one; empty when it is
};

template <typename Strategy>
struct Choice {
    const Strategy* strategy = nullptr;
    std::string note;  // empty when the requested strategy runs
};

// The requested strategy when `requestedSupport` is ok; otherwise `fallback` (the operation's plain-buffer
// strategy) with a note naming the device and the reason. Throws OpenClError when neither can run.
template <typename Strategy>
Choice<Strategy> chooseRunnable(std::string_view deviceName, const Strategy& requested,
                                const Support& requestedSupport, const Strategy& fallback,
                                const Support& fallbackSupport) {
    if (requestedSupport.ok) return {&requested, {}};
    const std::string why = "device " + std::string(deviceName) + ": strategy " +
                            std::string(requested.name()) + " unsupported: " + requestedSupport.reason;
    if (&requested == &fallback || !fallbackSupport.ok) {
        const std::string fallbackWhy =
            &requested == &fallback
                ? std::string()
                : "; " + std::string(fallback.name()) + " unsupported: " + fallbackSupport.reason;
        throw OpenClError("running " + std::string(requested.name()), 0, why + fallbackWhy);
    }
    return {&fallback, why + "; used " + std::string(fallback.name())};
}

}  // namespace hs::pipeline
