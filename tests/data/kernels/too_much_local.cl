// A kernel that copies the image through a local table of 65537 uints (256 KiB + 4 bytes): more local memory
// than any NVIDIA GPU gives a work-group (the H100/H200 at most 227 KiB; their driver reports 48 KiB but ran a
// 64 KiB table), so NVIDIA's assembler (ptxas) refuses it while its OpenCL C compiles; a CPU driver with more
// local memory (PoCL: 1 MiB) runs it.
kernel void too_much_local(global const uchar4* src, global uchar4* dst, int width, int height) {
    local uint table[65537];
    const int x = get_global_id(0);
    const int y = get_global_id(1);
    // A work-item's own slot, spread over the table (a group has at most 1024 work-items).
    const int slot = 64 * (int)(get_local_id(1) * get_local_size(0) + get_local_id(0));
    const int i = y * width + x;
    table[slot] = x < width && y < height ? as_uint(src[i]) : 0u;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (x < width && y < height) dst[i] = as_uchar4(table[slot]);
}
