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

Point builtPoint(const Point& asked, std::string_view options) {
    Point built = asked;
    for (auto& [name, value] : built) {
        const std::string key = "-D " + name + "=";
        const auto at = options.find(key);
        if (at == std::string_view::npos) continue;
        const auto start = at + key.size();
        value = std::string(options.substr(start, options.find_first_of(" ;", start) - start));
    }
    return built;
}

std::optional<std::size_t> Sweep::best() const {
    std::optional<std::size_t> found;
    for (std::size_t p = 0; p < points.size(); ++p) {
        const auto& point = points[p];
        if (!point.ns || point.sameBuildAs) continue;
        if (!found || point.ns->median < points[*found].ns->median) found = p;
    }
    return found;
}

std::optional<double> Sweep::timesRead(const PointResult& point) const {
    if (!readNs || !point.ns) return std::nullopt;
    return measure::ratioToBaseline(*point.ns, *readNs);
}

void markSameBuilds(std::vector<PointResult>& points) {
    for (std::size_t p = 0; p < points.size(); ++p) {
        points[p].sameBuildAs.reset();
        if (!points[p].ns) continue;
        for (std::size_t q = 0; q < p; ++q) {
            if (points[q].ns && !points[q].sameBuildAs && points[q].built == points[p].built &&
                points[q].builds == points[p].builds) {
                points[p].sameBuildAs = q;
                break;
            }
        }
    }
}

namespace {

void writeValues(JsonWriter& json, const Point& point) {
    json.beginObject();
    for (const auto& [name, value] : point) {
        // Numbers as numbers (every tunable and @param is one); anything else as written.
        double number = 0;
        const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
        if (error == std::errc() && end == value.data() + value.size())
            json.field(name, number);
        else
            json.field(name, value);
    }
    json.endObject();
}

}  // namespace

void writeJson(JsonWriter& json, const Sweep& sweep) {
    json.field("stage", sweep.stage).field("strategy", sweep.strategy);
    json.field("repetitions", sweep.repetitions).field("clock", "kernel");
    json.key("tunables").beginArray();
    for (const auto& axis : sweep.axes) json.value(axis.name);
    json.endArray();
    if (sweep.readNs) json.field("read_ns", sweep.readNs->median);
    json.key("points").beginArray();
    for (const auto& point : sweep.points) {
        json.beginObject().key("values");
        writeValues(json, point.asked);
        json.key("built");
        writeValues(json, point.built);
        if (point.ns) {
            json.field("min_ns", point.ns->min)
                .field("median_ns", point.ns->median)
                .field("max_ns", point.ns->max);
            json.field("gbps", point.gbps);
            if (const auto times = sweep.timesRead(point)) json.field("x_read", *times);
            json.field("builds", point.builds);
            if (point.maxDifference) json.field("max_difference", *point.maxDifference);
            if (point.sameBuildAs)
                json.field("same_build_as", static_cast<std::uint64_t>(*point.sameBuildAs));
        } else {
            json.field("error", point.error);
        }
        json.endObject();
    }
    json.endArray();
    if (const auto best = sweep.best()) {
        json.key("best");
        writeValues(json, sweep.points[*best].built);
    }
}

std::string csv(const Sweep& sweep) {
    const auto quoted = [](const std::string& text) {
        if (text.find_first_of(",\"\n") == std::string::npos) return text;
        std::string out = "\"";
        for (const char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
        return out + '"';
    };
    const auto number = [](double value) {
        char buffer[32];
        const auto [end, error] = std::to_chars(buffer, buffer + sizeof buffer, value);
        return error == std::errc() ? std::string(buffer, end) : std::string();
    };
    std::string out;
    for (const auto& axis : sweep.axes) out += quoted(axis.name) + ',';
    for (const auto& axis : sweep.axes) out += quoted("built_" + axis.name) + ',';
    out += "min_ns,median_ns,max_ns,gbps,x_read,max_difference,same_build_as,error\n";
    for (const auto& point : sweep.points) {
        for (const auto& entry : point.asked) out += quoted(entry.second) + ',';
        for (const auto& entry : point.built) out += quoted(entry.second) + ',';
        if (point.ns) {
            const auto times = sweep.timesRead(point);
            out += number(point.ns->min) + ',' + number(point.ns->median) + ',' + number(point.ns->max) +
                   ',' + number(point.gbps) + ',' + (times ? number(*times) : "") + ',' +
                   (point.maxDifference ? std::to_string(*point.maxDifference) : "") + ',' +
                   (point.sameBuildAs ? std::to_string(*point.sameBuildAs) : "") + ",\n";
        } else {
            out += ",,,,,,," + quoted(point.error) + '\n';
        }
    }
    return out;
}

}  // namespace hs::lab
