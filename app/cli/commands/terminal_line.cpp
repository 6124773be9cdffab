#include "cli/commands/terminal_line.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

#include <atomic>
#include <mutex>

#include "engine/runtime/runtime.hpp"

namespace hs::cli::terminal {

namespace {

std::atomic<std::FILE*> stream{stderr};
std::mutex lineMutex;
bool lineShown = false;  // under lineMutex

// The auto trial's candidate on this thread, until its program is built.
struct Candidate {
    std::string name;
    int number = 0;
    int of = 0;
};
thread_local Candidate candidate;

std::size_t width(std::FILE* out) {
    winsize size{};
    if (ioctl(fileno(out), TIOCGWINSZ, &size) == 0 && size.ws_col > 1) return size.ws_col - 1u;
    return 79;
}

void showBuild(const ProgramBuildEvent& event) {
    if (event.finished) {
        candidate = {};
        clear();
        return;
    }
    std::string what = candidate.name.empty() ? std::string(event.label) : candidate.name;
    std::string line = "building " + what + " for " + event.device.name;
    if (candidate.of > 0)
        line += " (" + std::to_string(candidate.number) + " of " + std::to_string(candidate.of) + ")";
    show(line);
}

}  // namespace

void setUserStream(std::FILE* userStream) {
    stream = userStream;
}

std::FILE* userStream() {
    return stream.load();
}

bool isTerminal() {
    return isatty(fileno(userStream())) == 1;
}

void show(std::string_view text) {
    if (!isTerminal()) return;
    std::FILE* out = userStream();
    const std::lock_guard lock(lineMutex);
    const std::string_view shown = text.substr(0, width(out));
    // \r to the line's start, the text, then erase what a longer previous line left.
    std::fprintf(out, "\r%.*s\033[K", static_cast<int>(shown.size()), shown.data());
    std::fflush(out);
    lineShown = true;
}

void clear() {
    const std::lock_guard lock(lineMutex);
    if (!lineShown) return;
    std::fputs("\r\033[K", userStream());
    std::fflush(userStream());
    lineShown = false;
}

ShowBuilds::ShowBuilds()
    : trial_([](int number, int of, std::string_view name) {
          candidate = {std::string(name), number, of};
      }) {
    // Only a terminal is told: a redirected stream gets nothing, and the builds pay no call.
    if (isTerminal()) setProgramBuildObserver(showBuild);
}

}  // namespace hs::cli::terminal
