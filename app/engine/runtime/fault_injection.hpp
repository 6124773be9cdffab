#pragma once
// Test-only failure injection: makes the N-th OpenCL call of the process fail with a chosen error, so tests
// can drive every error path of the engine, the CLI and the GUI without a failing driver. Inert unless armed.
//
// Counted calls: those that allocate, build, set arguments or enqueue work (clCreateBuffer, clCreateImage,
// clCreatePipe, clCreateSubBuffer, clCreateSamplerWithProperties, clCreateCommandQueueWithProperties,
// clCreateContext, clCreateProgramWithSource/Binary, clBuildProgram, clCreateKernel, clSetKernelArg and the
// clEnqueue* calls). Queries, retain/release and the waits (clFinish, clWaitForEvents) are not counted: a
// real failing wait still returns after the commands have ended, a faked one would return while they still
// run. A failed call does nothing and reports `code` as the driver would (the return value or *errcode_ret).
//
// Armed either by the environment, read at the first counted call,
//   HISTOSCOPE_FAIL_CL_CALL=N:CODE     (CODE a name such as CL_OUT_OF_RESOURCES, or a number)
// (a malformed value throws UsageError from that call) or by failClCall() in a test.

#include <cstdint>

namespace hs::faults {

// The `n`-th counted call from now on (1 = the next one) fails with `code`; n = 0 disarms. Resets the count.
void failClCall(std::uint64_t n, int code);
// Counted calls since the last failClCall() (or the process start).
std::uint64_t clCallsCounted();
// References held to OpenCL memory objects the process created (creations + retains - releases): a run that
// frees all it allocated, error or not, leaves it where it found it.
std::int64_t liveMemObjectReferences();

}  // namespace hs::faults
