// histoscope: the desktop workbench. Everything but the command line and the application identity lives in
// histoscope_ui, which the GUI tests drive directly.
#include <QApplication>
#include <QDir>
#include <QIcon>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <iostream>
#include <memory>

#include "engine/runtime/error.hpp"
#include "histoscope_version.hpp"
#include "ui/shell/app_settings.hpp"
#include "ui/shell/launch.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/shell/run_history.hpp"

namespace {

// The sample image: beside the executable as laid out by the build tree and by the install prefix
// (bin/ and share/histoscope/), in the system data folders, and where this build generated it.
QStringList sampleCandidates() {
    const QString relative = QStringLiteral("histoscope/sample.png");
    QStringList candidates{
        QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral("../share/") + relative)};
    if (const QString installed = QStandardPaths::locate(QStandardPaths::GenericDataLocation, relative);
        !installed.isEmpty())
        candidates << installed;
    candidates << QStringLiteral(HISTOSCOPE_SAMPLE_IMAGE);
    return candidates;
}

int run(int argc, char* argv[]) {
    QApplication::setOrganizationName(QStringLiteral("HistoScope"));
    QApplication::setApplicationName(QStringLiteral("histoscope"));
    // The commit too: --version and Help ▸ About show this.
    QApplication::setApplicationVersion(QStringLiteral(HISTOSCOPE_VERSION_LINE));

    // --help and --version answer without a display. The options proper are parsed once QApplication has
    // taken its own (-platform, -style, ...) out of the arguments.
    QStringList early;
    for (int i = 0; i < argc; ++i) early << QString::fromLocal8Bit(argv[i]);
    try {
        if (!hs::ui::parseLaunchOptions(early)) return 0;
    } catch (const hs::Error&) {
        // Perhaps one of Qt's options: judged below.
    }

    QApplication app(argc, argv);
    QApplication::setApplicationDisplayName(QStringLiteral("HistoScope"));
    QApplication::setDesktopFileName(QStringLiteral("histoscope"));
    QApplication::setWindowIcon(
        QIcon::fromTheme(QStringLiteral("histoscope"), QIcon(QStringLiteral(":/histoscope.svg"))));
    std::optional<hs::ui::LaunchOptions> options;
    try {
        options = hs::ui::parseLaunchOptions(QApplication::arguments());
    } catch (const hs::Error& e) {
        std::cerr << "histoscope: " << e.what() << '\n';
        return hs::exitCodeFor(e.kind());
    }

    // A scripted run starts from defaults and leaves the user's settings alone.
    QTemporaryDir scratch;
    const auto settings =
        options->quit
            ? std::make_unique<hs::ui::AppSettings>(scratch.filePath(QStringLiteral("settings.ini")))
            : std::make_unique<hs::ui::AppSettings>();

    hs::ui::MainWindow window(*settings);
    // `histoscope SESSION.histoscope` opens the session, which names its own image.
    const bool session = hs::ui::isSessionPath(options->image);
    if (session && options->quit) {
        std::cerr << "histoscope: " << options->image.toStdString()
                  << ": a session opens in the window; the scripted mode (--quit) takes an image\n";
        return hs::exitCodeFor(hs::ErrorKind::Usage);
    }
    const QString image = options->image.isEmpty() ? hs::ui::startupImage(*settings, sampleCandidates())
                          : session                ? QString()
                                                   : options->image;
    hs::ui::Launcher launcher(window, *options);
    QObject::connect(&launcher, &hs::ui::Launcher::finished, &app,
                     [](int exitCode) { QApplication::exit(exitCode); });
    window.show();
    if (session)
        window.history().openSession(options->image);
    else
        launcher.start(image);
    return QApplication::exec();
}

}  // namespace

int main(int argc, char* argv[]) {
    try {
        return run(argc, argv);
    } catch (const std::exception& error) {
        // Last resort for a bug: one line rather than an abort without a word.
        std::cerr << "histoscope: internal error: " << error.what() << '\n';
        return 1;
    }
}
