// The one place that configures and includes the OpenCL C++ bindings, so every translation unit agrees; and
// the one helper the engine adds to them.
#pragma once

#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 300
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
// Debian's CLHPP 2023.02.06 does not compile with 120 (see shared/PLATFORM.md).
#define CL_HPP_MINIMUM_OPENCL_VERSION 200
#endif
#ifndef CL_HPP_ENABLE_EXCEPTIONS
#define CL_HPP_ENABLE_EXCEPTIONS
#endif

#if defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif
#include <CL/opencl.hpp>
#if defined(__GNUC__)
#pragma GCC diagnostic pop
#endif

namespace hs {

// Sets consecutive arguments of `kernel` from index `first` on, in the order of its signature; returns the
// index after the last.
template <typename... Args>
cl_uint setKernelArgs(cl::Kernel& kernel, cl_uint first, const Args&... args) {
    (kernel.setArg(first++, args), ...);
    return first;
}

}  // namespace hs
