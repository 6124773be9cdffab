#pragma once
// A saved session, `.histoscope`: what the app needs to come back to where a user left it (the image, the
// device, the stages with their values and strategies, user kernels with their text, the region of interest,
// the views' settings), as a JSON document written through the one JsonWriter:
//
//     {"format": "histoscope-session", "version": 1, "image": "/photos/cat.png", "device": "0:1",
//      "stages": [{"kind": "rotate", "strategy": "image-sampler", "values": {"angle": "30"}}, ...],
//      "user_kernels": [{"path": "/k/sharpen.cl", "text": "__kernel void ..."}],
//      "roi": {"x": 10, "y": 20, "width": 64, "height": 48}, "view": {"zoom": "2", ...}}
//
// "roi" may be left out (the whole image); every other member is required ("stages", "user_kernels" and
// "view" may be empty). Values are text, as a StageKind takes them. Qt-free, so a test reads it without the
// app.

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/stages/stage.hpp"

namespace hs::archive {

inline constexpr int kSessionFormatVersion = 1;
inline constexpr std::string_view kSessionFormat = "histoscope-session";

struct SessionStage {
    std::string kind;
    std::string strategy;  // empty: the kind's default
    std::map<std::string, std::string> values;
    bool operator==(const SessionStage&) const = default;
};

struct UserKernel {
    std::string path;
    std::string text;  // as it was when saved: the session opens even where the file has gone or changed
    bool operator==(const UserKernel&) const = default;
};

struct Roi {
    int x = 0;
    int y = 0;
    int width = 0;
    int height = 0;
    bool operator==(const Roi&) const = default;
};

struct SessionFile {
    std::string image;
    std::string device;  // a selector (P:D or part of a name); empty: the default device
    std::vector<SessionStage> stages;
    std::vector<UserKernel> userKernels;
    std::optional<Roi> roi;
    std::map<std::string, std::string> view;
    bool operator==(const SessionFile&) const = default;
};

// The document, indented, ending in a newline.
std::string sessionJson(const SessionFile& session);
// Throws InputError "<path>: <what>" for text that is not JSON ("<path>: not JSON: ... at byte 12"), another
// format or a newer version, or a member missing or of the wrong type ("<path>: stages[1].kind: expected
// text").
SessionFile parseSession(std::string_view text, const std::string& path);

// Written atomically; read whole, at most 64 MiB (user kernels' texts included). Both throw InputError naming
// the file.
void saveSession(const std::filesystem::path& path, const SessionFile& session);
SessionFile loadSession(const std::filesystem::path& path);

// The stages `session` names, each configured from its kind (stages/stage.hpp), and one line for each that
// cannot be ("stage 2: unknown stage 'sharpen' (known: ...)", "stage 1: angle: ..."), so that a session opens
// with what can be restored and says what could not.
struct RestoredStages {
    stages::StageList stages;
    std::vector<std::string> problems;
};
RestoredStages restoreStages(const SessionFile& session, const stages::FileReader& readFile);

}  // namespace hs::archive
