#pragma once
// The memory of the `auto` strategy and the pieces of its trial, for tests and for showing what it does.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

namespace hs::histogram {

// Timed trials `auto` has run in this process (a remembered choice runs none).
std::uint64_t autoTrialCount();
// Forgets the choices held in memory, as a new process starts; the file under the state directory stays.
void forgetAutoChoices();
// The file, under ProgramCache::stateDirectory(), that keeps `auto` choices between processes: one line per
// device and size class (log2 of the pixel count), whatever the bin count.
inline constexpr const char* kAutoChoicesFile = "histogram-auto.txt";

// The trial runs each candidate on at most this many pixels, copied on the device from bands spread over the
// image: a candidate's time follows the image's content, not its size.
inline constexpr std::size_t kAutoSamplePixels = std::size_t{1} << 18;

// Told before each candidate of a trial: `candidate` (1-based) of `candidates`, and its name.
using AutoTrialObserver = std::function<void(int candidate, int candidates, std::string_view strategy)>;

// While alive, the `auto` trials that run on this thread report to `observer` (a progress display); the
// previous observer of the thread comes back afterwards.
class ScopedAutoTrialObserver {
  public:
    explicit ScopedAutoTrialObserver(AutoTrialObserver observer);
    ~ScopedAutoTrialObserver();
    ScopedAutoTrialObserver(const ScopedAutoTrialObserver&) = delete;
    ScopedAutoTrialObserver& operator=(const ScopedAutoTrialObserver&) = delete;

  private:
    AutoTrialObserver previous_;
};

// The bookkeeping of a trial: the fastest candidate so far, and whether a candidate deserves another timed
// run. A candidate more than kDropFactor times slower than the best run so far is dropped at once: the noise
// between runs of one kernel is far below that factor, so what is dropped could not have won.
class TrialRace {
  public:
    static constexpr double kDropFactor = 2.0;

    // Records one timed run of `candidate`; false when the candidate is clearly slower than the best so far.
    bool record(std::size_t candidate, std::uint64_t ns);
    std::optional<std::size_t> fastest() const { return fastest_; }

  private:
    std::optional<std::size_t> fastest_;
    std::uint64_t fastestNs_ = 0;
};

}  // namespace hs::histogram
