#pragma once
// Helpers shared by the rotate, convolve and pipeline tests.

#include <gtest/gtest.h>

#include <cstddef>
#include <string>
#include <vector>

#include "engine/image/image.hpp"
#include "engine/image/pixel_source.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::testing {

// A strategy name as a test name ("image-sampler" -> "image_sampler").
std::string paramName(const ::testing::TestParamInfo<std::string>& info);

// Whether `devices` hold two of platform 0, which share a context (POCL_DEVICES="pthread pthread" here; the
// lent GPU machine has one): what the two-device tests need.
bool twoDevicesOfPlatformZero(const std::vector<DeviceInfo>& devices);

// One device for the whole test process (the first PoCL device).
DeviceContext& testDevice();

// Uniform random RGBA, alpha included, reproducible from `seed`.
ImageRGBA8 noiseImage(int width, int height, unsigned seed);

// The pixels of `source` as an image (read back from the device when they live there).
ImageRGBA8 readBack(PixelSource& source);

struct Difference {
    int maxAbs = 0;             // largest |a - b| over all channels of all pixels
    std::size_t differing = 0;  // channel values that differ
    std::string first;          // where and how the first difference shows, for the failure message
};
// Compares two images of the same size channel by channel.
Difference compare(const ImageRGBA8& actual, const ImageRGBA8& expected);

}  // namespace hs::testing
