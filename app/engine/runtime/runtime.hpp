#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/runtime/cl.hpp"
#include "engine/runtime/device_info.hpp"
#include "engine/runtime/program_cache.hpp"

namespace hs {

class Runtime;

// A program built from source, which takes seconds on PoCL: told when it starts and when it ends (built or
// failed), on the building thread, so that a front end can show that something is happening. Loads from the
// binary cache and memoized programs are quick and not told.
struct ProgramBuildEvent {
    const DeviceInfo& device;
    std::string_view label;  // "histogram.cl"
    bool finished = false;
};
using ProgramBuildObserver = void (*)(const ProgramBuildEvent& event);
// One observer per process (none by default); it may be called from several threads at once.
void setProgramBuildObserver(ProgramBuildObserver observer);

// One device in use: its context (shared with the other devices of its platform, so buffers can pass
// between them without a host round trip), an in-order profiling queue, and its built programs.
class DeviceContext {
  public:
    // Creates the device's profiling queue and registers its clock's offset to the host's steady clock
    // (runtime/device_clock.hpp), so that its commands' timings line up with every other device's.
    DeviceContext(const DeviceInfo& info, cl::Context context, cl::Device device, ProgramCache& cache);
    ~DeviceContext();

    const DeviceInfo& info() const { return info_; }
    const cl::Context& context() const { return context_; }
    const cl::Device& device() const { return device_; }
    cl::CommandQueue& queue() { return queue_; }

    // kernels/<source>.cl built for this device with `options` ("-D BINS=64 ..."), loaded from the binary
    // cache when it holds a matching entry. Memoized per (source, options). A failed build throws
    // OpenClError carrying the build log.
    cl::Program program(std::string_view source, const std::string& options = {});
    // While alive, program(source) on `device` builds `text` (a user's edit of kernels/<source>.cl, named
    // `label` in errors and the cache) in place of the embedded source: the kernel lab's edited built-in
    // strategy, installed by the stage that runs it (lab/edited_strategy.hpp) for that stage's run only, so
    // the strategy's own host code runs the user's kernels unchanged. One at a time per context.
    class SourceOverride {
      public:
        SourceOverride(DeviceContext& device, std::string source, std::string label, std::string text);
        ~SourceOverride();
        SourceOverride(const SourceOverride&) = delete;
        SourceOverride& operator=(const SourceOverride&) = delete;

      private:
        DeviceContext& device_;
    };
    // Same, for OpenCL C text that is not among the embedded sources (a test's own kernel); `label` names it
    // in errors.
    cl::Program programFromText(std::string_view label, std::string_view text, const std::string& options);

    // How many programs this context built from source; loads from the binary cache are not counted.
    std::size_t sourceBuilds() const { return sourceBuilds_; }
    // The runtime's cache, whose stateDirectory() holds records that outlive a process (`auto` choices).
    ProgramCache& programCache() { return cache_; }

  private:
    cl::Program build(std::string_view label, std::string_view text, const std::string& options);

    DeviceInfo info_;
    cl::Context context_;
    cl::Device device_;
    cl::CommandQueue queue_;
    ProgramCache& cache_;
    std::mutex programsMutex_;
    std::map<std::string, cl::Program> programs_;
    std::size_t sourceBuilds_ = 0;
    struct Override {
        std::string source;
        std::string label;
        std::string text;
    };
    std::optional<Override> override_;  // SourceOverride's, while one lives
};

// The devices of the machine and the contexts of those in use. Long-lived: one per process (or per test).
class Runtime {
  public:
    explicit Runtime(ProgramCacheSettings cacheSettings = ProgramCacheSettings::fromEnvironment());
    ~Runtime();
    Runtime(const Runtime&) = delete;
    Runtime& operator=(const Runtime&) = delete;

    const std::vector<DeviceInfo>& devices() const { return devices_; }
    // A selector as in selectDevice(); the context is created on first use and kept.
    DeviceContext& open(std::string_view selector);
    DeviceContext& open(const DeviceInfo& info);
    ProgramCache& programCache() { return cache_; }

  private:
    std::vector<DeviceInfo> devices_;
    ProgramCache cache_;
    std::mutex mutex_;
    std::map<int, cl::Context> platformContexts_;
    std::map<std::string, std::unique_ptr<DeviceContext>> opened_;
};

}  // namespace hs
