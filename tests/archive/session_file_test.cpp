// The .histoscope session file: a round trip through the file, a document typed out here as the header
// documents it, each malformed document refused in one line naming the file and the member, and the stages
// restored as far as they can be.
#include "archive/session_file.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "engine/runtime/error.hpp"
#include "engine/stages/builtin.hpp"

namespace hs::archive {
namespace {

namespace fs = std::filesystem;

std::string messageOf(const std::function<void()>& action) {
    try {
        action();
    } catch (const InputError& error) {
        return error.what();
    }
    ADD_FAILURE() << "no InputError";
    return {};
}

std::string refusal(const std::string& document) {
    return messageOf([&] { parseSession(document, "s.histoscope"); });
}

TEST(SessionFile, ASessionComesBackWholeFromItsFile) {
    SessionFile session;
    session.image = "/photos/caf\xc3\xa9 \"1\".png";
    session.device = "0:1";
    session.stages = {{"rotate", "image-sampler", {{"angle", "30"}, {"sampling", "nearest"}}},
                      {"histogram", "", {{"bins", "64"}}}};
    session.userKernels = {
        {"/k/sharpen.cl", "__kernel void k(__global uchar4* p) {\n\tp[0] = 0; // \"x\"\n}\n"}};
    session.roi = Roi{10, 20, 64, 48};
    session.view = {{"zoom", "2"}, {"histogram/log", "true"}};
    const fs::path path = fs::temp_directory_path() / ("session-" + std::to_string(getpid()) + ".histoscope");
    saveSession(path, session);
    EXPECT_EQ(loadSession(path), session);
    session.roi.reset();
    session.userKernels.clear();
    saveSession(path, session);
    EXPECT_EQ(loadSession(path), session) << "no region of interest: the whole image";
    fs::remove(path);
    EXPECT_NE(messageOf([&] { loadSession(path); }).find(path.string() + ": cannot read the session"),
              std::string::npos);
}

TEST(SessionFile, TheDocumentedFormatIsRead) {
    const SessionFile session = parseSession(R"({"format": "histoscope-session", "version": 1,
        "image": "/photos/cat.png", "device": "GeForce",
        "stages": [{"kind": "rotate", "strategy": "image-sampler", "values": {"angle": "30"}}],
        "user_kernels": [{"path": "/k/a.cl", "text": "__kernel void a() {}"}],
        "roi": {"x": 10, "y": 20, "width": 64, "height": 48}, "view": {"zoom": "2"}})",
                                             "s.histoscope");
    EXPECT_EQ(session.image, "/photos/cat.png");
    EXPECT_EQ(session.device, "GeForce");
    ASSERT_EQ(session.stages.size(), 1u);
    EXPECT_EQ(session.stages[0], (SessionStage{"rotate", "image-sampler", {{"angle", "30"}}}));
    EXPECT_EQ(session.userKernels, (std::vector<UserKernel>{{"/k/a.cl", "__kernel void a() {}"}}));
    EXPECT_EQ(session.roi, (Roi{10, 20, 64, 48}));
    EXPECT_EQ(session.view.at("zoom"), "2");
}

TEST(SessionFile, AMalformedDocumentIsRefusedNamingTheFileAndTheMember) {
    const std::string head = R"({"format": "histoscope-session", "version": 1, "image": "i", "device": "",)";
    const std::string tail = R"(, "user_kernels": [], "view": {}})";
    EXPECT_EQ(refusal("{\"format\": "), "s.histoscope: not JSON (at byte 12)");  // 11 bytes: it ended
    EXPECT_EQ(refusal("[]"), "s.histoscope: expected an object");
    EXPECT_EQ(refusal(R"({"format": "other"})"),
              "s.histoscope: not a HistoScope session (its \"format\" is not \"histoscope-session\")");
    EXPECT_EQ(refusal(R"({"format": "histoscope-session", "version": 2})"),
              "s.histoscope: session version 2 is not one this HistoScope reads (1 to 1)");
    EXPECT_EQ(refusal(head + R"("stages": [{"values": {}, "strategy": ""}])" + tail),
              "s.histoscope: stages[0].kind: missing");
    EXPECT_EQ(refusal(head + R"("stages": [{"kind": 3, "values": {}, "strategy": ""}])" + tail),
              "s.histoscope: stages[0].kind: expected text");
    EXPECT_EQ(
        refusal(head + R"("stages": [{"kind": "rotate", "values": {"angle": 30}, "strategy": ""}])" + tail),
        "s.histoscope: stages[0].values.angle: expected text");
    EXPECT_EQ(refusal(head + R"("stages": {})" + tail), "s.histoscope: stages: expected an array");
    EXPECT_EQ(refusal(head + R"("stages": [], "roi": {"x": 0, "y": 0, "width": 1.5, "height": 1})" + tail),
              "s.histoscope: roi.width: expected an integer");
    EXPECT_EQ(refusal(head + R"("stages": [], "roi": {"x": -1, "y": 0, "width": 1, "height": 1})" + tail),
              "s.histoscope: roi: x and y must be 0 or more, width and height more than 0");
    EXPECT_EQ(refusal(head + R"("stages": [], "user_kernels": [], "view": []})"),
              "s.histoscope: view: expected an object");
}

TEST(SessionFile, StagesAreRestoredAsFarAsTheyCanBeAndTheRestIsNamed) {
    SessionFile session;
    session.stages = {{"rotate", "", {{"angle", "30"}}},
                      {"sharpen", "", {}},
                      {"convolve", "", {{"filter", "nonsense:9"}}},
                      {"histogram", "private-uchar", {{"bins", "64"}}}};
    const stages::FileReader noFiles = [](const std::string& path, std::uint64_t,
                                          std::string_view) -> std::string {
        throw InputError(path + ": no such file");
    };
    const RestoredStages restored = restoreStages(session, noFiles);
    ASSERT_EQ(restored.stages.size(), 2u);
    EXPECT_EQ(restored.stages[0]->kind().name(), "rotate");
    EXPECT_EQ(restored.stages[0]->values().at("angle"), "30");
    EXPECT_EQ(restored.stages[1]->requestedStrategy()->name(), "private-uchar");
    ASSERT_EQ(restored.problems.size(), 2u);
    EXPECT_EQ(restored.problems[0].rfind("stage 2: unknown stage 'sharpen'", 0), 0u) << restored.problems[0];
    EXPECT_EQ(restored.problems[1].rfind("stage 3: ", 0), 0u) << restored.problems[1];

    session.stages = {{"histogram", "", {}}, {"rotate", "", {{"angle", "30"}}}};
    const RestoredStages misordered = restoreStages(session, noFiles);
    ASSERT_EQ(misordered.problems.size(), 1u);
    EXPECT_NE(misordered.problems[0].find("rotate"), std::string::npos) << misordered.problems[0];
}

// The texts a session saves stand in for files that have gone, each said in a note: a custom matrix typed in
// the app (no file at all), a filter file and a user kernel (its user_kernels entry).
TEST(SessionFile, SavedTextsStandInForFilesThatHaveGone) {
    const std::string typed = "1 2 1\n/ 4\n";
    const std::string edge = "0 1 0\n1 -4 1\n0 1 0\n";
    const std::string kernel =
        "// @param int amount 0 255 255\n"
        "kernel void k(global const uchar4* src, global uchar4* dst, int width, int height, int amount) {}\n";
    SessionFile session;
    session.stages = {{"convolve", "separable", {}, typed},
                      {"convolve", "", {{"filter", "/gone/edge.txt"}}, edge},
                      {"kernel", "", {{"kernel", "/gone/k.cl"}, {"param", "amount=7"}}},
                      {"histogram", "", {{"bins", "16"}}}};
    session.userKernels = {{"/gone/k.cl", kernel}};
    EXPECT_EQ(parseSession(sessionJson(session), "s.histoscope"), session)
        << "the stages' texts written and read";

    const stages::FileReader noFiles = [](const std::string& path, std::uint64_t,
                                          std::string_view) -> std::string {
        throw InputError(path + ": no such file");
    };
    const RestoredStages restored = restoreStages(session, noFiles);
    EXPECT_TRUE(restored.problems.empty()) << restored.problems.front();
    ASSERT_EQ(restored.stages.size(), 4u);
    ASSERT_EQ(restored.texts.size(), 4u);
    EXPECT_EQ(stages::filterOf(*restored.stages[0])->taps, convolve::parseFilterText(typed).taps);
    EXPECT_EQ(restored.stages[0]->requestedStrategy()->name(), "separable");
    EXPECT_EQ(restored.texts[0], typed);
    EXPECT_EQ(stages::filterOf(*restored.stages[1])->taps, convolve::parseFilterText(edge).taps);
    EXPECT_EQ(restored.stages[1]->values().at("filter"), "/gone/edge.txt");
    EXPECT_EQ(restored.stages[2]->values().at("param"), "amount=7");
    EXPECT_EQ(restored.texts[2], kernel);
    EXPECT_EQ(restored.texts[3], "");
    ASSERT_EQ(restored.notes.size(), 2u);
    EXPECT_EQ(
        restored.notes[0],
        "stage 2: /gone/edge.txt: the filter file is gone (restored from the text saved in the session)");
    EXPECT_EQ(restored.notes[1],
              "stage 3: /gone/k.cl: no such file (restored from the text saved in the session)");

    // Without a saved text a file that has gone is a problem, as before.
    session.userKernels.clear();
    EXPECT_EQ(restoreStages(session, noFiles).problems,
              (std::vector<std::string>{"stage 3: /gone/k.cl: no such file"}));
}

}  // namespace
}  // namespace hs::archive
