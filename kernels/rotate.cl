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
inline float4 texel_or_border(__global const uchar4* src, int width, int height, int x, int y) {
    if (x < 0 || y < 0 || x >= width || y >= height) return (float4)(0.0f);
    return convert_float4(src[y * width + x]);
}

// p00 at the corner, p10 right of it, p01 below, t the point's offset from the corner.
inline uchar4 bilinear(float4 p00, float4 p10, float4 p01, float4 p11, float2 t) {
    const float4 top = p00 + (p10 - p00) * t.x;
    const float4 bottom = p01 + (p11 - p01) * t.x;
    return convert_uchar4_sat_rte(top + (bottom - top) * t.y);
}

// The output pixel for source point s, read from global memory.
inline uchar4 rotated_pixel_global(__global const uchar4* src, int src_width, int src_height, float2 s) {
#if NEAREST
    const int2 i = convert_int2_sat_rtn(s + 0.5f);
    return convert_uchar4_sat_rte(texel_or_border(src, src_width, src_height, i.x, i.y));
#else
    const float2 corner = floor(s);
    const int2 i = convert_int2_sat(corner);
    return bilinear(texel_or_border(src, src_width, src_height, i.x, i.y),
                    texel_or_border(src, src_width, src_height, i.x + 1, i.y),
                    texel_or_border(src, src_width, src_height, i.x, i.y + 1),
                    texel_or_border(src, src_width, src_height, i.x + 1, i.y + 1), s - corner);
#endif
}

#ifndef TILE
// src is src_width x src_height.
__kernel void rotate_buffer(__global const uchar4* src, __global uchar4* dst, int width, int height,
                            float4 row_x, float4 row_y, int src_width, int src_height) {
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) return;
    dst[y * width + x] = rotated_pixel_global(src, src_width, src_height, source_point(row_x, row_y, x, y));
}
#else
// The tiled build (-D TILE=.. -D ROWS=.. -D SPAN=..): a work-group of TILE x (TILE / ROWS) work-items makes a
// TILE x TILE block of the output, work-item (lx, ly) the pixels of column lx in rows ly, ly + TILE / ROWS,
// ... The block's source pixels (for a rotation, a box of at most SPAN x SPAN) are read into local memory
// once, with coalesced loads, so the scattered reads of the sampling hit local memory instead of the L1
// cache. A box that does not fit (a map that is not a rotation) or a pixel outside it (float rounding) reads
// global memory as the untiled kernel does; either way the result is the same bits.
#define GROUP_Y (TILE / ROWS)
#define BOX_LOADS ((SPAN * SPAN + TILE * GROUP_Y - 1) / (TILE * GROUP_Y))

__kernel __attribute__((reqd_work_group_size(TILE, GROUP_Y, 1))) void rotate_buffer(
    __global const uchar4* src, __global uchar4* dst, int width, int height, float4 row_x, float4 row_y,
    int src_width, int src_height) {
    __local uchar4 box[SPAN][SPAN];
    const int lx = get_local_id(0);
    const int ly = get_local_id(1);
    const int x0 = get_group_id(0) * TILE;
    const int y0 = get_group_id(1) * TILE;
    const float2 c00 = source_point(row_x, row_y, x0, y0);
    const float2 c10 = source_point(row_x, row_y, x0 + TILE - 1, y0);
    const float2 c01 = source_point(row_x, row_y, x0, y0 + TILE - 1);
    const float2 c11 = source_point(row_x, row_y, x0 + TILE - 1, y0 + TILE - 1);
    // One pixel of margin either side for rounding, one more after for the bilinear neighbour.
    const int2 origin = convert_int2_sat(floor(fmin(fmin(c00, c10), fmin(c01, c11)))) - 1;
    const int2 end = convert_int2_sat(floor(fmax(fmax(c00, c10), fmax(c01, c11)))) + 2;
    const int2 extent = end - origin + 1;
    const bool boxed = extent.x <= SPAN && extent.y <= SPAN;
    // The box in row-major order, consecutive work-items on consecutive pixels; a fixed, unrolled count of
    // loads per work-item, all issued before the first is stored, so a work-item has them all in flight.
    if (boxed) {
#pragma unroll
        for (int t = 0; t < BOX_LOADS; ++t) {
            const int e = ly * TILE + lx + t * TILE * GROUP_Y;
            const int r = e / SPAN;
            const int c = e % SPAN;
            if (r < extent.y && c < extent.x) {
                const int sx = origin.x + c;
                const int sy = origin.y + r;
                box[r][c] = (sx < 0 || sy < 0 || sx >= src_width || sy >= src_height)
                                ? (uchar4)(0)
                                : src[sy * src_width + sx];
            }
        }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int x = x0 + lx;
    if (x >= width) return;
    for (int y = y0 + ly; y < min(y0 + TILE, height); y += GROUP_Y) {
        const float2 s = source_point(row_x, row_y, x, y);
#if NEAREST
        const int2 i = convert_int2_sat_rtn(s + 0.5f) - origin;
        const bool inside = boxed && all(i >= 0) && all(i < extent);
#else
        const float2 corner = floor(s);
        const float2 t = s - corner;
        const int2 i = convert_int2_sat(corner) - origin;
        const bool inside = boxed && all(i >= 0) && all(i + 1 < extent);
#endif
        uchar4 out;
        if (inside) {
#if NEAREST
            out = box[i.y][i.x];
#else
            out = bilinear(convert_float4(box[i.y][i.x]), convert_float4(box[i.y][i.x + 1]),
                           convert_float4(box[i.y + 1][i.x]), convert_float4(box[i.y + 1][i.x + 1]), t);
#endif
        } else {
            out = rotated_pixel_global(src, src_width, src_height, s);
        }
        dst[y * width + x] = out;
    }
}
#endif
