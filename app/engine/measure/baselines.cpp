#include "engine/measure/baselines.hpp"

#include <algorithm>
#include <optional>

#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::measure {

std::vector<Baselines::Shape> Baselines::shapes(const cl::Kernel& kernel, std::uint64_t bytes) const {
    const std::size_t limit = std::min(device_.info().maxWorkGroupSize,
                                       kernel.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device_.device()));
    std::vector<Shape> list;
    for (const std::size_t wanted : {std::size_t{16}, std::size_t{64}, std::size_t{256}}) {
        const std::size_t local = std::min(wanted, limit);
        if (!list.empty() && list.back().local == local) continue;
        for (const std::size_t quadsPerItem : {4, 16, 64, 256}) {
            const std::size_t span = local * quadsPerItem;
            list.push_back({local, quadsPerItem, std::max<std::uint64_t>(1, (bytes / 16 + span - 1) / span)});
        }
    }
    return list;
}

std::vector<Timing> Baselines::enqueue(cl::Kernel& kernel, const Shape& shape, const char* name) {
    TimingLog log;
    device_.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(shape.groups * shape.local),
                                         cl::NDRange(shape.local), nullptr, log.track(Stage::Kernel, name));
    return log.collect();
}

Baseline Baselines::measureFastest(cl::Kernel& kernel, unsigned quadsArgument, std::uint64_t bytes,
                                   const char* name) {
    constexpr int kTrialRuns = 2;
    std::optional<Shape> fastest;
    double fastestNs = 0;
    for (const auto& shape : shapes(kernel, bytes)) {
        kernel.setArg(quadsArgument, static_cast<cl_uint>(shape.quadsPerItem));
        const double ns = measure({Clock::Kernel, 1, kTrialRuns, bytes}, [&] {
                              return enqueue(kernel, shape, name);
                          }).summary.min;
        if (!fastest || ns < fastestNs) {
            fastest = shape;
            fastestNs = ns;
        }
    }
    kernel.setArg(quadsArgument, static_cast<cl_uint>(fastest->quadsPerItem));
    return {measure({Clock::Kernel, 1, repetitions_, bytes}, [&] { return enqueue(kernel, *fastest, name); })
                .summary,
            "local " + std::to_string(fastest->local) + ", " + std::to_string(fastest->quadsPerItem) +
                " uint4 per work-item"};
}

const Baseline& Baselines::streamRead(const cl::Buffer& data, std::uint64_t bytes) {
    const auto key = std::make_pair(std::string("stream_read"), bytes);
    if (const auto found = measured_.find(key); found != measured_.end()) return found->second;
    Baseline baseline = withClErrors("device " + device_.info().name + ": stream_read", [&] {
        cl::Kernel kernel(device_.program("bench"), "stream_read");
        std::size_t items = 0;
        for (const auto& shape : shapes(kernel, bytes)) items = std::max(items, shape.groups * shape.local);
        cl::Buffer sums(device_.context(), CL_MEM_WRITE_ONLY, items * sizeof(cl_uint));
        kernel.setArg(0, data);
        kernel.setArg(1, static_cast<cl_uint>(bytes));
        kernel.setArg(3, sums);
        return measureFastest(kernel, 2, bytes, "stream_read");
    });
    return measured_.emplace(key, std::move(baseline)).first->second;
}

const Baseline& Baselines::copy(std::uint64_t bytes) {
    const auto key = std::make_pair(std::string("copy"), bytes);
    if (const auto found = measured_.find(key); found != measured_.end()) return found->second;
    Baseline baseline = withClErrors("device " + device_.info().name + ": copy", [&] {
        cl::Kernel kernel(device_.program("bench"), "copy");
        const std::uint64_t allocated = std::max<std::uint64_t>(bytes, 16);
        cl::Buffer source(device_.context(), CL_MEM_READ_ONLY, allocated);
        cl::Buffer destination(device_.context(), CL_MEM_WRITE_ONLY, allocated);
        device_.queue().enqueueFillBuffer(source, cl_uchar{0x5a}, 0, allocated);
        kernel.setArg(0, source);
        kernel.setArg(1, destination);
        kernel.setArg(2, static_cast<cl_uint>(bytes));
        return measureFastest(kernel, 3, bytes, "copy");
    });
    return measured_.emplace(key, std::move(baseline)).first->second;
}

}  // namespace hs::measure
