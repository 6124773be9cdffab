// A stand-in OpenCL driver for ocl-icd that fails as a buggy driver does, loaded into histoscope-cli's own
// process when the CLI enumerates the platforms. It says what it is about to do on stderr (driver chatter,
// which the CLI captures), then commits the fault that FATAL_TEST_DRIVER_FAULT names:
//   abort (the default)  abort()
//   wild-read            a read at address 16 (SIGSEGV; not null, which UBSan would report before the fault)
//   heap-overflow        a read one byte past a heap block (AddressSanitizer: heap-buffer-overflow)
//   signed-overflow      INT_MAX + 1 (UndefinedBehaviorSanitizer: signed integer overflow)
//   leak                 a heap block dropped, then "no platform" (LeakSanitizer at exit)
// In the sanitizer build this library is instrumented like everything else, so the last three raise genuine
// sanitizer reports inside histoscope-cli: the tests check that those reports reach the user's terminal.
#include <climits>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace {

// Volatile, so that the compiler neither proves the faults at build time nor drops them as unused.
volatile int one = 1;
volatile std::size_t blockSize = 8;
int* volatile wild = reinterpret_cast<int*>(16);
void* volatile dropped = nullptr;
volatile int sink = 0;

void commitFault(std::string_view fault) {
    if (fault == "wild-read") {
        sink = *wild;
    } else if (fault == "heap-overflow") {
        char* block = static_cast<char*>(std::malloc(blockSize));
        sink = block[blockSize];
        std::free(block);
    } else if (fault == "signed-overflow") {
        int value = INT_MAX;
        value += one;
        sink = value;
    } else if (fault == "leak") {
        dropped = std::malloc(4096);
        dropped = nullptr;
    } else {
        std::abort();
    }
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) int clIcdGetPlatformIDsKHR(unsigned, void*, unsigned* count) {
    const char* requested = std::getenv("FATAL_TEST_DRIVER_FAULT");
    const std::string_view fault = requested != nullptr ? requested : "abort";
    std::fprintf(stderr, "fatal-test-driver: internal error (%.*s)\n", static_cast<int>(fault.size()),
                 fault.data());
    std::fflush(stderr);
    commitFault(fault);
    // Where the process survives the fault (a leak; heap-overflow and signed-overflow without sanitizers):
    // no platform.
    if (count != nullptr) *count = 0;
    return -1001;  // CL_PLATFORM_NOT_FOUND_KHR
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
