#pragma once
// The heap bytes the process holds and their peak, counted by malloc, calloc, realloc, the aligned allocators
// and free, which heap_peak.cpp replaces for the whole process (Qt's, the driver's and ours alike): linked
// into one test binary only. Sizes are malloc_usable_size's, so they include the allocator's rounding.

#include <cstddef>

namespace hs::test {

std::size_t heapBytes();
std::size_t heapPeakBytes();
// Starts a new peak from what is held now.
void resetHeapPeak();

}  // namespace hs::test
