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
    std::string source;  // name of kernels/<source>.cl; a user kernel's file as the user named it
    std::string options;
    std::string text{};  // a user kernel's source (kernels/ sources are embedded; this is empty for them)

    bool operator==(const KernelBuild&) const = default;
};

// A value a strategy accepts as a `-D` option of its kernel and chooses itself unless told (engine/ops/
// tuning.hpp): what `histoscope-cli sweep` varies. The strategy still keeps its kernel within the device's
// limits (a work-group size above the kernel's maximum is lowered, as its own choice would be).
struct Tunable {
    std::string name;  // the -D name: "WG", "COPIES"
    std::string help;  // one sentence
    int min = 1;
    int max = 1;
    bool powerOfTwo = false;
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
