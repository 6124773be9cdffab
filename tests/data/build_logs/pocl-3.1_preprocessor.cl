#include "missing_header.h"
kernel void k(global const uchar4* src, global uchar4* dst, int width, int height) {
}
