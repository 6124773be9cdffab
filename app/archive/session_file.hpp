#pragma once
// A saved session, `.histoscope`: what the app needs to come back to where a user left it (the image, the
// device, the stages with their values and strategies, user kernels with their text, the region of interest,
// the views' settings), as a JSON document written through the one JsonWriter:
//
//     {"format": "histoscope-session", "version": 1, "image": "/photos/cat.png", "device": "0:1",
//      "stages": [{"kind": "rotate", "strategy": "image-sampler", "values": {"angle": "30"}},
//                 {"kind": "convolve", "strategy": "local-tiled", "values": {"filter": "gaussian:1.5:0"}},
//                 {"kind": "convolve", "strategy": "", "values": {}, "text": "1 2 1\n2 4 2\n1 2 1\n/ 16\n"},
//                 ...],
//      "user_kernels": [{"path": "/k/sharpen.cl", "text": "__kernel void ..."}],
//      "roi": {"x": 10, "y": 20, "width": 64, "height": 48}, "view": {"zoom": "2", ...}}
//
// "roi" (in the image after its stages, as --roi) and a stage's "text" may be left out; every other member is
// required ("stages", "user_kernels" and "view" may be empty). docs/sessions.md describes every member.
// Values are text, as a StageKind takes them. Qt-free, so a test reads it without the app.

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

// One stage as a command line configures it: its kind, strategy and values as the CLI's options write them
// (a convolution's "filter" is its --filter spec: "gaussian:1.5:7", a filter file's path).
struct SessionStage {
    std::string kind;
    std::string strategy;  // empty: the kind's default
    std::map<std::string, std::string> values;
    // The text of the file the stage reads (a filter file, a user kernel) as it was when saved, so that the
    // stage opens where the file has gone; for a custom matrix typed in the app, which no file holds, its
    // text, and no "filter" value. Empty when the stage reads no file.
    std::string text{};
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
// with what can be restored and says what could not. A file a stage reads that `readFile` cannot read is
// replaced by the stage's saved text (a user kernel's: its user_kernels entry), and a note says so ("stage 2:
// /k/edge.txt: ... (restored from the text saved in the session)"). A typed custom matrix becomes a
// convolution of parseFilterText(text).
struct RestoredStages {
    stages::StageList stages;
    // Beside each stage: the text of the file it read (the saved text where the file is gone; a typed
    // matrix's), empty when it reads none.
    std::vector<std::string> texts;
    std::vector<std::string> problems;
    std::vector<std::string> notes;
};
RestoredStages restoreStages(const SessionFile& session, const stages::FileReader& readFile);

}  // namespace hs::archive
