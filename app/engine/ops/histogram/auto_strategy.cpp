// `auto`: the fastest supported device strategy for this device and image size class, found by a short timed
// trial on a sample of the image and remembered in memory and, when the cache is enabled, in a small text
// file that outlives the process.
#include "engine/ops/histogram/auto_strategy.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <sstream>
#include <utility>

#include "engine/ops/histogram/device_strategy.hpp"
#include "engine/ops/histogram/histogram.hpp"
#include "engine/ops/tuning.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::histogram {

namespace {

// Timed runs per candidate after its untimed warm-up, unless the race drops it sooner; the fastest counts.
constexpr int kTrialRuns = 3;
// The sample is copied from this many bands of consecutive pixels, spread evenly over the image.
constexpr std::size_t kSampleBands = 8;
// The untimed warm-up runs on this many pixels: it builds the program and pays the first enqueue of the
// work-group size (PoCL compiles per size then), which do not depend on the pixel count.
constexpr std::size_t kWarmUpPixels = 4096;

std::atomic<std::uint64_t> trialCount{0};
thread_local AutoTrialObserver trialObserver;

// One line of the choices file: device, size class, strategy, separated by tabs. Bin counts share a choice:
// they change what a candidate counts into, not how fast it streams the pixels.
struct ChoiceKey {
    std::string device;
    int sizeClass = 0;

    std::string line() const { return device + '\t' + std::to_string(sizeClass); }
};

// log2 of the pixel count, rounded down: images within a factor of two share a choice.
int sizeClass(std::size_t pixelCount) {
    return std::bit_width(std::max<std::size_t>(pixelCount, 1)) - 1;
}

class ChoiceMemory {
  public:
    std::optional<std::string> find(ProgramCache& cache, const ChoiceKey& key) {
        std::lock_guard lock(mutex_);
        const auto directory = cache.stateDirectory();
        const std::string memoryKey = scope(directory) + key.line();
        if (const auto found = choices_.find(memoryKey); found != choices_.end()) return found->second;
        if (!directory) return std::nullopt;
        auto lines = readLines(cache);
        const auto found = lines.find(key.line());
        if (found == lines.end()) return std::nullopt;
        choices_[memoryKey] = found->second;
        return found->second;
    }

    void remember(ProgramCache& cache, const ChoiceKey& key, const std::string& strategy) {
        std::lock_guard lock(mutex_);
        const auto directory = cache.stateDirectory();
        choices_[scope(directory) + key.line()] = strategy;
        if (!directory) return;
        auto lines = readLines(cache);
        lines[key.line()] = strategy;
        writeLines(cache, lines);
    }

    void forget() {
        std::lock_guard lock(mutex_);
        choices_.clear();
    }

  private:
    static std::string scope(const std::optional<std::filesystem::path>& directory) {
        return (directory ? directory->string() : std::string()) + '\n';
    }

    static std::map<std::string, std::string> readLines(ProgramCache& cache) {
        std::map<std::string, std::string> lines;
        std::istringstream in(cache.readState(kAutoChoicesFile).value_or(std::string()));
        std::string line;
        while (std::getline(in, line)) {
            const auto tab = line.rfind('\t');
            if (tab == std::string::npos) continue;
            lines[line.substr(0, tab)] = line.substr(tab + 1);
        }
        return lines;
    }

    // A cache, not a store of record: a failed write leaves the previous file and is otherwise ignored.
    static void writeLines(ProgramCache& cache, const std::map<std::string, std::string>& lines) {
        std::string text;
        for (const auto& [key, strategy] : lines) text += key + '\t' + strategy + '\n';
        cache.writeState(kAutoChoicesFile, text);
    }

    std::mutex mutex_;
    std::map<std::string, std::string> choices_;
};

ChoiceMemory& memory() {
    static ChoiceMemory instance;
    return instance;
}

// Every device strategy but `self` (auto) that supports `device`.
std::vector<const Strategy*> candidates(const DeviceInfo& device, ImageShape shape, const Params& params,
                                        const Strategy& self) {
    std::vector<const Strategy*> list;
    for (const auto* strategy : strategies()) {
        if (strategy->runsOnDevice() && strategy != &self && strategy->supported(&device, shape, params).ok)
            list.push_back(strategy);
    }
    return list;
}

// The pixels a trial times the candidates on: the whole image when it is small, else kAutoSamplePixels copied
// from kSampleBands bands, each centred in its eighth of the image; on the device, or on the host for pixels
// counted in bands (device::bandsFor), which never go to the device whole.
PixelSource trialSample(DeviceContext& device, PixelSource& pixels, TimingLog& log) {
    const std::size_t pixelCount = pixels.pixelCount();
    const bool onHost = device::bandsFor(device, pixels).has_value();
    if (pixelCount <= kAutoSamplePixels) {
        if (!onHost) return PixelSource(device, pixels.device(device, log), static_cast<int>(pixelCount), 1);
        const std::uint8_t* host = pixels.host(log);
        return PixelSource(std::vector<std::uint8_t>(host, host + pixelCount * 4),
                           static_cast<int>(pixelCount), 1);
    }
    constexpr std::size_t band = kAutoSamplePixels / kSampleBands;
    const std::size_t slice = pixelCount / kSampleBands;
    const auto bandStart = [&](std::size_t b) { return b * slice + (slice - band) / 2; };
    if (onHost) {
        const std::uint8_t* host = pixels.host(log);
        std::vector<std::uint8_t> sample(kAutoSamplePixels * 4);
        for (std::size_t b = 0; b < kSampleBands; ++b)
            std::copy_n(host + bandStart(b) * 4, band * 4,
                        sample.begin() + static_cast<std::ptrdiff_t>(b * band * 4));
        return PixelSource(std::move(sample), static_cast<int>(band), static_cast<int>(kSampleBands));
    }
    const cl::Buffer& image = pixels.device(device, log);
    return withClErrors("device " + device.info().name + ": copying the auto trial's sample", [&] {
        cl::Buffer sample(device.context(), CL_MEM_READ_WRITE, kAutoSamplePixels * 4);
        for (std::size_t b = 0; b < kSampleBands; ++b)
            device.queue().enqueueCopyBuffer(image, sample, bandStart(b) * 4, b * band * 4, band * 4);
        return PixelSource(device, std::move(sample), static_cast<int>(band), static_cast<int>(kSampleBands));
    });
}

// Device time of one run: its kernels and the commands around them, not the transfers.
std::uint64_t deviceNs(const Result& result) {
    return totalNs(result.timings, Stage::Kernel) + totalNs(result.timings, Stage::Other);
}

class AutoStrategy final : public Strategy {
  public:
    std::string_view name() const override { return "auto"; }
    std::string_view description() const override {
        return "the fastest supported device strategy, from a short timed trial on a sample, remembered per "
               "device and image size";
    }
    bool runsOnDevice() const override { return true; }
    Support supported(const DeviceInfo* device, ImageShape shape, const Params& params) const override {
        if (candidates(*device, shape, params, *this).empty())
            return Support::no("no device strategy runs on this device");
        return Support::yes();
    }

    Result run(DeviceContext* device, PixelSource& pixels, const Params& params) const override {
        TimingLog log;
        // Uploaded once here (unless counted in bands): the trial's sample is copied from it on the device,
        // and the chosen run uses it.
        if (!device::bandsFor(*device, pixels)) pixels.device(*device, log);
        const ChoiceKey key{tuning::deviceKey(device->info()), sizeClass(pixels.pixelCount())};
        const ImageShape shape{pixels.width(), pixels.height()};
        const auto list = candidates(device->info(), shape, params, *this);
        const Strategy* chosen = remembered(list, device->programCache(), key);
        if (chosen == nullptr) {
            const auto start = std::chrono::steady_clock::now();
            chosen = trial(*device, pixels, params, list);
            log.addHost(Stage::Other, "auto: trial", start, std::chrono::steady_clock::now());
            memory().remember(device->programCache(), key, std::string(chosen->name()));
        }
        Result result = chosen->run(device, pixels, params);
        auto timings = log.collect();
        timings.insert(timings.end(), result.timings.begin(), result.timings.end());
        result.timings = std::move(timings);
        return result;
    }

  private:
    // The remembered choice among `list` (the candidates on this device).
    static const Strategy* remembered(const std::vector<const Strategy*>& list, ProgramCache& cache,
                                      const ChoiceKey& key) {
        const auto name = memory().find(cache, key);
        if (!name) return nullptr;
        // A choice naming a strategy this build does not have, or one the device cannot run, is retried.
        for (const auto* strategy : list) {
            if (strategy->name() == *name) return strategy;
        }
        return nullptr;
    }

    // Each candidate in turn: built and warmed up untimed on a few pixels, then timed on the sample until it
    // has had kTrialRuns runs or is clearly slower than the best so far.
    static const Strategy* trial(DeviceContext& device, PixelSource& pixels, const Params& params,
                                 const std::vector<const Strategy*>& list) {
        ++trialCount;
        TimingLog unused;
        PixelSource sample = trialSample(device, pixels, unused);
        PixelSource warmUp(device, sample.device(device, unused),
                           static_cast<int>(std::min(kWarmUpPixels, sample.pixelCount())), 1);
        TrialRace race;
        for (std::size_t i = 0; i < list.size(); ++i) {
            if (trialObserver)
                trialObserver(static_cast<int>(i + 1), static_cast<int>(list.size()), list[i]->name());
            list[i]->run(&device, warmUp, params);
            for (int run = 0; run < kTrialRuns; ++run) {
                if (!race.record(i, deviceNs(list[i]->run(&device, sample, params)))) break;
            }
        }
        return list[*race.fastest()];
    }
};

const AutoStrategy strategy;
const Registration<Operation> registration(strategy, 100);

}  // namespace

std::uint64_t autoTrialCount() {
    return trialCount.load();
}

void forgetAutoChoices() {
    memory().forget();
}

ScopedAutoTrialObserver::ScopedAutoTrialObserver(AutoTrialObserver observer)
    : previous_(std::exchange(trialObserver, std::move(observer))) {}

ScopedAutoTrialObserver::~ScopedAutoTrialObserver() {
    trialObserver = std::move(previous_);
}

bool TrialRace::record(std::size_t candidate, std::uint64_t ns) {
    if (!fastest_ || ns < fastestNs_) {
        fastest_ = candidate;
        fastestNs_ = ns;
        return true;
    }
    return static_cast<double>(ns) <= kDropFactor * static_cast<double>(fastestNs_);
}

}  // namespace hs::histogram
