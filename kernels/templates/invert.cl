// A user kernel for histoscope-cli pipeline --kernel (docs/kernel-lab.md): inverts R, G and B, alpha kept.
// `amount` blends from the input (0) to the full inverse (255): out = in + (255 - 2 in) * amount / 255,
// rounded down.
// @param int amount 0 255 255
kernel void invert(global const uchar4* src, global uchar4* dst, int width, int height, int amount) {
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) return;  // the global size is rounded up to the work-group size
    const int i = y * width + x;
    const int4 in = convert_int4(src[i]);
    const int4 inverse = in + (255 - 2 * in) * amount / 255;
    dst[i] = (uchar4)(convert_uchar3(inverse.xyz), src[i].w);
}
