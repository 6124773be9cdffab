// The OpenCL builders: kernels/bow.cl specialised per strategy. Each strategy is its kernel launch; the frame
// (upload, clear, read back) is shared.
#include <algorithm>

#include "ops/bow/strategy_list.hpp"
#include "runtime/error.hpp"
#include "runtime/runtime.hpp"

namespace hs::bow {

namespace {

constexpr std::string_view kSource = "bow";

std::size_t roundUp(std::size_t value, std::size_t multiple) {
    return (value + multiple - 1) / multiple * multiple;
}

std::string kibibytes(std::uint64_t bytes) {
    return std::to_string((bytes + 1023) / 1024) + " KiB";
}

std::uint64_t centroidBytes(const Problem& problem) {
    return problem.centroids * kDimensions * sizeof(float);
}

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
    bool runsOnDevice() const override { return true; }
    Support supported(const DeviceInfo*, const Problem&) const override { return Support::yes(); }
    std::optional<KernelBuild> kernelBuild(const DeviceInfo& device, const Problem& problem) const override {
        return KernelBuild{std::string(kSource), options(device, problem)};
    }

    Result run(DeviceContext* device, const Matrix& descriptors, const Matrix& centroids) const override {
        Result result;
        result.strategy = name();
        const Problem problem{descriptors.rows(), centroids.rows()};
        result.memberships.resize(problem.descriptors);
        result.histogram.assign(problem.centroids, 0);
        if (problem.descriptors == 0) return result;
        TimingLog log;
        withClErrors("device " + device->info().name + ": bow strategy " + std::string(name()), [&] {
            auto& queue = device->queue();
            const auto upload = [&](const std::vector<float>& values, const char* what) {
                cl::Buffer buffer(device->context(), CL_MEM_READ_ONLY, values.size() * sizeof(float));
                queue.enqueueWriteBuffer(buffer, CL_FALSE, 0, values.size() * sizeof(float), values.data(),
                                         nullptr, log.track(Stage::Upload, what));
                return buffer;
            };
            Buffers buffers;
            buffers.count = static_cast<cl_uint>(problem.descriptors);
            buffers.k = static_cast<cl_uint>(problem.centroids);
            buffers.descriptors = upload(descriptors.values, "upload descriptors");
            buffers.centroids = upload(centroids.values, "upload centroids");
            buffers.memberships =
                cl::Buffer(device->context(), CL_MEM_WRITE_ONLY, problem.descriptors * sizeof(cl_uint));
            buffers.histogram =
                cl::Buffer(device->context(), CL_MEM_READ_WRITE, problem.centroids * sizeof(cl_uint));
            queue.enqueueFillBuffer(buffers.histogram, cl_uint{0}, 0, problem.centroids * sizeof(cl_uint),
                                    nullptr, log.track(Stage::Other, "clear histogram"));
            const cl::Program program = device->program(kSource, options(device->info(), problem));
            assign(*device, program, buffers, log);
            queue.enqueueReadBuffer(buffers.memberships, CL_FALSE, 0, problem.descriptors * sizeof(cl_uint),
                                    result.memberships.data(), nullptr,
                                    log.track(Stage::Readback, "read memberships"));
            queue.enqueueReadBuffer(buffers.histogram, CL_TRUE, 0, problem.centroids * sizeof(cl_uint),
                                    result.histogram.data(), nullptr,
                                    log.track(Stage::Readback, "read histogram"));
        });
        result.timings = log.collect();
        return result;
    }

  protected:
    virtual std::string options(const DeviceInfo& device, const Problem& problem) const = 0;
    // Enqueues the kernels that fill buffers.memberships and buffers.histogram.
    virtual void assign(DeviceContext& device, const cl::Program& program, const Buffers& buffers,
                        TimingLog& log) const = 0;

    // A work-item per descriptor in groups of `local` (the kernel's limit permitting).
    static void launchPerDescriptor(DeviceContext& device, cl::Kernel& kernel, cl_uint count,
                                    std::size_t local, std::string_view stage, TimingLog& log) {
        local = std::min({local, device.info().maxWorkGroupSize,
                          kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device.device())});
        device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(roundUp(count, local)),
                                            cl::NDRange(local), nullptr,
                                            log.track(Stage::Kernel, std::string(stage)));
    }

    // The descriptors transposed in groups of `group` dimensions (kernels/bow.cl transpose_descriptors,
    // built with -D GROUP): a kernel record of its own, kTransposeKernel.
    static cl::Buffer transpose(DeviceContext& device, const cl::Program& program, const Buffers& buffers,
                                TimingLog& log) {
        cl::Buffer transposed(device.context(), CL_MEM_READ_WRITE,
                              std::size_t{buffers.count} * kDimensions * sizeof(float));
        cl::Kernel kernel(program, std::string(kTransposeKernel).c_str());
        setKernelArgs(kernel, 0, buffers.descriptors, buffers.count, transposed);
        device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(buffers.count, kDimensions),
                                            cl::NullRange, nullptr,
                                            log.track(Stage::Kernel, std::string(kTransposeKernel)));
        return transposed;
    }
};

// GPU1 and GPU2: assign_scalar, on the descriptors as they come or transposed (-D TRANSPOSED).
class ScalarStrategy final : public DeviceStrategy {
  public:
    explicit ScalarStrategy(bool transposed) : transposed_(transposed) {}
    std::string_view name() const override {
        return transposed_ ? "bow-gpu2-coalesced" : "bow-gpu1-baseline";
    }
    std::string_view description() const override {
        return transposed_ ? "GPU2: the descriptors transposed first (a kernel timed on its own), so "
                             "neighbouring work-items read neighbouring floats"
                           : "GPU1: a work-item per descriptor reading its row, global atomics";
    }

  protected:
    std::string options(const DeviceInfo&, const Problem&) const override {
        return transposed_ ? "-D TRANSPOSED -D GROUP=1" : "";
    }
    void assign(DeviceContext& device, const cl::Program& program, const Buffers& buffers,
                TimingLog& log) const override {
        const cl::Buffer descriptors =
            transposed_ ? transpose(device, program, buffers, log) : buffers.descriptors;
        cl::Kernel kernel(program, "assign_scalar");
        setKernelArgs(kernel, 0, descriptors, buffers.count, buffers.centroids, buffers.k,
                      buffers.memberships, buffers.histogram);
        launchPerDescriptor(device, kernel, buffers.count, 64, "assign_scalar", log);
    }

  private:
    bool transposed_;
};

// GPU3: float4 loads from the descriptors transposed in groups of 4.
class VectorizedStrategy final : public DeviceStrategy {
  public:
    std::string_view name() const override { return "bow-gpu3-vectorized"; }
    std::string_view description() const override {
        return "GPU3: float4 loads from the descriptors transposed in groups of 4 dimensions";
    }

  protected:
    std::string options(const DeviceInfo&, const Problem&) const override { return "-D GROUP=4"; }
    void assign(DeviceContext& device, const cl::Program& program, const Buffers& buffers,
                TimingLog& log) const override {
        const cl::Buffer descriptors = transpose(device, program, buffers, log);
        cl::Kernel kernel(program, "assign_vector");
        setKernelArgs(kernel, 0, descriptors, buffers.count, buffers.centroids, buffers.k,
                      buffers.memberships, buffers.histogram);
        launchPerDescriptor(device, kernel, buffers.count, 64, "assign_vector", log);
    }
};

// GPU4 and GPU5: assign_staged, a work-group's descriptors staged in local memory; GPU5 reads the centroids
// from __constant memory.
class StagedStrategy final : public DeviceStrategy {
  public:
    explicit StagedStrategy(bool constantCentroids) : constant_(constantCentroids) {}
    std::string_view name() const override { return constant_ ? "bow-gpu5-constant" : "bow-gpu4-local"; }
    std::string_view description() const override {
        return constant_
                   ? "GPU5: GPU4 with the centroids in __constant memory"
                   : "GPU4: the work-group's descriptors staged in local memory, distances read from the "
                     "staged copy";
    }
    Support supported(const DeviceInfo* device, const Problem& problem) const override {
        const std::uint64_t staged = workGroup(*device) * kDimensions * sizeof(float);
        if (staged > device->localMemBytes)
            return Support::no("needs " + kibibytes(staged) + " of local memory, the device has " +
                               kibibytes(device->localMemBytes));
        if (constant_ && centroidBytes(problem) > device->constantMemBytes)
            return Support::no(
                std::to_string(problem.centroids) + " centroids take " + kibibytes(centroidBytes(problem)) +
                ", more than the device's constant buffer (CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE " +
                kibibytes(device->constantMemBytes) + ")");
        return Support::yes();
    }

  protected:
    // 64 work-items stage 16 KiB, which leaves room for several groups per compute unit.
    static std::size_t workGroup(const DeviceInfo& device) {
        return std::min<std::size_t>(64, device.maxWorkGroupSize);
    }
    std::string options(const DeviceInfo& device, const Problem&) const override {
        return "-D GROUP=4 -D WG=" + std::to_string(workGroup(device)) +
               (constant_ ? " -D CENTROID_SPACE=__constant" : "");
    }
    void assign(DeviceContext& device, const cl::Program& program, const Buffers& buffers,
                TimingLog& log) const override {
        const cl::Buffer descriptors = transpose(device, program, buffers, log);
        cl::Kernel kernel(program, "assign_staged");
        setKernelArgs(kernel, 0, descriptors, buffers.count, buffers.centroids, buffers.k,
                      buffers.memberships, buffers.histogram);
        const std::size_t local = workGroup(device.info());
        device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(roundUp(buffers.count, local)),
                                            cl::NDRange(local), nullptr,
                                            log.track(Stage::Kernel, "assign_staged"));
    }

  private:
    bool constant_;
};

// Ours: assign_tiled (see kernels/bow.cl), after centroid_norms.
class TiledStrategy final : public DeviceStrategy {
  public:
    std::string_view name() const override { return "bow-tiled"; }
    std::string_view description() const override {
        return "ours: distances as a tiled matrix product |c|^2 - 2 x.c (4 x 4 per work-item), argmin and a "
               "local histogram fused; only memberships and counts leave the chip";
    }
    Support supported(const DeviceInfo* device, const Problem& problem) const override {
        if (device->maxWorkGroupSize < kGroup)
            return Support::no("needs work-groups of " + std::to_string(kGroup) +
                               " work-items, the device allows " + std::to_string(device->maxWorkGroupSize));
        const std::uint64_t local = kTileBytes + problem.centroids * sizeof(cl_uint);
        if (local > device->localMemBytes)
            return Support::no(std::to_string(problem.centroids) + " centroids need " + kibibytes(local) +
                               " of local memory (tiles and a histogram), the device has " +
                               kibibytes(device->localMemBytes));
        return Support::yes();
    }

  protected:
    static constexpr std::size_t kSide = 16, kGroup = kSide * kSide, kDescriptorsPerGroup = 64;
    // xs, cs (16 x 64 floats each), candidate scores and indices (16 x 64 each).
    static constexpr std::uint64_t kTileBytes = 4 * 16 * 64 * 4;

    std::string options(const DeviceInfo&, const Problem&) const override { return "-D TILE"; }
    void assign(DeviceContext& device, const cl::Program& program, const Buffers& buffers,
                TimingLog& log) const override {
        cl::Buffer norms(device.context(), CL_MEM_READ_WRITE, std::size_t{buffers.k} * sizeof(float));
        cl::Kernel normKernel(program, "centroid_norms");
        setKernelArgs(normKernel, 0, buffers.centroids, buffers.k, norms);
        launchPerDescriptor(device, normKernel, buffers.k, 64, "centroid_norms", log);

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

}  // namespace

const Strategy& baselineStrategy() {
    static const ScalarStrategy strategy(false);
    return strategy;
}
const Strategy& coalescedStrategy() {
    static const ScalarStrategy strategy(true);
    return strategy;
}
const Strategy& vectorizedStrategy() {
    static const VectorizedStrategy strategy;
    return strategy;
}
const Strategy& localStrategy() {
    static const StagedStrategy strategy(false);
    return strategy;
}
const Strategy& constantStrategy() {
    static const StagedStrategy strategy(true);
    return strategy;
}
const Strategy& tiledStrategy() {
    static const TiledStrategy strategy;
    return strategy;
}

}  // namespace hs::bow
