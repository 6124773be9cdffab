// serial: the golden reference on the host.
#include <chrono>

#include "engine/ops/histogram/histogram.hpp"

namespace hs::histogram {

namespace {

class SerialStrategy final : public Strategy {
  public:
    std::string_view name() const override { return "serial"; }
    std::string_view description() const override { return "single-thread C++ loop; the golden reference"; }
    bool runsOnDevice() const override { return false; }
    Support supported(const DeviceInfo*, ImageShape, const Params&) const override { return Support::yes(); }
    Result run(DeviceContext*, PixelSource& pixels, const Params& params) const override {
        TimingLog log;
        const std::uint8_t* rgba = pixels.host(log);
        const auto start = std::chrono::steady_clock::now();
        Histogram values = referenceHistogram(rgba, pixels.pixelCount(), kMaxBins, params.ignoreTransparent);
        log.addHost(Stage::Kernel, "serial", start, std::chrono::steady_clock::now());
        return Result::counted(std::move(values), params, {this, {}, log.collect(), {}});
    }
};

const SerialStrategy strategy;
const Registration<Operation> registration(strategy, 10);

}  // namespace

}  // namespace hs::histogram
