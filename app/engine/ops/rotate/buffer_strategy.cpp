// buffer: the plain buffer, sampled by hand; the fallback (Operation::kFallback).
#include "engine/ops/rotate/device_rotation.hpp"

namespace hs::rotate {

namespace {

const DeviceRotation strategy(
    "buffer", "plain buffer, bilinear or nearest computed by hand; for devices or sizes without images",
    false);
const Registration<Operation> registration(strategy, 20);

}  // namespace

}  // namespace hs::rotate
