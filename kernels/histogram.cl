// Histogram kernels. Specialised at build time with -D BINS=<1..256> (and per-strategy options).
// Channels are laid out channel-major: hist[channel * BINS + bin], channels r, g, b, a, luma.

#ifndef BINS
#error "build with -D BINS=<1..256>"
#endif

#define CHANNELS 5

// The integer luma of the contract, (299 R + 587 G + 114 B + 500) / 1000.
inline uint luma_of(uint r, uint g, uint b) { return (299u * r + 587u * g + 114u * b + 500u) / 1000u; }

// bin = v * BINS / 256, always < BINS for v in 0..255 (the printed listings skip this scaling and overrun).
inline uint bin_of(uint v) { return (v * BINS) >> 8; }

__kernel void global_atomic(__global const uchar4* pixels, uint pixel_count, __global uint* hist) {
    const size_t i = get_global_id(0);
    if (i >= pixel_count) return;
    const uchar4 p = pixels[i];
    atomic_inc(&hist[0 * BINS + bin_of(p.x)]);
    atomic_inc(&hist[1 * BINS + bin_of(p.y)]);
    atomic_inc(&hist[2 * BINS + bin_of(p.z)]);
    atomic_inc(&hist[3 * BINS + bin_of(p.w)]);
    atomic_inc(&hist[4 * BINS + bin_of(luma_of(p.x, p.y, p.z))]);
}
