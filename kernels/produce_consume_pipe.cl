// Pipe mode of the two-device pipeline (app/engine/ops/produce_consume): the producer writes a chunk's
// convolved rows into a pipe, a parallel consumer on the other device reads it empty and counts.
//
// OpenCL C 2.0 (pipes): built with -cl-std=CL2.0 (CL3.0 on devices whose OpenCL C is 3.0), only for devices
// that report CL_DEVICE_PIPE_SUPPORT. Not built on its own: the engine appends it to histogram.cl, whose
// COUNT_PIXEL, bin_of, luma_of, HIST_SIZE and the -D BINS / IGNORE_TRANSPARENT options it uses, so the
// counting rules are the ones every histogram strategy follows.
//
// A pipe holds a whole chunk and the consumer of a chunk starts after its producer finished (the host orders
// them with events; two pipes let producing chunk k + 1 overlap consuming chunk k). So a write never finds
// the pipe full and a read that finds it empty means the chunk is consumed: no work-item ever spins waiting
// for the other device, which OpenCL does not promise to run at the same time.

#ifndef HIST_SIZE
#error "append to histogram.cl, built with -D BINS=<1..256>"
#endif

// Producer: `count` pixels from `first` (a chunk's own rows inside its convolved rows with halo) into `out`.
// A write the pipe refuses is counted in `lost`, which the host checks, rather than dropped silently.
__kernel void rows_into_pipe(__global const uint* pixels, uint first, uint count, __write_only pipe uint out,
                             volatile __global uint* lost) {
    const uint i = get_global_id(0);
    if (i >= count) return;
    const uint pixel = pixels[first + i];
    if (write_pipe(out, &pixel) != 0) atomic_inc(lost);
}

// Consumer: every work-item reads pixels until the pipe is empty and counts them in its work-group's
// histogram in local memory, which is added to `hist` (HIST_SIZE counters, channel-major) once. The bin is
// clamped to BINS - 1 (unlike the printed single-work-item consumer, whose bin could run past the table).
__kernel void count_from_pipe(__read_only pipe uint in, __global uint* hist) {
    __local uint counts[HIST_SIZE];
    for (uint i = get_local_id(0); i < HIST_SIZE; i += get_local_size(0)) counts[i] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
#define PIPE_INCREMENT(channel, bin) atomic_inc(&counts[(channel)*BINS + min((uint)(bin), (uint)(BINS - 1))])
    uint pixel;
    while (read_pipe(in, &pixel) == 0) COUNT_PIXEL(pixel, PIPE_INCREMENT);
#undef PIPE_INCREMENT
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = get_local_id(0); i < HIST_SIZE; i += get_local_size(0)) {
        if (counts[i] != 0) atomic_add(&hist[i], counts[i]);
    }
}
