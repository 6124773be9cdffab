// histoscope-cli: the engine from the command line. Subcommands live in commands/ and register themselves.
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <iterator>

#include <QCoreApplication>
#include <cstdio>
#include <new>
#include <string_view>

#include "cli/commands/command.hpp"
#include "cli/commands/terminal_line.hpp"
#include "engine/runtime/error.hpp"
#include "histoscope_version.hpp"
#include "io/native_path.hpp"

namespace {

// Image decoders (libpng through Qt's warnings), Qt and OpenCL drivers print diagnostics on stderr, but the
// CLI promises exactly one line there per failure. Unless HISTOSCOPE_VERBOSE=1, file descriptor 2 points at
// an unlinked temporary file while the CLI runs and the CLI's own line goes to the original stream. What
// lands there is not lost: when the process dies (abort, qFatal, std::terminate, a segfault, a sanitizer
// report) the original stream comes back and the capture is replayed on it first, so the process's last
// words reach the user.
volatile std::sig_atomic_t originalStderr = -1;
volatile std::sig_atomic_t capturedStderr = -1;

constexpr int kFatalSignals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP};
// What each fatal signal did before the CLI's handler: the default action, or the handler of a sanitizer
// runtime (AddressSanitizer reports SIGSEGV with its stack trace), which then takes over.
struct sigaction previousActions[std::size(kFatalSignals)];

// Async-signal-safe: dup2, lseek, read and write only.
void replayCapturedStderr() {
    if (originalStderr >= 0 && capturedStderr >= 0) {
        const int capture = capturedStderr;
        capturedStderr = -1;  // replayed once, even if the process dies twice over
        dup2(originalStderr, STDERR_FILENO);
        lseek(capture, 0, SEEK_SET);
        char buffer[4096];
        for (ssize_t count; (count = read(capture, buffer, sizeof buffer)) > 0;) {
            if (write(STDERR_FILENO, buffer, static_cast<std::size_t>(count)) != count) break;
        }
    }
}

extern "C" void replayThenDie(int signal, siginfo_t* info, void*) {
    replayCapturedStderr();
    for (std::size_t i = 0; i < std::size(kFatalSignals); ++i)
        if (kFatalSignals[i] == signal) sigaction(signal, &previousActions[i], nullptr);
    // An instruction's fault (SIGSEGV, SIGBUS, SIGFPE, SIGILL sent by the kernel: si_code > 0) happens again
    // when the handler returns, now to the previous action with its true address and registers; any other
    // signal (abort, raise, kill, a breakpoint's SIGTRAP, which resumes past the trap) is sent again.
    const bool instructionFault =
        signal != SIGABRT && signal != SIGTRAP && info != nullptr && info->si_code > 0;
    if (!instructionFault) raise(signal);
}

// A sanitizer runtime (./test.sh --sanitize, the fuzz build) ends the process after its report, by abort()
// only with abort_on_error=1 and otherwise by _exit: its death callback replays the capture, the report
// included, either way. GCC links AddressSanitizer and UndefinedBehaviorSanitizer as two runtimes (libasan,
// libubsan), each with its own callback and its own "exit after the report", so every loaded object that has
// the registration function is asked (several answering with the same runtime's is harmless). Without a
// sanitizer none has it.
void replayWhenASanitizerEndsTheProcess() {
    dl_iterate_phdr(
        [](dl_phdr_info* loaded, std::size_t, void*) {
            void* object =
                dlopen(*loaded->dlpi_name != '\0' ? loaded->dlpi_name : nullptr, RTLD_LAZY | RTLD_NOLOAD);
            if (object == nullptr) return 0;
            using SetDeathCallback = void (*)(void (*)());
            if (const auto set =
                    reinterpret_cast<SetDeathCallback>(dlsym(object, "__sanitizer_set_death_callback")))
                set(replayCapturedStderr);
            dlclose(object);
            return 0;
        },
        nullptr);
}

void restoreStderr() {
    if (originalStderr >= 0) dup2(originalStderr, STDERR_FILENO);
}

FILE* captureLibraryDiagnostics() {
    if (qEnvironmentVariableIntValue("HISTOSCOPE_VERBOSE") != 0) return stderr;
    const QByteArray folder = qEnvironmentVariableIsEmpty("TMPDIR") ? QByteArray("/tmp") : qgetenv("TMPDIR");
    QByteArray name = folder + "/histoscope-cli-stderr-XXXXXX";
    const int capture = mkstemp(name.data());
    if (capture < 0) return stderr;  // no capture: the diagnostics stay visible, nothing is hidden
    unlink(name.constData());
    originalStderr = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
    if (originalStderr < 0 || dup2(capture, STDERR_FILENO) < 0) {
        close(capture);
        return stderr;
    }
    capturedStderr = capture;
    struct sigaction action {};
    action.sa_sigaction = replayThenDie;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    for (std::size_t i = 0; i < std::size(kFatalSignals); ++i)
        sigaction(kFatalSignals[i], &action, &previousActions[i]);
    replayWhenASanitizerEndsTheProcess();
    // Reports made at exit (LeakSanitizer) go to the original stream.
    std::atexit(restoreStderr);
    FILE* stream = fdopen(fcntl(originalStderr, F_DUPFD_CLOEXEC, 3), "w");
    return stream != nullptr ? stream : stderr;
}

FILE* errorStream = stderr;

QString overview() {
    QString text =
        "Usage: histoscope-cli COMMAND [options]   ('histoscope-cli COMMAND --help' for its options)\n\n";
    // Each form's synopsis from the command's own parser, as its --help gives it; a second form is indented
    // further, so that every command has one line that starts with its name.
    for (const auto& command : hs::cli::commands()) {
        QString lead = "  ";
        for (const auto& form : command.forms) {
            hs::cli::ArgumentParser parser(command.name, command.description);
            command.declare(parser, form);
            text += QString("%1%2 %3\n").arg(lead, command.name, parser.synopsis());
            lead = "   or ";
        }
        text += QString("      %1\n").arg(command.summary);
    }
    text +=
        "\nExit codes: 0 ok, 2 usage, 3 input file, 4 OpenCL, 5 check found problems, 6 batch: an image "
        "failed,\n130 batch: interrupted; on failure one line on stderr says why.\n"
        "HISTOSCOPE_VERBOSE=1 also shows the diagnostics of the image decoders and the OpenCL driver.\n"
        "'histoscope-cli --version' prints the version and the commit it was built from.\n";
    return text;
}

// Control characters in a message (a file name can hold any) are written as \xNN, so the one line stays one
// line and cannot drive the terminal.
QString printable(const QString& message) {
    QString line;
    for (const QChar c : message) {
        if (c == '\n')
            line += ' ';
        else if (c.unicode() < 0x20 || c.unicode() == 0x7F || (c.unicode() >= 0x80 && c.unicode() < 0xA0))
            line += QString("\\x%1").arg(c.unicode(), 2, 16, QChar('0'));
        else
            line += c;
    }
    return line;
}

int failWith(const QString& message, int exitCode) {
    hs::cli::terminal::clear();  // a progress line gives way to the message
    const QString line = printable(message);
    std::fprintf(errorStream, "histoscope-cli: %s\n", line.toLocal8Bit().constData());
    std::fflush(errorStream);
    return exitCode;
}

// The engine's warnings are lines for the user too: beside the error lines, not into the capture.
void warnUser(std::string_view line) {
    failWith(QString::fromUtf8(line.data(), static_cast<qsizetype>(line.size())), 0);
}

}  // namespace

int main(int argc, char** argv) {
    errorStream = captureLibraryDiagnostics();
    hs::cli::terminal::setUserStream(errorStream);
    hs::setWarningSink(warnUser);
    QCoreApplication application(argc, argv);  // image-format plugins load through the application
    QCoreApplication::setApplicationName("histoscope-cli");
    QCoreApplication::setApplicationVersion(HISTOSCOPE_VERSION_LINE);

    const QStringList arguments = hs::io::argumentsFromNative(argc, argv);
    if (arguments.isEmpty()) return failWith("no command given (try 'histoscope-cli --help')", 2);
    const QString& name = arguments.front();
    if (name == "--help" || name == "-h" || name == "help") {
        hs::cli::printText(overview());
        return 0;
    }
    if (name == "--version") {
        hs::cli::printText(QString("histoscope-cli " HISTOSCOPE_VERSION_LINE "\n"));
        return 0;
    }
    QStringList known;
    for (const auto& command : hs::cli::commands()) {
        if (command.name != name) {
            known += command.name;
            continue;
        }
        try {
            const hs::cli::terminal::ShowBuilds builds;
            return hs::withClErrors("histoscope-cli " + name.toStdString(), [&] {
                const QStringList given = arguments.mid(1);
                hs::cli::ArgumentParser parser(command.name, command.description);
                command.declare(parser, given);
                return parser.parse(given) ? command.run(parser) : 0;
            });
        } catch (const hs::OpenClError& error) {
            // The whole build log after the one line, where the user asked for the driver's words.
            const int code = failWith(QString::fromStdString(error.what()), hs::exitCodeFor(error.kind()));
            if (!error.buildLog().empty() && qEnvironmentVariableIntValue("HISTOSCOPE_VERBOSE") != 0) {
                std::fprintf(errorStream, "%s\n", error.buildLog().c_str());
                std::fflush(errorStream);
            }
            return code;
        } catch (const hs::Error& error) {
            return failWith(QString::fromStdString(error.what()), hs::exitCodeFor(error.kind()));
        } catch (const std::bad_alloc&) {
            return failWith(name + ": out of memory", 3);
        } catch (const std::exception& error) {
            // A bug, not a user's mistake: still one line rather than an abort without a word.
            return failWith(name + ": internal error: " + QString::fromLocal8Bit(error.what()), 1);
        }
    }
    return failWith("unknown command '" + name + "' (commands: " + known.join(", ") + ")", 2);
}
