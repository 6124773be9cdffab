// Dense 64-value descriptors in SURF's layout on the luma image; the definition (which the CPU reference in
// app/engine/ops/bow/descriptors.cpp follows) is in descriptors.hpp. A work-item per descriptor; the sums of
// the Haar responses are integers, so they are exact, and only the L2 normalisation rounds.

#define DIM 64

// The contract's integer luma.
int lumaAt(__global const uchar4* rgba, uint width, uint x, uint y) {
    const uchar4 p = rgba[y * width + x];
    return (299 * p.x + 587 * p.y + 114 * p.z + 500) / 1000;
}

// `columns` x `rows` windows of WINDOW pixels (-D WINDOW=20s), `stride` apart, row by row.
__kernel void dense_descriptors(__global const uchar4* rgba, uint width, uint columns, uint rows, uint stride,
                                __global float* descriptors) {
    const uint index = get_global_id(0);
    if (index >= columns * rows) return;
    const uint s = WINDOW / 20;
    const uint x0 = (index % columns) * stride;
    const uint y0 = (index / columns) * stride;
    int sums[DIM];
    for (uint v = 0; v < DIM; ++v) sums[v] = 0;
    for (uint ky = 0; ky < 20; ++ky) {
        for (uint kx = 0; kx < 20; ++kx) {
            const uint a = x0 + s * kx, b = y0 + s * ky;
            int dx = 0, dy = 0;
            for (uint y = b; y < b + 2 * s; ++y) {
                for (uint x = a; x < a + 2 * s; ++x) {
                    const int l = lumaAt(rgba, width, x, y);
                    dx += x < a + s ? -l : l;
                    dy += y < b + s ? -l : l;
                }
            }
            const uint base = 4 * (4 * (ky / 5) + kx / 5);
            sums[base + 0] += dx;
            sums[base + 1] += dy;
            sums[base + 2] += abs(dx);
            sums[base + 3] += abs(dy);
        }
    }
    float squares = 0.0f;
    for (uint v = 0; v < DIM; ++v) squares += (float)sums[v] * (float)sums[v];
    const float scale = squares > 0.0f ? 1.0f / sqrt(squares) : 0.0f;
    for (uint v = 0; v < DIM; ++v) descriptors[index * DIM + v] = (float)sums[v] * scale;
}
