#pragma once
// The values of strategies' tunables (Tunable, ops/strategy.hpp) in force: those a sweep sets for one grid
// point (ScopedTuning), else the best a sweep stored for the device (`histoscope-cli sweep --store`), else
// none, and each strategy chooses for itself. Stored values apply wherever the strategy runs on that device,
// `auto`'s trials and choice included. They live in one small text file under the program cache's state
// folder (ProgramCache::stateDirectory(), beside `auto`'s choices): a line per device and strategy,
// "DEVICE<TAB>STRATEGY<TAB>NAME=VALUE,NAME=VALUE"; disabling the cache disables them.

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "engine/runtime/device_info.hpp"

namespace hs {
class ProgramCache;
}

namespace hs::tuning {

using Values = std::map<std::string, int, std::less<>>;

inline constexpr const char* kTuningFile = "tuning.txt";

// The name `strategy` of the stage kind `stage` is tuned and stored under: a histogram strategy's own name
// (local-atomic), any other's KIND/NAME (rotate/image-sampler, convolve/image-sampler), so that strategies of
// the same name in two operations never take each other's values; then @VARIANT where the best values also
// depend on what the stage computes (Stage::tuningVariant: a convolution's filter size,
// convolve/local-tiled@5x5, since the H200's best 5x5 tile made a 15x15 filter 4.7 times slower).
std::string key(std::string_view stage, std::string_view strategy, std::string_view variant = {});

// How a device is named in the state files: platform, name and driver version (a new driver is measured
// again).
std::string deviceKey(const DeviceInfo& info);

// While alive, `values` are in force for `strategy` on every device of the process (a sweep's grid point),
// over the stored ones; the previous scoped values come back afterwards.
class ScopedTuning {
  public:
    ScopedTuning(std::string strategy, Values values);
    ~ScopedTuning();
    ScopedTuning(const ScopedTuning&) = delete;
    ScopedTuning& operator=(const ScopedTuning&) = delete;

  private:
    std::string strategy_;
    std::optional<Values> previous_;
};

// Reads the stored values of `cache`'s state folder into the process, once per folder (a strategy calls it
// before it plans a run, where it has the device's cache).
void loadStored(ProgramCache& cache);
// Stores `values` as the best of `strategy` on `device`, in the file and in the process.
void store(ProgramCache& cache, const DeviceInfo& device, std::string_view strategy, const Values& values);
// Forgets what loadStored read, as a new process starts; the file stays.
void forgetStored();

// The value of `name` in force for `strategy` on `device`, else `chosen` (the strategy's own choice).
int valueOr(const DeviceInfo& device, std::string_view strategy, std::string_view name, int chosen);

}  // namespace hs::tuning
