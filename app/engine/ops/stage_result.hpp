#pragma once
// What the image operations (rotate, convolve) share as stages of a pipeline: a result whose pixels stay on
// the device, with what ran (ops/operation.hpp).

#include "image/pixel_source.hpp"
#include "ops/operation.hpp"

namespace hs::pipeline {

struct StageResult : RunRecord {
    PixelSource image;  // on the device; image.host(log) reads it back
};

}  // namespace hs::pipeline
