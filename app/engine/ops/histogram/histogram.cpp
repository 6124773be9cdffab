#include "engine/ops/histogram/histogram.hpp"

#include <iterator>

#include "engine/ops/device_launch.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::histogram {

std::string_view channelName(Channel channel) {
    switch (channel) {
        case Channel::R:
            return "r";
        case Channel::G:
            return "g";
        case Channel::B:
            return "b";
        case Channel::A:
            return "a";
        case Channel::Luma:
            break;
    }
    return "luma";
}

Histogram::Histogram(int binCount) : bins(binCount) {
    for (auto& channel : counts) channel.assign(static_cast<std::size_t>(binCount), 0);
}

Histogram Histogram::fromFlat(const std::vector<std::uint32_t>& flat, int binCount) {
    Histogram histogram(binCount);
    for (std::size_t c = 0; c < kChannelCount; ++c) {
        for (int b = 0; b < binCount; ++b)
            histogram.counts[c][static_cast<std::size_t>(b)] =
                flat[c * static_cast<std::size_t>(binCount) + b];
    }
    return histogram;
}

std::uint64_t Histogram::total(Channel c) const {
    std::uint64_t sum = 0;
    for (const auto count : (*this)[c]) sum += count;
    return sum;
}

Histogram Histogram::rebinned(int binCount) const {
    if (bins != kMaxBins)
        throw UsageError("only a histogram of the 256 values can be rebinned, this one has " +
                         std::to_string(bins) + " bins");
    validate(Params{binCount});
    Histogram grouped(binCount);
    for (std::size_t c = 0; c < kChannelCount; ++c) {
        for (int v = 0; v < kMaxBins; ++v)
            grouped.counts[c][static_cast<std::size_t>(binOf(v, binCount))] +=
                counts[c][static_cast<std::size_t>(v)];
    }
    return grouped;
}

Result Result::counted(Histogram values, const Params& params, RunRecord record) {
    Histogram histogram = values.rebinned(params.bins);
    return {std::move(record), std::move(histogram), std::move(values)};
}

void validate(const Params& params) {
    if (params.bins < 1 || params.bins > kMaxBins)
        throw UsageError("bins must be within 1..256, got " + std::to_string(params.bins));
}

Result computeHistogram(DeviceContext* device, PixelSource& pixels, const Params& params,
                        const Strategy& strategy) {
    validate(params);
    if (!params.roi || params.roi->covers(pixels.width(), pixels.height()))
        return runChosen<Operation>(device, pixels, {pixels.width(), pixels.height()}, params, strategy);
    const Region& region = *params.roi;
    requireInside(region, pixels.width(), pixels.height(), "--roi");
    // The strategies' kernels read whole uint4s of a packed buffer in persistent chunks, which a rectangle's
    // rows would break; one rectangle copy on the device (the driver's, where the pixels already are) keeps
    // every strategy as it is, at the cost of reading and writing the region once more.
    TimingLog log;
    PixelSource packed = launch::cropped(strategy.runsOnDevice() ? device : nullptr, pixels, region, log);
    Result result = runChosen<Operation>(device, packed, {region.width, region.height}, params, strategy);
    std::vector<Timing> timings = log.collect();
    timings.insert(timings.end(), std::make_move_iterator(result.timings.begin()),
                   std::make_move_iterator(result.timings.end()));
    result.timings = std::move(timings);
    return result;
}

Histogram referenceHistogram(const std::uint8_t* rgba, std::size_t pixelCount, int bins,
                             bool ignoreTransparent) {
    Histogram histogram(bins);
    auto& r = histogram[Channel::R];
    auto& g = histogram[Channel::G];
    auto& b = histogram[Channel::B];
    auto& a = histogram[Channel::A];
    auto& y = histogram[Channel::Luma];
    for (std::size_t i = 0; i < pixelCount; ++i) {
        const std::uint8_t* p = rgba + i * 4;
        ++a[static_cast<std::size_t>(binOf(p[3], bins))];
        if (ignoreTransparent && p[3] == 0) continue;
        ++r[static_cast<std::size_t>(binOf(p[0], bins))];
        ++g[static_cast<std::size_t>(binOf(p[1], bins))];
        ++b[static_cast<std::size_t>(binOf(p[2], bins))];
        ++y[static_cast<std::size_t>(binOf(luma(p[0], p[1], p[2]), bins))];
    }
    return histogram;
}

}  // namespace hs::histogram
