// serial: the golden reference on the host; also where a device strategy falls back.
#include <chrono>

#include "engine/ops/scope/scope.hpp"

namespace hs::scope {

namespace {

class SerialStrategy final : public Strategy {
  public:
    std::string_view name() const override { return "serial"; }
    std::string_view description() const override { return "single-thread C++ loop; the golden reference"; }
    bool runsOnDevice() const override { return false; }
    Support supported(const DeviceInfo*, ImageShape, const Params&) const override { return Support::yes(); }
    Result run(DeviceContext*, PixelSource& pixels, const Params& params) const override {
        TimingLog log;
        Result result;
        // The host pixels, without a copy of ours where they live on a device (mapped).
        pixels.withHostPixels(log, [&](const std::uint8_t* rgba) {
            const auto start = std::chrono::steady_clock::now();
            result.counts = referenceScope(rgba, pixels.width(), pixels.height(), params);
            log.addHost(Stage::Kernel, "serial", start, std::chrono::steady_clock::now());
        });
        static_cast<RunRecord&>(result) = {this, {}, log.collect(), {}};
        return result;
    }
};

const SerialStrategy strategy;
const Registration<Operation> registration(strategy, 10);

}  // namespace

}  // namespace hs::scope
