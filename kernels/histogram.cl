// Histogram kernels, one source for every device strategy, specialised at build time with -D options:
//   BINS=<1..256>    bins per channel; every kernel needs it (the engine always builds 256 and groups on the
//   host) IGNORE_TRANSPARENT  when defined, a pixel of alpha 0 counts in A only, not in R, G, B and luma
//   WG=<n>           local_atomic, partial_reduce, private_uchar: the work-group size they are enqueued with
//                    (it sizes their local arrays and strides)
//   COPIES=<n>       local_atomic, partial_reduce: sub-histograms per work-group, a power of two (spreads
//                    local-atomic contention, see count_chunks)
//   CHUNK_QUADS=<n>  local_atomic, partial_reduce: uint4 loads (4 pixels each) per work-item in one chunk
//   ITEM_QUADS=<n>   private_uchar: uint4 loads per work-item between flushes of its uchar counters (bounded
//                    below, with LANES, so that no counter passes 255); a chunk is WG * ITEM_QUADS loads
//   INTERLEAVED=0|1  private_uchar: counter layout. 1: a work-item's counters all lie in its own bank (GPUs,
//                    see private_uchar). 0: each work-item's counters in rows of their own, so a CPU core
//                    running a work-item keeps them in a few cache lines.
//   LANES=1|2|4      private_uchar: counter rows per work-item (1 when interleaved). The pixels of a uint4 go
//                    to rows (x, y, z, w) modulo LANES, so a run of equal pixels does not chain increments of
//                    one counter (on a CPU each would wait for the previous store). A row then takes
//                    4 / LANES counts per uint4, so ITEM_QUADS may be up to 255 * LANES / 4.
//   PARTIALS         with COPIES: partial_reduce (and reduce_partials) instead of local_atomic
// A program holds only the kernels its options select (global_atomic without WG; local_atomic, or
// partial_reduce and reduce_partials, with COPIES; private_uchar and reduce_partials with ITEM_QUADS): PoCL
// compiles every kernel of a program once more when its binary is read for the program cache.
// Histograms are channel-major: hist[channel * BINS + bin], channels r, g, b, a, luma.
//
// The work-group kernels read the pixels as uint4s in chunks that work-groups take from a ticket counter in
// the order they start (take_chunk): a persistent grid in which a group that starts late, beyond those the
// device holds at once, simply takes fewer chunks, so the launch has no tail of slow last groups. The
// counter is the uint after the kernel's output (hist or partials), cleared by the host before the launch.

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

// The per-pixel counting of every kernel: applies INCREMENT(channel, bin) to the five counters of one RGBA
// pixel held in a uint (memory byte order: as_uchar4 keeps it on either endianness). The channel is a literal
// 0..4, so an INCREMENT may paste it into a name.
#ifdef IGNORE_TRANSPARENT
#define COUNTS_COLOUR(px) ((px).w != 0)
#else
#define COUNTS_COLOUR(px) 1
#endif

#define COUNT_PIXEL(pixel, INCREMENT)                           \
    do {                                                        \
        const uchar4 px_ = as_uchar4(pixel);                    \
        INCREMENT(3, bin_of(px_.w));                            \
        if (COUNTS_COLOUR(px_)) {                               \
            INCREMENT(0, bin_of(px_.x));                        \
            INCREMENT(1, bin_of(px_.y));                        \
            INCREMENT(2, bin_of(px_.z));                        \
            INCREMENT(4, bin_of(luma_of(px_.x, px_.y, px_.z))); \
        }                                                       \
    } while (0)

// Calls COUNT(uint4) on quads[first], quads[first + WG], ... below `end`, in batches of `batch` loads; the
// next batch is loaded before the current one is counted, so loads stay in flight while a work-item counts.
#define FOR_EACH_QUAD(quads, first, end, batch, COUNT)                                      \
    do {                                                                                    \
        uint4 now_[batch], next_[batch];                                                    \
        for (uint k_ = 0; k_ < (batch); ++k_)                                               \
            now_[k_] = (first) + k_ * WG < (end) ? (quads)[(first) + k_ * WG] : (uint4)(0); \
        for (uint q_ = (first); q_ < (end); q_ += (batch)*WG) {                             \
            for (uint k_ = 0; k_ < (batch); ++k_) {                                         \
                const uint at_ = q_ + ((batch) + k_) * WG;                                  \
                next_[k_] = at_ < (end) ? (quads)[at_] : (uint4)(0);                        \
            }                                                                               \
            for (uint k_ = 0; k_ < (batch); ++k_)                                           \
                if (q_ + k_ * WG < (end)) COUNT(now_[k_]);                                  \
            for (uint k_ = 0; k_ < (batch); ++k_) now_[k_] = next_[k_];                     \
        }                                                                                   \
    } while (0)

// The next chunk index for this work-group, the same for all its work-items (see the top of this file).
// The first barrier also ends the group's work on the previous chunk.
inline uint take_chunk(volatile __global uint* ticket, volatile __local uint* chunk) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) *chunk = atomic_inc(ticket);
    barrier(CLK_LOCAL_MEM_FENCE);
    return *chunk;
}

// Counts the pixel_count % 4 pixels after the last whole uint4 with INCREMENT (work-item 0 of group 0).
#define COUNT_TAIL(quads, pixel_count, INCREMENT)                                              \
    do {                                                                                       \
        if (get_group_id(0) == 0 && get_local_id(0) == 0) {                                    \
            __global const uint* tail_ = (__global const uint*)((quads) + (pixel_count) / 4);  \
            for (uint i_ = 0; i_ < (pixel_count) % 4; ++i_) COUNT_PIXEL(tail_[i_], INCREMENT); \
        }                                                                                      \
    } while (0)

#ifndef WG
// One work-item per pixel, every count an atomic on global memory.
__kernel void global_atomic(__global const uint* pixels, uint pixel_count, __global uint* hist) {
    const uint i = get_global_id(0);
    if (i >= pixel_count) return;
#define GLOBAL_INCREMENT(channel, bin) atomic_inc(&hist[(channel)*BINS + (bin)])
    COUNT_PIXEL(pixels[i], GLOBAL_INCREMENT);
#undef GLOBAL_INCREMENT
}
#endif

// Sums `partial_count` partial histograms into `hist`. A work-group of REDUCE_WG work-items takes
// REDUCE_COUNTERS neighbouring counters; its work-items split the partials into REDUCE_WG / REDUCE_COUNTERS
// stripes (neighbouring work-items read neighbouring counters), and the stripes' sums meet in local memory.
#define REDUCE_WG 256
#define REDUCE_COUNTERS 32
#if defined(PARTIALS) || defined(ITEM_QUADS)
__kernel __attribute__((reqd_work_group_size(REDUCE_WG, 1, 1))) void reduce_partials(
    __global const uint* partials, uint partial_count, __global uint* hist) {
    __local uint stripe_sums[REDUCE_WG];
    const uint lid = get_local_id(0);
    const uint i = get_group_id(0) * REDUCE_COUNTERS + lid % REDUCE_COUNTERS;
    uint sum = 0;
    if (i < HIST_SIZE) {
        for (uint p = lid / REDUCE_COUNTERS; p < partial_count; p += REDUCE_WG / REDUCE_COUNTERS)
            sum += partials[p * HIST_SIZE + i];
    }
    stripe_sums[lid] = sum;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < REDUCE_COUNTERS && i < HIST_SIZE) {
        for (uint stripe = 1; stripe < REDUCE_WG / REDUCE_COUNTERS; ++stripe)
            sum += stripe_sums[stripe * REDUCE_COUNTERS + lid];
        hist[i] = sum;
    }
}
#endif

#ifdef COPIES
#if COPIES & (COPIES - 1)
#error "COPIES must be a power of two"
#endif
#define CHUNK (WG * CHUNK_QUADS)

// The counting of local_atomic and partial_reduce: COPIES sub-histograms in local memory, counted with local
// atomics. They are interleaved, counter i of copy c at copies[i * COPIES + c], and work-item l counts into
// copy l % COPIES: work-items counting the same bin (runs of equal pixels) hit COPIES different banks, and
// work-items counting different bins share a bank COPIES times less often than in one histogram.
// Clears `copies`, counts every chunk this group takes, and returns once the copies are complete.
inline void count_chunks(__global const uint4* quads, uint pixel_count, volatile __global uint* ticket,
                         __local uint* copies, volatile __local uint* chunk) {
    const uint lid = get_local_id(0);
    for (uint i = lid; i < COPIES * HIST_SIZE; i += WG) copies[i] = 0;

    __local uint* const mine = copies + lid % COPIES;
#define COPY_INCREMENT(channel, bin) atomic_inc(&mine[((channel)*BINS + (bin)) * COPIES])
#define COUNT_QUAD(four)                       \
    do {                                       \
        COUNT_PIXEL((four).x, COPY_INCREMENT); \
        COUNT_PIXEL((four).y, COPY_INCREMENT); \
        COUNT_PIXEL((four).z, COPY_INCREMENT); \
        COUNT_PIXEL((four).w, COPY_INCREMENT); \
    } while (0)
    const uint quad_count = pixel_count / 4;
    const uint chunk_count = (quad_count + CHUNK - 1) / CHUNK;
    for (uint c = take_chunk(ticket, chunk); c < chunk_count; c = take_chunk(ticket, chunk)) {
        FOR_EACH_QUAD(quads, c * CHUNK + lid, min(quad_count, (c + 1) * CHUNK), 2, COUNT_QUAD);
    }
    COUNT_TAIL(quads, pixel_count, COPY_INCREMENT);
#undef COUNT_QUAD
#undef COPY_INCREMENT
    barrier(CLK_LOCAL_MEM_FENCE);
}

// Counter i of the group: the sum of its copies.
inline uint copies_sum(__local const uint* copies, uint i) {
    uint sum = 0;
    for (uint c = 0; c < COPIES; ++c) sum += copies[i * COPIES + c];
    return sum;
}

#ifndef PARTIALS
// Counts into sub-histograms (count_chunks) and adds them to the global histogram with one global atomic per
// non-empty counter. `hist` holds HIST_SIZE counters and the ticket after them, all cleared by the host.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void local_atomic(__global const uint4* quads,
                                                                           uint pixel_count,
                                                                           __global uint* hist) {
    __local uint copies[COPIES * HIST_SIZE];
    __local uint chunk;
    count_chunks(quads, pixel_count, hist + HIST_SIZE, copies, &chunk);
    for (uint i = get_local_id(0); i < HIST_SIZE; i += WG) {
        const uint sum = copies_sum(copies, i);
        if (sum != 0) atomic_add(&hist[i], sum);
    }
}
#else
// The book's partial histograms: counts like local_atomic, but writes the group's sums with plain stores as
// its partial histogram, partials[group * HIST_SIZE ..]; reduce_partials adds the partials up. The ticket
// follows the last partial.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void partial_reduce(__global const uint4* quads,
                                                                             uint pixel_count,
                                                                             __global uint* partials) {
    __local uint copies[COPIES * HIST_SIZE];
    __local uint chunk;
    count_chunks(quads, pixel_count, partials + get_num_groups(0) * HIST_SIZE, copies, &chunk);
    __global uint* partial = partials + get_group_id(0) * HIST_SIZE;
    for (uint i = get_local_id(0); i < HIST_SIZE; i += WG) partial[i] = copies_sum(copies, i);
}
#endif
#endif

#ifdef ITEM_QUADS
#if INTERLEAVED && LANES != 1
#error "the interleaved layout has one lane"
#endif
#if ITEM_QUADS * 4 / LANES > 255
#error "a uchar counter row takes ITEM_QUADS * 4 / LANES counts between flushes, at most 255"
#endif
#if INTERLEAVED && WG % 16 != 0
#error "the interleaved layout needs WG to be a multiple of 16"
#endif
#if INTERLEAVED && WG * 255 > 65535
#error "the interleaved flush adds a bin's WG counters in 16-bit lanes"
#endif
// A channel's counters of one row, padded to whole 16-byte blocks, so that counters are cleared and flushed
// 16 at a time.
#define BINS_PAD ((BINS + 15) / 16 * 16)
#define ROWS (WG * LANES)
#define ITEM_CHUNK (WG * ITEM_QUADS)
// The flush goes in runs of RUN_BINS neighbouring counters of one channel: 4 (a word of the interleaved
// layout) or 16 (a block of a row); each work-item takes ITEM_RUNS of the RUNS runs.
#define RUN_BINS (INTERLEAVED ? 4 : 16)
#define RUNS (CHANNELS * BINS_PAD / RUN_BINS)
#define ITEM_RUNS ((RUNS + WG - 1) / WG)

#if !INTERLEAVED
// The sum of every row's counters of bins 16 block .. 16 block + 15 in one channel's array, which it clears.
inline uint16 flush_rows(__local uchar* counts, uint block) {
    uint16 sum = (uint16)(0);
    for (uint r = 0; r < ROWS; ++r) {
        sum += convert_uint16(vload16(block, counts + r * BINS_PAD));
        vstore16((uchar16)(0), block, counts + r * BINS_PAD);
    }
    return sum;
}
#endif

// The book's per-work-item counters: uchar counters in local memory, private to each work-item and
// incremented without atomics. A work-group takes chunks of WG * ITEM_QUADS uint4 loads (neighbouring
// work-items read neighbouring uint4s); after each chunk the group flushes the uchar counters into its
// partial histogram, partials[group * HIST_SIZE ..], before any counter can overflow (each counter of the
// partial has one work-item that adds to it); reduce_partials adds the partials up. The ticket follows the
// last partial.
//
// Each channel has an array of its own. Interleaved layout: counter (bin, item) of a channel at byte
// ((bin / 4) * WG + item) * 4 + bin % 4, so all of a work-item's counters lie in the 32-bit bank column of
// its item: the work-items of a warp never conflict, whatever their pixels.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void private_uchar(__global const uint4* quads,
                                                                            uint pixel_count,
                                                                            __global uint* partials) {
    // Declared as uint4s, so that the flush may read them 16 bytes at a time.
    __local uint4 words0[BINS_PAD * ROWS / 16], words1[BINS_PAD * ROWS / 16], words2[BINS_PAD * ROWS / 16],
        words3[BINS_PAD * ROWS / 16], words4[BINS_PAD * ROWS / 16];
    __local uchar* const counts0 = (__local uchar*)words0;
    __local uchar* const counts1 = (__local uchar*)words1;
    __local uchar* const counts2 = (__local uchar*)words2;
    __local uchar* const counts3 = (__local uchar*)words3;
    __local uchar* const counts4 = (__local uchar*)words4;
    __local uint chunk;
    const uint lid = get_local_id(0);
    for (uint block = lid; block < BINS_PAD * ROWS / 16; block += WG) {
        words0[block] = (uint4)(0);
        words1[block] = (uint4)(0);
        words2[block] = (uint4)(0);
        words3[block] = (uint4)(0);
        words4[block] = (uint4)(0);
    }

    // AT_X .. AT_W: the byte index of a bin's counter for the four pixels of a uint4.
#if INTERLEAVED
#define AT_X(bin) ((((bin) >> 2) * WG + lid) * 4 + ((bin)&3))
#define AT_Y AT_X
#define AT_Z AT_X
#define AT_W AT_X
#else
    // Offsets of this work-item's rows, so each counter is at row + bin.
    const uint row_x = lid * LANES * BINS_PAD;
    const uint row_y = row_x + (1 % LANES) * BINS_PAD;
    const uint row_z = row_x + (2 % LANES) * BINS_PAD;
    const uint row_w = row_x + (3 % LANES) * BINS_PAD;
#define AT_X(bin) (row_x + (bin))
#define AT_Y(bin) (row_y + (bin))
#define AT_Z(bin) (row_z + (bin))
#define AT_W(bin) (row_w + (bin))
#endif
    // The per-pixel counting of this kernel, a uint4 (four pixels) at a time: every counter the uint4 touches
    // is read (READ_FOUR) before any is written (WRITE_FOUR), so that the twenty reads overlap; compilers
    // keep local loads and stores in program order when they cannot tell the addresses apart. A pixel whose
    // counter an earlier pixel of the uint4 also counts takes that one's new value instead of the value read.
#define READ_FOUR(ch, v0, v1, v2, v3)                                                                       \
    const uint i0_##ch = AT_X(bin_of(v0)), i1_##ch = AT_Y(bin_of(v1)), i2_##ch = AT_Z(bin_of(v2)),          \
               i3_##ch = AT_W(bin_of(v3));                                                                  \
    const uint r0_##ch = counts##ch[i0_##ch], r1_##ch = counts##ch[i1_##ch], r2_##ch = counts##ch[i2_##ch], \
               r3_##ch = counts##ch[i3_##ch]
#define WRITE_FOUR(ch)                                                                        \
    do {                                                                                      \
        const uint n0_ = r0_##ch + 1;                                                         \
        const uint n1_ = (i1_##ch == i0_##ch ? n0_ : r1_##ch) + 1;                            \
        const uint n2_ = (i2_##ch == i1_##ch ? n1_ : i2_##ch == i0_##ch ? n0_ : r2_##ch) + 1; \
        const uint n3_ = (i3_##ch == i2_##ch   ? n2_                                          \
                          : i3_##ch == i1_##ch ? n1_                                          \
                          : i3_##ch == i0_##ch ? n0_                                          \
                                               : r3_##ch) +                                   \
                         1;                                                                   \
        counts##ch[i0_##ch] = n0_;                                                            \
        counts##ch[i1_##ch] = n1_;                                                            \
        counts##ch[i2_##ch] = n2_;                                                            \
        counts##ch[i3_##ch] = n3_;                                                            \
    } while (0)
#ifdef IGNORE_TRANSPARENT
    // A pixel's colour counters depend on its alpha, so the four pixels are counted one after the other.
#define COUNT_ONE(px, AT)                                           \
    do {                                                            \
        ++counts3[AT(bin_of((px).w))];                              \
        if (COUNTS_COLOUR(px)) {                                    \
            ++counts0[AT(bin_of((px).x))];                          \
            ++counts1[AT(bin_of((px).y))];                          \
            ++counts2[AT(bin_of((px).z))];                          \
            ++counts4[AT(bin_of(luma_of((px).x, (px).y, (px).z)))]; \
        }                                                           \
    } while (0)
#define COUNT_QUAD(four)                      \
    do {                                      \
        COUNT_ONE(as_uchar4((four).x), AT_X); \
        COUNT_ONE(as_uchar4((four).y), AT_Y); \
        COUNT_ONE(as_uchar4((four).z), AT_Z); \
        COUNT_ONE(as_uchar4((four).w), AT_W); \
    } while (0)
#else
#define COUNT_QUAD(four)                                                                              \
    do {                                                                                              \
        const uchar4 x_ = as_uchar4((four).x), y_ = as_uchar4((four).y), z_ = as_uchar4((four).z),    \
                     w_ = as_uchar4((four).w);                                                        \
        READ_FOUR(0, x_.x, y_.x, z_.x, w_.x);                                                         \
        READ_FOUR(1, x_.y, y_.y, z_.y, w_.y);                                                         \
        READ_FOUR(2, x_.z, y_.z, z_.z, w_.z);                                                         \
        READ_FOUR(3, x_.w, y_.w, z_.w, w_.w);                                                         \
        READ_FOUR(4, luma_of(x_.x, x_.y, x_.z), luma_of(y_.x, y_.y, y_.z), luma_of(z_.x, z_.y, z_.z), \
                  luma_of(w_.x, w_.y, w_.z));                                                         \
        WRITE_FOUR(0);                                                                                \
        WRITE_FOUR(1);                                                                                \
        WRITE_FOUR(2);                                                                                \
        WRITE_FOUR(3);                                                                                \
        WRITE_FOUR(4);                                                                                \
    } while (0)
#endif
    const uint quad_count = pixel_count / 4;
    const uint chunk_count = (quad_count + ITEM_CHUNK - 1) / ITEM_CHUNK;
    // The group's partial; each work-item adds the flushed counts of its runs (RUN_BINS neighbouring bins of
    // one channel each: runs lid, lid + WG, ...) to it, so it clears them first.
    __global uint* partial = partials + get_group_id(0) * HIST_SIZE;
    for (uint k = 0; k < ITEM_RUNS; ++k) {
        const uint run = lid + k * WG;
        const uint channel = run / (BINS_PAD / RUN_BINS), first = run % (BINS_PAD / RUN_BINS) * RUN_BINS;
        for (uint b = 0; b < RUN_BINS; ++b) {
            if (run < RUNS && first + b < BINS) partial[channel * BINS + first + b] = 0;
        }
    }
    for (uint c = take_chunk(partials + get_num_groups(0) * HIST_SIZE, &chunk); c < chunk_count;
         c = take_chunk(partials + get_num_groups(0) * HIST_SIZE, &chunk)) {
        FOR_EACH_QUAD(quads, c * ITEM_CHUNK + lid, min(quad_count, (c + 1) * ITEM_CHUNK), 2, COUNT_QUAD);
        barrier(CLK_LOCAL_MEM_FENCE);
        for (uint k = 0; k < ITEM_RUNS; ++k) {
            const uint run = lid + k * WG;
            if (run >= RUNS) break;
            const uint channel = run / (BINS_PAD / RUN_BINS), block = run % (BINS_PAD / RUN_BINS);
#if INTERLEAVED
            // Counters of bins 4 block .. 4 block + 3 are the WG words from block * WG, a byte per bin; a
            // work-item reads them as uint4s starting at its own position, so that neighbouring work-items
            // read different banks. The bytes add up in 16-bit lanes (at most WG * 255 each).
            __local uint4* const words = (channel == 0   ? words0
                                          : channel == 1 ? words1
                                          : channel == 2 ? words2
                                          : channel == 3 ? words3
                                                         : words4) +
                                         block * (WG / 4);
            uint even = 0, odd = 0;  // the run's bins 0 and 2 in 16-bit lanes; bins 1 and 3
            for (uint q = 0; q < WG / 4; q += 4) {
                // Four reads before their clearing writes, so that the reads overlap.
                uint4 four[4];
                for (uint j = 0; j < 4; ++j) four[j] = words[(q + j + lid) % (WG / 4)];
                for (uint j = 0; j < 4; ++j) words[(q + j + lid) % (WG / 4)] = (uint4)(0);
                for (uint j = 0; j < 4; ++j) {
                    even += (four[j].x & 0x00ff00ffu) + (four[j].y & 0x00ff00ffu) +
                            (four[j].z & 0x00ff00ffu) + (four[j].w & 0x00ff00ffu);
                    odd += ((four[j].x >> 8) & 0x00ff00ffu) + ((four[j].y >> 8) & 0x00ff00ffu) +
                           ((four[j].z >> 8) & 0x00ff00ffu) + ((four[j].w >> 8) & 0x00ff00ffu);
                }
            }
            const uint run_sums[4] = {even & 0xffffu, odd & 0xffffu, even >> 16, odd >> 16};
#else
            // Each row's counters of bins 16 j .. 16 j + 15 are 16 neighbouring bytes.
            const uint16 sum = channel == 0   ? flush_rows(counts0, block)
                               : channel == 1 ? flush_rows(counts1, block)
                               : channel == 2 ? flush_rows(counts2, block)
                               : channel == 3 ? flush_rows(counts3, block)
                                              : flush_rows(counts4, block);
            const uint run_sums[16] = {sum.s0, sum.s1, sum.s2, sum.s3, sum.s4, sum.s5, sum.s6, sum.s7,
                                       sum.s8, sum.s9, sum.sa, sum.sb, sum.sc, sum.sd, sum.se, sum.sf};
#endif
            const uint first = block * RUN_BINS;
            for (uint b = 0; b < RUN_BINS; ++b) {
                if (first + b < BINS) partial[channel * BINS + first + b] += run_sums[b];
            }
        }
    }
#undef COUNT_QUAD
#undef COUNT_ONE
#undef WRITE_FOUR
#undef READ_FOUR

    // The pixels after the last whole uint4 go straight into group 0's partial, once every work-item's
    // stores to it are visible.
    barrier(CLK_GLOBAL_MEM_FENCE);
#define PARTIAL_INCREMENT(channel, bin) ++partial[(channel)*BINS + (bin)]
    COUNT_TAIL(quads, pixel_count, PARTIAL_INCREMENT);
#undef PARTIAL_INCREMENT
}
#endif
