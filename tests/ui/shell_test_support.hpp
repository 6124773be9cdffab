#pragma once
// Shared by the shell's GUI tests: generated images and file helpers. The expected histograms in these tests
// come from hs::histogram::referenceHistogram over the pixels the test itself generated.

#include <QDir>
#include <QString>
#include <cstdint>
#include <random>

#include "image/image.hpp"

namespace hs::ui::test {

// Every channel uniformly random, alpha included, so every bin of every channel is exercised.
inline ImageRGBA8 randomImage(int width, int height, std::uint32_t seed) {
    ImageRGBA8 image(width, height);
    std::mt19937 generator(seed);
    std::uniform_int_distribution<int> byte(0, 255);
    for (auto& value : image.pixels) value = static_cast<std::uint8_t>(byte(generator));
    return image;
}

inline QString artifactPath(const QString& name) {
    QDir().mkpath(QStringLiteral(HISTOSCOPE_TEST_ARTIFACT_DIR));
    return QDir(QStringLiteral(HISTOSCOPE_TEST_ARTIFACT_DIR)).filePath(name);
}

}  // namespace hs::ui::test
