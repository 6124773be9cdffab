#include "archive/session_file.hpp"

// nlohmann/json (Debian's nlohmann-json3-dev) only reads: the project's JSON is written by JsonWriter, and
// QJson, which io reads with, is not for a Qt-free room.
#include <algorithm>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>

#include "engine/runtime/error.hpp"
#include "engine/stages/builtin.hpp"
#include "engine/util/json_writer.hpp"
#include "io/files/files.hpp"

namespace hs::archive {

namespace {

constexpr std::size_t kMaxSessionBytes = 64u << 20;

using Json = nlohmann::json;

// Reads members of one JSON object, each error naming the file and the member's place.
class Reader {
  public:
    Reader(const Json& object, std::string path, std::string place)
        : object_(object), path_(std::move(path)), place_(std::move(place)) {
        if (!object_.is_object())
            fail(place_.empty() ? "expected an object" : place_ + ": expected an object");
    }

    const Json& member(const std::string& name) const {
        const auto found = object_.find(name);
        if (found == object_.end()) fail(where(name) + ": missing");
        return *found;
    }
    bool has(const std::string& name) const { return object_.contains(name); }
    std::string text(const std::string& name) const {
        const Json& value = member(name);
        if (!value.is_string()) fail(where(name) + ": expected text");
        return value.get<std::string>();
    }
    int integer(const std::string& name) const {
        const Json& value = member(name);
        if (!value.is_number_integer() || value.get<std::int64_t>() < std::numeric_limits<int>::min() ||
            value.get<std::int64_t>() > std::numeric_limits<int>::max())
            fail(where(name) + ": expected an integer");
        return value.get<int>();
    }
    const Json& array(const std::string& name) const {
        const Json& value = member(name);
        if (!value.is_array()) fail(where(name) + ": expected an array");
        return value;
    }
    std::map<std::string, std::string> texts(const std::string& name) const {
        const Json& value = member(name);
        if (!value.is_object()) fail(where(name) + ": expected an object");
        std::map<std::string, std::string> map;
        for (const auto& [key, item] : value.items()) {
            if (!item.is_string()) fail(where(name) + "." + key + ": expected text");
            map[key] = item.get<std::string>();
        }
        return map;
    }
    Reader element(const Json& array, std::size_t index, const std::string& name) const {
        return Reader(array[index], path_, where(name) + "[" + std::to_string(index) + "]");
    }
    [[noreturn]] void fail(const std::string& what) const { throw InputError(path_ + ": " + what); }

  private:
    std::string where(const std::string& name) const { return place_.empty() ? name : place_ + "." + name; }

    const Json& object_;
    std::string path_;
    std::string place_;
};

// The filter of a convolve stage that its saved text gives: a typed matrix (no "filter" value), or a filter
// file that is gone (said in `notes`); nothing for every other stage, which its kind configures.
std::optional<convolve::Filter> savedFilter(const SessionStage& stage, const std::string& place,
                                            std::vector<std::string>& notes) {
    if (stage.kind != "convolve" || stage.text.empty()) return std::nullopt;
    const auto spec = stage.values.find("filter");
    if (spec == stage.values.end()) return convolve::parseFilterText(stage.text);
    const std::string& path = spec->second;
    std::error_code error;
    if (convolve::findFilterKind(path.substr(0, path.find(':'))) || std::filesystem::exists(path, error))
        return std::nullopt;
    notes.push_back(place + path + ": the filter file is gone (restored from the text saved in the session)");
    return convolve::parseFilterFile(stage.text, path);
}

}  // namespace

std::string sessionJson(const SessionFile& session) {
    return jsonDocument([&](JsonWriter& json) {
        json.beginObject().field("format", kSessionFormat).field("version", kSessionFormatVersion);
        json.field("image", session.image).field("device", session.device);
        json.key("stages").beginArray();
        for (const auto& stage : session.stages) {
            json.beginObject().field("kind", stage.kind).field("strategy", stage.strategy);
            json.key("values").beginObject();
            for (const auto& [name, value] : stage.values) json.field(name, value);
            json.endObject();
            if (!stage.text.empty()) json.field("text", stage.text);
            json.endObject();
        }
        json.endArray().key("user_kernels").beginArray();
        for (const auto& kernel : session.userKernels)
            json.beginObject().field("path", kernel.path).field("text", kernel.text).endObject();
        json.endArray();
        if (session.roi) {
            json.key("roi").beginObject().field("x", session.roi->x).field("y", session.roi->y);
            json.field("width", session.roi->width).field("height", session.roi->height).endObject();
        }
        json.key("view").beginObject();
        for (const auto& [name, value] : session.view) json.field(name, value);
        json.endObject().endObject();
    });
}

SessionFile parseSession(std::string_view text, const std::string& path) {
    Json document;
    try {
        document = Json::parse(text);
    } catch (const Json::parse_error& error) {
        // nlohmann counts from 1, and one past the end for text that ends too early.
        throw InputError(path + ": not JSON (at byte " + std::to_string(error.byte) + ")");
    }
    const Reader top(document, path, "");
    if (!top.has("format") || !top.member("format").is_string() || top.text("format") != kSessionFormat)
        top.fail("not a HistoScope session (its \"format\" is not \"" + std::string(kSessionFormat) + "\")");
    const int version = top.integer("version");
    if (version < 1 || version > kSessionFormatVersion)
        top.fail("session version " + std::to_string(version) + " is not one this HistoScope reads (1 to " +
                 std::to_string(kSessionFormatVersion) + ")");
    SessionFile session;
    session.image = top.text("image");
    session.device = top.text("device");
    const Json& stages = top.array("stages");
    for (std::size_t i = 0; i < stages.size(); ++i) {
        const Reader stage = top.element(stages, i, "stages");
        session.stages.push_back({stage.text("kind"), stage.text("strategy"), stage.texts("values"),
                                  stage.has("text") ? stage.text("text") : std::string()});
    }
    const Json& kernels = top.array("user_kernels");
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        const Reader kernel = top.element(kernels, i, "user_kernels");
        session.userKernels.push_back({kernel.text("path"), kernel.text("text")});
    }
    if (top.has("roi")) {
        const Reader roi(top.member("roi"), path, "roi");
        session.roi = Roi{roi.integer("x"), roi.integer("y"), roi.integer("width"), roi.integer("height")};
        if (session.roi->x < 0 || session.roi->y < 0 || session.roi->width <= 0 || session.roi->height <= 0)
            top.fail("roi: x and y must be 0 or more, width and height more than 0");
    }
    session.view = top.texts("view");
    return session;
}

void saveSession(const std::filesystem::path& path, const SessionFile& session) {
    io::writeFileAtomically(path, sessionJson(session));
}

SessionFile loadSession(const std::filesystem::path& path) {
    return parseSession(io::readWholeFile(path, kMaxSessionBytes, "session"), path.string());
}

RestoredStages restoreStages(const SessionFile& session, const stages::FileReader& readFile) {
    RestoredStages restored;
    for (std::size_t i = 0; i < session.stages.size(); ++i) {
        const SessionStage& stage = session.stages[i];
        const std::string place = "stage " + std::to_string(i + 1) + ": ";
        std::string textUsed;
        // The file's text as it is now, else (gone, unreadable) the text saved with the stage.
        const stages::FileReader readOrSaved = [&](const std::string& file, std::uint64_t maxBytes,
                                                   std::string_view what) {
            try {
                textUsed = readFile(file, maxBytes, what);
            } catch (const InputError& error) {
                const auto kernel = std::find_if(session.userKernels.begin(), session.userKernels.end(),
                                                 [&](const UserKernel& saved) { return saved.path == file; });
                if (stage.text.empty() && kernel == session.userKernels.end()) throw;
                restored.notes.push_back(place + error.what() +
                                         " (restored from the text saved in the session)");
                textUsed = stage.text.empty() ? kernel->text : stage.text;
            }
            return textUsed;
        };
        try {
            if (auto filter = savedFilter(stage, place, restored.notes)) {
                const auto& strategy = convolve::findStrategy(
                    stage.strategy.empty() ? stages::findKind("convolve").defaultStrategy() : stage.strategy);
                const auto spec = stage.values.find("filter");
                restored.stages.push_back(stages::convolveStage(
                    std::move(*filter), strategy, spec == stage.values.end() ? std::string() : spec->second));
                restored.texts.push_back(stage.text);
                continue;
            }
            const stages::Values values(stage.values.begin(), stage.values.end());
            restored.stages.push_back(
                stages::findKind(stage.kind).configure(values, stage.strategy, readOrSaved));
            restored.texts.push_back(textUsed);
        } catch (const Error& error) {
            restored.problems.push_back(place + error.what());
        }
    }
    try {
        stages::validateOrder(restored.stages);
    } catch (const Error& error) {
        restored.problems.push_back(error.what());
    }
    return restored;
}

}  // namespace hs::archive
