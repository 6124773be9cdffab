#pragma once
// A bench suite measures one operation family on every input of a run. A suite lives in its own file in
// app/bench/ and registers itself with a static RegisterSuite, so adding one touches no other file:
//
//     void runRotation(SuiteContext& context, Input& input) { ... context.report.add(...); }
//     const RegisterSuite rotation("rotate", runRotation);

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/options.hpp"
#include "bench/report.hpp"
#include "engine/image/image.hpp"
#include "engine/image/pixel_source.hpp"
#include "engine/measure/baselines.hpp"

namespace hs {
class DeviceContext;
}
namespace hs::session {
class Session;
}

namespace hs::bench {

struct SuiteContext {
    const Options& options;
    DeviceContext* device;          // null when no OpenCL device could be opened
    std::string deviceProblem;      // why not, then: device suites report their rows as skipped with it
    measure::Baselines* baselines;  // null without a device
    Report& report;
    // The run path every front end takes (session/session.hpp), whose runtime opened `device`: the suites
    // that run stages run them through it.
    session::Session& session;
    int recorded = 0;  // runs --record has recorded so far
};

// One input of the run. `pixels` is shared by the suites, so the input is uploaded to the device once.
struct Input {
    std::string name;  // pattern name or file name
    const ImageRGBA8& image;
    PixelSource& pixels;
};

using SuiteRun = std::function<void(SuiteContext&, Input&)>;

struct Suite {
    std::string name;
    SuiteRun run;
};

// The strategy the stage kind `kind` runs when none is named (stages::StageKind::defaultStrategy): the
// suites that run a fixed pipeline use what every front end uses.
std::string_view defaultStrategyOf(std::string_view kind);

// Every registered suite, in registration order.
const std::vector<Suite>& suites();

struct RegisterSuite {
    RegisterSuite(std::string name, SuiteRun run);
};

}  // namespace hs::bench
