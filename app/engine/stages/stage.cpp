#include "stages/stage.hpp"

#include <algorithm>

#include "runtime/error.hpp"
#include "stages/builtin.hpp"

namespace hs::stages {

namespace {

std::vector<const StageKind*>& registry() {
    static std::vector<const StageKind*> list;
    return list;
}

}  // namespace

const Parameter* StageKind::parameter(std::string_view name) const {
    const auto& list = parameters();
    const auto found = std::find_if(list.begin(), list.end(),
                                    [name](const Parameter& parameter) { return parameter.name == name; });
    return found == list.end() ? nullptr : &*found;
}

bool registerKind(const StageKind& kind) {
    auto& list = registry();
    const auto at =
        std::upper_bound(list.begin(), list.end(), kind.order(),
                         [](int order, const StageKind* other) { return order < other->order(); });
    list.insert(at, &kind);
    return true;
}

std::vector<const StageKind*> kinds() {
    return registry();
}

const StageKind& findKind(std::string_view name) {
    std::string known;
    for (const StageKind* kind : registry()) {
        if (kind->name() == name) return *kind;
        known += (known.empty() ? "" : ", ") + std::string(kind->name());
    }
    throw UsageError("unknown stage '" + std::string(name) + "' (known: " + known + ")");
}

void requireKnownValues(const StageKind& kind, const Values& values) {
    for (const auto& [name, value] : values)
        if (!kind.parameter(name))
            throw UsageError(std::string(kind.name()) + ": unknown parameter '" + name + "'");
}

std::optional<std::string> valueOr(const StageKind& kind, const Values& values, std::string_view name) {
    if (const auto given = values.find(name); given != values.end()) return given->second;
    const Parameter* parameter = kind.parameter(name);
    if (!parameter || parameter->defaultText.empty()) return std::nullopt;
    return parameter->defaultText;
}

DeviceContext& requireDevice(DeviceContext* device, const StageKind& kind) {
    if (!device)
        throw UsageError(std::string(kind.name()) + " runs on an OpenCL device, and none is selected");
    return *device;
}

StageRun imageRun(pipeline::StageResult&& result) {
    StageRun run;
    run.image.emplace(std::move(result.image));
    static_cast<RunRecord&>(run) = std::move(result);
    return run;
}

void validateOrder(const StageList& stages) {
    const Stage* measurement = nullptr;
    for (const auto& stage : stages) {
        if (!stage->kind().producesImage()) {
            if (!measurement) measurement = stage.get();
            continue;
        }
        if (measurement)
            throw UsageError("the " + std::string(stage->kind().name()) + " stage comes after the " +
                             std::string(measurement->kind().name()) +
                             " stage, which measures the image before it: put image stages first");
    }
}

}  // namespace hs::stages
