// Preloaded ahead of Oclgrind's runtime by run_under_oclgrind.sh. Oclgrind 21.10's uninitialised-value check
// does not count clEnqueueFillBuffer as a write: a buffer cleared by a fill and then added to by a kernel is
// reported as an uninitialised value written to global memory (a 4-counter buffer, one fill and one
// atomic_add show it), so every histogram the engine clears would be reported. This clEnqueueFillBuffer
// writes the same bytes through clEnqueueWriteBuffer, which the check counts. Blocking, so that the pattern's
// copy outlives the write. Arguments a fill refuses go to Oclgrind's own fill, so that --check-api still
// judges them.
#include <dlfcn.h>

#include <cstring>
#include <vector>

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

namespace {

template <typename Function>
Function oclgrindDefinition(const char* name) {
    return reinterpret_cast<Function>(dlsym(RTLD_NEXT, name));
}

}  // namespace

extern "C" CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue queue, cl_mem buffer,
                                                               const void* pattern, size_t patternSize,
                                                               size_t offset, size_t size, cl_uint waitCount,
                                                               const cl_event* waitList, cl_event* event) {
    if (pattern == nullptr || patternSize == 0 || offset % patternSize != 0 || size % patternSize != 0) {
        static const auto fill = oclgrindDefinition<decltype(&clEnqueueFillBuffer)>("clEnqueueFillBuffer");
        return fill(queue, buffer, pattern, patternSize, offset, size, waitCount, waitList, event);
    }
    std::vector<unsigned char> bytes(size);
    for (size_t at = 0; at < size; at += patternSize) std::memcpy(bytes.data() + at, pattern, patternSize);
    static const auto write = oclgrindDefinition<decltype(&clEnqueueWriteBuffer)>("clEnqueueWriteBuffer");
    return write(queue, buffer, CL_TRUE, offset, size, bytes.data(), waitCount, waitList, event);
}
