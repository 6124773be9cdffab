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
// -D PIXELS_X=4: the output pixels per work-item along x, stored as one 16-byte store when aligned (fewer
// instructions per pixel; bench/README.md has the H100 figures). The host states it, as it sizes the launch;
// a sweep tries 1, 2 and 8 too (stored one by one).
#if PIXELS_X != 1 && PIXELS_X != 2 && PIXELS_X != 4 && PIXELS_X != 8
#error "build with -D PIXELS_X=1, 2, 4 or 8"
#endif

inline float4 texel_or_border(__global const uchar4* src, int width, int height, int x, int y) {
    if (x < 0 || y < 0 || x >= width || y >= height) return (float4)(0.0f);
    return convert_float4(src[y * width + x]);
}

inline uchar4 rotated_pixel(__global const uchar4* src, float4 row_x, float4 row_y, int x, int y,
                            int src_width, int src_height) {
    const float2 s = source_point(row_x, row_y, x, y);
#if NEAREST
    // The nearest pixel's bytes as they are (transparent black outside).
    const int2 i = convert_int2_sat_rtn(s + 0.5f);
    if (i.x < 0 || i.y < 0 || i.x >= src_width || i.y >= src_height) return (uchar4)(0);
    return src[i.y * src_width + i.x];
#else
    const float2 corner = floor(s);
    const float2 t = s - corner;
    const int2 i = convert_int2_sat(corner);
    const float4 p00 = texel_or_border(src, src_width, src_height, i.x, i.y);
    const float4 p10 = texel_or_border(src, src_width, src_height, i.x + 1, i.y);
    const float4 p01 = texel_or_border(src, src_width, src_height, i.x, i.y + 1);
    const float4 p11 = texel_or_border(src, src_width, src_height, i.x + 1, i.y + 1);
    const float4 top = p00 + (p10 - p00) * t.x;
    const float4 bottom = p01 + (p11 - p01) * t.x;
    const float4 v = top + (bottom - top) * t.y;
    return convert_uchar4_sat_rte(v);
#endif
}

// src is src_width x src_height. Work-item (i, y) makes output pixels x = i * PIXELS_X .. + PIXELS_X - 1 of
// row y.
__kernel void rotate_buffer(__global const uchar4* src, __global uchar4* dst, int width, int height,
                            float4 row_x, float4 row_y, int src_width, int src_height) {
    const int x = get_global_id(0) * PIXELS_X;
    const int y = get_global_id(1);
    if (x >= width || y >= height) return;
    uchar4 out[PIXELS_X];
#pragma unroll
    for (int k = 0; k < PIXELS_X; ++k)
        out[k] = rotated_pixel(src, row_x, row_y, x + k, y, src_width, src_height);
    const int first = y * width + x;
#if PIXELS_X == 4
    if (x + PIXELS_X <= width && first % PIXELS_X == 0) {
        *(__global uint4*)(dst + first) =
            (uint4)(as_uint(out[0]), as_uint(out[1]), as_uint(out[2]), as_uint(out[3]));
        return;
    }
#endif
#pragma unroll
    for (int k = 0; k < PIXELS_X; ++k) {
        if (x + k < width) dst[first + k] = out[k];
    }
}
