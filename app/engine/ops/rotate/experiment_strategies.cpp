// Experiment only (issue 11, bench/experiments/gpuexp.sh): variants of the buffer kernel, registered when the
// environment has HISTOSCOPE_GPUEXP set so that one H100 run measures them side by side and runs the engine
// tests on each. Not part of the product.
#include <cstdlib>

#include "ops/rotate/device_rotation.hpp"

namespace hs::rotate {

namespace {

constexpr std::string_view kDescription = "experiment variant of buffer";

const DeviceRotation restrictOnly("buffer-restrict", kDescription, false, {"-D RESTRICT=1"});
const DeviceRotation fast("buffer-fast", kDescription, false, {"-D FAST_CONVERT=1 -D RESTRICT=1"});
const DeviceRotation fast32x8("buffer-fast-32x8", kDescription, false,
                              {"-D FAST_CONVERT=1 -D RESTRICT=1", 1, 32, 8});
const DeviceRotation fast8x32("buffer-fast-8x32", kDescription, false,
                              {"-D FAST_CONVERT=1 -D RESTRICT=1", 1, 8, 32});
const DeviceRotation fast2("buffer-fast-x2", kDescription, false,
                           {"-D FAST_CONVERT=1 -D RESTRICT=1 -D PIXELS_X=2", 2, 16, 16});
const DeviceRotation fast2x8("buffer-fast-x2-8x32", kDescription, false,
                             {"-D FAST_CONVERT=1 -D RESTRICT=1 -D PIXELS_X=2", 2, 8, 32});
const DeviceRotation fast4("buffer-fast-x4", kDescription, false,
                           {"-D FAST_CONVERT=1 -D RESTRICT=1 -D PIXELS_X=4", 4, 8, 32});
const DeviceRotation fast4x4("buffer-fast-x4-4x64", kDescription, false,
                             {"-D FAST_CONVERT=1 -D RESTRICT=1 -D PIXELS_X=4", 4, 4, 64});

// Registers only in an experiment run, so the product's strategy lists stay as they are.
struct ExperimentRegistration {
    ExperimentRegistration(const Strategy& strategy, int order) {
        if (std::getenv("HISTOSCOPE_GPUEXP") != nullptr) Registry<Operation>::add(strategy, order);
    }
};

const DeviceRotation wide("buffer-fast-wide", kDescription, false,
                          {"-D FAST_CONVERT=1 -D RESTRICT=1 -D WIDE_LOADS=1"});
const DeviceRotation wide8x32("buffer-fast-wide-8x32", kDescription, false,
                              {"-D FAST_CONVERT=1 -D RESTRICT=1 -D WIDE_LOADS=1", 1, 8, 32});
const DeviceRotation wide2("buffer-fast-wide-x2-8x32", kDescription, false,
                           {"-D FAST_CONVERT=1 -D RESTRICT=1 -D WIDE_LOADS=1 -D PIXELS_X=2", 2, 8, 32});
const DeviceRotation wideOnly("buffer-wide", kDescription, false, {"-D RESTRICT=1 -D WIDE_LOADS=1"});
const DeviceRotation wide4("buffer-fast-wide-x4-8x32", kDescription, false,
                           {"-D FAST_CONVERT=1 -D RESTRICT=1 -D WIDE_LOADS=1 -D PIXELS_X=4", 4, 8, 32});

const ExperimentRegistration r1(restrictOnly, 101);
const ExperimentRegistration r2(fast, 102);
const ExperimentRegistration r3(fast32x8, 103);
const ExperimentRegistration r4(fast8x32, 104);
const ExperimentRegistration r5(fast2, 105);
const ExperimentRegistration r6(fast2x8, 106);
const ExperimentRegistration r7(fast4, 107);
const ExperimentRegistration r8(fast4x4, 108);
const ExperimentRegistration r9(wide, 109);
const ExperimentRegistration r10(wide8x32, 110);
const ExperimentRegistration r11(wide2, 111);
const ExperimentRegistration r12(wideOnly, 112);
const ExperimentRegistration r13(wide4, 113);

}  // namespace

}  // namespace hs::rotate
