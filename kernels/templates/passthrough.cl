// The smallest user kernel (docs/kernel-lab.md): copies every pixel. Start here; add `// @param int NAME MIN
// MAX DEFAULT` (or float) lines for arguments after `height`, in the order written.
kernel void passthrough(global const uchar4* src, global uchar4* dst, int width, int height) {
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    if (x >= width || y >= height) return;  // the global size is rounded up to the work-group size
    dst[y * width + x] = src[y * width + x];
}
