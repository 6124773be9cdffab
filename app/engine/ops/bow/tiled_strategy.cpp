// bow-tiled (ours): distances as a tiled matrix product with the argmin and a local histogram fused
// (kernels/bow.cl assign_tiled, after centroid_norms).
#include "ops/bow/device_strategy.hpp"

namespace hs::bow {

namespace {

class TiledStrategy final : public DeviceStrategy {
  public:
    std::string_view name() const override { return "bow-tiled"; }
    std::string_view description() const override {
        return "ours: distances as a tiled matrix product |c|^2 - 2 x.c (4 x 16 per work-item), argmin and a "
               "local histogram fused; only memberships and counts leave the chip";
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
    static constexpr std::size_t kSide = 16, kGroup = kSide * kSide, kDescriptorsPerGroup = 64;
    // The kernel's fixed local arrays (kernels/bow.cl, REG_D 4, REG_C 16, CHUNK 16): xs[16][64/4 + 1] and
    // cs[16][256/4 + 1] float4s (a padding float4 per row), candidate scores and indices [16][64] each.
    static constexpr std::uint64_t kTileBytes = (16 * 17 + 16 * 65) * 16 + 2 * 16 * 64 * 4;

    std::string options(const DeviceInfo&, Shape) const override { return "-D TILE"; }
    void assign(DeviceContext& device, const cl::Program& program, const Buffers& buffers,
                TimingLog& log) const override {
        cl::Buffer norms(device.context(), CL_MEM_READ_WRITE, std::size_t{buffers.k} * sizeof(float));
        cl::Kernel normKernel(program, "centroid_norms");
        setKernelArgs(normKernel, 0, buffers.centroids, buffers.k, norms);
        launchPerItem(device, normKernel, buffers.k, 64, "centroid_norms", log);

        cl::Kernel kernel(program, "assign_tiled");
        setKernelArgs(kernel, 0, buffers.descriptors, buffers.count, buffers.centroids, norms, buffers.k,
                      buffers.memberships, buffers.histogram,
                      cl::Local(std::size_t{buffers.k} * sizeof(cl_uint)));
        const std::size_t groups = (buffers.count + kDescriptorsPerGroup - 1) / kDescriptorsPerGroup;
        device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(groups * kSide, kSide),
                                            cl::NDRange(kSide, kSide), nullptr,
                                            log.track(Stage::Kernel, "assign_tiled"));
    }
};

const TiledStrategy strategy;
const Registration<Operation> registration(strategy, 80);

}  // namespace

}  // namespace hs::bow
