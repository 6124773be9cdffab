// Convolution of RGBA8 images, applied as a correlation (like OpenCV's filter2D): tap (i, j) weighs the input
// at (x + i - KW / 2, y + j - KH / 2), coordinates clamped to the image; R, G, B are filtered, alpha is kept;
// the 8-bit result is saturate(round(sum)), halves to even. See app/engine/ops/convolve/filter.hpp.
//
// Specialised with:
//   -D KW=<1..15> -D KH=<1..15>  filter width and height
//   -D INTEGER=1   integer taps, sums in int, result round(sum / divisor) computed exactly;
//   -D INTEGER=0   float taps already divided by the divisor, sums in float
//   -D MAGNITUDE=1 two tap sets a and b (KW * KH each, a first); result sqrt(a^2 + b^2), e.g. Sobel
//   -D TILE_X=.. -D TILE_Y=..  work-group shape of the local-tiled kernel

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

#ifdef TILE_X
#define TILE_W (TILE_X + KW - 1)
#define TILE_H (TILE_Y + KH - 1)

// local-tiled: the work-group loads its tile plus the filter's halo into local memory once, then every
// work-item reads its taps from there.
__kernel __attribute__((reqd_work_group_size(TILE_X, TILE_Y, 1))) void convolve_local(
    __global const uchar4* src, __global uchar4* dst, int width, int height, __constant const weight_t* taps,
    int divisor) {
    __local uchar4 tile[TILE_H][TILE_W];
    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int left = get_group_id(0) * TILE_X - AX;
    const int top = get_group_id(1) * TILE_Y - AY;
    for (int k = ly * TILE_X + lx; k < TILE_W * TILE_H; k += TILE_X * TILE_Y) {
        const int tx = k % TILE_W;
        const int ty = k / TILE_W;
        tile[ty][tx] = src[clamp(top + ty, 0, height - 1) * width + clamp(left + tx, 0, width - 1)];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) return;
    sums_t s = no_sums();
    for (int j = 0; j < KH; ++j) {
        for (int i = 0; i < KW; ++i) add_tap(&s, taps, j * KW + i, tile[ly + j][lx + i]);
    }
    dst[y * width + x] = finish(s, divisor, tile[ly + AY][lx + AX].w);
}
#endif

// separable, pass 1: the row taps along x, sums kept unrounded for pass 2.
__kernel void convolve_rows(__global const uchar4* src, __global sum_t* partial, int width, int height,
                            __constant const weight_t* row_taps) {
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) return;
    const __global uchar4* row = src + y * width;
    sum_t sum = (sum_t)(0);
    for (int i = 0; i < KW; ++i) sum += to_sum(row[clamp(x + i - AX, 0, width - 1)]) * row_taps[i];
    partial[y * width + x] = sum;
}

// separable, pass 2: the column taps along y over pass 1's sums, then rounding as in the 2-D kernels.
__kernel void convolve_columns(__global const sum_t* partial, __global const uchar4* src,
                               __global uchar4* dst, int width, int height,
                               __constant const weight_t* column_taps, int divisor) {
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) return;
    sums_t s = no_sums();
    for (int j = 0; j < KH; ++j)
        s.a += partial[clamp(y + j - AY, 0, height - 1) * width + x] * column_taps[j];
    dst[y * width + x] = finish(s, divisor, src[y * width + x].w);
}
