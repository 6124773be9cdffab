// A stand-in OpenCL driver for ocl-icd that dies as a buggy driver does: a message on stderr, then abort().
// The CLI keeps drivers quiet, but this message must still reach the user.
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" {

__attribute__((visibility("default"))) int clIcdGetPlatformIDsKHR(unsigned, void*, unsigned*) {
    std::fputs("fatal-test-driver: internal error, aborting\n", stderr);
    std::abort();
}

// ocl-icd loads only a library that has this symbol; it is never reached here.
__attribute__((visibility("default"))) int clGetPlatformInfo(void*, unsigned, std::size_t, void*,
                                                             std::size_t*) {
    return -30;  // CL_INVALID_VALUE
}

// ocl-icd finds the entry points through this one.
__attribute__((visibility("default"))) void* clGetExtensionFunctionAddress(const char* name) {
    if (std::strcmp(name, "clIcdGetPlatformIDsKHR") == 0)
        return reinterpret_cast<void*>(&clIcdGetPlatformIDsKHR);
    if (std::strcmp(name, "clGetPlatformInfo") == 0) return reinterpret_cast<void*>(&clGetPlatformInfo);
    return nullptr;
}
}
