// Issue 25 experiment (bench/experiments/scope_probe.sh): the scope kernels' walk down their columns with
// nothing counted, to split a kernel's time into its reads and its counting. Built with the same -D options
// as the product kernel it mirrors (SCOPE, WG, WIDE=4, UNROLL), which kernels/scope.cl (included) turns into
// its walk macros; without STRIP or WINDOW that file defines no kernel of its own.
#include "scope.cl"

#if WIDE != 4
#error "the probes walk quads: build with -D WIDE=4"
#endif

// The xor of everything read, stored only where it equals a value it almost never takes, so the compiler
// can drop neither a load nor the store.
#define SINK(acc) \
    if ((acc) == 0x9e3779b9u) sink[get_global_id(0) + get_global_id(1) * get_global_size(0)] = (acc)
#define XOR_ITEM \
    { acc ^= item.s0 ^ item.s1 ^ item.s2 ^ item.s3; }

// scope_window's geometry: work-items over the region's quads, each down the band of rowsPerBand rows.
__kernel void probe_walk_window(__global const uint* pixels, uint pitch, uint rx, uint ry, uint rw, uint rh,
                                __global uint* sink, uint rowsPerBand) {
    const uint y0 = get_group_id(1) * rowsPerBand;
    const uint y1 = min(rh, y0 + rowsPerBand);
    uint acc = 0;
    for (uint q = QUAD_OF(rx) + get_global_id(0); q < QUAD_END(rx, rw); q += get_global_size(0))
        WALK_COLUMN(FIRST_QUAD(q), y0, y1, 1u, XOR_ITEM)
    SINK(acc);
}

// scope_strips' geometry: a group per strip of stripQuads quads and band of rows, WG / stripQuads rows at
// once.
__kernel void probe_walk_strips(__global const uint* pixels, uint pitch, uint rx, uint ry, uint rw, uint rh,
                                __global uint* sink, uint rowsPerBand, uint stripQuads) {
    const uint lid = get_local_id(0);
    const uint y0 = get_group_id(1) * rowsPerBand;
    const uint y1 = min(rh, y0 + rowsPerBand);
    const uint q0 = QUAD_OF(rx) + get_group_id(0) * stripQuads;
    const uint block = min(q0 + stripQuads, QUAD_END(rx, rw)) - q0;
    const uint rowsAtOnce = WG / block;
    const uint r = lid / block;
    uint acc = 0;
    if (r < rowsAtOnce) WALK_COLUMN(FIRST_QUAD(q0 + lid % block), y0 + r, y1, rowsAtOnce, XOR_ITEM)
    SINK(acc);
}
