// bow-tiled (ours): distances as a register-blocked matrix product with the argmin and a local histogram
// fused (kernels/bow.cl assign_tiled).
#include <algorithm>

#include "engine/ops/bow/device_strategy.hpp"

namespace hs::bow {

namespace {

class TiledStrategy final : public DeviceStrategy {
  public:
    std::string_view name() const override { return "bow-tiled"; }
    std::string_view description() const override {
        return "ours: distances as a register-blocked matrix product |c|^2 - 2 x.c (8 x 8 per work-item), "
               "argmin and a local histogram fused; only memberships and counts leave the chip";
    }
    Support supported(const DeviceInfo* device, Shape shape, const Matrix&) const override {
        if (device->maxWorkGroupSize < kGroup)
            return Support::no("needs work-groups of " + std::to_string(kGroup) +
                               " work-items, the device allows " + std::to_string(device->maxWorkGroupSize));
        const std::uint64_t local = kTileBytes + shape.centroids * sizeof(cl_uint);
        if (local > device->localMemBytes)
            return Support::no(std::to_string(shape.centroids) + " centroids need " + kibibytes(local) +
                               " of local memory (tiles and a histogram), the device has " +
                               kibibytes(device->localMemBytes));
        return Support::yes();
    }

  protected:
    // kernels/bow.cl's LX x LY work-items, REG_D x REG_C dot products each, CHUNK dimensions staged at once.
    static constexpr std::size_t kItemsX = 16, kItemsY = 16, kRegD = 8, kRegC = 8, kChunk = 16;
    static constexpr std::size_t kGroup = kItemsX * kItemsY;
    static constexpr std::size_t kDescriptorsPerGroup = kItemsX * kRegD, kCentroidsPerBlock = kItemsY * kRegC;
    // The kernel's fixed local arrays: the larger of the staged chunks (CHUNK dimensions of the group's
    // descriptors and of a block of centroids) and the candidates (LY scores and indices per descriptor), and
    // the block's norms.
    static constexpr std::uint64_t kTileBytes =
        std::max(kChunk * (kDescriptorsPerGroup + kCentroidsPerBlock), 2 * kItemsY * kDescriptorsPerGroup) *
            sizeof(float) +
        kCentroidsPerBlock * sizeof(float);

    std::string options(const DeviceInfo&, Shape shape) const override {
        std::string options = "-D TILE -D LX=" + std::to_string(kItemsX) +
                              " -D LY=" + std::to_string(kItemsY) + " -D REG_D=" + std::to_string(kRegD) +
                              " -D REG_C=" + std::to_string(kRegC) + " -D CHUNK=" + std::to_string(kChunk);
        if (shape.centroids % kCentroidsPerBlock == 0) options += " -D FULL_BLOCKS";
        return options;
    }
    void assign(DeviceContext& device, const cl::Program& program, const Buffers& buffers,
                TimingLog& log) const override {
        cl::Kernel kernel(program, "assign_tiled");
        setKernelArgs(kernel, 0, buffers.descriptors, buffers.count, buffers.centroids, buffers.k,
                      buffers.memberships, buffers.histogram,
                      cl::Local(std::size_t{buffers.k} * sizeof(cl_uint)));
        const std::size_t groups = (buffers.count + kDescriptorsPerGroup - 1) / kDescriptorsPerGroup;
        device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(groups * kGroup),
                                            cl::NDRange(kGroup), nullptr,
                                            log.track(Stage::Kernel, "assign_tiled"));
    }
};

const TiledStrategy strategy;
const Registration<Operation> registration(strategy, 80);

}  // namespace

}  // namespace hs::bow
