// image-sampler: the classic listing, corrected to sample at pixel centres.
#include "engine/ops/rotate/device_rotation.hpp"

namespace hs::rotate {

namespace {

const DeviceRotation strategy(
    "image-sampler",
    "image object and sampler (address clamp to transparent black, bilinear or nearest "
    "in the texture unit)",
    true);
const Registration<Operation> registration(strategy, 10);

}  // namespace

}  // namespace hs::rotate
