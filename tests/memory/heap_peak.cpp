#include "heap_peak.hpp"

#include <malloc.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>

// glibc's own allocator under its exported internal names: the replacements below count, then forward.
extern "C" {
void* __libc_malloc(std::size_t size);
void* __libc_calloc(std::size_t count, std::size_t size);
void* __libc_realloc(void* pointer, std::size_t size);
void* __libc_memalign(std::size_t alignment, std::size_t size);
void* __libc_valloc(std::size_t size);
void* __libc_pvalloc(std::size_t size);
void __libc_free(void* pointer);
}

namespace {

std::atomic<std::size_t> held{0};
std::atomic<std::size_t> peak{0};

void* counted(void* pointer) {
    if (pointer == nullptr) return nullptr;
    const std::size_t now = held.fetch_add(malloc_usable_size(pointer)) + malloc_usable_size(pointer);
    std::size_t seen = peak.load();
    while (now > seen && !peak.compare_exchange_weak(seen, now)) {
    }
    return pointer;
}

void uncount(void* pointer) {
    if (pointer != nullptr) held.fetch_sub(malloc_usable_size(pointer));
}

}  // namespace

extern "C" {

void* malloc(std::size_t size) {
    return counted(__libc_malloc(size));
}

void* calloc(std::size_t count, std::size_t size) {
    return counted(__libc_calloc(count, size));
}

void* realloc(void* pointer, std::size_t size) {
    // Uncounted first: the old block is gone (or moved) once realloc returns. A failed realloc keeps it.
    const std::size_t before = pointer ? malloc_usable_size(pointer) : 0;
    void* moved = __libc_realloc(pointer, size);
    if (moved == nullptr && size != 0) return nullptr;
    held.fetch_sub(before);
    return counted(moved);
}

void free(void* pointer) {
    uncount(pointer);
    __libc_free(pointer);
}

void* memalign(std::size_t alignment, std::size_t size) {
    return counted(__libc_memalign(alignment, size));
}

void* aligned_alloc(std::size_t alignment, std::size_t size) {
    return counted(__libc_memalign(alignment, size));
}

int posix_memalign(void** result, std::size_t alignment, std::size_t size) {
    if (alignment < sizeof(void*) || (alignment & (alignment - 1)) != 0) return EINVAL;
    void* pointer = counted(__libc_memalign(alignment, size));
    if (pointer == nullptr) return ENOMEM;
    *result = pointer;
    return 0;
}

void* valloc(std::size_t size) {
    return counted(__libc_valloc(size));
}

void* pvalloc(std::size_t size) {
    return counted(__libc_pvalloc(size));
}

}  // extern "C"

namespace hs::test {

std::size_t heapBytes() {
    return held.load();
}

std::size_t heapPeakBytes() {
    return peak.load();
}

void resetHeapPeak() {
    peak.store(held.load());
}

}  // namespace hs::test
