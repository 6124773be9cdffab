// Convolution of RGBA8 images, applied as a correlation (like OpenCV's filter2D): tap (i, j) weighs the input
// at (x + i - KW / 2, y + j - KH / 2), coordinates clamped to the image; R, G, B are filtered, alpha is kept;
// the 8-bit result is saturate(round(sum)), halves to even. See app/engine/ops/convolve/filter.hpp.
//
// Specialised with:
//   -D KW=<1..15> -D KH=<1..15>  filter width and height
//   -D INTEGER=1   integer taps, sums in int, result round(sum / divisor) computed exactly;
//   -D INTEGER=0   float taps already divided by the divisor, sums in float
//   -D MAGNITUDE=1 two tap sets a and b (KW * KH each, a first); result sqrt(a^2 + b^2), e.g. Sobel
//   -D TILE_X=.. -D TILE_Y=.. -D ROWS=..  the tiled kernels' output block per work-group (TILE_Y a multiple
//                 of ROWS) and the output rows per work-item
//   -D SEPARABLE   with TILE_X: convolve_separable instead of convolve_local
// A program holds only the kernels its options select (convolve_buffer and convolve_image without TILE_X):
// PoCL compiles every kernel of a program once more when its binary is read for the program cache.

#if !defined(KW) || !defined(KH) || !defined(INTEGER) || !defined(MAGNITUDE)
#error "build with -D KW=.. -D KH=.. -D INTEGER=0|1 -D MAGNITUDE=0|1"
#endif

#define KSIZE (KW * KH)
#define AX (KW / 2)
#define AY (KH / 2)

#if INTEGER
typedef int weight_t;
typedef int4 sum_t;
#define to_sum convert_int4
#else
typedef float weight_t;
typedef float4 sum_t;
#define to_sum convert_float4
#endif

// The running sums of one output pixel: a, and b for a gradient magnitude.
typedef struct {
    sum_t a;
    sum_t b;
} sums_t;

inline sums_t no_sums(void) {
    sums_t s;
    s.a = (sum_t)(0);
    s.b = (sum_t)(0);
    return s;
}

inline void add_tap(sums_t* s, __constant const weight_t* taps, int k, uchar4 p) {
    const sum_t v = to_sum(p);
    s->a += v * taps[k];
#if MAGNITUDE
    s->b += v * taps[KSIZE + k];
#endif
}

#if INTEGER
// round(sum / divisor) with halves to even, exactly, for divisor > 0.
inline int rounded_quotient(int sum, int divisor) {
    int quotient = sum / divisor;
    int remainder = sum % divisor;
    if (remainder < 0) {
        remainder += divisor;
        quotient -= 1;
    }
    // 2 * remainder compared with divisor, without overflowing.
    if (remainder > divisor - remainder || (remainder == divisor - remainder && (quotient & 1)))
        quotient += 1;
    return quotient;
}

// round(sqrt(n)) saturated to 255, exactly: float sqrt gives a candidate, integer bounds settle it
// (round(sqrt(n)) = k exactly when k^2 - k < n <= k^2 + k).
inline int rounded_root(int n) {
    if (n > 255 * 255 + 255) return 255;
    int k = (int)rint(sqrt((float)n));
    if (k > 0 && k * k - k >= n) k -= 1;
    if (k * k + k < n) k += 1;
    return k;
}
#endif

inline uchar4 finish(sums_t s, int divisor, uchar alpha) {
#if MAGNITUDE && INTEGER
    const int4 n = s.a * s.a + s.b * s.b;
    const int4 v = (int4)(rounded_root(n.x), rounded_root(n.y), rounded_root(n.z), 0);
#elif MAGNITUDE
    const float4 v = sqrt(s.a * s.a + s.b * s.b);
#elif INTEGER
    const int4 v = (int4)(rounded_quotient(s.a.x, divisor), rounded_quotient(s.a.y, divisor),
                          rounded_quotient(s.a.z, divisor), 0);
#else
    const float4 v = s.a;
#endif
#if INTEGER
    uchar4 out = convert_uchar4_sat(v);
#else
    uchar4 out = convert_uchar4_sat_rte(v);
#endif
    out.w = alpha;
    return out;
}

#ifndef TILE_X
// buffer-naive: every tap read from global memory.
__kernel void convolve_buffer(__global const uchar4* src, __global uchar4* dst, int width, int height,
                              __constant const weight_t* taps, int divisor) {
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) return;
    sums_t s = no_sums();
    for (int j = 0; j < KH; ++j) {
        const __global uchar4* row = src + clamp(y + j - AY, 0, height - 1) * width;
        for (int i = 0; i < KW; ++i) add_tap(&s, taps, j * KW + i, row[clamp(x + i - AX, 0, width - 1)]);
    }
    dst[y * width + x] = finish(s, divisor, src[y * width + x].w);
}

// image-sampler: the classic listing; the host-made sampler (unnormalised coordinates, clamp to edge,
// nearest) does the border.
__kernel void convolve_image(__read_only image2d_t src, sampler_t sampler, __global uchar4* dst, int width,
                             int height, __constant const weight_t* taps, int divisor) {
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) return;
    sums_t s = no_sums();
    for (int j = 0; j < KH; ++j) {
        for (int i = 0; i < KW; ++i)
            add_tap(&s, taps, j * KW + i,
                    convert_uchar4(read_imageui(src, sampler, (int2)(x + i - AX, y + j - AY))));
    }
    dst[y * width + x] = finish(s, divisor, convert_uchar4(read_imageui(src, sampler, (int2)(x, y))).w);
}

#else
// The tiled kernels: a work-group of TILE_X x (TILE_Y / ROWS) work-items makes a TILE_X x TILE_Y block of the
// output; work-item (lx, ly) makes the ROWS pixels of column lx from row ly * ROWS down, so every tile row it
// reads serves up to ROWS outputs (kept in registers), and the 32 work-items of a warp read 32 neighbouring
// pixels of one tile row: one local-memory access each.
#define GROUP_Y (TILE_Y / ROWS)
#define TILE_W (TILE_X + KW - 1)
#define TILE_H (TILE_Y + KH - 1)

#define GROUP_SIZE (TILE_X * GROUP_Y)
#define TILE_LOADS ((TILE_W * TILE_H + GROUP_SIZE - 1) / GROUP_SIZE)
// The separable row pass makes ROW_BLOCK neighbouring row sums per work-item (4 where the block's width
// allows), so each input pixel is read and converted once for 4 sums instead of once per sum.
#if TILE_X % 4 == 0
#define ROW_BLOCK 4
#else
#define ROW_BLOCK 1
#endif
// With ROW_BLOCK 4 the row pitch of the local input block is 1 modulo 4 (TILE_W padded by up to 3 pixels), so
// that the row pass's work-items (8 to a row of a 32-wide block, 4 pixels apart, 4 rows to a warp) hit 32
// different banks.
#if ROW_BLOCK == 4
#define TILE_PITCH (TILE_W + (5 - TILE_W % 4) % 4)
#else
#define TILE_PITCH TILE_W
#endif

// Loads the group's input block plus the filter's halo (coordinates clamped to the image) into `tile`, in
// row-major order, consecutive work-items on consecutive pixels; a fixed, unrolled count of loads per
// work-item, all issued before the first is stored, so a work-item has them all in flight. For blocks whose
// width is not a multiple of 4 and images whose width is not (their rows are not 16-byte aligned).
inline void load_tile_by_pixel(__local uchar4 (*tile)[TILE_PITCH], __global const uchar4* src, int width,
                               int height) {
    const int left = get_group_id(0) * TILE_X - AX;
    const int top = get_group_id(1) * TILE_Y - AY;
    const int lid = get_local_id(1) * TILE_X + get_local_id(0);
#pragma unroll
    for (int t = 0; t < TILE_LOADS; ++t) {
        const int e = lid + t * GROUP_SIZE;
        if (e < TILE_W * TILE_H) {
            const int ty = e / TILE_W;
            const int tx = e % TILE_W;
            tile[ty][tx] = src[clamp(top + ty, 0, height - 1) * width + clamp(left + tx, 0, width - 1)];
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
}

#if TILE_X % 4 == 0
#define QUADS (TILE_X / 4)
#define QUAD_LOADS ((QUADS * TILE_H + GROUP_SIZE - 1) / GROUP_SIZE)
#define HALO_W (KW - 1)
#define HALO_LOADS ((HALO_W * TILE_H + GROUP_SIZE - 1) / GROUP_SIZE)
// The same block with 16-byte loads: each tile row's TILE_X interior pixels as TILE_X / 4 loads of 4 pixels
// (aligned: the block starts at a multiple of TILE_X, rows at multiples of the width), the KW - 1 halo
// columns one pixel each; every load issued before the first store. On the H100 the same speed as pixel
// loads for a 3x3 filter, 4 % faster for 5x5 (local-tiled) and 15x15 (separable).
inline void load_tile(__local uchar4 (*tile)[TILE_PITCH], __global const uchar4* src, int width, int height) {
    if ((width & 3) != 0) {
        load_tile_by_pixel(tile, src, width, height);
        return;
    }
    const int first = get_group_id(0) * TILE_X;
    const int top = get_group_id(1) * TILE_Y - AY;
    const int lid = get_local_id(1) * TILE_X + get_local_id(0);
    uint4 quads[QUAD_LOADS];
#pragma unroll
    for (int t = 0; t < QUAD_LOADS; ++t) {
        const int e = lid + t * GROUP_SIZE;
        if (e < QUADS * TILE_H) {
            const int row = clamp(top + e / QUADS, 0, height - 1) * width;
            const int x = first + (e % QUADS) * 4;
            if (x + 3 < width) {
                quads[t] = *(const __global uint4*)(src + row + x);
            } else {
                quads[t] =
                    (uint4)(as_uint(src[row + min(x, width - 1)]), as_uint(src[row + min(x + 1, width - 1)]),
                            as_uint(src[row + min(x + 2, width - 1)]),
                            as_uint(src[row + min(x + 3, width - 1)]));
            }
        }
    }
#if HALO_W > 0
    uchar4 halo[HALO_LOADS];
#pragma unroll
    for (int t = 0; t < HALO_LOADS; ++t) {
        const int e = lid + t * GROUP_SIZE;
        if (e < HALO_W * TILE_H) {
            const int h = e % HALO_W;
            const int tx = h < AX ? h : h + TILE_X;
            halo[t] =
                src[clamp(top + e / HALO_W, 0, height - 1) * width + clamp(first - AX + tx, 0, width - 1)];
        }
    }
#endif
#pragma unroll
    for (int t = 0; t < QUAD_LOADS; ++t) {
        const int e = lid + t * GROUP_SIZE;
        if (e < QUADS * TILE_H) {
            __local uchar4* at = &tile[e / QUADS][AX + (e % QUADS) * 4];
            at[0] = as_uchar4(quads[t].x);
            at[1] = as_uchar4(quads[t].y);
            at[2] = as_uchar4(quads[t].z);
            at[3] = as_uchar4(quads[t].w);
        }
    }
#if HALO_W > 0
#pragma unroll
    for (int t = 0; t < HALO_LOADS; ++t) {
        const int e = lid + t * GROUP_SIZE;
        if (e < HALO_W * TILE_H) {
            const int h = e % HALO_W;
            tile[e / HALO_W][h < AX ? h : h + TILE_X] = halo[t];
        }
    }
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
}
#else
#define load_tile load_tile_by_pixel
#endif

#ifndef SEPARABLE
// local-tiled: the work-group loads its tile plus the filter's halo into local memory once, then every
// work-item reads its taps from there.
__kernel __attribute__((reqd_work_group_size(TILE_X, GROUP_Y, 1))) void convolve_local(
    __global const uchar4* src, __global uchar4* dst, int width, int height, __constant const weight_t* taps,
    int divisor) {
    __local uchar4 tile[TILE_H][TILE_PITCH];
    load_tile(tile, src, width, height);
    const int lx = get_local_id(0);
    const int first = get_local_id(1) * ROWS;
    // Arrays indexed only in fully unrolled loops, so they stay in registers.
    sums_t s[ROWS];
#pragma unroll
    for (int o = 0; o < ROWS; ++o) s[o] = no_sums();
        // Tile row first + j holds tap row j - o of output o.
#pragma unroll
    for (int j = 0; j < ROWS + KH - 1; ++j) {
#pragma unroll
        for (int i = 0; i < KW; ++i) {
            const uchar4 p = tile[first + j][lx + i];
#pragma unroll
            for (int o = 0; o < ROWS; ++o) {
                if (j - o >= 0 && j - o < KH) add_tap(&s[o], taps, (j - o) * KW + i, p);
            }
        }
    }
    const int x = get_group_id(0) * TILE_X + lx;
    const int y = get_group_id(1) * TILE_Y + first;
    if (x >= width) return;
#pragma unroll
    for (int o = 0; o < ROWS; ++o) {
        if (y + o < height) dst[(y + o) * width + x] = finish(s[o], divisor, tile[first + o + AY][lx + AX].w);
    }
}
#else

#if INTEGER
typedef int sum_t_plane;
typedef int3 sum3_t;
#define to_sum3(p) convert_int3((p).xyz)
#else
typedef float sum_t_plane;
typedef float3 sum3_t;
#define to_sum3(p) convert_float3((p).xyz)
#endif

// separable: both 1-D passes on chip. The row pass filters the tile's rows along x into three planes of
// sums (R, G, B only: alpha is kept, not filtered), ROW_BLOCK neighbouring sums per work-item; the column
// pass filters those sums along y, each work-item sliding down its ROWS outputs.
__kernel __attribute__((reqd_work_group_size(TILE_X, GROUP_Y, 1))) void convolve_separable(
    __global const uchar4* src, __global uchar4* dst, int width, int height,
    __constant const weight_t* row_taps, __constant const weight_t* column_taps, int divisor) {
    __local uchar4 tile[TILE_H][TILE_PITCH];
    load_tile(tile, src, width, height);
    const int lx = get_local_id(0);
    // Three planes of row sums, rows TILE_X + 1 apart: the row pass's stores (ROW_BLOCK apart, 4 rows to a
    // warp) and the column pass's loads (32 neighbours of one row) both hit 32 different banks.
#define PARTIAL_PITCH (TILE_X + 1)
#define ROW_UNITS_X (TILE_X / ROW_BLOCK)
#define ROW_UNITS (ROW_UNITS_X * TILE_H)
#define ROW_UNIT_PASSES ((ROW_UNITS + GROUP_SIZE - 1) / GROUP_SIZE)
    __local sum_t_plane partial_r[TILE_H][PARTIAL_PITCH];
    __local sum_t_plane partial_g[TILE_H][PARTIAL_PITCH];
    __local sum_t_plane partial_b[TILE_H][PARTIAL_PITCH];
    const int lid = get_local_id(1) * TILE_X + lx;
#pragma unroll
    for (int pass = 0; pass < ROW_UNIT_PASSES; ++pass) {
        const int unit = lid + pass * GROUP_SIZE;
        if (unit < ROW_UNITS) {
            const int ty = unit / ROW_UNITS_X;
            const int x0 = (unit % ROW_UNITS_X) * ROW_BLOCK;
            sum3_t sums[ROW_BLOCK];
#pragma unroll
            for (int o = 0; o < ROW_BLOCK; ++o) sums[o] = (sum3_t)(0);
#pragma unroll
            for (int i = 0; i < ROW_BLOCK + KW - 1; ++i) {
                const sum3_t p = to_sum3(tile[ty][x0 + i]);
#pragma unroll
                for (int o = 0; o < ROW_BLOCK; ++o) {
                    if (i - o >= 0 && i - o < KW) sums[o] += p * row_taps[i - o];
                }
            }
#pragma unroll
            for (int o = 0; o < ROW_BLOCK; ++o) {
                partial_r[ty][x0 + o] = sums[o].x;
                partial_g[ty][x0 + o] = sums[o].y;
                partial_b[ty][x0 + o] = sums[o].z;
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int first = get_local_id(1) * ROWS;
    sum3_t column[ROWS];
#pragma unroll
    for (int o = 0; o < ROWS; ++o) column[o] = (sum3_t)(0);
#pragma unroll
    for (int j = 0; j < ROWS + KH - 1; ++j) {
        const sum3_t p =
            (sum3_t)(partial_r[first + j][lx], partial_g[first + j][lx], partial_b[first + j][lx]);
#pragma unroll
        for (int o = 0; o < ROWS; ++o) {
            if (j - o >= 0 && j - o < KH) column[o] += p * column_taps[j - o];
        }
    }
    const int x = get_group_id(0) * TILE_X + lx;
    const int y = get_group_id(1) * TILE_Y + first;
    if (x >= width) return;
#pragma unroll
    for (int o = 0; o < ROWS; ++o) {
        if (y + o >= height) break;
        sums_t s = no_sums();
        s.a = (sum_t)(column[o].x, column[o].y, column[o].z, 0);
        dst[(y + o) * width + x] = finish(s, divisor, tile[first + o + AY][lx + AX].w);
    }
}
#endif
#endif
