#include "bench/suite.hpp"

#include "stages/stage.hpp"

namespace hs::bench {

namespace {

// Function-local, so registrations from other files' static initialisers find it constructed.
std::vector<Suite>& registry() {
    static std::vector<Suite> list;
    return list;
}

}  // namespace

std::string_view defaultStrategyOf(std::string_view kind) {
    return stages::findKind(kind).defaultStrategy();
}

const std::vector<Suite>& suites() {
    return registry();
}

RegisterSuite::RegisterSuite(std::string name, SuiteRun run) {
    registry().push_back({std::move(name), std::move(run)});
}

}  // namespace hs::bench
