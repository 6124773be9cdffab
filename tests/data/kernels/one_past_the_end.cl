// Writes one pixel past the end of dst (line 9): the last work-item writes dst[width * height]. Oclgrind
// reports an invalid write there; on a real device it corrupts whatever follows the buffer.
kernel void past_the_end(global const uchar4* src, global uchar4* dst, int width, int height) {
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) return;
    const int i = y * width + x;
    dst[i] = src[i];
    if (i == width * height - 1) dst[i + 1] = src[i];
}
