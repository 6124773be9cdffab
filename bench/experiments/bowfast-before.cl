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

// |c|^2 of every centroid, for assign_tiled.
__kernel void centroid_norms(__global const float4* centroids, uint k, __global float* norms) {
    const uint c = get_global_id(0);
    if (c >= k) return;
    float norm = 0.0f;
    for (uint q = 0; q < QUADS; ++q) {
        const float4 v = centroids[c * QUADS + q];
        norm += dot(v, v);
    }
    norms[c] = norm;
}

#ifdef TILE
// Ours. A work-group of 16 x 16 work-items owns TILE_D = 16 REG_D descriptors and sweeps the centroids in
// blocks of TILE_C = 16 REG_C; work-item (tx, ty) computes the REG_D x REG_C dot products of its descriptors
// (the float4 groups tx, tx + 16, ... of the group's) and centroids (likewise from ty) from CHUNK dimensions
// at a time staged in local memory, so each value loaded from local memory feeds REG_C (or REG_D)
// multiply-adds: the product runs on the FMA units, not on local-memory bandwidth. |x|^2 is the same for
// every centroid of a descriptor, so the argmin compares |c|^2 - 2 x.c. The group counts its descriptors in a
// local histogram (`localHistogram`, k counters) added to the global one once per group. The host launches
// one group per 64 descriptors (REG_D 4); REG_C 16 makes a block of 256 centroids, and 64 multiply-adds per 5
// float4 read from local memory.
#ifndef REG_D
#define REG_D 4
#endif
#ifndef REG_C
#define REG_C 16
#endif
#define SIDE 16
#define TILE_D (SIDE * REG_D)
#define TILE_C (SIDE * REG_C)
#define CHUNK 16

// Stages dimensions d0 .. d0 + CHUNK - 1 of rows first .. first + 16 REG - 1 (zeros beyond `rows`) into
// `staged`, staged[d][r] holding rows 4r .. 4r + 3: each work-item reads a float4 of one row (4 work-items
// read a row's 64 bytes) and stores it down 4 columns; the padding float4 of each column spreads those stores
// over the banks.
#define STAGE(STAGED, SOURCE, FIRST, ROWS, TILE)                                                       \
    for (uint e = lid; e < (TILE) * (CHUNK / 4); e += SIDE * SIDE) {                                   \
        const uint row = e / (CHUNK / 4), dq = e % (CHUNK / 4);                                        \
        const float4 v =                                                                               \
            (FIRST) + row < (ROWS) ? (SOURCE)[((FIRST) + row) * QUADS + d0 / 4 + dq] : (float4)(0.0f); \
        ((__local float*)(STAGED)[4 * dq + 0])[row] = v.x;                                             \
        ((__local float*)(STAGED)[4 * dq + 1])[row] = v.y;                                             \
        ((__local float*)(STAGED)[4 * dq + 2])[row] = v.z;                                             \
        ((__local float*)(STAGED)[4 * dq + 3])[row] = v.w;                                             \
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

// Better of two candidates: the lower score, or the lower index at an equal one.
inline bool better(float score, uint index, float best, uint bestIndex) {
    return score < best || (score == best && index < bestIndex);
}

__kernel __attribute__((reqd_work_group_size(SIDE, SIDE, 1))) void assign_tiled(
    __global const float4* descriptors, uint count, __global const float4* centroids,
    __global const float* norms, uint k, __global uint* memberships, __global uint* histogram,
    __local uint* localHistogram) {
    __local float4 xs[CHUNK][TILE_D / 4 + 1];
    __local float4 cs[CHUNK][TILE_C / 4 + 1];
    __local float candidateScore[SIDE][TILE_D];
    __local uint candidateIndex[SIDE][TILE_D];

    const uint tx = get_local_id(0);
    const uint ty = get_local_id(1);
    const uint lid = ty * SIDE + tx;
    const uint first = get_group_id(0) * TILE_D;

    for (uint b = lid; b < k; b += SIDE * SIDE) localHistogram[b] = 0;

    // Of the group's descriptor lid, for lid < TILE_D.
    float runningScore = INFINITY;
    uint runningIndex = 0;

    for (uint block = 0; block < k; block += TILE_C) {
        // Arrays indexed only in fully unrolled loops, so they stay in registers.
        float acc[REG_D][REG_C];
#pragma unroll
        for (uint r = 0; r < REG_D; ++r) {
#pragma unroll
            for (uint s = 0; s < REG_C; ++s) acc[r][s] = 0.0f;
        }
        for (uint d0 = 0; d0 < DIM; d0 += CHUNK) {
            barrier(CLK_LOCAL_MEM_FENCE);
            STAGE(xs, descriptors, first, count, TILE_D)
            STAGE(cs, centroids, block, k, TILE_C)
            barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
            for (uint d = 0; d < CHUNK; ++d) {
                float x[REG_D];
                float c[REG_C];
#pragma unroll
                for (uint q = 0; q < REG_D / 4; ++q) UNPACK(x, q, xs[d][q * SIDE + tx]);
#pragma unroll
                for (uint q = 0; q < REG_C / 4; ++q) UNPACK(c, q, cs[d][q * SIDE + ty]);
                    // Centroid groups wholly beyond k (a last block of fewer than TILE_C) are skipped: the
                    // same branch for the whole group.
#pragma unroll
                for (uint q = 0; q < REG_C / 4; ++q) {
                    if (block + q * SIDE * 4 < k) {
#pragma unroll
                        for (uint r = 0; r < REG_D; ++r) {
#pragma unroll
                            for (uint s = 4 * q; s < 4 * q + 4; ++s) acc[r][s] = mad(x[r], c[s], acc[r][s]);
                        }
                    }
                }
            }
        }
        // The best of this work-item's centroids (visited in increasing order) for each of its descriptors.
#pragma unroll
        for (uint r = 0; r < REG_D; ++r) {
            float best = INFINITY;
            uint bestIndex = 0;
#pragma unroll
            for (uint s = 0; s < REG_C; ++s) {
                const uint c = block + ((s / 4) * SIDE + ty) * 4 + s % 4;
                if (c >= k) continue;
                const float score = norms[c] - 2.0f * acc[r][s];
                if (score < best) {
                    best = score;
                    bestIndex = c;
                }
            }
            const uint row = ((r / 4) * SIDE + tx) * 4 + r % 4;
            candidateScore[ty][row] = best;
            candidateIndex[ty][row] = bestIndex;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < TILE_D) {
            for (uint y = 0; y < SIDE; ++y) {
                if (better(candidateScore[y][lid], candidateIndex[y][lid], runningScore, runningIndex)) {
                    runningScore = candidateScore[y][lid];
                    runningIndex = candidateIndex[y][lid];
                }
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < TILE_D && first + lid < count) {
        memberships[first + lid] = runningIndex;
        atomic_inc(&localHistogram[runningIndex]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint b = lid; b < k; b += SIDE * SIDE) {
        if (localHistogram[b] != 0) atomic_add(&histogram[b], localHistogram[b]);
    }
}
#endif
