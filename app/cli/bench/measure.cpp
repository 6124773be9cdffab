#include "bench/measure.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "runtime/error.hpp"
#include "runtime/runtime.hpp"

namespace hs::bench {

Stats Stats::of(std::vector<double> samples) {
    std::sort(samples.begin(), samples.end());
    const std::size_t n = samples.size();
    const double median = n % 2 == 1 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
    return {samples.front(), median, samples.back()};
}

double gigabytesPerSecond(std::uint64_t bytes, double ns) {
    return ns > 0 ? static_cast<double>(bytes) / ns : 0.0;
}

Stats measureDevice(int repetitions, const std::function<std::vector<Timing>()>& run) {
    run();
    std::vector<double> samples;
    for (int i = 0; i < repetitions; ++i)
        samples.push_back(static_cast<double>(totalNs(run(), Stage::Kernel)));
    return Stats::of(std::move(samples));
}

Stats measureHost(int repetitions, const std::function<void()>& run) {
    run();
    std::vector<double> samples;
    for (int i = 0; i < repetitions; ++i) {
        const auto start = std::chrono::steady_clock::now();
        run();
        samples.push_back(static_cast<double>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
                .count()));
    }
    return Stats::of(std::move(samples));
}

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
        const double ns = measureDevice(kTrialRuns, [&] { return enqueue(kernel, shape, name); }).minNs;
        if (!fastest || ns < fastestNs) {
            fastest = shape;
            fastestNs = ns;
        }
    }
    kernel.setArg(quadsArgument, static_cast<cl_uint>(fastest->quadsPerItem));
    return {measureDevice(repetitions_, [&] { return enqueue(kernel, *fastest, name); }),
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

void Report::add(Measurement measurement) {
    measurements_.push_back(std::move(measurement));
}

void Report::printTable(std::ostream& out) const {
    char line[512];
    std::snprintf(line, sizeof line, "%-10s %-16s %-12s %9s %6s %10s %10s %10s %9s %8s  %s\n", "suite",
                  "subject", "input", "MiB", "clock", "min ms", "median ms", "max ms", "GB/s", "x read",
                  "detail");
    out << line;
    for (const auto& m : measurements_) {
        const double mib = static_cast<double>(m.bytes) / (1024.0 * 1024.0);
        if (m.skipped()) {
            std::snprintf(line, sizeof line,
                          "%-10s %-16s %-12s %9.2f %6s %10s %10s %10s %9s %8s  skipped: %s\n",
                          m.suite.c_str(), m.subject.c_str(), m.input.c_str(), mib, m.clock.c_str(), "-", "-",
                          "-", "-", "-", m.detail.c_str());
        } else {
            char ratio[32] = "-";
            if (m.baselineRatio) std::snprintf(ratio, sizeof ratio, "%.3f", *m.baselineRatio);
            std::snprintf(line, sizeof line,
                          "%-10s %-16s %-12s %9.2f %6s %10.3f %10.3f %10.3f %9.3f %8s  %s\n", m.suite.c_str(),
                          m.subject.c_str(), m.input.c_str(), mib, m.clock.c_str(), m.stats->minNs / 1e6,
                          m.stats->medianNs / 1e6, m.stats->maxNs / 1e6, m.gbps(), ratio, m.detail.c_str());
        }
        out << line;
    }
}

void writeStats(JsonWriter& json, const Stats& stats) {
    json.field("min_ns", stats.minNs).field("median_ns", stats.medianNs).field("max_ns", stats.maxNs);
}

void Report::writeJson(JsonWriter& json) const {
    json.beginArray();
    for (const auto& m : measurements_) {
        json.beginObject();
        json.field("suite", m.suite)
            .field("subject", m.subject)
            .field("input", m.input)
            .field("bytes", m.bytes);
        json.field("clock", m.clock);
        if (m.skipped()) {
            json.field("skipped", m.detail);
        } else {
            writeStats(json, *m.stats);
            json.field("gbps", m.gbps());
            json.key("stream_read_ratio");
            if (m.baselineRatio)
                json.value(*m.baselineRatio);
            else
                json.null();
            json.field("detail", m.detail);
        }
        for (const auto& [name, value] : m.extra) json.field(name, value);
        json.endObject();
    }
    json.endArray();
}

}  // namespace hs::bench
