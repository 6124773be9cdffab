// Bandwidth baselines for histoscope-bench: kernels that only move bytes, measured beside an operation on the
// same device and bytes in the same run.
//
// Work-group g covers the uint4s [g * L * quads_per_item, (g + 1) * L * quads_per_item), L the local size,
// and its work-items read neighbouring uint4s: coalesced on a GPU; on a CPU, where a work-group's items run
// one after the other on one core, the group's span stays in that core's cache while its items pass over it.
// Bytes past the last whole uint4 are handled by work-item 0 of group 0.

// Reads byte_count bytes and stores one value per work-item that depends on all of its bytes, so the compiler
// can drop no load.
__kernel void stream_read(__global const uint4* data, uint byte_count, uint quads_per_item,
                          __global uint* sums) {
    const uint quad_count = byte_count / 16;
    const uint span = get_local_size(0) * quads_per_item;
    const uint end = min(quad_count, (uint)(get_group_id(0) + 1) * span);
    uint4 acc = (uint4)(0);
    for (uint q = get_group_id(0) * span + get_local_id(0); q < end; q += get_local_size(0)) acc += data[q];
    uint sum = acc.x ^ acc.y ^ acc.z ^ acc.w;
    if (get_global_id(0) == 0) {
        __global const uchar* tail = (__global const uchar*)(data + quad_count);
        for (uint i = 0; i < byte_count % 16; ++i) sum += tail[i];
    }
    sums[get_global_id(0)] = sum;
}

// Copies byte_count bytes from src to dst (reads and writes each byte once).
__kernel void copy(__global const uint4* src, __global uint4* dst, uint byte_count, uint quads_per_item) {
    const uint quad_count = byte_count / 16;
    const uint span = get_local_size(0) * quads_per_item;
    const uint end = min(quad_count, (uint)(get_group_id(0) + 1) * span);
    for (uint q = get_group_id(0) * span + get_local_id(0); q < end; q += get_local_size(0)) dst[q] = src[q];
    if (get_global_id(0) == 0) {
        __global const uchar* tail_src = (__global const uchar*)(src + quad_count);
        __global uchar* tail_dst = (__global uchar*)(dst + quad_count);
        for (uint i = 0; i < byte_count % 16; ++i) tail_dst[i] = tail_src[i];
    }
}
