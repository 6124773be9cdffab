kernel void k(global const uchar4* src, global uchar4* dst, int width, int height) {
    int unused_but_set;
    const int x = get_global_id(0);
    int y = get_global_id(1)
    if (x >= width) return;
    dst[x] = src[x] + nothing;
    float f = 1.0;
    return 3;
}
