// histoscope-cli: the engine from the command line. Subcommands live in commands/ and register themselves.
#include <fcntl.h>
#include <unistd.h>

#include <QCoreApplication>
#include <cstdio>
#include <new>

#include "commands/command.hpp"
#include "runtime/error.hpp"

namespace {

// Image decoders (libpng writes to stderr itself), Qt and OpenCL drivers print diagnostics on stderr, but the
// CLI promises exactly one line there per failure. Unless HISTOSCOPE_VERBOSE=1, stderr is pointed at
// /dev/null and the CLI's own line goes to the original stream returned here.
FILE* divertLibraryDiagnostics() {
    if (qEnvironmentVariableIntValue("HISTOSCOPE_VERBOSE") != 0) return stderr;
    const int original = dup(STDERR_FILENO);
    const int null = open("/dev/null", O_WRONLY);
    if (original < 0 || null < 0) return stderr;
    dup2(null, STDERR_FILENO);
    close(null);
    FILE* stream = fdopen(original, "w");
    return stream != nullptr ? stream : stderr;
}

FILE* errorStream = stderr;

QString overview() {
    QString text =
        "Usage: histoscope-cli COMMAND [options]   ('histoscope-cli COMMAND --help' for its options)\n\n";
    for (const auto& command : hs::cli::commands())
        text += QString("  %1 %2\n      %3\n").arg(command.name, command.synopsis, command.summary);
    text +=
        "\nExit codes: 0 ok, 2 usage, 3 input file, 4 OpenCL; on failure one line on stderr says why.\n"
        "HISTOSCOPE_VERBOSE=1 also shows the diagnostics of the image decoders and the OpenCL driver.\n";
    return text;
}

int failWith(const QString& message, int exitCode) {
    QString line = message;
    line.replace('\n', ' ');
    std::fprintf(errorStream, "histoscope-cli: %s\n", line.toLocal8Bit().constData());
    std::fflush(errorStream);
    return exitCode;
}

}  // namespace

int main(int argc, char** argv) {
    errorStream = divertLibraryDiagnostics();
    QCoreApplication application(argc, argv);  // image-format plugins load through the application
    QCoreApplication::setApplicationName("histoscope-cli");
    QCoreApplication::setApplicationVersion(HISTOSCOPE_VERSION);

    const QStringList arguments = QCoreApplication::arguments().mid(1);
    if (arguments.isEmpty()) return failWith("no command given (try 'histoscope-cli --help')", 2);
    const QString& name = arguments.front();
    if (name == "--help" || name == "-h" || name == "help") {
        hs::cli::printText(overview());
        return 0;
    }
    if (name == "--version") {
        hs::cli::printText(QString("histoscope-cli %1\n").arg(HISTOSCOPE_VERSION));
        return 0;
    }
    QStringList known;
    for (const auto& command : hs::cli::commands()) {
        if (command.name != name) {
            known += command.name;
            continue;
        }
        try {
            return hs::withClErrors("histoscope-cli " + name.toStdString(),
                                    [&] { return command.run(arguments.mid(1)); });
        } catch (const hs::Error& error) {
            return failWith(QString::fromStdString(error.what()), hs::exitCodeFor(error.kind()));
        } catch (const std::bad_alloc&) {
            return failWith(name + ": out of memory", 3);
        }
    }
    return failWith("unknown command '" + name + "' (commands: " + known.join(", ") + ")", 2);
}
