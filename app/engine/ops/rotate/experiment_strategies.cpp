// Experiment only (issue 11, bench/experiments/gpuexp.sh): variants of the buffer kernel, registered when the
// environment has HISTOSCOPE_GPUEXP set so that one H100 run measures them side by side and runs the engine
// tests on each. Not part of the product.
#include <cstdlib>

#include "ops/rotate/device_rotation.hpp"

namespace hs::rotate {

namespace {

constexpr std::string_view kDescription = "experiment variant of buffer";

// Registers only in an experiment run, so the product's strategy lists stay as they are.
struct ExperimentRegistration {
    ExperimentRegistration(const Strategy& strategy, int order) {
        if (std::getenv("HISTOSCOPE_GPUEXP") != nullptr) Registry<Operation>::add(strategy, order);
    }
};

const DeviceRotation x2("buffer-x2-8x32", kDescription, false, {"-D PIXELS_X=2", 2, 8, 32});
const DeviceRotation x4("buffer-x4-8x32", kDescription, false, {"-D PIXELS_X=4", 4, 8, 32});
const DeviceRotation x4tall("buffer-x4-4x64", kDescription, false, {"-D PIXELS_X=4", 4, 4, 64});
const DeviceRotation interior("buffer-interior", kDescription, false, {"-D INTERIOR=1"});
const DeviceRotation interior8("buffer-interior-8x32", kDescription, false, {"-D INTERIOR=1", 1, 8, 32});
const DeviceRotation interior2("buffer-interior-x2-8x32", kDescription, false,
                               {"-D INTERIOR=1 -D PIXELS_X=2", 2, 8, 32});
const DeviceRotation interior4("buffer-interior-x4-8x32", kDescription, false,
                               {"-D INTERIOR=1 -D PIXELS_X=4", 4, 8, 32});
const DeviceRotation interior4tall("buffer-interior-x4-4x64", kDescription, false,
                                   {"-D INTERIOR=1 -D PIXELS_X=4", 4, 4, 64});

const ExperimentRegistration r1(x2, 101);
const ExperimentRegistration r2(x4, 102);
const ExperimentRegistration r3(x4tall, 103);
const ExperimentRegistration r4(interior, 104);
const ExperimentRegistration r5(interior8, 105);
const ExperimentRegistration r6(interior2, 106);
const ExperimentRegistration r7(interior4, 107);
const ExperimentRegistration r8(interior4tall, 108);

}  // namespace

}  // namespace hs::rotate
