#pragma once
// The hand-made timing log of issue 8: four runs whose kernel times are 7, 1, 100 and 2 µs (in that order),
// so that the one median of the tree (the mean of the two middle values of an even count) is 4.5 µs, where
// the lower middle would be 2 µs and the upper middle 7 µs. Every run also uploads and reads back (which are
// not kernel time), and the 2 µs run is two kernels of 1.5 and 0.5 µs (a run's kernel time is their sum).
#include <cstdint>
#include <vector>

#include "engine/runtime/timing.hpp"

namespace hs::test {

inline constexpr double kHandmadeMedianNs = 4500;

inline std::vector<std::vector<Timing>> handmadeFourRuns() {
    std::uint64_t clock = 1'000'000;
    const auto record = [&clock](Stage stage, const char* name, std::uint64_t ns) {
        Timing timing{stage, name, clock, clock + 10, clock + 20, clock + 20 + ns, false};
        clock += 1'000 + ns;
        return timing;
    };
    std::vector<std::vector<Timing>> runs;
    for (const std::vector<std::uint64_t>& kernels :
         std::vector<std::vector<std::uint64_t>>{{7'000}, {1'000}, {100'000}, {1'500, 500}}) {
        std::vector<Timing> run{record(Stage::Upload, "upload pixels", 50'000)};
        for (const auto ns : kernels) run.push_back(record(Stage::Kernel, "histogram", ns));
        run.push_back(record(Stage::Readback, "read counts", 30'000));
        runs.push_back(std::move(run));
    }
    return runs;
}

}  // namespace hs::test
