#include "engine/ops/bow/device_strategy.hpp"

#include <algorithm>

#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::bow {

namespace {

constexpr std::string_view kSource = "bow";

std::size_t roundUp(std::size_t value, std::size_t multiple) {
    return (value + multiple - 1) / multiple * multiple;
}

}  // namespace

std::string kibibytes(std::uint64_t bytes) {
    return std::to_string((bytes + 1023) / 1024) + " KiB";
}

Support DeviceStrategy::supported(const DeviceInfo*, Shape, const Matrix&) const {
    return Support::yes();
}

std::optional<KernelBuild> DeviceStrategy::kernelBuild(const DeviceInfo& device, const Matrix&,
                                                       Shape shape) const {
    return KernelBuild{std::string(kSource), options(device, shape)};
}

Result DeviceStrategy::run(DeviceContext* device, const Matrix& descriptors, const Matrix& centroids) const {
    Result result;
    result.strategy = this;
    const Shape shape = shapeOf(descriptors, centroids);
    result.memberships.resize(shape.descriptors);
    result.histogram.assign(shape.centroids, 0);
    if (shape.descriptors == 0) return result;
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
        buffers.count = static_cast<cl_uint>(shape.descriptors);
        buffers.k = static_cast<cl_uint>(shape.centroids);
        buffers.descriptors = upload(descriptors.values, "upload descriptors");
        buffers.centroids = upload(centroids.values, "upload centroids");
        buffers.memberships =
            cl::Buffer(device->context(), CL_MEM_WRITE_ONLY, shape.descriptors * sizeof(cl_uint));
        buffers.histogram =
            cl::Buffer(device->context(), CL_MEM_READ_WRITE, shape.centroids * sizeof(cl_uint));
        queue.enqueueFillBuffer(buffers.histogram, cl_uint{0}, 0, shape.centroids * sizeof(cl_uint), nullptr,
                                log.track(Stage::Other, "clear histogram"));
        const KernelBuild build = *kernelBuild(device->info(), centroids, shape);
        const cl::Program program = device->program(build.source, build.options);
        result.builds.push_back(build);
        assign(*device, program, buffers, log);
        queue.enqueueReadBuffer(buffers.memberships, CL_FALSE, 0, shape.descriptors * sizeof(cl_uint),
                                result.memberships.data(), nullptr,
                                log.track(Stage::Readback, "read memberships"));
        queue.enqueueReadBuffer(buffers.histogram, CL_TRUE, 0, shape.centroids * sizeof(cl_uint),
                                result.histogram.data(), nullptr,
                                log.track(Stage::Readback, "read histogram"));
    });
    result.timings = log.collect();
    return result;
}

void DeviceStrategy::assignPerDescriptor(DeviceContext& device, const cl::Program& program,
                                         std::string_view kernelName, const cl::Buffer& descriptors,
                                         const Buffers& buffers, TimingLog& log) {
    cl::Kernel kernel(program, std::string(kernelName).c_str());
    setKernelArgs(kernel, 0, descriptors, buffers.count, buffers.centroids, buffers.k, buffers.memberships,
                  buffers.histogram);
    launchPerItem(device, kernel, buffers.count, 64, kernelName, log);
}

void DeviceStrategy::launchPerItem(DeviceContext& device, cl::Kernel& kernel, cl_uint count,
                                   std::size_t local, std::string_view stage, TimingLog& log) {
    local = std::min({local, device.info().maxWorkGroupSize,
                      kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device.device())});
    device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(roundUp(count, local)),
                                        cl::NDRange(local), nullptr,
                                        log.track(Stage::Kernel, std::string(stage)));
}

cl::Buffer DeviceStrategy::transpose(DeviceContext& device, const cl::Program& program,
                                     const Buffers& buffers, TimingLog& log) {
    cl::Buffer transposed(device.context(), CL_MEM_READ_WRITE,
                          std::size_t{buffers.count} * kDimensions * sizeof(float));
    cl::Kernel kernel(program, std::string(kTransposeKernel).c_str());
    setKernelArgs(kernel, 0, buffers.descriptors, buffers.count, transposed);
    device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(buffers.count, kDimensions),
                                        cl::NullRange, nullptr,
                                        log.track(Stage::Kernel, std::string(kTransposeKernel)));
    return transposed;
}

std::size_t StagedStrategy::workGroup(const DeviceInfo& device) {
    return std::min<std::size_t>(64, device.maxWorkGroupSize);
}

Support StagedStrategy::supported(const DeviceInfo* device, Shape, const Matrix&) const {
    const std::uint64_t staged = workGroup(*device) * kDimensions * sizeof(float);
    if (staged > device->localMemBytes)
        return Support::no("needs " + kibibytes(staged) + " of local memory, the device has " +
                           kibibytes(device->localMemBytes));
    return Support::yes();
}

std::string StagedStrategy::options(const DeviceInfo& device, Shape) const {
    return "-D GROUP=4 -D WG=" + std::to_string(workGroup(device));
}

void StagedStrategy::assign(DeviceContext& device, const cl::Program& program, const Buffers& buffers,
                            TimingLog& log) const {
    const cl::Buffer descriptors = transpose(device, program, buffers, log);
    cl::Kernel kernel(program, "assign_staged");
    setKernelArgs(kernel, 0, descriptors, buffers.count, buffers.centroids, buffers.k, buffers.memberships,
                  buffers.histogram);
    const std::size_t local = workGroup(device.info());
    device.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(roundUp(buffers.count, local)),
                                        cl::NDRange(local), nullptr,
                                        log.track(Stage::Kernel, "assign_staged"));
}

}  // namespace hs::bow
