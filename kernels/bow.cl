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

// With FULL_BLOCKS (k a multiple of TILE_C) no centroid index is checked against k; without, centroid
// groups wholly beyond k in the last block are skipped (the same branch for the whole group) and their
// scores ignored.
#ifdef FULL_BLOCKS
#define GROUP_BELOW_K(q) true
#define BELOW_K(c) true
#else
#define GROUP_BELOW_K(q) (block + 4 * (q)*LY < k)
#define BELOW_K(c) ((c) < k)
#endif

// Better of two candidates: the lower score, or the lower index at an equal one.
inline bool better(float score, uint index, float best, uint bestIndex) {
    return score < best || (score == best && index < bestIndex);
}

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
