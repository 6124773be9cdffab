#pragma once
// A user kernel's source as the kernel lab reads it (docs/kernel-lab.md): the image kernel's name and the
// `// @param TYPE NAME MIN MAX DEFAULT` lines that add its arguments after `height`, in the order written.

#include <string>
#include <string_view>
#include <vector>

namespace hs::lab {

// One `// @param` line: a kernel argument (cl_int or cl_float) with its range and default.
struct KernelParam {
    enum class Type { Int, Float };
    Type type = Type::Int;
    std::string name;
    double min = 0;
    double max = 0;
    double defaultValue = 0;
    int line = 0;  // 1-based, in the source

    bool operator==(const KernelParam&) const = default;
};

struct KernelSource {
    std::string kernelName;  // the first `kernel void NAME(` of the file
    std::vector<KernelParam> params;
};

// Reads `text`'s kernel name and @param lines. Throws InputError "FILE:LINE: what is wrong" (`file` is how
// the user named the source) for a malformed @param line (a missing or extra field, an unknown type, a name
// that is no identifier or is given twice, a bound or default that is not a number of its type, MIN > MAX, a
// default outside the range), and "FILE: no kernel function" when no kernel is declared.
KernelSource parseKernelSource(std::string_view text, std::string_view file);

// `value` as a value of `param` ("3", "0.5"); throws UsageError naming the parameter when it is not a
// number of its type or lies outside its range.
double parseParamValue(const KernelParam& param, std::string_view value);

}  // namespace hs::lab
