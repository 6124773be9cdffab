// Histogram kernels, one source for every device strategy, specialised at build time with -D options:
//   BINS=<1..256>    bins per channel; every kernel needs it
//   IGNORE_TRANSPARENT  when defined, a pixel of alpha 0 counts in A only, not in R, G, B and luma
//   WG=<n>           private_uchar, partial_reduce: the work-group size they are enqueued with (it sizes
//                    their local arrays)
//   ITEM_QUADS=<n>   private_uchar: uint4 loads (4 pixels each) per work-item between flushes of its uchar
//                    counters (bounded below, with LANES, so that no counter passes 255)
//   INTERLEAVED=0|1  private_uchar: counter layout. 1: counter (bin, item) at bin * WG + item, so
//                    neighbouring work-items touch neighbouring bytes (bank-aware, for GPUs). 0: each
//                    work-item's counters in rows of their own, so a CPU core running a work-item keeps them
//                    in a few cache lines.
//   LANES=1|2|4      private_uchar: counter rows per work-item (1 when interleaved). The pixels of a uint4 go
//                    to rows (x, y, z, w) modulo LANES, so a run of equal pixels does not chain increments of
//                    one counter (on a CPU each would wait for the previous store). A row then takes
//                    4 / LANES counts per uint4, so ITEM_QUADS may be up to 255 * LANES / 4.
//   COPIES=<n>       partial_reduce: sub-histograms per work-group, to spread local-atomic contention
// Histograms are channel-major: hist[channel * BINS + bin], channels r, g, b, a, luma.

#ifndef BINS
#error "build with -D BINS=<1..256>"
#endif

#define CHANNELS 5
#define HIST_SIZE (CHANNELS * BINS)

// The integer luma of the contract, (299 R + 587 G + 114 B + 500) / 1000.
inline uint luma_of(uint r, uint g, uint b) {
    return (299u * r + 587u * g + 114u * b + 500u) / 1000u;
}

// bin = v * BINS / 256, always < BINS for v in 0..255 (the printed listings skip this scaling and overrun).
inline uint bin_of(uint v) {
    return (v * BINS) >> 8;
}

#ifdef IGNORE_TRANSPARENT
#define COUNTS_COLOUR(px) ((px).w != 0)
#else
#define COUNTS_COLOUR(px) 1
#endif

// Applies INCREMENT(counter index) to the five counters of one RGBA pixel held in a uint (memory byte order:
// as_uchar4 keeps it on either endianness).
#define COUNT_PIXEL(pixel, INCREMENT)                                   \
    do {                                                                \
        const uchar4 px_ = as_uchar4(pixel);                            \
        INCREMENT(3 * BINS + bin_of(px_.w));                            \
        if (COUNTS_COLOUR(px_)) {                                       \
            INCREMENT(0 * BINS + bin_of(px_.x));                        \
            INCREMENT(1 * BINS + bin_of(px_.y));                        \
            INCREMENT(2 * BINS + bin_of(px_.z));                        \
            INCREMENT(4 * BINS + bin_of(luma_of(px_.x, px_.y, px_.z))); \
        }                                                               \
    } while (0)

// One work-item per pixel, every count an atomic on global memory.
__kernel void global_atomic(__global const uint* pixels, uint pixel_count, __global uint* hist) {
    const uint i = get_global_id(0);
    if (i >= pixel_count) return;
#define GLOBAL_INCREMENT(index) atomic_inc(&hist[index])
    COUNT_PIXEL(pixels[i], GLOBAL_INCREMENT);
#undef GLOBAL_INCREMENT
}

// A histogram per work-group in local memory, counted with local atomics, added to the global histogram with
// one global atomic per non-empty bin.
__kernel void local_atomic(__global const uint* pixels, uint pixel_count, __global uint* hist) {
    __local uint group_hist[HIST_SIZE];
    const uint lid = get_local_id(0);
    const uint local_size = get_local_size(0);
    for (uint i = lid; i < HIST_SIZE; i += local_size) group_hist[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

#define LOCAL_INCREMENT(index) atomic_inc(&group_hist[index])
    for (uint i = get_global_id(0); i < pixel_count; i += get_global_size(0))
        COUNT_PIXEL(pixels[i], LOCAL_INCREMENT);
#undef LOCAL_INCREMENT
    barrier(CLK_LOCAL_MEM_FENCE);

    // Each work-item merges its share of this group's bins: the stride is the LOCAL size (the printed listing
    // strides by the global size and so merges only the first group's first bins).
    for (uint i = lid; i < HIST_SIZE; i += local_size) {
        if (group_hist[i] != 0) atomic_add(&hist[i], group_hist[i]);
    }
}

// Sums `partial_count` partial histograms into `hist`; one work-item per counter.
__kernel void reduce_partials(__global const uint* partials, uint partial_count, __global uint* hist) {
    const uint i = get_global_id(0);
    if (i >= HIST_SIZE) return;
    uint sum = 0;
    for (uint p = 0; p < partial_count; ++p) sum += partials[p * HIST_SIZE + i];
    hist[i] = sum;
}

#ifdef COPIES
// COPIES sub-histograms per work-group, counted with local atomics, summed and written as this group's
// partial histogram with plain stores; reduce_partials adds the partials up.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void partial_reduce(__global const uint* pixels,
                                                                             uint pixel_count,
                                                                             __global uint* partials) {
    __local uint copies[COPIES * HIST_SIZE];
    const uint lid = get_local_id(0);
    for (uint i = lid; i < COPIES * HIST_SIZE; i += WG) copies[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    __local uint* mine = copies + (lid % COPIES) * HIST_SIZE;
#define COPY_INCREMENT(index) atomic_inc(&mine[index])
    for (uint i = get_global_id(0); i < pixel_count; i += get_global_size(0))
        COUNT_PIXEL(pixels[i], COPY_INCREMENT);
#undef COPY_INCREMENT
    barrier(CLK_LOCAL_MEM_FENCE);

    __global uint* partial = partials + get_group_id(0) * HIST_SIZE;
    for (uint i = lid; i < HIST_SIZE; i += WG) {
        uint sum = 0;
        for (uint c = 0; c < COPIES; ++c) sum += copies[c * HIST_SIZE + i];
        partial[i] = sum;
    }
}
#endif

#ifdef ITEM_QUADS
#if INTERLEAVED && LANES != 1
#error "the interleaved layout has one lane"
#endif
#if ITEM_QUADS * 4 / LANES > 255
#error "a uchar counter row takes ITEM_QUADS * 4 / LANES counts between flushes, at most 255"
#endif
// Counter rows padded to whole 16-byte blocks, so that counters are cleared and flushed 16 at a time.
#define HIST_PAD ((HIST_SIZE + 15) / 16 * 16)
#define ROWS (WG * LANES)
#if INTERLEAVED && WG % 16 != 0
#error "the interleaved layout needs WG to be a multiple of 16"
#endif

// Per-work-item uchar counters in local memory. The image is cut into segments of WG * ITEM_QUADS uint4
// loads; a group takes every get_num_groups(0)-th segment, each work-item counts ITEM_QUADS loads of it
// (neighbouring work-items read neighbouring uint4s), then the group flushes the uchar counters into its uint
// histogram before any counter can overflow. The group's histogram becomes its partial; reduce_partials adds
// them up. The last pixel_count % 4 pixels, outside any uint4, are counted by group 0.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void private_uchar(__global const uint4* quads,
                                                                            uint pixel_count,
                                                                            __global uint* partials) {
    __local uchar counters[HIST_PAD * ROWS];
    __local uint group_hist[HIST_PAD];
    const uint lid = get_local_id(0);
    for (uint block = lid; block < HIST_PAD * ROWS / 16; block += WG) vstore16((uchar16)(0), block, counters);
    for (uint i = lid; i < HIST_PAD; i += WG) group_hist[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);

    // INCREMENT_X .. INCREMENT_W count the four pixels of a uint4.
#if INTERLEAVED
#define INCREMENT_X(index) ++counters[WG * (index) + lid]
#define INCREMENT_Y INCREMENT_X
#define INCREMENT_Z INCREMENT_X
#define INCREMENT_W INCREMENT_X
#else
    // Pointers to this work-item's rows, so each count is one increment at row + bin (no index arithmetic).
    __local uchar* const row_x = counters + lid * LANES * HIST_PAD;
    __local uchar* const row_y = row_x + (1 % LANES) * HIST_PAD;
    __local uchar* const row_z = row_x + (2 % LANES) * HIST_PAD;
    __local uchar* const row_w = row_x + (3 % LANES) * HIST_PAD;
#define INCREMENT_X(index) ++row_x[index]
#define INCREMENT_Y(index) ++row_y[index]
#define INCREMENT_Z(index) ++row_z[index]
#define INCREMENT_W(index) ++row_w[index]
#endif
    const uint quad_count = pixel_count / 4;
    const uint segment_quads = WG * ITEM_QUADS;
    const uint segment_count = (quad_count + segment_quads - 1) / segment_quads;
    for (uint segment = get_group_id(0); segment < segment_count; segment += get_num_groups(0)) {
        const uint end = min(quad_count, (segment + 1) * segment_quads);
        for (uint q = segment * segment_quads + lid; q < end; q += WG) {
            const uint4 four = quads[q];
            COUNT_PIXEL(four.x, INCREMENT_X);
            COUNT_PIXEL(four.y, INCREMENT_Y);
            COUNT_PIXEL(four.z, INCREMENT_Z);
            COUNT_PIXEL(four.w, INCREMENT_W);
        }
        barrier(CLK_LOCAL_MEM_FENCE);
#if INTERLEAVED
        // Bin i's counters are the WG bytes from i * WG.
        for (uint i = lid; i < HIST_SIZE; i += WG) {
            uint16 sum = (uint16)(0);
            for (uint item = 0; item < WG; item += 16) {
                sum += convert_uint16(vload16(0, counters + i * WG + item));
                vstore16((uchar16)(0), 0, counters + i * WG + item);
            }
            const uint8 sum8 = sum.lo + sum.hi;
            const uint4 sum4 = sum8.lo + sum8.hi;
            group_hist[i] += sum4.x + sum4.y + sum4.z + sum4.w;
        }
#else
        // Each row's counters of bins 16 j .. 16 j + 15 are 16 neighbouring bytes.
        for (uint block = lid; block < HIST_PAD / 16; block += WG) {
            uint16 sum = vload16(block, group_hist);
            for (uint r = 0; r < ROWS; ++r) {
                __local uchar* const row = counters + r * HIST_PAD;
                sum += convert_uint16(vload16(block, row));
                vstore16((uchar16)(0), block, row);
            }
            vstore16(sum, block, group_hist);
        }
#endif
        barrier(CLK_LOCAL_MEM_FENCE);
    }

    if (get_group_id(0) == 0 && lid == 0) {
        __global const uint* tail = (__global const uint*)(quads + quad_count);
#define GROUP_INCREMENT(index) ++group_hist[index]
        for (uint i = 0; i < pixel_count % 4; ++i) COUNT_PIXEL(tail[i], GROUP_INCREMENT);
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    __global uint* partial = partials + get_group_id(0) * HIST_SIZE;
    for (uint i = lid; i < HIST_SIZE; i += WG) partial[i] = group_hist[i];
}
#endif
