#pragma once
// A sweep run, the one way (histoscope-cli sweep and the Kernel tab's heat map): every point of a grid
// (lab/sweep.hpp) measured through Session::measure on one device, with the point's values in force for the
// strategy (ops/tuning.hpp; a user kernel's group and @params configure its stage instead), each point's
// output checked against the stage's CPU reference, the points that built the same values marked, and the
// device's streaming read of the same bytes measured once for the "× read" figure.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/image/image.hpp"
#include "engine/lab/sweep.hpp"
#include "engine/stages/stage.hpp"
#include "session/session.hpp"

namespace hs::session {

struct SweepSpec {
    std::shared_ptr<const ImageRGBA8> image;
    std::string device;                // a selector as RunSpec::device
    DeviceContext* context = nullptr;  // set: run there (as RunSpec::context)
    std::string stage;                 // the stage kind: histogram, rotate, convolve, kernel
    std::string strategy;              // one of its strategies (empty: the kind's default; none for kernel)
    stages::Values values;             // the stage's other values (angle, filter, the kernel's file, ...)
    std::vector<lab::Axis> axes;
    int repetitions = 5;
};

// Each grid point's stage, made and checked before anything runs: the axes against the strategy's
// tunables (lab::checkAxis), a user kernel's values by its configure(). Throws UsageError.
std::vector<std::shared_ptr<const stages::Stage>> sweepStages(const SweepSpec& spec,
                                                              const stages::FileReader& readFile);

// Progress before each point: `done` of `total` points measured. False stops the sweep.
using SweepProgress = std::function<bool(std::size_t done, std::size_t total)>;

// Runs every point; nothing when `progress` said stop. A point whose build or run fails keeps its error and
// the sweep goes on; a UsageError (a bad spec) propagates.
std::optional<lab::Sweep> runSweep(Session& session, const SweepSpec& spec,
                                   const stages::FileReader& readFile, const SweepProgress& progress);

}  // namespace hs::session
