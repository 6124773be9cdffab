#include "engine/runtime/runtime.hpp"

#include <algorithm>
#include <atomic>

#include "engine/runtime/device_clock.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/kernel_sources.hpp"
#include "engine/util/hash.hpp"

namespace hs {

namespace {

std::string withDefaultStandard(const std::string& options) {
    // Every device we target compiles OpenCL C 1.2; name it so a 3.0 compiler does not assume more.
    if (options.find("-cl-std=") != std::string::npos) return options;
    return options.empty() ? "-cl-std=CL1.2" : "-cl-std=CL1.2 " + options;
}

std::string cacheKey(const DeviceInfo& info, std::string_view text, const std::string& options) {
    return "platform=" + info.platformName + "|platform-version=" + info.platformVersion +
           "|device=" + info.name + "|driver=" + info.driverVersion +
           "|device-version=" + info.openclVersion + "|options=" + options +
           "|source=" + toHex(fnv1a64(text)) + "|length=" + std::to_string(text.size());
}

std::vector<unsigned char> binaryFor(const cl::Program& program, const cl::Device& device) {
    const auto devices = program.getInfo<CL_PROGRAM_DEVICES>();
    const auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
    for (std::size_t i = 0; i < devices.size() && i < binaries.size(); ++i) {
        if (devices[i]() == device()) return binaries[i];
    }
    return {};
}

std::atomic<ProgramBuildObserver> buildObserver{nullptr};

// Tells the observer that a build started, and that it ended however it ends.
class ToldBuild {
  public:
    ToldBuild(const DeviceInfo& device, std::string_view label) : device_(device), label_(label) {
        if (const auto observer = buildObserver.load()) observer({device_, label_, false});
    }
    ~ToldBuild() {
        if (const auto observer = buildObserver.load()) observer({device_, label_, true});
    }
    ToldBuild(const ToldBuild&) = delete;
    ToldBuild& operator=(const ToldBuild&) = delete;

  private:
    const DeviceInfo& device_;
    std::string_view label_;
};

}  // namespace

void setProgramBuildObserver(ProgramBuildObserver observer) {
    buildObserver = observer;
}

std::string_view kernelSource(std::string_view name) {
    for (const auto& source : kernelSources()) {
        if (source.name == name) return source.text;
    }
    throw OpenClError("loading kernel source", 0,
                      "no embedded kernel source named '" + std::string(name) + "'");
}

DeviceContext::DeviceContext(const DeviceInfo& info, cl::Context context, cl::Device device,
                             ProgramCache& cache)
    : info_(info), context_(std::move(context)), device_(std::move(device)), cache_(cache) {
    queue_ = withClErrors("device " + info_.name, [&] {
        return cl::CommandQueue(context_, device_, cl::QueueProperties::Profiling);
    });
    const std::int64_t clockOffsetNs = withClErrors("device " + info_.name + ": measuring its clock",
                                                    [&] { return measureClockOffset(device_, queue_); });
    registerQueueClock(queue_(), clockOffsetNs);
}

DeviceContext::~DeviceContext() {
    forgetQueueClock(queue_());
}

cl::Program DeviceContext::program(std::string_view source, const std::string& options) {
    if (override_ && override_->source == source)
        return programFromText(override_->label, override_->text, options);
    return programFromText(std::string(source) + ".cl", kernelSource(source), options);
}

DeviceContext::SourceOverride::SourceOverride(DeviceContext& device, std::string source, std::string label,
                                              std::string text)
    : device_(device) {
    if (device_.override_)
        throw UsageError("device " + device_.info_.name + ": " + device_.override_->label +
                         " already replaces " + device_.override_->source + ".cl");
    device_.override_ = Override{std::move(source), std::move(label), std::move(text)};
}

DeviceContext::SourceOverride::~SourceOverride() {
    device_.override_.reset();
}

cl::Program DeviceContext::programFromText(std::string_view label, std::string_view text,
                                           const std::string& options) {
    const std::string fullOptions = withDefaultStandard(options);
    const std::string memoKey = std::string(label) + '\n' + toHex(fnv1a64(text)) + '\n' + fullOptions;
    std::lock_guard lock(programsMutex_);
    if (const auto found = programs_.find(memoKey); found != programs_.end()) return found->second;
    cl::Program program = build(label, text, fullOptions);
    programs_.emplace(memoKey, program);
    return program;
}

cl::Program DeviceContext::build(std::string_view label, std::string_view text, const std::string& options) {
    const std::string where = "device " + info_.name + ": building " + std::string(label);
    const std::string key = cacheKey(info_, text, options);
    if (auto binary = cache_.load(key)) {
        // A stale or rejected binary falls through to a source build.
        try {
            cl::Program program(context_, {device_}, cl::Program::Binaries{*binary});
            program.build({device_}, options.c_str());
            return program;
        } catch (const cl::Error&) {
            cache_.countMiss();
        }
    }
    const ToldBuild told(info_, label);
    return withClErrors(where, [&] {
        cl::Program program(context_, std::string(text));
        // Called directly rather than through Program::build, which fetches the log before it looks at the
        // status: a build that failed before it started (out of resources) has no log, and the failing log
        // query would then hide the build's own error.
        const cl_int status = clBuildProgram(program(), 1, &device_(), options.c_str(), nullptr, nullptr);
        if (status != CL_SUCCESS) {
            std::string log;
            try {
                log = program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_);
            } catch (const cl::Error&) {
            }
            throw OpenClError("clBuildProgram", status, where + " with options '" + options + "'", log);
        }
        ++sourceBuilds_;
        if (cache_.usable()) cache_.store(key, binaryFor(program, device_));
        return program;
    });
}

Runtime::Runtime(ProgramCacheSettings cacheSettings)
    : devices_(enumerateDevices()), cache_(std::move(cacheSettings)) {}

Runtime::~Runtime() = default;

DeviceContext& Runtime::open(std::string_view selector) {
    return open(selectDevice(devices_, selector));
}

DeviceContext& Runtime::open(const DeviceInfo& info) {
    std::lock_guard lock(mutex_);
    const std::string id = info.selector();
    if (const auto found = opened_.find(id); found != opened_.end()) return *found->second;

    return withClErrors("device " + info.name, [&]() -> DeviceContext& {
        std::vector<cl::Platform> platforms;
        cl::Platform::get(&platforms);
        if (info.platformIndex < 0 || static_cast<std::size_t>(info.platformIndex) >= platforms.size())
            throw OpenClError("opening a device", 0, "device " + info.selector() + ": its platform is gone");
        std::vector<cl::Device> platformDevices;
        platforms[static_cast<std::size_t>(info.platformIndex)].getDevices(CL_DEVICE_TYPE_ALL,
                                                                           &platformDevices);
        if (info.deviceIndex < 0 || static_cast<std::size_t>(info.deviceIndex) >= platformDevices.size())
            throw OpenClError("opening a device", 0,
                              "device " + info.selector() + " (" + info.name + ") is gone");

        // One context per platform, over all its devices, so devices of a platform can share buffers.
        auto context = platformContexts_.find(info.platformIndex);
        if (context == platformContexts_.end())
            context = platformContexts_.emplace(info.platformIndex, cl::Context(platformDevices)).first;

        auto device = std::make_unique<DeviceContext>(
            info, context->second, platformDevices[static_cast<std::size_t>(info.deviceIndex)], cache_);
        return *opened_.emplace(id, std::move(device)).first->second;
    });
}

}  // namespace hs
