// A kernel with a deliberate error on line 12, column 5: `undeclared` is no identifier in scope. The
// kernel-lab tests expect the build failure's line to start with FILE:12:5.
//
// @param float gain 0 4 1
kernel void broken(global const uchar4* src, global uchar4* dst, int width, int height, float gain) {
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) return;
    const int i = y * width + x;
    float4 v = convert_float4(src[i]) * gain;
    dst[i] = convert_uchar4_sat(v);
    undeclared = 1;
}
