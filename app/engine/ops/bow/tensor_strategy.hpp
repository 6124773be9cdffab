#pragma once
// bow-tensor (ours): the dot products on NVIDIA's tensor cores, in halves split head + tail so that the
// result is as exact as float multiply-adds (kernels/bow.cl assign_tensor).

#include "engine/ops/bow/device_strategy.hpp"

namespace hs::bow {

class TensorStrategy final : public DeviceStrategy {
  public:
    // Where the matrix products run: on the tensor cores (NVIDIA, compute capability 8.0 or later; the
    // registered bow-tensor), or emulated through local memory on any device (bow-tensor-emulated, not
    // registered: how the tests check the rest of the kernel on PoCL).
    enum class Products { TensorCores, Emulated };
    explicit TensorStrategy(Products products) : products_(products) {}

    std::string_view name() const override;
    std::string_view description() const override;
    Support supported(const DeviceInfo* device, Shape shape, const Matrix& centroids) const override;

    // kernels/bow.cl's WARPS warps of 32 own MTILES x 16 descriptors each and sweep the centroids NTILES x 8
    // at a time.
    static constexpr std::size_t kWarps = 8, kRowTiles = 4, kColumnTiles = 2;
    static constexpr std::size_t kGroup = 32 * kWarps, kDescriptorsPerGroup = 16 * kRowTiles * kWarps;
    static constexpr std::size_t kCentroidsPerBlock = 8 * kColumnTiles;
    // The compute capability of NVIDIA's first tensor cores with mma.m16n8k16 (Ampere).
    static constexpr int kMinimumComputeCapability = 80;

  protected:
    std::string options(const DeviceInfo& device, Shape shape) const override;
    void assign(DeviceContext& device, const cl::Program& program, const Buffers& buffers,
                TimingLog& log) const override;

  private:
    // The kernel's local memory: its fixed arrays (the candidates' scores and indices and the rows' largest
    // magnitudes, 4 per descriptor each; the emulation's exchange) and k counters, norms and scales.
    std::uint64_t localBytes(std::size_t centroids) const;

    Products products_;
};

}  // namespace hs::bow
