#include "engine/lab/sweep.hpp"

#include <algorithm>
#include <bit>
#include <charconv>

#include "engine/runtime/error.hpp"

namespace hs::lab {

Axis parseAxis(std::string_view text) {
    const auto equals = text.find('=');
    if (equals == std::string_view::npos || equals == 0)
        throw UsageError("--tune: '" + std::string(text) + "' is not NAME=VALUE,VALUE,...");
    Axis axis{std::string(text.substr(0, equals)), {}};
    std::string_view rest = text.substr(equals + 1);
    while (true) {
        const auto comma = rest.find(',');
        const std::string value(rest.substr(0, comma));
        if (value.empty())
            throw UsageError("--tune " + axis.name + ": an empty value in '" + std::string(text) + "'");
        if (std::find(axis.values.begin(), axis.values.end(), value) != axis.values.end())
            throw UsageError("--tune " + axis.name + ": " + value + " is given twice");
        axis.values.push_back(value);
        if (comma == std::string_view::npos) break;
        rest = rest.substr(comma + 1);
    }
    return axis;
}

std::vector<Point> grid(const std::vector<Axis>& axes, std::size_t maxPoints) {
    std::size_t size = 1;
    for (std::size_t a = 0; a < axes.size(); ++a) {
        for (std::size_t b = 0; b < a; ++b)
            if (axes[a].name == axes[b].name) throw UsageError("--tune " + axes[a].name + ": given twice");
        size *= axes[a].values.size();
        if (size > maxPoints)
            throw UsageError("--tune: the grid has more than " + std::to_string(maxPoints) + " points");
    }
    std::vector<Point> points;
    if (axes.empty()) return points;
    points.reserve(size);
    for (std::size_t index = 0; index < size; ++index) {
        Point point(axes.size());
        std::size_t rest = index;
        for (std::size_t a = axes.size(); a-- > 0;) {
            const auto& values = axes[a].values;
            point[a] = {axes[a].name, values[rest % values.size()]};
            rest /= values.size();
        }
        points.push_back(std::move(point));
    }
    return points;
}

void checkAxis(const Axis& axis, const std::vector<Tunable>& tunables, std::string_view strategy) {
    const auto tunable =
        std::find_if(tunables.begin(), tunables.end(), [&](const Tunable& t) { return t.name == axis.name; });
    if (tunable == tunables.end()) {
        std::string known;
        for (const auto& t : tunables) known += (known.empty() ? "" : ", ") + t.name;
        throw UsageError("--tune " + axis.name + ": " + std::string(strategy) + " has no tunable " +
                         axis.name + " (it has: " + (known.empty() ? "none" : known) + ")");
    }
    for (const auto& text : axis.values) {
        int value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        const bool whole = error == std::errc() && end == text.data() + text.size();
        if (!whole || value < tunable->min || value > tunable->max ||
            (tunable->powerOfTwo && !std::has_single_bit(static_cast<unsigned>(value))))
            throw UsageError("--tune " + axis.name + ": " + text + " is not " +
                             (tunable->powerOfTwo ? "a power of two" : "a whole number") + " in " +
                             std::to_string(tunable->min) + ".." + std::to_string(tunable->max));
    }
}

}  // namespace hs::lab
