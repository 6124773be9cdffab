#pragma once
// The frame of the OpenCL builders, kernels/bow.cl specialised per strategy by -D options: upload, clear,
// the strategy's launches, read back; and the launches several strategies share.

#include "engine/ops/bow/bow.hpp"

namespace hs::bow {

// "16 KiB": bytes rounded up to whole kibibytes, for the reasons support gives.
std::string kibibytes(std::uint64_t bytes);

// What a launch works on, all in the device's context.
struct Buffers {
    cl::Buffer descriptors;  // count x 64 floats, row-major
    cl::Buffer centroids;    // k x 64 floats, row-major
    cl::Buffer memberships;  // count uints
    cl::Buffer histogram;    // k uints, zeroed
    cl_uint count = 0;
    cl_uint k = 0;
};

class DeviceStrategy : public Strategy {
  public:
    bool runsOnDevice() const final { return true; }
    Support supported(const DeviceInfo* device, Shape shape, const Matrix& centroids) const override;
    std::optional<KernelBuild> kernelBuild(const DeviceInfo& device, const Matrix& centroids,
                                           Shape shape) const final;
    Result run(DeviceContext* device, const Matrix& descriptors, const Matrix& centroids) const final;

  protected:
    // The -D options of kernels/bow.cl.
    virtual std::string options(const DeviceInfo& device, Shape shape) const = 0;
    // Enqueues the kernels that fill buffers.memberships and buffers.histogram.
    virtual void assign(DeviceContext& device, const cl::Program& program, const Buffers& buffers,
                        TimingLog& log) const = 0;

    // Kernel `kernelName` (descriptors, count, centroids, k, memberships, histogram) with a work-item per
    // descriptor in groups of `local`, the kernel's limit permitting.
    static void assignPerDescriptor(DeviceContext& device, const cl::Program& program,
                                    std::string_view kernelName, const cl::Buffer& descriptors,
                                    const Buffers& buffers, TimingLog& log);
    // A work-item per item of `count` in groups of `local` (the kernel's limit permitting).
    static void launchPerItem(DeviceContext& device, cl::Kernel& kernel, cl_uint count, std::size_t local,
                              std::string_view stage, TimingLog& log);
    // The descriptors transposed in groups of `group` dimensions (kernels/bow.cl transpose_descriptors,
    // built with -D GROUP): a kernel record of its own, kTransposeKernel.
    static cl::Buffer transpose(DeviceContext& device, const cl::Program& program, const Buffers& buffers,
                                TimingLog& log);
};

// GPU4 and GPU5: assign_staged, a work-group's descriptors staged in local memory (read from the staged copy,
// where the book's listing reads global memory anyway).
class StagedStrategy : public DeviceStrategy {
  public:
    Support supported(const DeviceInfo* device, Shape shape, const Matrix& centroids) const override;

  protected:
    std::string options(const DeviceInfo& device, Shape shape) const override;
    void assign(DeviceContext& device, const cl::Program& program, const Buffers& buffers,
                TimingLog& log) const final;

  private:
    // 64 work-items stage 16 KiB, which leaves room for several groups per compute unit.
    static std::size_t workGroup(const DeviceInfo& device);
};

}  // namespace hs::bow
