// histoscope-cli check IMAGE --kernel FILE.cl [--param NAME=VALUE]...: the user kernel run under Oclgrind
// (the OpenCL device simulator of the Debian package `oclgrind`) on a small crop of IMAGE, in a child
// process (this program's own `pipeline`), so that a kernel that faults or never ends cannot take this
// process with it. Prints a line "FILE:LINE: finding" per finding (FILE: where the simulator names no
// line); exits 5 when there are findings, 0 when the run is clean.
#include <sys/prctl.h>
#include <unistd.h>

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <algorithm>
#include <csignal>

#include "cli/commands/option_groups.hpp"
#include "engine/lab/oclgrind_log.hpp"
#include "io/image_io.hpp"
#include "io/native_path.hpp"

namespace hs::cli {

namespace {

// The crop the kernel runs on: Oclgrind simulates each work-item, so a few hundred take seconds.
constexpr int kCheckSide = 16;
constexpr int kFindingsExitCode = 5;

void declare(ArgumentParser& parser, const QStringList&) {
    addImageInput(parser);
    addStageOptions(parser, stages::findKind("kernel"), {});
    parser.require("kernel");
    parser.addOption("timeout", "SECONDS",
                     "Abandon the simulated run after this long: a kernel that never ends is a finding.",
                     "300");
}

ImageRGBA8 topLeft(const ImageRGBA8& image, int side) {
    ImageRGBA8 crop(std::min(image.width, side), std::min(image.height, side));
    for (int y = 0; y < crop.height; ++y)
        std::copy_n(image.pixels.begin() + static_cast<std::ptrdiff_t>(y) * image.width * 4, crop.width * 4,
                    crop.pixels.begin() + static_cast<std::ptrdiff_t>(y) * crop.width * 4);
    return crop;
}

int run(const ArgumentParser& parser) {
    // The kernel file, its annotations and --param values are checked here first, so that a mistake is this
    // command's own one-line error rather than the child's.
    stageFrom(parser, stages::findKind("kernel"), {});
    const int timeout = parser.integer("timeout", 1, 24 * 3600);
    const QString oclgrind = QStandardPaths::findExecutable("oclgrind");
    if (oclgrind.isEmpty())
        throw OpenClError("check", 0,
                          "oclgrind is not installed (Debian package oclgrind): nothing to check with");
    QTemporaryDir scratch;
    if (!scratch.isValid())
        throw InputError("check: cannot make a temporary folder: " + scratch.errorString().toStdString());
    const QString small = scratch.filePath("small.png");
    io::saveImage(small, topLeft(io::loadImage(imageFrom(parser)), kCheckSide));
    const QString kernel = parser.value("kernel");

    QStringList arguments = {"--data-races", "--check-api", "--num-threads", "1",
                             // Unoptimised, so that a load whose value goes unused is still made and checked.
                             "--build-options", "-cl-opt-disable", "--log", scratch.filePath("oclgrind.log"),
                             QCoreApplication::applicationFilePath(), "pipeline", small, "--kernel", kernel,
                             "--kernel-group", parser.value("kernel-group"), "--histogram-strategy", "serial",
                             "--out", scratch.filePath("out.png")};
    for (const QString& param : parser.values("param")) arguments << "--param" << param;
    QProcess child;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    // Oclgrind is the child's only device. A program it loads from a cached binary loses its source lines.
    environment.remove("HISTOSCOPE_DEVICE");
    environment.insert("HISTOSCOPE_PROGRAM_CACHE", "0");
    environment.insert("HISTOSCOPE_CACHE_DIR", scratch.filePath("cache"));
    child.setProcessEnvironment(environment);
    // The child (Oclgrind execs the pipeline in its own process) dies with this one: a check killed from
    // outside (the Lab's Stop, the app's exit) must not leave an endless kernel running on its own.
    const pid_t parent = ::getpid();
    child.setChildProcessModifier([parent] {
        ::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != parent) ::_exit(1);  // the parent was gone before the signal was asked for
    });
    child.start(oclgrind, arguments);
    if (!child.waitForStarted()) throw OpenClError("check", 0, "cannot start " + oclgrind.toStdString());
    const std::string file = io::nativePath(kernel).native();
    if (!child.waitForFinished(timeout * 1000)) {
        child.kill();
        child.waitForFinished();
        printText(QString("%1: the kernel did not finish within %2 s under Oclgrind (abandoned)\n")
                      .arg(QString::fromStdString(file))
                      .arg(timeout));
        return kFindingsExitCode;
    }
    QFile logFile(scratch.filePath("oclgrind.log"));
    const QByteArray log = logFile.open(QIODevice::ReadOnly) ? logFile.readAll() : QByteArray();
    const auto findings = lab::parseOclgrindLog(log.toStdString());
    if (child.exitStatus() != QProcess::NormalExit || (child.exitCode() != 0 && findings.empty())) {
        // The child's own one-line error (a build failure: FILE:LINE:COL ...), with its exit code.
        const QStringList lines = QString::fromLocal8Bit(child.readAllStandardError()).trimmed().split('\n');
        QString last = lines.isEmpty() ? QString() : lines.last();
        last.remove(QRegularExpression("^histoscope-cli: "));
        if (child.exitStatus() != QProcess::NormalExit)
            throw OpenClError("check", 0,
                              file + ": the kernel crashed the run under Oclgrind: " + last.toStdString());
        const int code = child.exitCode();
        const std::string what = last.toStdString();
        if (code == 2) throw UsageError(what);
        if (code == 3) throw InputError(what);
        throw OpenClError("check", 0, what);
    }
    QString out;
    for (const auto& finding : findings) {
        out += QString::fromStdString(file);
        if (finding.line > 0) out += ':' + QString::number(finding.line);
        out += ": " + QString::fromStdString(finding.message);
        if (!finding.kernel.empty()) out += " (kernel " + QString::fromStdString(finding.kernel) + ")";
        out += '\n';
    }
    printText(out);
    return findings.empty() ? 0 : kFindingsExitCode;
}

[[maybe_unused]] const bool registered = registerCommand(
    {"check", "run a user kernel under Oclgrind and report its faults on their lines",
     "Runs the kernel of --kernel FILE.cl (docs/kernel-lab.md) on the top-left 16x16 pixels of IMAGE under "
     "Oclgrind, the OpenCL device simulator, in a child process, and prints FILE:LINE: finding for each "
     "out-of-bounds access, data race or misuse of the API it reports. Exit code 5 when there are findings, "
     "0 when the run is clean.",
     declare, run});

}  // namespace

}  // namespace hs::cli
