#include "engine/ops/tuning.hpp"

#include <algorithm>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>

#include "engine/runtime/program_cache.hpp"

namespace hs::tuning {

namespace {

struct State {
    std::mutex mutex;
    std::map<std::string, Values, std::less<>> scoped;             // by strategy
    std::map<std::pair<std::string, std::string>, Values> stored;  // by device key, strategy
    std::set<std::string> loadedFrom;                              // state folders read
};

State& state() {
    static State instance;
    return instance;
}

// "WG=64,COPIES=2"; nothing for a field that is not NAME=INTEGER (a damaged line is ignored, as a cache's
// is).
std::optional<Values> parseValues(const std::string& text) {
    Values values;
    std::istringstream fields(text);
    std::string field;
    while (std::getline(fields, field, ',')) {
        const auto equals = field.find('=');
        if (equals == std::string::npos || equals == 0) return std::nullopt;
        try {
            std::size_t used = 0;
            const int value = std::stoi(field.substr(equals + 1), &used);
            if (used != field.size() - equals - 1) return std::nullopt;
            values[field.substr(0, equals)] = value;
        } catch (const std::exception&) {
            return std::nullopt;
        }
    }
    return values;
}

std::string formatValues(const Values& values) {
    std::string text;
    for (const auto& [name, value] : values)
        text += (text.empty() ? "" : ",") + name + '=' + std::to_string(value);
    return text;
}

std::map<std::pair<std::string, std::string>, Values> readFile(ProgramCache& cache) {
    std::map<std::pair<std::string, std::string>, Values> lines;
    std::istringstream in(cache.readState(kTuningFile).value_or(std::string()));
    std::string line;
    while (std::getline(in, line)) {
        const auto first = line.find('\t');
        const auto second = first == std::string::npos ? first : line.find('\t', first + 1);
        if (second == std::string::npos) continue;
        if (auto values = parseValues(line.substr(second + 1)))
            lines[{line.substr(0, first), line.substr(first + 1, second - first - 1)}] = std::move(*values);
    }
    return lines;
}

}  // namespace

std::string key(std::string_view stage, std::string_view strategy, std::string_view variant) {
    std::string name =
        stage == "histogram" ? std::string(strategy) : std::string(stage) + '/' + std::string(strategy);
    if (!variant.empty()) name += '@' + std::string(variant);
    return name;
}

std::string deviceKey(const DeviceInfo& info) {
    std::string key = info.platformName + " | " + info.name + " | " + info.driverVersion;
    std::replace_if(
        key.begin(), key.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
    return key;
}

ScopedTuning::ScopedTuning(std::string strategy, Values values) : strategy_(std::move(strategy)) {
    auto& s = state();
    std::lock_guard lock(s.mutex);
    if (const auto found = s.scoped.find(strategy_); found != s.scoped.end()) previous_ = found->second;
    s.scoped[strategy_] = std::move(values);
}

ScopedTuning::~ScopedTuning() {
    auto& s = state();
    std::lock_guard lock(s.mutex);
    if (previous_)
        s.scoped[strategy_] = std::move(*previous_);
    else
        s.scoped.erase(strategy_);
}

void loadStored(ProgramCache& cache) {
    const auto directory = cache.stateDirectory();
    if (!directory) return;
    auto& s = state();
    {
        std::lock_guard lock(s.mutex);
        if (s.loadedFrom.contains(directory->string())) return;
    }
    auto lines = readFile(cache);
    std::lock_guard lock(s.mutex);
    if (!s.loadedFrom.insert(directory->string()).second) return;
    for (auto& [key, values] : lines) s.stored[key] = std::move(values);
}

void store(ProgramCache& cache, const DeviceInfo& device, std::string_view strategy, const Values& values) {
    const std::pair<std::string, std::string> key{deviceKey(device), std::string(strategy)};
    auto& s = state();
    {
        std::lock_guard lock(s.mutex);
        s.stored[key] = values;
    }
    if (!cache.stateDirectory()) return;
    auto lines = readFile(cache);
    lines[key] = values;
    std::string text;
    for (const auto& [where, stored] : lines)
        text += where.first + '\t' + where.second + '\t' + formatValues(stored) + '\n';
    // A cache, not a store of record: a failed write leaves the previous file (ProgramCache::writeState).
    cache.writeState(kTuningFile, text);
}

void forgetStored() {
    auto& s = state();
    std::lock_guard lock(s.mutex);
    s.stored.clear();
    s.loadedFrom.clear();
}

int valueOr(const DeviceInfo& device, std::string_view strategy, std::string_view name, int chosen) {
    auto& s = state();
    std::lock_guard lock(s.mutex);
    if (const auto scoped = s.scoped.find(strategy); scoped != s.scoped.end()) {
        if (const auto value = scoped->second.find(name); value != scoped->second.end()) return value->second;
        return chosen;
    }
    const auto stored = s.stored.find({deviceKey(device), std::string(strategy)});
    if (stored == s.stored.end()) return chosen;
    const auto value = stored->second.find(name);
    return value == stored->second.end() ? chosen : value->second;
}

}  // namespace hs::tuning
