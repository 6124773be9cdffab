// Soak: 500 rapid switches of device (two PoCL devices), histogram strategy, bins and image while the worker
// runs, as an impatient user makes them. Asserted: no crash and no deadlock (the last request is answered:
// the controller goes idle and the window shows a result for exactly the final settings), that result equals
// the reference histogram of the final image and bins, and the resident memory after the run is within 10 %
// of what it was after the first 50 switches (nothing accumulates per request). Printed: both figures.
#include <QFile>
#include <QtTest/QtTest>
#include <random>

#include "engine/ops/histogram/histogram.hpp"
#include "ui/shell/main_window.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr int kSwitches = 500;
constexpr int kBaselineSwitches = 50;
// Generous: on a loaded 2-core machine a program build takes seconds, and every strategy builds once per
// device.
constexpr int kAnswerTimeoutMs = 300000;

// VmRSS of this process, in kB; 0 when /proc does not say.
qint64 residentKb() {
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly)) return 0;
    for (const QByteArray& line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:")) return line.mid(6).trimmed().split(' ').front().toLongLong();
    }
    return 0;
}

}  // namespace

class SoakTest : public QObject {
    Q_OBJECT

  private slots:
    void fiveHundredRapidSwitchesEndInTheFinalResultWithoutGrowth() {
        test::PrivateWindow app;
        MainWindow& window = app.window;
        QList<ErrorReport> problems;
        QVERIFY(test::showWithDevices(window, problems, kAnswerTimeoutMs));
        const auto& devices = window.controller().devices();
        QVERIFY2(devices.size() >= 2,
                 "the soak switches between two devices (POCL_DEVICES=\"pthread pthread\")");
        const QStringList selectors{QString::fromStdString(devices[0].selector()),
                                    QString::fromStdString(devices[1].selector())};

        std::vector<std::shared_ptr<const ImageRGBA8>> images;
        for (const auto& [width, height, seed] : {std::tuple{96, 64, 1u}, std::tuple{128, 128, 2u},
                                                  std::tuple{61, 173, 3u}, std::tuple{200, 50, 4u}})
            images.push_back(std::make_shared<const ImageRGBA8>(test::randomImage(width, height, seed)));
        QStringList strategies;
        for (const auto* strategy : histogram::strategies())
            strategies << QString::fromUtf8(strategy->name());
        const int bins[] = {1, 7, 64, 100, 255, 256};

        window.chooseDevice(selectors[0]);
        window.showImage(images[0], QStringLiteral("soak 0"));

        std::mt19937 random(12);
        const auto pick = [&](std::size_t count) {
            return static_cast<std::size_t>(std::uniform_int_distribution<std::size_t>(0, count - 1)(random));
        };
        const auto idle = [&] {
            return QTest::qWaitFor([&] { return !window.controller().busy(); }, kAnswerTimeoutMs);
        };
        qint64 baselineKb = 0;
        for (int i = 1; i <= kSwitches; ++i) {
            switch (i % 4) {
                case 0:
                    window.chooseDevice(selectors[static_cast<qsizetype>(pick(2))]);
                    break;
                case 1: {
                    // A strategy the device cannot run stays wanted and changes nothing: never the case on
                    // PoCL.
                    const QString name = strategies[static_cast<qsizetype>(pick(strategies.size()))];
                    QVERIFY2(window.chooseStrategy(name), qPrintable(name));
                    break;
                }
                case 2:
                    window.setBins(bins[pick(std::size(bins))]);
                    break;
                default: {
                    const std::size_t which = pick(images.size());
                    window.showImage(images[which], QStringLiteral("soak %1").arg(which));
                    break;
                }
            }
            // Rapid: the results of earlier switches arrive while later ones are made.
            QCoreApplication::processEvents();
            if (i == kBaselineSwitches) {
                QVERIFY2(idle(), "the first 50 switches were never answered");
                QCoreApplication::processEvents();
                baselineKb = residentKb();
            }
        }
        QVERIFY2(idle(), "the last request was never answered");
        // The last result's delivery is queued to this thread just before the worker reports idle.
        const auto answered = [&] {
            const auto& outcome = window.lastOutcome();
            const RunRequest wanted = window.currentRequest();
            return outcome && outcome->request.image == wanted.image &&
                   outcome->request.device == wanted.device && outcome->request.strategy == wanted.strategy &&
                   outcome->request.bins == wanted.bins;
        };
        QVERIFY2(QTest::qWaitFor(answered, kAnswerTimeoutMs), "no result for the final settings");
        const qint64 finalKb = residentKb();

        const RunOutcome& outcome = *window.lastOutcome();
        QCOMPARE(outcome.result.histogram, test::referenceOf(*outcome.request.image, outcome.request.bins));
        QVERIFY2(problems.isEmpty(), test::messagesOf(problems).constData());

        qInfo("resident memory: %lld kB after %d switches, %lld kB after %d", baselineKb, kBaselineSwitches,
              finalKb, kSwitches);
        QVERIFY(baselineKb > 0);
#if defined(__SANITIZE_ADDRESS__)
        // AddressSanitizer holds freed blocks in its quarantine (256 MiB) to catch later uses, so resident
        // memory grows with every allocation there; the normal build holds the bound.
        qInfo(
            "the 10 %% bound is checked in the normal build only (ASan's quarantine grows resident memory)");
#else
        QVERIFY2(
            std::abs(finalKb - baselineKb) <= baselineKb / 10,
            qPrintable(
                QStringLiteral("resident memory went from %1 kB to %2 kB").arg(baselineKb).arg(finalKb)));
#endif
    }
};

QTEST_MAIN(SoakTest)
#include "shell_soak_test.moc"
