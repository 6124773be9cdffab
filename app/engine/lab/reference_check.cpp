#include "engine/lab/reference_check.hpp"

#include <algorithm>

namespace hs::lab {

namespace {

constexpr const char* kPixelChannels[] = {"r", "g", "b", "a"};

std::uint64_t difference(std::uint64_t a, std::uint64_t b) {
    return a > b ? a - b : b - a;
}

}  // namespace

std::string ReferenceCheck::describe() const {
    if (!problem.empty()) return problem;
    if (matches()) return "matches the CPU reference";
    std::string first;
    if (firstBin) {
        first = "bin " + std::to_string(firstBin->bin) + " of " +
                std::string(histogram::channelName(firstBin->channel)) + ": expected " +
                std::to_string(firstBin->expected) + ", got " + std::to_string(firstBin->got);
    } else if (firstPixel) {
        first = "pixel (" + std::to_string(firstPixel->x) + ", " + std::to_string(firstPixel->y) + ") " +
                kPixelChannels[firstPixel->channel] + ": expected " + std::to_string(firstPixel->expected) +
                ", got " + std::to_string(firstPixel->got);
    }
    return first + " (largest difference " + std::to_string(maxDifference) + ")";
}

ReferenceCheck compareImages(const ImageRGBA8& expected, const ImageRGBA8& got) {
    ReferenceCheck check;
    if (expected.width != got.width || expected.height != got.height) {
        check.problem = "the output is " + std::to_string(got.width) + "x" + std::to_string(got.height) +
                        ", the CPU reference " + std::to_string(expected.width) + "x" +
                        std::to_string(expected.height);
        return check;
    }
    for (int y = 0; y < expected.height; ++y) {
        for (int x = 0; x < expected.width; ++x) {
            const std::uint8_t* want = expected.pixel(x, y);
            const std::uint8_t* have = got.pixel(x, y);
            for (int c = 0; c < 4; ++c) {
                const std::uint64_t apart = difference(want[c], have[c]);
                if (apart == 0) continue;
                if (!check.firstPixel) check.firstPixel = ReferenceCheck::Pixel{x, y, c, want[c], have[c]};
                check.maxDifference = std::max(check.maxDifference, apart);
            }
        }
    }
    return check;
}

ReferenceCheck compareHistograms(const histogram::Histogram& expected, const histogram::Histogram& got) {
    ReferenceCheck check;
    if (expected.bins != got.bins) {
        check.problem = "the result has " + std::to_string(got.bins) + " bins, the CPU reference " +
                        std::to_string(expected.bins);
        return check;
    }
    for (const histogram::Channel channel : histogram::kChannels) {
        for (int bin = 0; bin < expected.bins; ++bin) {
            const std::uint64_t want = expected[channel][static_cast<std::size_t>(bin)];
            const std::uint64_t have = got[channel][static_cast<std::size_t>(bin)];
            const std::uint64_t apart = difference(want, have);
            if (apart == 0) continue;
            if (!check.firstBin) check.firstBin = ReferenceCheck::Bin{channel, bin, want, have};
            check.maxDifference = std::max(check.maxDifference, apart);
        }
    }
    return check;
}

}  // namespace hs::lab
