#pragma once
// What the strategies of every operation (histogram, rotate, convolve) have in common, so the CLI, the GUI
// and the bench present them all alike: whether one can run and why not, the kernel it builds, lookup by
// name.

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/runtime/error.hpp"

namespace hs {

// Whether a strategy can run; `reason` says why not in words a user understands.
struct Support {
    bool ok = true;
    std::string reason;

    static Support yes() { return {}; }
    static Support no(std::string why) { return {false, std::move(why)}; }
};

// The OpenCL source and build options a strategy uses on a device, for display.
struct KernelBuild {
    std::string source;  // name of kernels/<source>.cl
    std::string options;

    bool operator==(const KernelBuild&) const = default;
};

// Whether `a` and `b` are the same name in any case: names are matched like device names.
inline bool sameNameIgnoringCase(std::string_view a, std::string_view b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
        return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
    });
}

// The strategy of `list` called `name`, in any case ("Local-Atomic" finds local-atomic). Throws UsageError
// "unknown <kind> 'name' (known: a, b, c)", where `kind` is how the operation's users call its strategies
// ("strategy", "rotation strategy").
template <typename Strategy>
const Strategy& findByName(const std::vector<const Strategy*>& list, std::string_view name,
                           std::string_view kind) {
    std::string known;
    for (const auto* strategy : list) {
        if (sameNameIgnoringCase(strategy->name(), name)) return *strategy;
        known += (known.empty() ? "" : ", ") + std::string(strategy->name());
    }
    throw UsageError("unknown " + std::string(kind) + " '" + std::string(name) + "' (known: " + known + ")");
}

}  // namespace hs
