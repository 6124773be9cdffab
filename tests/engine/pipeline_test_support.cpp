#include "pipeline_test_support.hpp"

#include <algorithm>
#include <cstdlib>
#include <random>

namespace hs::testing {

std::string paramName(const ::testing::TestParamInfo<std::string>& info) {
    std::string name = info.param;
    std::replace(name.begin(), name.end(), '-', '_');
    return name;
}

bool twoDevicesOfPlatformZero(const std::vector<DeviceInfo>& devices) {
    return std::count_if(devices.begin(), devices.end(),
                         [](const DeviceInfo& d) { return d.platformIndex == 0; }) >= 2;
}

DeviceContext& testDevice() {
    static Runtime runtime;
    return runtime.open("0:0");
}

ImageRGBA8 noiseImage(int width, int height, unsigned seed) {
    ImageRGBA8 image(width, height);
    std::mt19937 random(seed);
    std::uniform_int_distribution<int> byte(0, 255);
    for (auto& value : image.pixels) value = static_cast<std::uint8_t>(byte(random));
    return image;
}

ImageRGBA8 readBack(PixelSource& source) {
    TimingLog log;
    const std::uint8_t* pixels = source.host(log);
    ImageRGBA8 image(source.width(), source.height());
    std::copy(pixels, pixels + image.byteCount(), image.pixels.begin());
    log.collect();
    return image;
}

Difference compare(const ImageRGBA8& actual, const ImageRGBA8& expected) {
    Difference difference;
    if (actual.width != expected.width || actual.height != expected.height) {
        difference.maxAbs = 256;
        difference.first = "sizes differ";
        return difference;
    }
    for (std::size_t i = 0; i < actual.pixels.size(); ++i) {
        const int delta = std::abs(int(actual.pixels[i]) - int(expected.pixels[i]));
        if (delta == 0) continue;
        if (difference.differing++ == 0) {
            const std::size_t pixel = i / 4;
            difference.first = "first at (" + std::to_string(pixel % actual.width) + ", " +
                               std::to_string(pixel / actual.width) + ") channel " + std::to_string(i % 4) +
                               ": " + std::to_string(actual.pixels[i]) + " vs " +
                               std::to_string(expected.pixels[i]);
        }
        difference.maxAbs = std::max(difference.maxAbs, delta);
    }
    return difference;
}

}  // namespace hs::testing
