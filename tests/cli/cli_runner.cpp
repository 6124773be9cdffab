#include "cli_runner.hpp"

#include <gtest/gtest.h>

#include <QJsonDocument>
#include <QProcess>
#include <QProcessEnvironment>

namespace hs {

QJsonObject Outcome::json() const {
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(out, &error);
    EXPECT_EQ(error.error, QJsonParseError::NoError) << error.errorString().toStdString() << "\n"
                                                     << out.toStdString();
    return document.object();
}

Outcome runCli(const QStringList& arguments, const std::vector<std::pair<QString, QString>>& changes,
               const QString& workingDirectory) {
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove("HISTOSCOPE_DEVICE");
    for (const auto& [name, value] : changes) {
        if (value.isEmpty())
            environment.remove(name);
        else
            environment.insert(name, value);
    }
    QProcess process;
    process.setProcessEnvironment(environment);
    if (!workingDirectory.isEmpty()) process.setWorkingDirectory(workingDirectory);
    process.start(HISTOSCOPE_CLI, arguments);
    EXPECT_TRUE(process.waitForFinished(300'000)) << arguments.join(' ').toStdString();
    EXPECT_EQ(process.exitStatus(), QProcess::NormalExit) << "crashed: " << arguments.join(' ').toStdString();
    return {process.exitCode(), process.readAllStandardOutput(), process.readAllStandardError()};
}

void expectOneErrorLine(const Outcome& outcome, int exitCode, const QString& mentioned) {
    EXPECT_EQ(outcome.exitCode, exitCode) << outcome.err.toStdString();
    EXPECT_EQ(outcome.err.count('\n'), 1) << outcome.err.toStdString();
    EXPECT_TRUE(outcome.err.endsWith('\n')) << outcome.err.toStdString();
    EXPECT_TRUE(outcome.err.contains(mentioned.toUtf8()))
        << outcome.err.toStdString() << " lacks " << mentioned.toStdString();
    EXPECT_TRUE(outcome.out.isEmpty()) << outcome.out.toStdString();
}

}  // namespace hs
