// private-uchar: uchar counters per work-item in local memory, flushed before they can overflow.
#include "engine/ops/histogram/device_strategy.hpp"

namespace hs::histogram::device {

namespace {

class PrivateUcharStrategy final : public SizedGroupStrategy {
  public:
    std::string_view name() const override { return "private-uchar"; }
    std::string_view description() const override {
        return "per-work-item uchar counters in local memory, uint4 loads, merged per group, reduced on the "
               "device";
    }

  protected:
    // Bank-aware interleaving for GPUs; on a CPU a work-item's counters stay together in its core's cache.
    static bool interleaved(const DeviceInfo& device, std::size_t workGroup) {
        return device.type != DeviceType::Cpu && workGroup % 16 == 0;
    }
    // A CPU runs a work-item's increments one after another: four rows keep runs of equal pixels from waiting
    // on each other's stores. GPU work-items interleave by themselves.
    static std::size_t lanes(const DeviceInfo& device) { return device.type == DeviceType::Cpu ? 4 : 1; }
    // The most uint4 loads between flushes: a row takes 4 / lanes counts per load, a uchar at most 255.
    static std::size_t itemQuads(const DeviceInfo& device) { return 255 * lanes(device) / 4; }
    // A row's counters: each channel's padded to 16-byte blocks (BINS_PAD in the kernel).
    static std::size_t rowBytes(const Params&) {
        return kChannelCount * ceilDiv(static_cast<std::size_t>(kMaxBins), 16) * 16;
    }
    // The uchar rows and the chunk index (the group's uint counts stay in registers).
    std::uint64_t localBytes(const DeviceInfo& device, const Params& params,
                             std::size_t workGroup) const override {
        return rowBytes(params) * workGroup * lanes(device) + kTicketBytes;
    }
    // On a CPU, 4 work-items of 4 rows at 256 bins are 20 KiB of counters: they stay in the L1 cache.
    std::size_t preferredWorkGroup(const DeviceInfo& device) const override {
        return device.type == DeviceType::Cpu ? 4 : 256;
    }
    std::size_t quadsPerItem(const DeviceInfo& device) const override { return itemQuads(device); }
    bool mergesWithAtomics() const override { return false; }
    std::string options(const DeviceInfo& device, const Params& params,
                        std::size_t workGroup) const override {
        return countingOptions(params) + " -D WG=" + std::to_string(workGroup) +
               " -D ITEM_QUADS=" + std::to_string(itemQuads(device)) +
               " -D INTERLEAVED=" + (interleaved(device, workGroup) ? "1" : "0") +
               " -D LANES=" + std::to_string(lanes(device));
    }
    const char* kernelName() const override { return "private_uchar"; }
};

const PrivateUcharStrategy strategy;
const Registration<Operation> registration(strategy, 50);

}  // namespace

}  // namespace hs::histogram::device
