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
// Ours. A work-group of 16 x 16 work-items owns TILE_D = 64 descriptors and sweeps the centroids in blocks of
// TILE_C = 64; work-item (tx, ty) computes the 4 x 4 dot products of descriptors 4tx.. and centroids 4ty.. of
// the block from CHUNK dimensions at a time staged in local memory, so each value loaded from local memory
// feeds 4 multiply-adds. |x|^2 is the same for every centroid of a descriptor, so the argmin compares
// |c|^2 - 2 x.c. The block's 16 candidates per descriptor are reduced in increasing centroid order; the
// group counts its descriptors in a local histogram (`localHistogram`, k counters) added to the global one
// once per group.
#define TILE_D 64
#define TILE_C 64
#define CHUNK 16
#define SIDE 16

__kernel __attribute__((reqd_work_group_size(SIDE, SIDE, 1))) void assign_tiled(
    __global const float* descriptors, uint count, __global const float* centroids,
    __global const float* norms, uint k, __global uint* memberships, __global uint* histogram,
    __local uint* localHistogram) {
    __local float4 xs[CHUNK][TILE_D / 4];  // xs[d][r] = dimensions d of descriptors 4r..4r+3
    __local float4 cs[CHUNK][TILE_C / 4];
    __local float candidateScore[SIDE][TILE_D];
    __local uint candidateIndex[SIDE][TILE_D];

    const uint tx = get_local_id(0);
    const uint ty = get_local_id(1);
    const uint lid = ty * SIDE + tx;
    const uint first = get_group_id(0) * TILE_D;

    for (uint b = lid; b < k; b += SIDE * SIDE) localHistogram[b] = 0;

    float runningScore = INFINITY;  // of descriptor first + lid, for lid < TILE_D
    uint runningIndex = 0;

    for (uint block = 0; block < k; block += TILE_C) {
        float acc[4][4] = {{0.0f}};
        for (uint d0 = 0; d0 < DIM; d0 += CHUNK) {
            barrier(CLK_LOCAL_MEM_FENCE);
            // TILE_D x CHUNK descriptor values and TILE_C x CHUNK centroid values, 4 of each per work-item;
            // consecutive work-items read consecutive dimensions of a row.
            for (uint e = lid; e < TILE_D * CHUNK; e += SIDE * SIDE) {
                const uint row = e / CHUNK, d = e % CHUNK;
                const uint i = first + row, c = block + row;
                ((__local float*)xs[d])[row] = i < count ? descriptors[i * DIM + d0 + d] : 0.0f;
                ((__local float*)cs[d])[row] = c < k ? centroids[c * DIM + d0 + d] : 0.0f;
            }
            barrier(CLK_LOCAL_MEM_FENCE);
            for (uint d = 0; d < CHUNK; ++d) {
                const float4 x = xs[d][tx];
                const float4 c = cs[d][ty];
                acc[0][0] = mad(x.x, c.x, acc[0][0]);
                acc[0][1] = mad(x.x, c.y, acc[0][1]);
                acc[0][2] = mad(x.x, c.z, acc[0][2]);
                acc[0][3] = mad(x.x, c.w, acc[0][3]);
                acc[1][0] = mad(x.y, c.x, acc[1][0]);
                acc[1][1] = mad(x.y, c.y, acc[1][1]);
                acc[1][2] = mad(x.y, c.z, acc[1][2]);
                acc[1][3] = mad(x.y, c.w, acc[1][3]);
                acc[2][0] = mad(x.z, c.x, acc[2][0]);
                acc[2][1] = mad(x.z, c.y, acc[2][1]);
                acc[2][2] = mad(x.z, c.z, acc[2][2]);
                acc[2][3] = mad(x.z, c.w, acc[2][3]);
                acc[3][0] = mad(x.w, c.x, acc[3][0]);
                acc[3][1] = mad(x.w, c.y, acc[3][1]);
                acc[3][2] = mad(x.w, c.z, acc[3][2]);
                acc[3][3] = mad(x.w, c.w, acc[3][3]);
            }
        }
        // The best of this work-item's 4 centroids for each of its 4 descriptors.
        for (uint r = 0; r < 4; ++r) {
            float best = INFINITY;
            uint bestIndex = 0;
            for (uint s = 0; s < 4; ++s) {
                const uint c = block + ty * 4 + s;
                if (c >= k) break;
                const float score = norms[c] - 2.0f * acc[r][s];
                if (score < best) {
                    best = score;
                    bestIndex = c;
                }
            }
            candidateScore[ty][tx * 4 + r] = best;
            candidateIndex[ty][tx * 4 + r] = bestIndex;
        }
        barrier(CLK_LOCAL_MEM_FENCE);
        if (lid < TILE_D) {
            // ty increases with the centroid index, and earlier blocks hold lower ones: strict < keeps the
            // lowest index of a tie.
            for (uint y = 0; y < SIDE; ++y) {
                if (candidateScore[y][lid] < runningScore) {
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
