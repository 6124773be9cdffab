// Grey from colour: r = g = b = the pixel's luma, (299 R + 587 G + 114 B + 500) / 1000 in integers (the luma
// the histogram counts), alpha unchanged.
__kernel void grayscale(__global const uchar4* pixels, uint pixelCount, __global uchar4* out) {
    const uint p = get_global_id(0);
    if (p >= pixelCount) return;
    const uchar4 v = pixels[p];
    const uchar luma = (uchar)((299u * v.x + 587u * v.y + 114u * v.z + 500u) / 1000u);
    out[p] = (uchar4)(luma, luma, luma, v.w);
}
