#include "engine/ops/bow/tensor_strategy.hpp"

namespace hs::bow {

namespace {

// kernels/bow.cl's EXCHANGE_FLOATS: a warp's 16 x 16 A and 16 x 8 B of one emulated product.
constexpr std::uint64_t kExchangeFloatsPerWarp = 16 * 16 + 16 * 8;

}  // namespace

std::string_view TensorStrategy::name() const {
    return products_ == Products::TensorCores ? "bow-tensor" : "bow-tensor-emulated";
}

std::string_view TensorStrategy::description() const {
    return products_ == Products::TensorCores
               ? "ours on NVIDIA tensor cores: the dot products as mma.m16n8k16 in halves, each value split "
                 "into a head and a tail (exact like float), argmin and a local histogram fused"
               : "bow-tensor with the tensor-core products emulated in local memory (for checking the "
                 "kernel)";
}

std::uint64_t TensorStrategy::localBytes(std::size_t centroids) const {
    std::uint64_t bytes = 3 * 4 * kDescriptorsPerGroup * sizeof(float) + 3 * centroids * sizeof(float);
    if (products_ == Products::Emulated) bytes += kWarps * kExchangeFloatsPerWarp * sizeof(float);
    return bytes;
}

Support TensorStrategy::supported(const DeviceInfo* device, Shape shape, const Matrix&) const {
    if (products_ == Products::TensorCores && device->nvidiaComputeCapability < kMinimumComputeCapability)
        return Support::no(device->nvidiaComputeCapability == 0
                               ? "needs NVIDIA tensor cores (compute capability 8.0 or later); " +
                                     device->name + " is not an NVIDIA device"
                               : "needs NVIDIA tensor cores of compute capability 8.0 or later; " +
                                     device->name + " has " +
                                     std::to_string(device->nvidiaComputeCapability / 10) + "." +
                                     std::to_string(device->nvidiaComputeCapability % 10));
    if (device->maxWorkGroupSize < kGroup)
        return Support::no("needs work-groups of " + std::to_string(kGroup) +
                           " work-items, the device allows " + std::to_string(device->maxWorkGroupSize));
    const std::uint64_t local = localBytes(shape.centroids);
    if (local > device->localMemBytes)
        return Support::no(std::to_string(shape.centroids) + " centroids need " + kibibytes(local) +
                           " of local memory (candidates, a histogram, norms and scales), the device has " +
                           kibibytes(device->localMemBytes));
    return Support::yes();
}

std::string TensorStrategy::options(const DeviceInfo& device, Shape shape) const {
    std::string options = "-D TENSOR -D WARPS=" + std::to_string(kWarps) +
                          " -D MTILES=" + std::to_string(kRowTiles) +
                          " -D NTILES=" + std::to_string(kColumnTiles);
    if (shape.centroids % kCentroidsPerBlock == 0) options += " -D FULL_BLOCKS";
    if (products_ == Products::Emulated) options += " -D EMULATE_MMA";
    // On a CPU the emulation is built unoptimised: its work-group function holds two barriers per product
    // (192 in the unrolled sweep of a block), and optimising that took PoCL minutes of CPU per build (the
    // binary for the program cache and the specialisation for the group size), where unoptimised it builds in
    // about a second and runs 4099 descriptors x 300 centroids in about as long. The emulation checks the
    // kernel's results, never its speed. Not on a GPU: NVIDIA's compiler refuses the program unoptimised
    // (CL_BUILD_PROGRAM_FAILURE on the H200, driver 580.159.04) and builds it optimised in a moment.
    if (products_ == Products::Emulated && device.type == DeviceType::Cpu) options += " -cl-opt-disable";
    return options;
}

void TensorStrategy::assign(DeviceContext& device, const cl::Program& program, const Buffers& buffers,
                            TimingLog& log) const {
    cl::Kernel kernel(program, "assign_tensor");
    setKernelArgs(kernel, 0, buffers.descriptors, buffers.count, buffers.centroids, buffers.k,
                  buffers.memberships, buffers.histogram, cl::Local(std::size_t{buffers.k} * sizeof(cl_uint)),
                  cl::Local(2 * std::size_t{buffers.k} * sizeof(float)));
    const std::size_t groups = (buffers.count + kDescriptorsPerGroup - 1) / kDescriptorsPerGroup;
    device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(groups * kGroup),
                                        cl::NDRange(kGroup), nullptr,
                                        log.track(Stage::Kernel, "assign_tensor"));
}

namespace {

const TensorStrategy strategy(TensorStrategy::Products::TensorCores);
const Registration<Operation> registration(strategy, 90);

}  // namespace

}  // namespace hs::bow
