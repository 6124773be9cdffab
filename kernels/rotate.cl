// Rotation by inverse mapping: output pixel (x, y) samples the input at
// (dot(row_x, (x, y, 1)), dot(row_y, (x, y, 1))) in pixel-centre coordinates (pixel (i, j) has its centre at
// (i, j)); the host computes the rows (hs::rotate::inverseMap). width x height is the output's size (the
// input's, or a canvas fitted to the rotated image). Input outside the image is transparent black.
// Specialised with -D NEAREST=1 (nearest pixel, floor(s + 0.5)) or -D NEAREST=0 (bilinear).

#ifndef NEAREST
#error "build with -D NEAREST=0 or 1"
#endif

inline float2 source_point(float4 row_x, float4 row_y, int x, int y) {
    const float4 p = (float4)((float)x, (float)y, 1.0f, 0.0f);
    return (float2)(dot(row_x, p), dot(row_y, p));
}

// The image-object variant: the sampler does the interpolation and the border. Image coordinates address
// pixel edges, so the centre of pixel i is at i + 0.5 (the printed listing samples at i and is half a pixel
// off).
__constant sampler_t rotate_sampler =
    CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | (NEAREST ? CLK_FILTER_NEAREST : CLK_FILTER_LINEAR);

__kernel void rotate_image(__read_only image2d_t src, __global uchar4* dst, int width, int height,
                           float4 row_x, float4 row_y) {
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) return;
    const float2 s = source_point(row_x, row_y, x, y) + 0.5f;
    const float4 v = read_imagef(src, rotate_sampler, s);
    dst[y * width + x] = convert_uchar4_sat_rte(v * 255.0f);
}

// The plain-buffer variant, for devices without images, images beyond the device's image limits, and
// comparison: the same sampling done by hand.
//
// Experiment switches (issue 11, A/B-measured on the H100):
//   -D FAST_CONVERT=1  bytes to float and back by the 2^23 trick (a bit-or and a subtraction; an addition and
//   a
//                      mask) instead of the conversion instructions; exactly the same values
//   -D RESTRICT=1      the input read through the read-only (non-coherent) path
//   -D PIXELS_X=<n>    n neighbouring output pixels per work-item along x, stored together when aligned
//   -D WIDE_LOADS=1    bilinear: each pair of horizontal neighbours read by one 16-byte load of the aligned
//                      4 pixels holding them (plus one 4-byte load when the pair straddles two such groups),
//                      when the input's width is a multiple of 4: fewer load instructions, each touching
//                      the same cache lines
#ifndef FAST_CONVERT
#define FAST_CONVERT 0
#endif
#ifndef PIXELS_X
#define PIXELS_X 1
#endif
#if RESTRICT
#define SRC_QUALIFIER restrict
#else
#define SRC_QUALIFIER
#endif

// 2^23 + b has b in its low mantissa bits: or-ing the byte into 2^23's pattern and subtracting 2^23 gives b
// exactly; adding 2^23 to v in [0, 255] rounds it to an integer, halves to even, into the low byte.
#define TWO_POW_23 8388608.0f
inline float4 bytes_to_float4(uchar4 p) {
#if FAST_CONVERT
    const uint u = as_uint(p);
    const uint4 lanes = (uint4)(u & 0xffu, (u >> 8) & 0xffu, (u >> 16) & 0xffu, u >> 24);
    return as_float4(lanes | 0x4b000000u) - TWO_POW_23;
#else
    return convert_float4(p);
#endif
}

inline uchar4 float4_to_bytes(float4 v) {
#if FAST_CONVERT
    const uint4 r = as_uint4(clamp(v, 0.0f, 255.0f) + TWO_POW_23) & 0xffu;
    return as_uchar4(r.x | (r.y << 8) | (r.z << 16) | (r.w << 24));
#else
    return convert_uchar4_sat_rte(v);
#endif
}

inline uchar4 texel_or_transparent(__global const uchar4* SRC_QUALIFIER src, int width, int height, int x,
                                   int y) {
    if (x < 0 || y < 0 || x >= width || y >= height) return (uchar4)(0);
    return src[y * width + x];
}

inline float4 texel_or_border(__global const uchar4* SRC_QUALIFIER src, int width, int height, int x, int y) {
    return bytes_to_float4(texel_or_transparent(src, width, height, x, y));
}

#if WIDE_LOADS
// Pixels (x, y) and (x + 1, y) as floats, transparent black outside the image.
inline void horizontal_pair(__global const uchar4* SRC_QUALIFIER src, int width, int height, int x, int y,
                            float4* left, float4* right) {
    if ((width & 3) == 0 && x >= 0 && x + 1 < width && y >= 0 && y < height) {
        const int group = x & ~3;
        const int k = x & 3;
        const __global uint* row = (const __global uint*)(src + y * width);
        const uint4 q = *(const __global uint4*)(row + group);
        const uint next = k == 3 ? row[group + 4] : 0u;
        const uint l = k == 0 ? q.x : k == 1 ? q.y : k == 2 ? q.z : q.w;
        const uint r = k == 0 ? q.y : k == 1 ? q.z : k == 2 ? q.w : next;
        *left = bytes_to_float4(as_uchar4(l));
        *right = bytes_to_float4(as_uchar4(r));
        return;
    }
    *left = texel_or_border(src, width, height, x, y);
    *right = texel_or_border(src, width, height, x + 1, y);
}
#endif

inline uchar4 rotated_pixel(__global const uchar4* SRC_QUALIFIER src, float4 row_x, float4 row_y, int x,
                            int y, int src_width, int src_height) {
    const float2 s = source_point(row_x, row_y, x, y);
#if NEAREST
    const int2 i = convert_int2_sat_rtn(s + 0.5f);
#if FAST_CONVERT
    // Nearest moves bytes: no arithmetic on them at all.
    return texel_or_transparent(src, src_width, src_height, i.x, i.y);
#else
    return float4_to_bytes(texel_or_border(src, src_width, src_height, i.x, i.y));
#endif
#else
    const float2 corner = floor(s);
    const float2 t = s - corner;
    const int2 i = convert_int2_sat(corner);
#if WIDE_LOADS
    float4 p00, p10, p01, p11;
    horizontal_pair(src, src_width, src_height, i.x, i.y, &p00, &p10);
    horizontal_pair(src, src_width, src_height, i.x, i.y + 1, &p01, &p11);
#else
    const float4 p00 = texel_or_border(src, src_width, src_height, i.x, i.y);
    const float4 p10 = texel_or_border(src, src_width, src_height, i.x + 1, i.y);
    const float4 p01 = texel_or_border(src, src_width, src_height, i.x, i.y + 1);
    const float4 p11 = texel_or_border(src, src_width, src_height, i.x + 1, i.y + 1);
#endif
    const float4 top = p00 + (p10 - p00) * t.x;
    const float4 bottom = p01 + (p11 - p01) * t.x;
    return float4_to_bytes(top + (bottom - top) * t.y);
#endif
}

// src is src_width x src_height. Work-item (i, y) makes output pixels x = i * PIXELS_X .. + PIXELS_X - 1 of
// row y.
__kernel void rotate_buffer(__global const uchar4* SRC_QUALIFIER src, __global uchar4* SRC_QUALIFIER dst,
                            int width, int height, float4 row_x, float4 row_y, int src_width,
                            int src_height) {
    const int x = get_global_id(0) * PIXELS_X;
    const int y = get_global_id(1);
    if (x >= width || y >= height) return;
#if PIXELS_X == 1
    dst[y * width + x] = rotated_pixel(src, row_x, row_y, x, y, src_width, src_height);
#else
    uchar4 out[PIXELS_X];
#pragma unroll
    for (int k = 0; k < PIXELS_X; ++k)
        out[k] = rotated_pixel(src, row_x, row_y, x + k, y, src_width, src_height);
    const int first = y * width + x;
    if (x + PIXELS_X <= width && first % PIXELS_X == 0) {
#if PIXELS_X == 2
        *(__global uint2*)(dst + first) = (uint2)(as_uint(out[0]), as_uint(out[1]));
#elif PIXELS_X == 4
        *(__global uint4*)(dst + first) =
            (uint4)(as_uint(out[0]), as_uint(out[1]), as_uint(out[2]), as_uint(out[3]));
#else
#error "PIXELS_X is 1, 2 or 4"
#endif
    } else {
#pragma unroll
        for (int k = 0; k < PIXELS_X; ++k) {
            if (x + k < width) dst[first + k] = out[k];
        }
    }
#endif
}
