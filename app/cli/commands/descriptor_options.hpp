#pragma once
// The option group of the dense descriptors (ops/bow/descriptors.hpp), shared by bow and vocabulary:
// --window and --stride.

#include "cli/commands/option_groups.hpp"
#include "ops/bow/descriptors.hpp"

namespace hs::cli {

inline void addDescriptorOptions(ArgumentParser& parser) {
    const bow::DescriptorParams defaults;
    parser.addOption("window", "W", "Descriptor window side in pixels, a multiple of 20.",
                     QString::number(defaults.window));
    parser.addOption("stride", "S", "Pixels between neighbouring windows.", QString::number(defaults.stride));
}

// The options' values; throws UsageError naming the option when they are out of range.
inline bow::DescriptorParams descriptorParamsFrom(const ArgumentParser& parser) {
    const bow::DescriptorParams params{parser.integer("window", 20, 2000),
                                       parser.integer("stride", 1, 1 << 20)};
    try {
        bow::validate(params);
    } catch (const UsageError& error) {
        throw parser.usageError("--" + QString::fromUtf8(error.what()));  // "window 30 ..." names its option
    }
    return params;
}

}  // namespace hs::cli
