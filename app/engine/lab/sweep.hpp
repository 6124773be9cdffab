#pragma once
// The grid of a sweep (histoscope-cli sweep, the Kernel tab's heat map): tunables each with the values to
// try, every combination once, the first tunable varying slowest; and what the grid measured (Sweep), written
// as JSON and CSV by one writer each. session/sweep.hpp runs it.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/measure/measure.hpp"
#include "engine/ops/strategy.hpp"
#include "engine/util/json_writer.hpp"

namespace hs::lab {

struct Axis {
    std::string name;
    std::vector<std::string> values;  // as given: "64", "0.5"
};
using Point = std::vector<std::pair<std::string, std::string>>;  // a value per axis, in the axes' order

// "NAME=v1,v2,..." as an axis; throws UsageError "--tune: ..." for a missing name, value or a repeated value.
Axis parseAxis(std::string_view text);
// Every combination of the axes' values: the product of their sizes, in row-major order (the last axis
// varies fastest). Throws UsageError when an axis is named twice or the grid exceeds `maxPoints`.
std::vector<Point> grid(const std::vector<Axis>& axes, std::size_t maxPoints = 4096);

// Checks `axis` against the strategy's tunable of its name: integers within its range (powers of two where
// it says so); throws UsageError naming the tunable, or listing the strategy's tunables when it has none so
// called.
void checkAxis(const Axis& axis, const std::vector<Tunable>& tunables, std::string_view strategy);

// The point that was built: each value as the build options say it (`-D NAME=VALUE`: a strategy lowers a
// work-group size the device or kernel cannot take, or maps it as its memory allows), else as asked (a user
// kernel's group and @params are arguments, not -D values).
Point builtPoint(const Point& asked, std::string_view options);

// One grid point as measured.
struct PointResult {
    Point asked;
    Point built;                                 // builtPoint of the measured run's builds
    std::optional<measure::Summary> ns;          // kernel time; none when the point failed
    double gbps = 0;                             // of the image read, at the median
    std::string builds;                          // the stage's build options ("; " between programs)
    std::string error;                           // why the point failed
    std::optional<std::uint64_t> maxDifference;  // against the stage's CPU reference; none: not checked
    std::optional<std::size_t> sameBuildAs;      // the first point that built the same values
};

// A measured grid.
struct Sweep {
    std::string stage;      // "histogram", "rotate", "convolve", "kernel"
    std::string strategy;   // the swept strategy; a user kernel's file
    std::string tuningKey;  // what its values are stored under (tuning::key); empty for a user kernel
    std::vector<Axis> axes;
    std::vector<PointResult> points;  // in grid order
    int repetitions = 0;
    std::optional<measure::Summary> readNs;  // the device's streaming read of the same bytes

    // The point of the smallest median among those that ran and built values of their own.
    std::optional<std::size_t> best() const;
    // How many times the read baseline's speed a point reaches (the read's median over the point's).
    std::optional<double> timesRead(const PointResult& point) const;
};

// Sets each point's sameBuildAs: the first earlier point whose built values are the same.
void markSameBuilds(std::vector<PointResult>& points);

// The sweep's members of a JSON object: stage, strategy, repetitions, tunables, points (asked and built
// values, figures, builds, max_difference, same_build_as), read_ns, best (its built values).
void writeJson(JsonWriter& json, const Sweep& sweep);
// A row per point: the asked values, then built_<name> for each, min_ns, median_ns, max_ns, gbps, x_read,
// max_difference, same_build_as (a 0-based row), error.
std::string csv(const Sweep& sweep);

}  // namespace hs::lab
