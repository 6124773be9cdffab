// Strategies that run on the host: the golden reference, and the native multithreaded one.
#include <chrono>

#include "ops/histogram/histogram.hpp"
#include "ops/histogram/strategy_list.hpp"

namespace hs::histogram {

namespace {

class SerialStrategy final : public Strategy {
public:
    std::string_view name() const override { return "serial"; }
    std::string_view description() const override { return "single-thread C++ loop; the golden reference"; }
    bool runsOnDevice() const override { return false; }
    Support supported(const DeviceInfo*, const Params&) const override { return Support::yes(); }
    Result run(DeviceContext*, PixelSource& pixels, const Params& params) const override {
        TimingLog log;
        const std::uint8_t* rgba = pixels.host(log);
        const auto start = std::chrono::steady_clock::now();
        Histogram histogram = referenceHistogram(rgba, pixels.pixelCount(), params.bins);
        log.addHost(Stage::Kernel, "serial", start, std::chrono::steady_clock::now());
        return {std::move(histogram), log.collect(), std::string(name())};
    }
};

}  // namespace

const Strategy& serialStrategy() {
    static const SerialStrategy strategy;
    return strategy;
}

}  // namespace hs::histogram
