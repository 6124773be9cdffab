// histoscope-cli composes its commands from option groups (issue 20): each command's synopsis comes from its
// parser, --json means the same in every command, and the bounded-work checks (issue 21, item 12) refuse
// what cannot finish before any of it starts.
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QImageWriter>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "cli_runner.hpp"

namespace hs {
namespace {

// One line of the overview: a command and one form's synopsis.
struct Synopsis {
    QString command;
    QString text;
};

// "  NAME SYNOPSIS" and, for a command's further forms, "   or NAME SYNOPSIS".
std::vector<Synopsis> synopsesOf(const QByteArray& overview) {
    static const QRegularExpression line("^(?:  |   or )([a-z][a-z-]*) (.*)$");
    std::vector<Synopsis> synopses;
    for (const QByteArray& bytes : overview.split('\n')) {
        const auto match = line.match(QString::fromUtf8(bytes));
        if (match.hasMatch()) synopses.push_back({match.captured(1), match.captured(2)});
    }
    return synopses;
}

// What a synopsis names outside brackets ("IMAGE", "--out OUT") and inside them ("--json", "--json|--csv").
struct Named {
    QStringList positionals;
    QStringList required;  // option names
    QStringList optional;  // option names
};

Named namedIn(const QString& synopsis) {
    Named named;
    static const QRegularExpression item("\\[([^\\]]*)\\]|(\\S+)");
    auto items = item.globalMatch(synopsis);
    QString previous;
    while (items.hasNext()) {
        const auto match = items.next();
        if (!match.captured(1).isEmpty()) {
            for (const QString& choice : match.captured(1).split('|'))
                named.optional += choice.section(' ', 0, 0).mid(2);
        } else if (match.captured(2).startsWith("--")) {
            named.required += match.captured(2).mid(2);
            previous = match.captured(2);
            continue;
        } else if (!previous.startsWith("--")) {
            named.positionals += match.captured(2);
        }
        previous.clear();
    }
    return named;
}

// What a command's --help declares: its positionals (the usage line), and each option with whether its
// description calls it required.
struct Declared {
    QStringList positionals;
    QStringList required;
    QStringList optional;
};

Declared declaredIn(const QString& help) {
    Declared declared;
    const QString usage = help.section('\n', 0, 0);
    declared.positionals = usage.section("[options]", 1).split(' ', Qt::SkipEmptyParts);
    // Qt lays an option out as "  -k, --long <VALUE>  description", continued on indented lines.
    static const QRegularExpression option(
        "\\n  (?:-\\w, )?--?([a-z][a-z0-9-]*)[^\\n]*((?:\\n {5,}[^\\n]*)*)");
    auto options = option.globalMatch(help);
    while (options.hasNext()) {
        const auto match = options.next();
        if (match.captured(1) == "help" || match.captured(1) == "h") continue;
        const QString description = match.captured(0).simplified();
        (description.contains("Required.") ? declared.required : declared.optional) += match.captured(1);
    }
    return declared;
}

// The arguments that call `synopsis`'s form with every required option (and positional), `left` with an
// empty value: as good as left out, while it still selects its form (bow --descriptors=).
QStringList callWithout(const Synopsis& synopsis, const QString& left) {
    QStringList arguments{synopsis.command};
    const Named named = namedIn(synopsis.text);
    for (const QString& positional : named.positionals) arguments += "/nonexistent/" + positional;
    for (const QString& required : named.required)
        arguments += required == left ? QStringList{"--" + required + "="}
                                      : QStringList{"--" + required, "/nonexistent/value"};
    return arguments;
}

TEST(ComposedCli, EachOverviewSynopsisNamesExactlyWhatItsParserRequires) {
    const Outcome overview = runCli({"--help"});
    ASSERT_EQ(overview.exitCode, 0);
    const auto synopses = synopsesOf(overview.out);
    ASSERT_GE(synopses.size(), 11u) << overview.out.toStdString();  // ten commands, bow in two forms
    for (const auto& synopsis : synopses) {
        SCOPED_TRACE((synopsis.command + " " + synopsis.text).toStdString());
        const Named named = namedIn(synopsis.text);
        // The form's own help: --help first, then its required options (which select the form).
        QStringList form{synopsis.command, "--help"};
        for (const QString& required : named.required) form += {"--" + required, "x"};
        const Outcome help = runCli(form);
        ASSERT_EQ(help.exitCode, 0) << help.err.toStdString();
        const QString text = QString::fromUtf8(help.out);
        EXPECT_EQ(text.section('\n', 1, 1).trimmed(),
                  "histoscope-cli " + synopsis.command + " " + synopsis.text)
            << "the help's synopsis is the overview's";
        const Declared declared = declaredIn(text);
        EXPECT_EQ(named.positionals, declared.positionals);
        EXPECT_EQ(named.required, declared.required);
        QStringList optional = named.optional, declaredOptional = declared.optional;
        optional.sort();
        declaredOptional.sort();
        EXPECT_EQ(optional, declaredOptional) << "every other option, in brackets";
        // And the parser does require each: left out, it is the one usage error.
        for (const QString& required : named.required) {
            const Outcome without = runCli(callWithout(synopsis, required));
            EXPECT_EQ(without.exitCode, 2) << required.toStdString();
            EXPECT_TRUE(without.err.contains(("--" + required + " ").toUtf8()) &&
                        without.err.contains("is required"))
                << without.err.toStdString();
        }
    }
}

TEST(ComposedCli, TheSynopsesNameTheRequiredOptionsOfTheTransforms) {
    // Written out here, so that a generator that drops a requirement everywhere is caught too.
    const auto synopses = synopsesOf(runCli({"--help"}).out);
    const auto synopsisOf = [&](const QString& command) {
        for (const auto& synopsis : synopses) {
            if (synopsis.command == command) return namedIn(synopsis.text);
        }
        return Named{};
    };
    EXPECT_EQ(synopsisOf("rotate").required, QStringList({"out", "angle"}));
    EXPECT_EQ(synopsisOf("convolve").required, QStringList({"out", "filter"}));
    EXPECT_EQ(synopsisOf("produce-consume").required, QStringList({"devices", "filter"}));
    EXPECT_EQ(synopsisOf("vocabulary").positionals, QStringList({"IMAGE..."}));
    EXPECT_TRUE(synopsisOf("histogram").optional.contains("csv"));
    EXPECT_TRUE(synopsisOf("pipeline").optional.contains("equalize"));
}

// What two reports of the same run share: everything but the times.
QJsonObject withoutTimes(QJsonObject json) {
    json.remove("timings");
    json.remove("summary");
    json.remove("program_cache");
    return json;
}

TEST(ComposedCli, JsonOutWritesWhatJsonPrints) {
    QTemporaryDir directory;
    QImage image(23, 17, QImage::Format_RGBA8888);
    image.fill(QColor(10, 200, 30, 255));
    const QString input = directory.filePath("flat.png");
    ASSERT_TRUE(QImageWriter(input, "png").write(image));
    const QStringList run{"histogram", input, "--bins", "16", "--strategy", "serial"};
    const Outcome printed = runCli(run + QStringList{"--json"});
    ASSERT_EQ(printed.exitCode, 0) << printed.err.toStdString();
    for (const QStringList& form : {QStringList{"--json-out", directory.filePath("out.json")},
                                    QStringList{"--json=" + directory.filePath("out.json")}}) {
        SCOPED_TRACE(form.join(' ').toStdString());
        QFile::remove(directory.filePath("out.json"));
        const Outcome written = runCli(run + form);
        ASSERT_EQ(written.exitCode, 0) << written.err.toStdString();
        EXPECT_TRUE(written.out.startsWith("image ")) << "the text report stays on stdout";
        QFile file(directory.filePath("out.json"));
        ASSERT_TRUE(file.open(QIODevice::ReadOnly));
        EXPECT_EQ(withoutTimes(QJsonDocument::fromJson(file.readAll()).object()),
                  withoutTimes(printed.json()));
    }
    // Both: the object on stdout and in the file.
    const Outcome both = runCli(run + QStringList{"--json", "--json-out", directory.filePath("both.json")});
    ASSERT_EQ(both.exitCode, 0) << both.err.toStdString();
    QFile file(directory.filePath("both.json"));
    ASSERT_TRUE(file.open(QIODevice::ReadOnly));
    EXPECT_EQ(QJsonDocument::fromJson(file.readAll()).object(), both.json());
    // A path that cannot be replaced is refused before any work.
    expectOneErrorLine(runCli(run + QStringList{"--json-out", directory.path()}), 3, directory.path());
}

}  // namespace
}  // namespace hs
