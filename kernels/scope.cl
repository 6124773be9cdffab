// Scope kernels (engine/ops/scope/scope.hpp has the definitions), one source for every device strategy,
// specialised at build time with -D options:
//   SCOPE=0|1|2          waveform, parade, vectorscope
//   CHANNEL=0|1|2|4      the waveform's channel: r, g, b, luma (histogram::Channel's numbers)
//   IGNORE_TRANSPARENT   when defined, a pixel of alpha 0 counts nowhere
//   WG=<n>               scope_strips, scope_window: the work-group size they are enqueued with
//   STRIP=<n>            scope_strips: its local table's column bins (PLANES x 256 x STRIP)
//   WINDOW=<n>           scope_window: the side of the local Cb/Cr window around (128, 128), a power of two
//   COUNTER_BITS=16|32   scope_window: the window's counters (16: two to a uint; the host keeps a group's
//                        pixels below 65536)
//   OUTSIDE_SLOTS=<n>    scope_window: local slots for chroma outside the window, a power of two, or 0
//   UNROLL=<n>           scope_strips, scope_window: rows a work-item loads before it counts them (1, 2, 4,
//                        8 or 16; with WIDE=4 1, 2 or 4)
//   WIDE=1|4             scope_strips, scope_window: pixels a work-item loads from a row at once (4: one
//                        16-byte uint4 of 4 adjacent pixels; the image's pitch must be a multiple of 4);
//                        with WIDE=4 scope_strips takes one more argument, stripQuads
//   RUNS=0|1             scope_strips, scope_window: 1 counts a run of equal values down a column with one
//                        atomic, 0 every pixel with its own
//
// A program holds only the kernel its options select (scope_global_atomic without WG, scope_strips with STRIP,
// scope_window with WINDOW): PoCL compiles every kernel of a program once more when its binary is read for
// the program cache, which doubled the cost of a first build.
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

#ifndef WG
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
#endif

// RUNS=1: adds a run of `n` equal keys to a counter (none when n is 0). A work-item walks down a column, where
// neighbours are often equal (flat regions, a one-colour frame): a run costs one atomic instead of n, which
// keeps equal values from queueing on one counter. RUNS=0: every pixel its own atomic, no compare and no
// divergent flush; where a warp's work-items count different counters (the waveform's columns) and few pixels
// equal the one above (a natural frame), that is the faster (bench/README.md, "Where the scope kernels' time
// goes").
#ifndef RUNS
#define RUNS 1
#endif
#if RUNS
#define FLUSH_RUN(ADD, key, n)         \
    do {                               \
        if ((n) != 0) ADD((key), (n)); \
    } while (0)
// Counts `key` into the run of `last` (`run` of them), the run flushed first when `key` starts a new one.
#define COUNT_RUN(ADD, key, last, run)     \
    do {                                   \
        if ((key) == (last)) {             \
            ++(run);                       \
        } else {                           \
            FLUSH_RUN(ADD, (last), (run)); \
            (last) = (key);                \
            (run) = 1;                     \
        }                                  \
    } while (0)
#else
#define FLUSH_RUN(ADD, key, n) \
    do {                       \
    } while (0)
#define COUNT_RUN(ADD, key, last, run) ADD((key), 1u)
#endif

#ifndef UNROLL
#define UNROLL 1
#endif
#ifndef WIDE
#define WIDE 1
#endif

// A batch of UNROLL rows' loads lives in a vector (no array a compiler could put in memory): loaded component
// by component, then counted from its first ITEM while the batch rotates down one ITEM a row. An ITEM is what
// a work-item loads from one row: a pixel (WIDE=1) or 4 adjacent pixels, 16 bytes (WIDE=4, UNROLL up to 4).
#if WIDE == 1
#define ITEM uint
#if UNROLL == 1
#define BATCH uint
#define BATCH_FIRST(b) (b)
#define BATCH_NEXT(b) (b)
#define BATCH_LOADS(LOAD) LOAD(, 0)
#elif UNROLL == 2
#define BATCH uint2
#define BATCH_NEXT(b) (b).s10
#define BATCH_LOADS(LOAD) LOAD(.s0, 0) LOAD(.s1, 1)
#elif UNROLL == 4
#define BATCH uint4
#define BATCH_NEXT(b) (b).s1230
#define BATCH_LOADS(LOAD) LOAD(.s0, 0) LOAD(.s1, 1) LOAD(.s2, 2) LOAD(.s3, 3)
#elif UNROLL == 8
#define BATCH uint8
#define BATCH_NEXT(b) (b).s12345670
#define BATCH_LOADS(LOAD) \
    LOAD(.s0, 0) LOAD(.s1, 1) LOAD(.s2, 2) LOAD(.s3, 3) LOAD(.s4, 4) LOAD(.s5, 5) LOAD(.s6, 6) LOAD(.s7, 7)
#elif UNROLL == 16
#define BATCH uint16
#define BATCH_NEXT(b) (b).s123456789abcdef0
#define BATCH_LOADS(LOAD)                                                                                 \
    LOAD(.s0, 0) LOAD(.s1, 1) LOAD(.s2, 2) LOAD(.s3, 3) LOAD(.s4, 4) LOAD(.s5, 5) LOAD(.s6, 6) LOAD(.s7, 7) \
    LOAD(.s8, 8) LOAD(.s9, 9) LOAD(.sa, 10) LOAD(.sb, 11) LOAD(.sc, 12) LOAD(.sd, 13) LOAD(.se, 14) LOAD(.sf, 15)
#else
#error "UNROLL is 1, 2, 4, 8 or 16"
#endif
#ifndef BATCH_FIRST
#define BATCH_FIRST(b) (b).s0
#endif
#elif WIDE == 4
#define ITEM uint4
#if UNROLL == 1
#define BATCH uint4
#define BATCH_FIRST(b) (b)
#define BATCH_NEXT(b) (b)
#define BATCH_LOADS(LOAD) LOAD(, 0)
#elif UNROLL == 2
#define BATCH uint8
#define BATCH_NEXT(b) (b).s45670123
#define BATCH_LOADS(LOAD) LOAD(.s0123, 0) LOAD(.s4567, 1)
#elif UNROLL == 4
#define BATCH uint16
#define BATCH_NEXT(b) (b).s456789abcdef0123
#define BATCH_LOADS(LOAD) LOAD(.s0123, 0) LOAD(.s4567, 1) LOAD(.s89ab, 2) LOAD(.scdef, 3)
#else
#error "with WIDE=4, UNROLL is 1, 2 or 4"
#endif
#ifndef BATCH_FIRST
#define BATCH_FIRST(b) (b).s0123
#endif
#else
#error "WIDE is 1 or 4"
#endif

// Walks rows y0, y0 + step, ... below y1 (of the rectangle) down a column of ITEMs, `first` the rectangle's
// first row's, UNROLL rows at a time: their loads are issued together before any is counted, so a work-item
// has UNROLL reads in flight (a GPU hides the memory's latency with them where a one-load loop would wait for
// each). BODY sees `item`, the ITEM of the row counted.
#define LOAD_ROW_(component, u)                                               \
    {                                                                         \
        const uint y_ = yb_ + (u)*step_;                                      \
        batch_ component = y_ < y1_ ? row_[(size_t)y_ * stride_] : (ITEM)(0); \
    }
#define WALK_COLUMN(first, y0, y1, step, BODY)                               \
    {                                                                        \
        __global const ITEM* row_ = (first);                                 \
        const uint stride_ = pitch / WIDE;                                   \
        const uint y1_ = (y1), step_ = (step);                               \
        for (uint yb_ = (y0); yb_ < y1_; yb_ += step_ * UNROLL) {            \
            BATCH batch_;                                                    \
            BATCH_LOADS(LOAD_ROW_)                                           \
            for (uint u_ = 0; u_ < UNROLL && yb_ + u_ * step_ < y1_; ++u_) { \
                const ITEM item = BATCH_FIRST(batch_);                       \
                BODY                                                         \
                batch_ = BATCH_NEXT(batch_);                                 \
            }                                                                \
        }                                                                    \
    }

// LANE(component, lane) for each component of a uint4: a quad's 4 pixels, a local table's 4 words.
#define EACH_LANE(LANE) LANE(s0, 0u) LANE(s1, 1u) LANE(s2, 2u) LANE(s3, 3u)

#if WIDE == 4
// A work-item's ITEMs are quads: quad q holds pixels 4q .. 4q + 3 (its lanes 0..3) of a row, 16-byte aligned
// as the host builds WIDE=4 only for a pitch that is a multiple of 4. The quads a rectangle touches, from
// QUAD_OF(rx) below QUAD_END(rx, rw), may hold pixels left or right of it: a lane counts only when its pixel
// lies within [rx, rx + rw) (`inside`, set once per work-item).
#define QUAD_OF(x) ((x) / 4u)
#define QUAD_END(rx, rw) (((rx) + (rw) + 3u) / 4u)
// Quad q of the rectangle's first row.
#define FIRST_QUAD(q) ((__global const uint4*)(pixels + (size_t)ry * pitch) + (q))
#define LANE_INSIDE_(c, lane) inside.c = q * 4u + (lane) >= rx && q * 4u + (lane) < rx + rw;
#endif

// The local tables (scope_strips', scope_window's) are read back 16 bytes at a time, a uint4 of 4 words:
// their flush tests four words at once, most of them zero. So that a work-group's global atomics still go to
// adjacent counters (which the memory merges) the words are laid out in four quarters: counter c of a
// table of 4 Q words lies in component c / Q of uint4 c % Q, and work-item j's uint4 holds counters j,
// Q + j, 2Q + j and 3Q + j.

// The local-atomic kernels exist in the builds that size them (global-atomic's has neither STRIP nor WINDOW).
#if SCOPE != 2 && defined(STRIP)

// local-atomic for the waveform and the parade: a work-group per strip of columns and band of rowsPerBand
// rows (group ids (strip, band)). It counts its pixels into a local table of PLANES x 256 x STRIP column bins
// from the strip's first bin b0, then adds the non-zero counters to `counts` (a band's strip meets every
// other band's only there). WIDE=1: a strip is STRIP column bins. WIDE=4: a strip is stripQuads quads of the
// rectangle's aligned span, whose pixels' bins the host keeps within STRIP of the first; a bin at a strip's
// edge may be shared with the neighbour strip, both adding to it.
// Counter key * STRIP + s of the table's PLANES * 256 * STRIP, in quarters of Q = PLANES * 64 * STRIP words:
// quarter key / (PLANES * 64), word (key % (PLANES * 64)) * STRIP + s of it.
#define QUARTER_KEYS (PLANES * 64u)
#define ADD_LOCAL(key, n) \
    atomic_add(&table[4u * (((key) % QUARTER_KEYS) * STRIP + s) + (key) / QUARTER_KEYS], (n))
#if WIDE == 4
// Counts lane `c` of `item` (its table column `bins.c`) into the lane's runs.
#define COUNT_LANE_(c, lane)                                                              \
    if (inside.c) {                                                                       \
        const uchar4 px = as_uchar4(item.c);                                              \
        const uint s = bins.c;                                                            \
        if (COUNTS(px))                                                                   \
            for (uint p = 0; p < PLANES; ++p)                                             \
                COUNT_RUN(ADD_LOCAL, p * 256u + plane_value(px, p), last[p].c, run[p].c); \
    }
#define FLUSH_LANE_(c, lane)                                                         \
    {                                                                                \
        const uint s = bins.c;                                                       \
        for (uint p = 0; p < PLANES; ++p) FLUSH_RUN(ADD_LOCAL, last[p].c, run[p].c); \
    }
#define LANE_BIN_(c, lane) bins.c = inside.c ? column_bin(q * 4u + (lane)-rx, columns, rw) - b0 : 0u;
#endif
__kernel void scope_strips(__global const uint* pixels, uint pitch, uint rx, uint ry, uint rw, uint rh,
                           uint columns, __global uint* counts, uint rowsPerBand
#if WIDE == 4
                           ,
                           uint stripQuads
#endif
) {
    __local uint4 table4[PLANES * 64 * STRIP];
    __local uint* const table = (__local uint*)table4;
    const uint lid = get_local_id(0);
    for (uint i = lid; i < PLANES * 64 * STRIP; i += WG) table4[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    const uint y0 = get_group_id(1) * rowsPerBand;
    const uint y1 = min(rh, y0 + rowsPerBand);
#if WIDE == 1
    const uint b0 = get_group_id(0) * STRIP;
    const uint b1 = min(b0 + STRIP, columns);
    // The columns whose bin lies in [b0, b1): x * columns >= b * rw from x = ceil(b * rw / columns).
    const uint x0 = (uint)(((ulong)b0 * rw + columns - 1) / columns);
    const uint x1 = min(rw, (uint)(((ulong)b1 * rw + columns - 1) / columns));
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
        WALK_COLUMN(pixels + (size_t)ry * pitch + rx + x, y0 + r, y1, rowsAtOnce, {
            const uchar4 px = as_uchar4(item);
            if (COUNTS(px))
                for (uint p = 0; p < PLANES; ++p)
                    COUNT_RUN(ADD_LOCAL, p * 256u + plane_value(px, p), last[p], run[p]);
        })
        for (uint p = 0; p < PLANES; ++p) FLUSH_RUN(ADD_LOCAL, last[p], run[p]);
    }
#else
    // The strip's quads (at most WG: the host's stripQuads) side by side, WG / quads rows at once.
    const uint q0 = QUAD_OF(rx) + get_group_id(0) * stripQuads;
    const uint block = min(q0 + stripQuads, QUAD_END(rx, rw)) - q0;
    const uint b0 = column_bin(max(q0 * 4u, rx) - rx, columns, rw);
    const uint rowsAtOnce = WG / block;
    const uint r = lid / block;
    if (r < rowsAtOnce) {
        const uint q = q0 + lid % block;
        uint4 inside, bins;
        EACH_LANE(LANE_INSIDE_)
        EACH_LANE(LANE_BIN_)
        uint4 last[PLANES], run[PLANES];
        for (uint p = 0; p < PLANES; ++p) last[p] = 0, run[p] = 0;
        WALK_COLUMN(FIRST_QUAD(q), y0 + r, y1, rowsAtOnce, { EACH_LANE(COUNT_LANE_) })
        EACH_LANE(FLUSH_LANE_)
    }
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = lid; j < PLANES * 64 * STRIP; j += WG) {
        const uint4 quad = table4[j];
        const uint bin = b0 + j % STRIP;
        if (!any(quad != 0) || bin >= columns) continue;
        // Component k holds the counter of key k * QUARTER_KEYS + j / STRIP.
        __global uint* const first = counts + (j / STRIP) * columns + bin;
#define FLUSH_QUARTER_(c, k) \
    if (quad.c != 0) atomic_add(first + (k)*QUARTER_KEYS * columns, quad.c);
        EACH_LANE(FLUSH_QUARTER_)
#undef FLUSH_QUARTER_
    }
}
#undef ADD_LOCAL
#undef QUARTER_KEYS

#elif SCOPE == 2 && defined(WINDOW)

#define WINDOW_LOW (128 - WINDOW / 2)
#ifndef COUNTER_BITS
#define COUNTER_BITS 32
#endif
#ifndef OUTSIDE_SLOTS
#define OUTSIDE_SLOTS 0
#endif
#define EMPTY_SLOT 0xffffffffu

// local-atomic for the vectorscope: the 256 x 256 counters do not fit local memory, but the chroma of most
// pixels lies near the grey point, so each work-group keeps a private WINDOW x WINDOW copy of the counters
// around (128, 128) in local memory. COUNTER_BITS=16 packs two counters in a uint (twice the window in the
// same memory); the host keeps a group's pixels below 65536, so no counter can carry into its neighbour.
// What falls outside the window goes to OUTSIDE_SLOTS local slots, each claimed by the first chroma hashed
// to it (a saturated flat area then costs the group one global atomic), else straight to `counts`. A
// work-item walks down columns of a band of rowsPerBand rows (group ids (column block, band)); the window's
// and the slots' non-zero counters go to `counts` at the end.
__kernel void scope_window(__global const uint* pixels, uint pitch, uint rx, uint ry, uint rw, uint rh,
                           uint columns, __global uint* counts, uint rowsPerBand) {
#define WINDOW_WORDS (WINDOW * WINDOW * COUNTER_BITS / 32)
#define COUNTERS_PER_WORD (32 / COUNTER_BITS)
#define WINDOW_QUADS (WINDOW_WORDS / 4)
    // In quarters, as scope_strips' table; with 16-bit counters each quarter holds two runs of WINDOW_QUADS
    // counters, one in the words' low halves, one in their high halves: counter i lies in component
    // i / (2 WINDOW_QUADS), half (i / WINDOW_QUADS) % 2 of uint4 i % WINDOW_QUADS.
    __local uint4 window4[WINDOW_QUADS];
    __local uint* const window = (__local uint*)window4;
#if OUTSIDE_SLOTS > 0
    __local uint slotKey[OUTSIDE_SLOTS], slotCount[OUTSIDE_SLOTS];
    for (uint i = get_local_id(0); i < OUTSIDE_SLOTS; i += WG) slotKey[i] = EMPTY_SLOT, slotCount[i] = 0;
#endif
    const uint lid = get_local_id(0);
    for (uint i = lid; i < WINDOW_QUADS; i += WG) window4[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    const uint y0 = get_group_id(1) * rowsPerBand;
    const uint y1 = min(rh, y0 + rowsPerBand);
#define ADD_WINDOW(i, n)                                                                    \
    atomic_add(&window[4u * ((i) % WINDOW_QUADS) + (i) / (WINDOW_QUADS * COUNTERS_PER_WORD)], \
               (n) << ((i) / WINDOW_QUADS % COUNTERS_PER_WORD * COUNTER_BITS))
#if OUTSIDE_SLOTS > 0
    // A slot's key changes once, from EMPTY_SLOT to the first chroma that asks for it; the exchange tells
    // whoever asks (an atomic, as the first asker's claim may be under way).
#define ADD_OUTSIDE(key, n)                                                                  \
    do {                                                                                     \
        const uint slot_ = (((key)*2654435761u) >> 16) & (OUTSIDE_SLOTS - 1);                \
        const uint owner_ = atomic_cmpxchg(&slotKey[slot_], EMPTY_SLOT, (key));              \
        if (owner_ == EMPTY_SLOT || owner_ == (key))                                         \
            atomic_add(&slotCount[slot_], (n));                                              \
        else                                                                                 \
            atomic_add(&counts[(key)], (n));                                                 \
    } while (0)
#else
#define ADD_OUTSIDE(key, n) atomic_add(&counts[(key)], (n))
#endif
#define ADD_CHROMA(key, n)                                                             \
    do {                                                                               \
        const uint wr_ = ((key) >> 8) - WINDOW_LOW, wb_ = ((key)&255u) - WINDOW_LOW; \
        if (wr_ < WINDOW && wb_ < WINDOW)                                              \
            ADD_WINDOW(wr_ * WINDOW + wb_, (n));                                       \
        else                                                                           \
            ADD_OUTSIDE((key), (n));                                                   \
    } while (0)
#if WIDE == 1
    for (uint x = get_global_id(0); x < rw; x += get_global_size(0)) {
        uint last = 0, run = 0;
        WALK_COLUMN(pixels + (size_t)ry * pitch + rx + x, y0, y1, 1u, {
            const uchar4 px = as_uchar4(item);
            if (COUNTS(px)) COUNT_RUN(ADD_CHROMA, chroma_key(px), last, run);
        })
        FLUSH_RUN(ADD_CHROMA, last, run);
    }
#else
#define CHROMA_LANE_(c, lane)                                                 \
    if (inside.c) {                                                           \
        const uchar4 px = as_uchar4(item.c);                                  \
        if (COUNTS(px)) COUNT_RUN(ADD_CHROMA, chroma_key(px), last.c, run.c); \
    }
#define FLUSH_CHROMA_(c, lane) FLUSH_RUN(ADD_CHROMA, last.c, run.c);
    for (uint q = QUAD_OF(rx) + get_global_id(0); q < QUAD_END(rx, rw); q += get_global_size(0)) {
        uint4 inside;
        EACH_LANE(LANE_INSIDE_)
        uint4 last = 0, run = 0;
        WALK_COLUMN(FIRST_QUAD(q), y0, y1, 1u, { EACH_LANE(CHROMA_LANE_) })
        EACH_LANE(FLUSH_CHROMA_)
    }
#endif
#undef ADD_CHROMA
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = lid; j < WINDOW_QUADS; j += WG) {
        const uint4 quad = window4[j];
        if (!any(quad != 0)) continue;
        // Counter i = (k * COUNTERS_PER_WORD + h) * WINDOW_QUADS + j: component k, half h.
#define FLUSH_WINDOW_(c, k)                                                                               \
    for (uint h = 0; h < COUNTERS_PER_WORD; ++h) {                                                        \
        const uint n = COUNTER_BITS == 32 ? quad.c : (quad.c >> (h * 16u)) & 0xffffu;                     \
        const uint i = ((k)*COUNTERS_PER_WORD + h) * WINDOW_QUADS + j;                                    \
        if (n != 0) atomic_add(&counts[(WINDOW_LOW + i / WINDOW) * 256u + WINDOW_LOW + i % WINDOW], n); \
    }
        EACH_LANE(FLUSH_WINDOW_)
#undef FLUSH_WINDOW_
    }
#if OUTSIDE_SLOTS > 0
    for (uint i = lid; i < OUTSIDE_SLOTS; i += WG)
        if (slotCount[i] != 0) atomic_add(&counts[slotKey[i]], slotCount[i]);
#endif
}

#endif
