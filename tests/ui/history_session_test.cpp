// Sessions (issue 26): File ▸ Save Session writes the window's image, device, stages and strategies as a
// .histoscope file; opening it in a fresh window restores them; a session whose image or device is gone opens
// with a report that names what was not restored, and restores the rest.
#include "archive/session_file.hpp"
#include "ui/shell/run_history.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr int kWaitMs = 120000;

QString savedImage(const QTemporaryDir& folder, const QString& name, std::uint32_t seed) {
    const ImageRGBA8 image = test::opaqueRandomImage(40, 30, seed);
    const QString path = folder.filePath(name);
    QImage(image.pixels.data(), image.width, image.height, QImage::Format_RGBA8888).save(path);
    return QFileInfo(path).absoluteFilePath();
}

}  // namespace

class HistorySessionTest : public QObject {
    Q_OBJECT

    QTemporaryDir folder_;

  private slots:
    void initTestCase() { qputenv("HISTOSCOPE_ARCHIVE", folder_.filePath("runs.sqlite").toUtf8()); }

    void savedSessionReopensWithImageDeviceAndStages() {
        const QString image = savedImage(folder_, QStringLiteral("session.png"), 11);
        const QString session = folder_.filePath(QStringLiteral("work.histoscope"));
        {
            test::PrivateWindow w;
            QList<ErrorReport> reports;
            QVERIFY(test::showWithDevices(w.window, reports, kWaitMs));
            QVERIFY2(w.window.controller().devices().size() >= 2,
                     "POCL_DEVICES=\"pthread pthread\" gives two");
            w.window.chooseDevice(QStringLiteral("0:1"));
            w.window.setRotation(30, rotate::FilterMode::Nearest, true);
            QVERIFY(w.window.chooseStrategy(QStringLiteral("private-uchar")));
            w.window.setBins(64);
            w.window.openImage(image);
            QTRY_VERIFY_WITH_TIMEOUT(w.window.lastOutcome() &&
                                         w.window.lastOutcome()->request.device == "0:1" &&
                                         w.window.lastOutcome()->request.bins == 64,
                                     kWaitMs);
            w.window.history().saveSession(session);
            QVERIFY2(reports.isEmpty(), test::messagesOf(reports).constData());
        }
        // The file, read on its own, says what was saved.
        const archive::SessionFile saved = archive::loadSession(session.toStdString());
        QCOMPARE(QString::fromStdString(saved.image), image);
        QCOMPARE(saved.device, std::string("0:1"));
        QCOMPARE(saved.stages.size(), std::size_t{2});
        QCOMPARE(saved.stages[0].kind, std::string("rotate"));
        QCOMPARE(saved.stages[0].values.at("angle"), std::string("30"));
        QCOMPARE(saved.stages[1].kind, std::string("histogram"));
        QCOMPARE(saved.stages[1].strategy, std::string("private-uchar"));
        QCOMPARE(saved.stages[1].values.at("bins"), std::string("64"));

        // A fresh window with its own (default) settings opens it.
        test::PrivateWindow w;
        QList<ErrorReport> reports;
        QVERIFY(test::showWithDevices(w.window, reports, kWaitMs));
        QCOMPARE(w.window.history().openSession(session), QStringList());
        QTRY_COMPARE_WITH_TIMEOUT(w.window.imagePath(), image, kWaitMs);
        QTRY_VERIFY_WITH_TIMEOUT(
            w.window.lastOutcome() && w.window.lastOutcome()->request.image == w.window.image(), kWaitMs);
        const RunRequest request = w.window.currentRequest();
        QCOMPARE(request.device, QStringLiteral("0:1"));
        QVERIFY(request.rotation.has_value());
        QCOMPARE(request.rotation->params.angleDegrees, 30.0);
        QCOMPARE(request.rotation->params.filterMode, rotate::FilterMode::Nearest);
        QVERIFY(request.rotation->params.fitCanvas);
        QCOMPARE(QString::fromUtf8(request.strategy->name()), QStringLiteral("private-uchar"));
        QCOMPARE(request.bins, 64);
        QVERIFY2(reports.isEmpty(), test::messagesOf(reports).constData());
    }

    void sessionWithMissingImageAndDeviceSaysSoAndKeepsTheRest() {
        const QString shown = savedImage(folder_, QStringLiteral("shown.png"), 12);
        archive::SessionFile file;
        file.image = folder_.filePath(QStringLiteral("gone/away.png")).toStdString();
        file.device = "no-such-device-anywhere";
        file.stages = {{"rotate", "", {{"angle", "-45"}}}, {"histogram", "global-atomic", {{"bins", "32"}}}};
        const QString session = folder_.filePath(QStringLiteral("partial.histoscope"));
        archive::saveSession(session.toStdString(), file);

        test::PrivateWindow w;
        QList<ErrorReport> reports;
        QVERIFY(test::showWithDevices(w.window, reports, kWaitMs));
        w.window.openImage(shown);
        QTRY_VERIFY_WITH_TIMEOUT(w.window.lastOutcome().has_value(), kWaitMs);
        const QString deviceBefore = w.window.currentRequest().device;

        const QStringList missed = w.window.history().openSession(session);
        QCOMPARE(missed.size(), 2);
        QVERIFY2(missed[0].contains(QStringLiteral("no-such-device-anywhere")), qPrintable(missed[0]));
        QVERIFY2(missed[1].contains(QString::fromStdString(file.image)) && missed[1].contains("gone"),
                 qPrintable(missed[1]));
        // One report, naming the session and both.
        QCOMPARE(reports.size(), 1);
        QVERIFY(reports[0].message.contains(session));
        QVERIFY(reports[0].message.contains(QStringLiteral("away.png")));
        QVERIFY(reports[0].hint.contains(QStringLiteral("stage rotate")));
        // The rest is restored; the image and device shown stay.
        QCOMPARE(w.window.imagePath(), shown);
        QCOMPARE(w.window.currentRequest().device, deviceBefore);
        const RunRequest request = w.window.currentRequest();
        QVERIFY(request.rotation.has_value());
        QCOMPARE(request.rotation->params.angleDegrees, -45.0);
        QCOMPARE(QString::fromUtf8(request.strategy->name()), QStringLiteral("global-atomic"));
        QCOMPARE(request.bins, 32);

        // A file that is not a session: one report naming it, nothing changed.
        const QString bogus = folder_.filePath(QStringLiteral("bogus.histoscope"));
        QVERIFY(test::writeFile(bogus, "{\"format\": \"something-else\"}"));
        QCOMPARE(w.window.history().openSession(bogus).size(), 1);
        QCOMPARE(reports.size(), 2);
        QVERIFY(reports[1].message.startsWith(bogus));
        QCOMPARE(w.window.currentRequest().bins, 32);
    }
};

QTEST_MAIN(HistorySessionTest)
#include "history_session_test.moc"
