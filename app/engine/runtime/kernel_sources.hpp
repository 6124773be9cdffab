#pragma once

#include <string_view>
#include <vector>

namespace hs {

// An OpenCL C source embedded at build time from kernels/<name>.cl.
struct KernelSource {
    std::string_view name;
    std::string_view text;
};

const std::vector<KernelSource>& kernelSources();

// The text of kernels/<name>.cl; throws OpenClError when there is no such embedded source.
std::string_view kernelSource(std::string_view name);

}  // namespace hs
