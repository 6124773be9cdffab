// Scope kernels (engine/ops/scope/scope.hpp has the definitions), one source for every device strategy,
// specialised at build time with -D options:
//   SCOPE=0|1|2          waveform, parade, vectorscope
//   CHANNEL=0|1|2|3      the waveform's channel: r, g, b, luma
//   IGNORE_TRANSPARENT   when defined, a pixel of alpha 0 counts nowhere
//   WG=<n>               scope_strips, scope_window: the work-group size they are enqueued with
//   STRIP=<n>            scope_strips: column bins per work-group (its local table is PLANES x 256 x STRIP)
//   WINDOW=<n>           scope_window: the side of the local Cb/Cr window around (128, 128), a power of two
//
// Every kernel reads the counted rectangle (rx, ry, rw, rh) of an image `pitch` pixels wide in place, one
// uint per RGBA pixel (memory byte order: as_uchar4 keeps it on either endianness), and adds to `counts`
// (planes x 256 x columns, cleared by the host): waveform and parade [plane][value][column bin], vectorscope
// [Cr][Cb].

#ifndef SCOPE
#error "build with -D SCOPE=0|1|2"
#endif

#if SCOPE == 1
#define PLANES 3
#else
#define PLANES 1
#endif

#ifdef IGNORE_TRANSPARENT
#define COUNTS(px) ((px).w != 0)
#else
#define COUNTS(px) 1
#endif

inline uint luma_of(uint r, uint g, uint b) {
    return (299u * r + 587u * g + 114u * b + 500u) / 1000u;
}

// The value a waveform plane counts: the parade's planes are r, g, b; a waveform's is CHANNEL.
inline uint plane_value(uchar4 px, uint plane) {
#if SCOPE == 1
    return plane == 0 ? px.x : plane == 1 ? px.y : px.z;
#elif CHANNEL == 0
    return px.x;
#elif CHANNEL == 1
    return px.y;
#elif CHANNEL == 2
    return px.z;
#else
    return luma_of(px.x, px.y, px.z);
#endif
}

// Cr * 256 + Cb, full-range BT.601 as in JPEG; both shifts see a value within 65535..16777215, never negative.
inline uint chroma_key(uchar4 px) {
    const int r = px.x, g = px.y, b = px.z;
    const int cb = (-11059 * r - 21709 * g + 32768 * b + 8421375) >> 16;
    const int cr = (32768 * r - 27439 * g - 5329 * b + 8421375) >> 16;
    return (uint)(cr * 256 + cb);
}

inline uchar4 pixel_at(__global const uint* pixels, uint pitch, uint x, uint y) {
    return as_uchar4(pixels[(size_t)y * pitch + x]);
}

// The column bin of column x of a rectangle rw wide: x * columns / rw, in 64 bits.
inline uint column_bin(uint x, uint columns, uint rw) {
    return (uint)(((ulong)x * columns) / rw);
}

// global-atomic: one work-item per pixel of the rectangle (a 2-D range rounded up), atomic_inc on `counts`.
__kernel void scope_global_atomic(__global const uint* pixels, uint pitch, uint rx, uint ry, uint rw, uint rh,
                                  uint columns, __global uint* counts) {
    const uint x = get_global_id(0), y = get_global_id(1);
    if (x >= rw || y >= rh) return;
    const uchar4 px = pixel_at(pixels, pitch, rx + x, ry + y);
    if (!COUNTS(px)) return;
#if SCOPE == 2
    atomic_inc(&counts[chroma_key(px)]);
#else
    const uint bin = column_bin(x, columns, rw);
    for (uint plane = 0; plane < PLANES; ++plane)
        atomic_inc(&counts[(plane * 256u + plane_value(px, plane)) * columns + bin]);
#endif
}

// Adds a run of `n` equal keys to a counter (none when n is 0). A work-item walks down a column, where
// neighbours are often equal (flat regions, a one-colour frame): a run costs one atomic instead of n, which
// keeps equal values from queueing on one counter.
#define FLUSH_RUN(ADD, key, n) \
    do {                       \
        if ((n) != 0) ADD((key), (n)); \
    } while (0)

// The local-atomic kernels exist in the builds that size them (global-atomic's has neither STRIP nor WINDOW).
#if SCOPE != 2 && defined(STRIP)

// local-atomic for the waveform and the parade: a work-group per strip of STRIP column bins and band of
// rowsPerBand rows (group ids (strip, band)). It counts its pixels into a local table of PLANES x 256 x STRIP,
// then adds the non-zero counters to `counts` (a band's strip meets every other band's only there).
__kernel void scope_strips(__global const uint* pixels, uint pitch, uint rx, uint ry, uint rw, uint rh,
                           uint columns, __global uint* counts, uint rowsPerBand) {
    __local uint table[PLANES * 256 * STRIP];
    const uint lid = get_local_id(0);
    for (uint i = lid; i < PLANES * 256 * STRIP; i += WG) table[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    const uint b0 = get_group_id(0) * STRIP;
    const uint b1 = min(b0 + STRIP, columns);
    // The columns whose bin lies in [b0, b1): x * columns >= b * rw from x = ceil(b * rw / columns).
    const uint x0 = (uint)(((ulong)b0 * rw + columns - 1) / columns);
    const uint x1 = min(rw, (uint)(((ulong)b1 * rw + columns - 1) / columns));
    const uint y0 = get_group_id(1) * rowsPerBand;
    const uint y1 = min(rh, y0 + rowsPerBand);
#define ADD_LOCAL(key, n) atomic_add(&table[(key)*STRIP + s], (n))
    // Blocks of up to WG adjacent columns (adjacent work-items read adjacent pixels); a block narrower than
    // the group takes several rows at once.
    for (uint c0 = x0; c0 < x1; c0 += WG) {
        const uint block = min((uint)WG, x1 - c0);
        const uint rowsAtOnce = WG / block;
        const uint r = lid / block;
        if (r >= rowsAtOnce) continue;
        const uint x = c0 + lid % block;
        const uint s = column_bin(x, columns, rw) - b0;
        uint last[PLANES], run[PLANES];
        for (uint p = 0; p < PLANES; ++p) last[p] = 0, run[p] = 0;
        for (uint y = y0 + r; y < y1; y += rowsAtOnce) {
            const uchar4 px = pixel_at(pixels, pitch, rx + x, ry + y);
            if (!COUNTS(px)) continue;
            for (uint p = 0; p < PLANES; ++p) {
                const uint key = p * 256u + plane_value(px, p);
                if (key == last[p]) {
                    ++run[p];
                } else {
                    FLUSH_RUN(ADD_LOCAL, last[p], run[p]);
                    last[p] = key;
                    run[p] = 1;
                }
            }
        }
        for (uint p = 0; p < PLANES; ++p) FLUSH_RUN(ADD_LOCAL, last[p], run[p]);
    }
#undef ADD_LOCAL
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < PLANES * 256 * STRIP; i += WG) {
        const uint n = table[i];
        const uint bin = b0 + i % STRIP;
        if (n != 0 && bin < columns) atomic_add(&counts[(i / STRIP) * columns + bin], n);
    }
}

#elif SCOPE == 2 && defined(WINDOW)

#define WINDOW_LOW (128 - WINDOW / 2)

// local-atomic for the vectorscope: the 256 x 256 counters do not fit local memory, but the chroma of most
// pixels lies near the grey point, so each work-group keeps a private WINDOW x WINDOW copy of the counters
// around (128, 128) in local memory and adds what falls outside straight to `counts`. A work-item walks down
// columns of a band of rowsPerBand rows (group ids (column block, band)); the window's non-zero counters go
// to `counts` at the end.
__kernel void scope_window(__global const uint* pixels, uint pitch, uint rx, uint ry, uint rw, uint rh,
                           uint columns, __global uint* counts, uint rowsPerBand) {
    __local uint window[WINDOW * WINDOW];
    const uint lid = get_local_id(0);
    for (uint i = lid; i < WINDOW * WINDOW; i += WG) window[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    const uint y0 = get_group_id(1) * rowsPerBand;
    const uint y1 = min(rh, y0 + rowsPerBand);
#define ADD_CHROMA(key, n)                                                             \
    do {                                                                               \
        const uint wr_ = ((key) >> 8) - WINDOW_LOW, wb_ = ((key)&255u) - WINDOW_LOW; \
        if (wr_ < WINDOW && wb_ < WINDOW)                                              \
            atomic_add(&window[wr_ * WINDOW + wb_], (n));                              \
        else                                                                           \
            atomic_add(&counts[(key)], (n));                                           \
    } while (0)
    for (uint x = get_global_id(0); x < rw; x += get_global_size(0)) {
        uint last = 0, run = 0;
        for (uint y = y0; y < y1; ++y) {
            const uchar4 px = pixel_at(pixels, pitch, rx + x, ry + y);
            if (!COUNTS(px)) continue;
            const uint key = chroma_key(px);
            if (key == last) {
                ++run;
            } else {
                FLUSH_RUN(ADD_CHROMA, last, run);
                last = key;
                run = 1;
            }
        }
        FLUSH_RUN(ADD_CHROMA, last, run);
    }
#undef ADD_CHROMA
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = lid; i < WINDOW * WINDOW; i += WG) {
        const uint n = window[i];
        if (n != 0) atomic_add(&counts[(WINDOW_LOW + i / WINDOW) * 256u + WINDOW_LOW + i % WINDOW], n);
    }
}

#endif
