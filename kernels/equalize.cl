// Histogram equalization of R, G and B (alpha unchanged), OpenCV's equalizeHist on each channel: count the
// channel's values, scan them into the cumulative count, map every pixel through the table. The table's
// arithmetic is single precision, as OpenCV's: lut[v] = rte(float(cdf(v) - cdf_min) * s), s = 255 / float(N -
// cdf_min), with s correctly rounded (OpenCL's float division need not be) and no fused multiply-add.

#define CHANNELS 3
#define VALUES 256

// Each group counts its share of the pixels in local memory and adds its counts to `counts` (3 x 256, zeroed
// by the host): one global atomic per counter and group instead of one per pixel.
__kernel void equalize_count(__global const uchar4* pixels, uint pixelCount, __global uint* counts) {
    __local uint local_counts[CHANNELS * VALUES];
    for (uint i = get_local_id(0); i < CHANNELS * VALUES; i += get_local_size(0)) local_counts[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint p = get_global_id(0); p < pixelCount; p += get_global_size(0)) {
        const uchar4 pixel = pixels[p];
        atomic_inc(&local_counts[pixel.x]);
        atomic_inc(&local_counts[VALUES + pixel.y]);
        atomic_inc(&local_counts[2 * VALUES + pixel.z]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_local_id(0); i < CHANNELS * VALUES; i += get_local_size(0))
        if (local_counts[i] != 0) atomic_add(&counts[i], local_counts[i]);
}

// 255 / d correctly rounded: the quotient and its neighbours within two units in the last place, the one
// whose remainder (exact through fma) is smallest.
float scale_for(float d) {
    float best = 255.0f / d;
    float best_error = fabs(fma(-best, d, 255.0f));
    float below = best;
    float above = best;
    for (int step = 0; step < 2; ++step) {
        below = nextafter(below, 0.0f);
        above = nextafter(above, INFINITY);
        const float below_error = fabs(fma(-below, d, 255.0f));
        const float above_error = fabs(fma(-above, d, 255.0f));
        if (below_error < best_error) {
            best = below;
            best_error = below_error;
        }
        if (above_error < best_error) {
            best = above;
            best_error = above_error;
        }
    }
    return best;
}

// One group of 256 work-items per channel: an inclusive scan of the counts into cdf, then the table.
__kernel __attribute__((reqd_work_group_size(VALUES, 1, 1))) void equalize_table(__global const uint* counts,
                                                                                uint pixelCount,
                                                                                __global uchar* table) {
    __local uint cdf[VALUES];
    __local uint cdf_min;
    const uint channel = get_group_id(0);
    const uint v = get_local_id(0);
    cdf[v] = counts[channel * VALUES + v];
    if (v == 0) cdf_min = pixelCount;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint offset = 1; offset < VALUES; offset <<= 1) {
        const uint add = v >= offset ? cdf[v - offset] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        cdf[v] += add;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    // The cumulative count never falls, so the smallest non-zero one is the count of the smallest value.
    if (cdf[v] != 0) atomic_min(&cdf_min, cdf[v]);
    barrier(CLK_LOCAL_MEM_FENCE);
    uchar mapped = (uchar)v;  // a channel of one value stays as it is
    if (cdf_min != pixelCount) {
        const float s = scale_for(convert_float(pixelCount - cdf_min));
        // Values below the smallest present have no pixels; 0 keeps the table defined.
        const float product = cdf[v] >= cdf_min ? convert_float(cdf[v] - cdf_min) * s : 0.0f;
        mapped = convert_uchar_sat_rte(product);
    }
    table[channel * VALUES + v] = mapped;
}

__kernel void equalize_map(__global const uchar4* input, uint pixelCount, __global const uchar* table,
                           __global uchar4* output) {
    const uint p = get_global_id(0);
    if (p >= pixelCount) return;
    const uchar4 pixel = input[p];
    output[p] = (uchar4)(table[pixel.x], table[VALUES + pixel.y], table[2 * VALUES + pixel.z], pixel.w);
}
