// The bag-of-words builder: every descriptor (64 floats) is assigned to its nearest centroid, and the
// histogram of the assignments is counted. The book's progression (GPU1..GPU5) and a tiled one of ours,
// specialised with -D rather than copied:
//   assign_scalar     GPU1 baseline (row-major descriptors), GPU2 coalesced (-D TRANSPOSED)
//   assign_vector     GPU3: float4 loads of the descriptors transposed in groups of 4 (-D GROUP=4)
//   assign_staged     GPU4 (centroids __global) and GPU5 (-D CENTROID_SPACE=__constant): a work-group of WG
//                     stages its descriptors in local memory and reads the staged copy
//   assign_tiled      ours: distances as a tiled matrix product |c|^2 - 2 x.c, argmin and a local histogram
//                     fused, so only memberships and counts leave the chip
// Ties go to the lowest centroid index everywhere (centroids visited in increasing order, strict <).

#define DIM 64
#define QUADS (DIM / 4)

#ifndef GROUP
#define GROUP 1
#endif
#ifndef CENTROID_SPACE
#define CENTROID_SPACE __global
#endif

// Descriptors row-major (count x 64) -> transposed in groups of GROUP dimensions: element (i, d) goes to
// ((d / GROUP) * count + i) * GROUP + d % GROUP, so work-item i of a builder reads its GROUP-wide piece of
// dimension group q next to work-item i + 1's.
__kernel void transpose_descriptors(__global const float* descriptors, uint count,
                                    __global float* transposed) {
    const uint i = get_global_id(0);
    const uint d = get_global_id(1);
    if (i >= count) return;
    transposed[((d / GROUP) * count + i) * GROUP + d % GROUP] = descriptors[i * DIM + d];
}

#ifdef TRANSPOSED
#define DESCRIPTOR(i, d) descriptors[(d)*count + (i)]
#else
#define DESCRIPTOR(i, d) descriptors[(i)*DIM + (d)]
#endif

// GPU1 / GPU2: a work-item per descriptor, global atomics for the histogram.
__kernel void assign_scalar(__global const float* descriptors, uint count, __global const float* centroids,
                            uint k, __global uint* memberships, __global uint* histogram) {
    const uint i = get_global_id(0);
    if (i >= count) return;
    float best = INFINITY;
    uint bestIndex = 0;
    for (uint c = 0; c < k; ++c) {
        float distance = 0.0f;
        for (uint d = 0; d < DIM; ++d) {
            const float diff = DESCRIPTOR(i, d) - centroids[c * DIM + d];
            distance += diff * diff;
        }
        if (distance < best) {
            best = distance;
            bestIndex = c;
        }
    }
    memberships[i] = bestIndex;
    atomic_inc(&histogram[bestIndex]);
}

// The squared distance of a descriptor, as 16 float4 `STRIDE` apart in `ROWS` (any address space: a macro,
// OpenCL C 1.2 has no generic pointers), to centroid INDEX; summed in dimension order like the reference.
#define SQUARED_DISTANCE(DISTANCE, ROWS, STRIDE, CENTROIDS, INDEX)                     \
    do {                                                                               \
        DISTANCE = 0.0f;                                                               \
        for (uint q = 0; q < QUADS; ++q) {                                             \
            const float4 diff = (ROWS)[q * (STRIDE)] - (CENTROIDS)[(INDEX)*QUADS + q]; \
            const float4 square = diff * diff;                                         \
            DISTANCE += square.x;                                                      \
            DISTANCE += square.y;                                                      \
            DISTANCE += square.z;                                                      \
            DISTANCE += square.w;                                                      \
        }                                                                              \
    } while (0)

// Descriptor i's nearest centroid (its float4 quads at BASE, STRIDE apart), written to memberships and
// counted in the histogram; the lowest index wins a tie.
#define RECORD_NEAREST(BASE, STRIDE)                                \
    do {                                                            \
        float best = INFINITY;                                      \
        uint bestIndex = 0;                                         \
        for (uint c = 0; c < k; ++c) {                              \
            float distance;                                         \
            SQUARED_DISTANCE(distance, BASE, STRIDE, centroids, c); \
            if (distance < best) {                                  \
                best = distance;                                    \
                bestIndex = c;                                      \
            }                                                       \
        }                                                           \
        memberships[i] = bestIndex;                                 \
        atomic_inc(&histogram[bestIndex]);                          \
    } while (0)

// GPU3: float4 loads from the descriptors transposed in groups of 4.
__kernel void assign_vector(__global const float4* descriptors, uint count, __global const float4* centroids,
                            uint k, __global uint* memberships, __global uint* histogram) {
    const uint i = get_global_id(0);
    if (i >= count) return;
    RECORD_NEAREST(descriptors + i, count);
}

#ifdef WG
// GPU4 / GPU5: the work-group's descriptors staged in local memory (from the float4-transposed layout, so
// the loads are coalesced), every distance reading the staged copy.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void assign_staged(
    __global const float4* descriptors, uint count, CENTROID_SPACE const float4* centroids, uint k,
    __global uint* memberships, __global uint* histogram) {
    __local float4 staged[QUADS * WG];
    const uint i = get_global_id(0);
    const uint lid = get_local_id(0);
    if (i < count) {
        for (uint q = 0; q < QUADS; ++q) staged[q * WG + lid] = descriptors[q * count + i];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (i >= count) return;
    RECORD_NEAREST(staged + lid, WG);
}
#endif

// The tiled builders' shared pieces. With FULL_BLOCKS (k a multiple of the centroids a block sweeps) no
// centroid index is checked against k.
#ifdef FULL_BLOCKS
#define BELOW_K(c) true
#else
#define BELOW_K(c) ((c) < k)
#endif

// Better of two candidates: the lower score, or the lower index at an equal one.
inline bool better(float score, uint index, float best, uint bestIndex) {
    return score < best || (score == best && index < bestIndex);
}

// The best (score, index) of a row so far against centroid COLUMN's score, visited in increasing order.
#define KEEP_BEST(SCORE, INDEX, CANDIDATE, COLUMN)      \
    do {                                                \
        if ((CANDIDATE) < (SCORE) && BELOW_K(COLUMN)) { \
            SCORE = (CANDIDATE);                        \
            INDEX = (COLUMN);                           \
        }                                               \
    } while (0)

#ifdef TILE
// Ours: distances as a register-blocked matrix product, |x|^2 dropped (the same for every centroid of a
// descriptor), so the argmin compares |c|^2 - 2 x.c. A work-group of LX x LY work-items owns
// TILE_D = LX REG_D descriptors and sweeps the centroids in blocks of TILE_C = LY REG_C; work-item (tx, ty)
// accumulates the REG_D x REG_C dot products of its descriptors (float4 groups tx, tx + LX, ... of the
// group's) and centroids (groups ty, ty + LY, ...). CHUNK dimensions at a time are staged in local memory
// dimension-major, so each step d reads REG_D / 4 + REG_C / 4 float4 and makes REG_D REG_C multiply-adds.
// Each warp of 32 is 8 tx by 4 ty, so its float4 reads of a step touch 8 and 4 distinct float4 (one
// local-memory transaction each, the rest broadcasts). |c|^2 is summed from the staged copy. Each work-item
// keeps its descriptors' best (score, index) over all blocks; the LY candidates of a descriptor are compared
// once at the end, the lowest index winning a tie; the group counts its descriptors in a local histogram
// (`localHistogram`, k counters) added to the global one once per bin.
#ifndef LX
#define LX 16
#endif
#ifndef LY
#define LY 16
#endif
#ifndef REG_D
#define REG_D 8
#endif
#ifndef REG_C
#define REG_C 8
#endif
#ifndef CHUNK
#define CHUNK 16
#endif
#define ITEMS (LX * LY)
#define TILE_D (LX * REG_D)
#define TILE_C (LY * REG_C)
#define STAGED (CHUNK * (TILE_D + TILE_C))
#define CANDIDATES (2 * LY * TILE_D)
#define POOL (STAGED > CANDIDATES ? STAGED : CANDIDATES)

// Staging dimensions D0 .. D0 + CHUNK - 1 of rows FIRST .. FIRST + TILE - 1 (zeros from ROWS on) into
// STAGED[d * TILE + row], in two steps: LOAD into the private float4 REGS[SLOTS(TILE)], STORE from there.
// Neighbouring work-items take neighbouring rows of one float4 column, so the scalar stores of a warp fall
// into 32 different banks. Each macro is one loop, for a #pragma unroll before it (REGS stays in registers).
#define SLOTS(TILE) (((TILE) * (CHUNK / 4) + ITEMS - 1) / ITEMS)
#define LOAD(REGS, SOURCE, FIRST, ROWS, TILE, D0)                           \
    for (uint j = 0; j < SLOTS(TILE); ++j) {                                \
        const uint e = lid + j * ITEMS, row = e % (TILE), dq = e / (TILE);  \
        (REGS)[j] = e < (TILE) * (CHUNK / 4) && (FIRST) + row < (ROWS)      \
                        ? (SOURCE)[((FIRST) + row) * QUADS + (D0) / 4 + dq] \
                        : (float4)(0.0f);                                   \
    }
#define STORE(STAGED, REGS, TILE)                                          \
    for (uint j = 0; j < SLOTS(TILE); ++j) {                               \
        const uint e = lid + j * ITEMS, row = e % (TILE), dq = e / (TILE); \
        if (e < (TILE) * (CHUNK / 4)) {                                    \
            (STAGED)[(4 * dq + 0) * (TILE) + row] = (REGS)[j].x;           \
            (STAGED)[(4 * dq + 1) * (TILE) + row] = (REGS)[j].y;           \
            (STAGED)[(4 * dq + 2) * (TILE) + row] = (REGS)[j].z;           \
            (STAGED)[(4 * dq + 3) * (TILE) + row] = (REGS)[j].w;           \
        }                                                                  \
    }

// ARRAY[4 Q .. 4 Q + 3] = the float4 V, element by element (a private array stays in registers only if no
// pointer to it escapes, as one passed to vstore4 would).
#define UNPACK(ARRAY, Q, V)          \
    do {                             \
        const float4 v_ = (V);       \
        (ARRAY)[4 * (Q) + 0] = v_.x; \
        (ARRAY)[4 * (Q) + 1] = v_.y; \
        (ARRAY)[4 * (Q) + 2] = v_.z; \
        (ARRAY)[4 * (Q) + 3] = v_.w; \
    } while (0)

// Without FULL_BLOCKS, centroid groups wholly beyond k in the last block are skipped (the same branch for
// the whole group) and their scores ignored.
#ifdef FULL_BLOCKS
#define GROUP_BELOW_K(q) true
#else
#define GROUP_BELOW_K(q) (block + 4 * (q)*LY < k)
#endif

__kernel __attribute__((reqd_work_group_size(ITEMS, 1, 1))) void assign_tiled(
    __global const float4* descriptors, uint count, __global const float4* centroids, uint k,
    __global uint* memberships, __global uint* histogram, __local uint* localHistogram) {
    // The staged chunks, then (after the last block) the candidates; float4 for the alignment of the reads.
    __local float4 pool[POOL / 4];
    __local float4 norms4[TILE_C / 4];
    __local float* norms = (__local float*)norms4;
    __local float* xs = (__local float*)pool;
    __local float* cs = xs + CHUNK * TILE_D;

    const uint lid = get_local_id(0);
    const uint lane = lid % 32, warp = lid / 32;
    const uint tx = (warp % (LX / 8)) * 8 + lane % 8;
    const uint ty = (warp / (LX / 8)) * 4 + lane / 8;
    const uint first = get_group_id(0) * TILE_D;

    for (uint b = lid; b < k; b += ITEMS) localHistogram[b] = 0;

    float bestScore[REG_D];
    uint bestIndex[REG_D];
#pragma unroll
    for (uint r = 0; r < REG_D; ++r) {
        bestScore[r] = INFINITY;
        bestIndex[r] = 0;
    }

    // The chunk being staged: its loads are issued before the barrier that lets the stores begin.
    float4 nextX[SLOTS(TILE_D)];
    float4 nextC[SLOTS(TILE_C)];

    for (uint block = 0; block < k; block += TILE_C) {
        // Arrays indexed only in fully unrolled loops, so they stay in registers.
        float acc[REG_D][REG_C];
#pragma unroll
        for (uint r = 0; r < REG_D; ++r) {
#pragma unroll
            for (uint s = 0; s < REG_C; ++s) acc[r][s] = 0.0f;
        }
        // |c|^2 of the block's centroids lid, lid + ITEMS, ... in dimension order.
        float norm[(TILE_C + ITEMS - 1) / ITEMS];
#pragma unroll
        for (uint j = 0; j < (TILE_C + ITEMS - 1) / ITEMS; ++j) norm[j] = 0.0f;

        for (uint d0 = 0; d0 < DIM; d0 += CHUNK) {
#pragma unroll
            LOAD(nextX, descriptors, first, count, TILE_D, d0)
#pragma unroll
            LOAD(nextC, centroids, block, k, TILE_C, d0)
            barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
            STORE(xs, nextX, TILE_D)
#pragma unroll
            STORE(cs, nextC, TILE_C)
            barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
            for (uint j = 0; j < (TILE_C + ITEMS - 1) / ITEMS; ++j) {
                if (j * ITEMS + lid < TILE_C) {
                    for (uint d = 0; d < CHUNK; ++d) {
                        const float v = cs[d * TILE_C + j * ITEMS + lid];
                        norm[j] = mad(v, v, norm[j]);
                    }
                }
            }
#pragma unroll
            for (uint d = 0; d < CHUNK; ++d) {
                float x[REG_D];
                float c[REG_C];
#pragma unroll
                for (uint q = 0; q < REG_D / 4; ++q)
                    UNPACK(x, q, ((__local const float4*)xs)[d * (TILE_D / 4) + q * LX + tx]);
#pragma unroll
                for (uint q = 0; q < REG_C / 4; ++q)
                    UNPACK(c, q, ((__local const float4*)cs)[d * (TILE_C / 4) + q * LY + ty]);
#pragma unroll
                for (uint q = 0; q < REG_C / 4; ++q) {
                    if (GROUP_BELOW_K(q)) {
#pragma unroll
                        for (uint r = 0; r < REG_D; ++r) {
#pragma unroll
                            for (uint s = 4 * q; s < 4 * q + 4; ++s) acc[r][s] = mad(x[r], c[s], acc[r][s]);
                        }
                    }
                }
            }
        }
#pragma unroll
        for (uint j = 0; j < (TILE_C + ITEMS - 1) / ITEMS; ++j) {
            if (j * ITEMS + lid < TILE_C) norms[j * ITEMS + lid] = norm[j];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        // This work-item's centroids are visited in increasing order, so the strict < keeps the lowest index.
#pragma unroll
        for (uint q = 0; q < REG_C / 4; ++q) {
            const uint column = 4 * (q * LY + ty);
            const float4 norm4 = norms4[q * LY + ty];
            const float n[4] = {norm4.x, norm4.y, norm4.z, norm4.w};
#pragma unroll
            for (uint i = 0; i < 4; ++i) {
                const uint c = block + column + i;
#pragma unroll
                for (uint r = 0; r < REG_D; ++r) {
                    const float score = mad(-2.0f, acc[r][4 * q + i], n[i]);
                    if (score < bestScore[r] && BELOW_K(c)) {
                        bestScore[r] = score;
                        bestIndex[r] = c;
                    }
                }
            }
        }
    }
    // The LY candidates of each descriptor, candidate y of row at [y * TILE_D + row].
    __local float* candidateScore = (__local float*)pool;
    __local uint* candidateIndex = (__local uint*)pool + LY * TILE_D;
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (uint r = 0; r < REG_D; ++r) {
        const uint row = 4 * ((r / 4) * LX + tx) + r % 4;
        candidateScore[ty * TILE_D + row] = bestScore[r];
        candidateIndex[ty * TILE_D + row] = bestIndex[r];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint row = lid; row < TILE_D; row += ITEMS) {
        float score = candidateScore[row];
        uint index = candidateIndex[row];
        for (uint y = 1; y < LY; ++y) {
            if (better(candidateScore[y * TILE_D + row], candidateIndex[y * TILE_D + row], score, index)) {
                score = candidateScore[y * TILE_D + row];
                index = candidateIndex[y * TILE_D + row];
            }
        }
        if (first + row < count) {
            memberships[first + row] = index;
            atomic_inc(&localHistogram[index]);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < k; b += ITEMS) {
        if (localHistogram[b] != 0) atomic_add(&histogram[b], localHistogram[b]);
    }
}
#endif

#ifdef TENSOR
// Ours on NVIDIA's tensor cores (compute capability 8.0 or later; inline PTX, so built for NVIDIA only, or
// with EMULATE_MMA anywhere): the dot products x.c as warp-wide 16 x 8 x 16 matrix products (mma.m16n8k16) of
// halves with float accumulation. A half keeps 11 significant bits, too few for the exactness rule, so every
// value v is split into a head h = half(v) and a tail half(2^11 (v - h)), and x.c is summed as
// head.head + 2^-11 (head.tail + tail.head): the dropped tail.tail and the tail's own rounding are below
// 2^-21 of |x_d c_d|, the order of float multiply-adds' rounding. Halves hold 5 exponent bits, so each
// descriptor row and each centroid is first scaled by a power of two (exact) that puts its largest magnitude
// in [0.5, 1), and the dot product scaled back. (TF32 in the same split, mma.m16n8k8, is exact too without
// the scaling but has half the rate: 0.046 ms against 0.034 ms at 65536 x 256 on the H100, bench/README.md.)
// A warp owns MTILES x 16 descriptors, their heads and tails in registers, and sweeps the centroids NTILES x
// 8 at a time, reading them through the cache; the rest is assign_tiled's: scores |c|^2 - 2 x.c, each
// work-item's best per descriptor row, the 4 candidates of a row compared at the end, a local histogram.
// The fragments of mma.m16n8k16 (PTX ISA), lane = 4 g + t, a register holding two halves (the lower index in
// the low 16 bits): A (16 x 16, row-major) a0 = (g, 2t..2t+1), a1 = (g + 8, 2t..), a2 = (g, 2t+8..2t+9),
// a3 = (g + 8, 2t+8..); B (16 x 8, column-major) b0 = (2t..2t+1, g), b1 = (2t+8..2t+9, g); C and D (16 x 8)
// (g, 2t), (g, 2t + 1), (g + 8, 2t), (g + 8, 2t + 1). A dot product may visit its dimensions in any order, so
// step s's k indices 2t, 2t + 1, 2t + 8, 2t + 9 stand for dimensions 16s + 4t .. 16s + 4t + 3: one float4
// load per lane and row feeds a step.
#ifndef WARPS
#define WARPS 8
#endif
#ifndef NTILES
#define NTILES 2
#endif
#ifndef MTILES
#define MTILES 4
#endif
#define TENSOR_ITEMS (32 * WARPS)
#define TENSOR_ROWS (16 * MTILES * WARPS)
#define STEPS (DIM / 16)
#define TAIL_SCALE 2048.0f

#ifdef EMULATE_MMA
// Where there are no tensor cores (PoCL, for the tests): halves through vstore_half / vload_half, and
// mma.m16n8k16 in the same fragments, the warp's A and B exchanged through local memory (EXCHANGE_FLOATS per
// warp), each lane summing its four elements of D in k order. Products of halves are exact in float, as on
// the tensor cores. Every work-item of the group runs every product, so all reach the barriers.
inline uint pack_halves(float lo, float hi) {
    ushort bits[2];
    vstore_half_rte(lo, 0, (__private half*)bits);
    vstore_half_rte(hi, 1, (__private half*)bits);
    return (uint)bits[0] | ((uint)bits[1] << 16);
}
inline float2 unpack_halves(uint packed) {
    ushort bits[2] = {packed & 0xffffu, packed >> 16};
    return (float2)(vload_half(0, (__private const half*)bits), vload_half(1, (__private const half*)bits));
}
#define EXCHANGE_FLOATS 384
inline float4 mma_halves(uint4 a, uint2 b, float4 c, __local float* exchange, uint g, uint t) {
    __local float* const A = exchange;        // 16 x 16
    __local float* const B = exchange + 256;  // B[k * 8 + n]
    barrier(CLK_LOCAL_MEM_FENCE);
    const float2 a0 = unpack_halves(a.x), a1 = unpack_halves(a.y), a2 = unpack_halves(a.z),
                 a3 = unpack_halves(a.w), b0 = unpack_halves(b.x), b1 = unpack_halves(b.y);
    A[g * 16 + 2 * t] = a0.x;
    A[g * 16 + 2 * t + 1] = a0.y;
    A[(g + 8) * 16 + 2 * t] = a1.x;
    A[(g + 8) * 16 + 2 * t + 1] = a1.y;
    A[g * 16 + 2 * t + 8] = a2.x;
    A[g * 16 + 2 * t + 9] = a2.y;
    A[(g + 8) * 16 + 2 * t + 8] = a3.x;
    A[(g + 8) * 16 + 2 * t + 9] = a3.y;
    B[(2 * t) * 8 + g] = b0.x;
    B[(2 * t + 1) * 8 + g] = b0.y;
    B[(2 * t + 8) * 8 + g] = b1.x;
    B[(2 * t + 9) * 8 + g] = b1.y;
    barrier(CLK_LOCAL_MEM_FENCE);
    float4 d = c;
    for (uint k = 0; k < 16; ++k) {
        d.x = mad(A[g * 16 + k], B[k * 8 + 2 * t], d.x);
        d.y = mad(A[g * 16 + k], B[k * 8 + 2 * t + 1], d.y);
        d.z = mad(A[(g + 8) * 16 + k], B[k * 8 + 2 * t], d.z);
        d.w = mad(A[(g + 8) * 16 + k], B[k * 8 + 2 * t + 1], d.w);
    }
    return d;
}
#define MMA(D, A, B) D = mma_halves(A, B, D, exchange + warp * EXCHANGE_FLOATS, g, t)
#else
// Two floats rounded to halves in one register, lo in the low 16 bits.
inline uint pack_halves(float lo, float hi) {
    uint packed;
    asm("cvt.rn.f16x2.f32 %0, %1, %2;" : "=r"(packed) : "f"(hi), "f"(lo));
    return packed;
}
inline float2 unpack_halves(uint packed) {
    float lo, hi;
    asm("{\n.reg .f16 l, h;\nmov.b32 {l, h}, %2;\ncvt.f32.f16 %0, l;\ncvt.f32.f16 %1, h;\n}"
        : "=f"(lo), "=f"(hi)
        : "r"(packed));
    return (float2)(lo, hi);
}
// D = A B + C on the tensor cores, in mma.m16n8k16's fragments.
inline float4 mma_halves(uint4 a, uint2 b, float4 c) {
    float d0, d1, d2, d3;
    asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 "
        "{%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%10, %11, %12, %13};"
        : "=f"(d0), "=f"(d1), "=f"(d2), "=f"(d3)
        : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "r"(b.x), "r"(b.y), "f"(c.x), "f"(c.y), "f"(c.z), "f"(c.w));
    return (float4)(d0, d1, d2, d3);
}
#define MMA(D, A, B) D = mma_halves(A, B, D)
#endif

// HEAD and TAIL (uint2: elements x, y then z, w) = the head and tail halves of the float4 V (scaled).
#define SPLIT(HEAD, TAIL, V)                                                                   \
    do {                                                                                       \
        const float4 v_ = (V);                                                                 \
        HEAD = (uint2)(pack_halves(v_.x, v_.y), pack_halves(v_.z, v_.w));                      \
        const float2 lo_ = unpack_halves(HEAD.x), hi_ = unpack_halves(HEAD.y);                 \
        TAIL = (uint2)(pack_halves((v_.x - lo_.x) * TAIL_SCALE, (v_.y - lo_.y) * TAIL_SCALE),  \
                       pack_halves((v_.z - hi_.x) * TAIL_SCALE, (v_.w - hi_.y) * TAIL_SCALE)); \
    } while (0)

// The e of the largest magnitude M = f 2^e, f in [0.5, 1), so that 2^-e scales a row into halves' range; 0
// for a row of zeros; clamped so that 2^e and 2^-e stay normal floats.
#define EXPONENT_OF(M) ((M) > 0.0f ? clamp(ilogb(M) + 1, -100, 100) : 0)

#define MAX4(V) fmax(fmax(fabs((V).x), fabs((V).y)), fmax(fabs((V).z), fabs((V).w)))

__kernel __attribute__((reqd_work_group_size(TENSOR_ITEMS, 1, 1))) void assign_tensor(
    __global const float4* descriptors, uint count, __global const float4* centroids, uint k,
    __global uint* memberships, __global uint* histogram, __local uint* localHistogram,
    __local float* norms) {
    __local float candidateScore[4 * TENSOR_ROWS];
    __local uint candidateIndex[4 * TENSOR_ROWS];
    __local float rowMaxima[4 * TENSOR_ROWS];
    // norms holds 2k floats: |c|^2 of each centroid, then the 2^e its values were scaled down by.
    __local float* const unscales = norms + k;
#ifdef EMULATE_MMA
    __local float exchange[WARPS * EXCHANGE_FLOATS];
#endif
    const uint lid = get_local_id(0);
    const uint lane = lid % 32, warp = lid / 32;
    const uint g = lane / 4, t = lane % 4;
    const uint first = get_group_id(0) * TENSOR_ROWS;
    const uint warpRow = 16 * MTILES * warp + g;

    // Rows g and g + 8 of each of the warp's tiles (zeros past count: every lane runs every product); a row's
    // four lanes hold a quarter each, so its largest magnitude is gathered through rowMaxima.
    float4 x[MTILES][2][STEPS];
#pragma unroll
    for (uint m = 0; m < MTILES; ++m) {
#pragma unroll
        for (uint below = 0; below < 2; ++below) {
            const uint row = first + warpRow + 16 * m + 8 * below;
            float largest = 0.0f;
#pragma unroll
            for (uint s = 0; s < STEPS; ++s) {
                x[m][below][s] = row < count ? descriptors[row * QUADS + 4 * s + t] : (float4)(0.0f);
                largest = fmax(largest, MAX4(x[m][below][s]));
            }
            rowMaxima[4 * (warpRow + 16 * m + 8 * below) + t] = largest;
        }
    }
    // |c|^2 in dimension order, like assign_tiled's, and each centroid's scale.
#pragma unroll 1
    for (uint c = lid; c < k; c += TENSOR_ITEMS) {
        localHistogram[c] = 0;
        float norm = 0.0f, largest = 0.0f;
        for (uint q = 0; q < QUADS; ++q) {
            const float4 v = centroids[c * QUADS + q];
            norm = mad(v.x, v.x, norm);
            norm = mad(v.y, v.y, norm);
            norm = mad(v.z, v.z, norm);
            norm = mad(v.w, v.w, norm);
            largest = fmax(largest, MAX4(v));
        }
        norms[c] = norm;
        unscales[c] = ldexp(1.0f, EXPONENT_OF(largest));
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    // The rows scaled and split, as A fragments.
    uint4 headA[MTILES][STEPS], tailA[MTILES][STEPS];
    float rowUnscale[MTILES][2];
#pragma unroll
    for (uint m = 0; m < MTILES; ++m) {
        uint2 head[2][STEPS], tail[2][STEPS];
#pragma unroll
        for (uint below = 0; below < 2; ++below) {
            const uint localRow = warpRow + 16 * m + 8 * below;
            const float largest = fmax(fmax(rowMaxima[4 * localRow], rowMaxima[4 * localRow + 1]),
                                       fmax(rowMaxima[4 * localRow + 2], rowMaxima[4 * localRow + 3]));
            const int e = EXPONENT_OF(largest);
            rowUnscale[m][below] = ldexp(1.0f, e);
            const float scale = ldexp(1.0f, -e);
#pragma unroll
            for (uint s = 0; s < STEPS; ++s) SPLIT(head[below][s], tail[below][s], x[m][below][s] * scale);
        }
#pragma unroll
        for (uint s = 0; s < STEPS; ++s) {
            headA[m][s] = (uint4)(head[0][s].x, head[1][s].x, head[0][s].y, head[1][s].y);
            tailA[m][s] = (uint4)(tail[0][s].x, tail[1][s].x, tail[0][s].y, tail[1][s].y);
        }
    }

    float best[MTILES][2];
    uint bestIndex[MTILES][2];
#pragma unroll
    for (uint m = 0; m < MTILES; ++m) {
        best[m][0] = best[m][1] = INFINITY;
        bestIndex[m][0] = bestIndex[m][1] = 0;
    }
    for (uint block = 0; block < k; block += 8 * NTILES) {
        float4 big[MTILES][NTILES], small[MTILES][NTILES];
#pragma unroll
        for (uint m = 0; m < MTILES; ++m) {
#pragma unroll
            for (uint n = 0; n < NTILES; ++n) big[m][n] = small[m][n] = (float4)(0.0f);
        }
#pragma unroll
        for (uint n = 0; n < NTILES; ++n) {
            const uint column = block + 8 * n + g;
            const float scale = BELOW_K(column) ? 1.0f / unscales[column] : 0.0f;
#pragma unroll
            for (uint s = 0; s < STEPS; ++s) {
                const float4 c = BELOW_K(column) ? centroids[column * QUADS + 4 * s + t] : (float4)(0.0f);
                uint2 headB, tailB;
                SPLIT(headB, tailB, c * scale);
#pragma unroll
                for (uint m = 0; m < MTILES; ++m) {
                    MMA(big[m][n], headA[m][s], headB);
                    MMA(small[m][n], headA[m][s], tailB);
                    MMA(small[m][n], tailA[m][s], headB);
                }
            }
        }
        // This lane's columns 2t and 2t + 1 of each tile, in increasing order (the strict < keeps the lowest
        // index of a tie); x.c = 2^(e_x + e_c) (head.head + 2^-11 (head.tail + tail.head)), the powers of two
        // exact.
#pragma unroll
        for (uint n = 0; n < NTILES; ++n) {
            const uint column = block + 8 * n + 2 * t;
            const float norm0 = BELOW_K(column) ? norms[column] : 0.0f;
            const float norm1 = BELOW_K(column + 1) ? norms[column + 1] : 0.0f;
            const float unscale0 = BELOW_K(column) ? unscales[column] : 0.0f;
            const float unscale1 = BELOW_K(column + 1) ? unscales[column + 1] : 0.0f;
#pragma unroll
            for (uint m = 0; m < MTILES; ++m) {
                const float4 dot = mad(small[m][n], (float4)(1.0f / TAIL_SCALE), big[m][n]);
                KEEP_BEST(best[m][0], bestIndex[m][0], mad(-2.0f * rowUnscale[m][0] * unscale0, dot.x, norm0),
                          column);
                KEEP_BEST(best[m][0], bestIndex[m][0], mad(-2.0f * rowUnscale[m][0] * unscale1, dot.y, norm1),
                          column + 1);
                KEEP_BEST(best[m][1], bestIndex[m][1], mad(-2.0f * rowUnscale[m][1] * unscale0, dot.z, norm0),
                          column);
                KEEP_BEST(best[m][1], bestIndex[m][1], mad(-2.0f * rowUnscale[m][1] * unscale1, dot.w, norm1),
                          column + 1);
            }
        }
    }

    // Local row r's candidate from lane t at [4 r + t].
#pragma unroll
    for (uint m = 0; m < MTILES; ++m) {
#pragma unroll
        for (uint below = 0; below < 2; ++below) {
            const uint row = warpRow + 16 * m + 8 * below;
            candidateScore[4 * row + t] = best[m][below];
            candidateIndex[4 * row + t] = bestIndex[m][below];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint row = lid; row < TENSOR_ROWS; row += TENSOR_ITEMS) {
        float score = candidateScore[4 * row];
        uint index = candidateIndex[4 * row];
        for (uint y = 1; y < 4; ++y) {
            if (better(candidateScore[4 * row + y], candidateIndex[4 * row + y], score, index)) {
                score = candidateScore[4 * row + y];
                index = candidateIndex[4 * row + y];
            }
        }
        if (first + row < count) {
            memberships[first + row] = index;
            atomic_inc(&localHistogram[index]);
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < k; b += TENSOR_ITEMS) {
        if (localHistogram[b] != 0) atomic_add(&histogram[b], localHistogram[b]);
    }
}
#endif
