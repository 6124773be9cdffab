#pragma once
// Runs the built histoscope-cli as a user would, for the end-to-end tests.

#include <QByteArray>
#include <QJsonObject>
#include <QString>
#include <QStringList>
#include <utility>
#include <vector>

namespace hs {

struct Outcome {
    int exitCode = -1;
    QByteArray out;
    QByteArray err;

    // stdout as one JSON object; a parse error fails the test.
    QJsonObject json() const;
};

// The test's own environment (ctest sets POCL_DEVICES and a private HISTOSCOPE_CACHE_DIR) without
// HISTOSCOPE_DEVICE, plus `changes`; an empty value removes the variable. Runs in `workingDirectory` when
// one is given.
Outcome runCli(const QStringList& arguments, const std::vector<std::pair<QString, QString>>& changes = {},
               const QString& workingDirectory = {});

// The failure contract: `exitCode`, nothing on stdout, exactly one line on stderr that mentions `mentioned`.
void expectOneErrorLine(const Outcome& outcome, int exitCode, const QString& mentioned);

}  // namespace hs
