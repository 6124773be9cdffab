// Sessions (issue 26): File ▸ Save Session writes the window's image, device, stages and strategies as a
// .histoscope file; opening it in a fresh window restores them; a session whose image or device is gone opens
// with a report that names what was not restored, and restores the rest.
#include <QSpinBox>

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

    // Every value a session holds comes back exactly, read through the window's request: each stage as the
    // spec it was configured from (a Gaussian's sigma and size, a custom matrix's taps), the strategies, the
    // bins, the device and the region; what the session does not name is switched off.
    void everyValueComesBackAndAbsentStagesGoOff() {
        const QString image = savedImage(folder_, QStringLiteral("values.png"), 21);
        const QString gaussianSession = folder_.filePath(QStringLiteral("gaussian.histoscope"));
        const QString matrixSession = folder_.filePath(QStringLiteral("matrix.histoscope"));
        const QString fileSession = folder_.filePath(QStringLiteral("file.histoscope"));
        const QString filterFile = folder_.filePath(QStringLiteral("edge.txt"));
        const QString matrix = QStringLiteral("# edges\n1 0 -1\n2 0 -2\n1 0 -1\n/ 4\n");
        const QString fileMatrix = QStringLiteral("0 1 0\n1 2 1\n0 1 0\n/ 6\n");
        QVERIFY(test::writeFile(filterFile, fileMatrix.toUtf8()));
        const QString kernelFile = folder_.filePath(QStringLiteral("dim.cl"));
        const QString kernel = QStringLiteral(
            "// @param int amount 0 255 255\n"
            "kernel void dim(global const uchar4* src, global uchar4* dst, int width, int height, int "
            "amount) {\n"
            "    const int x = get_global_id(0), y = get_global_id(1);\n"
            "    if (x >= width || y >= height) return;\n"
            "    const int4 in = convert_int4(src[y * width + x]);\n"
            "    dst[y * width + x] = (uchar4)(convert_uchar3(in.xyz * amount / 255), src[y * width + "
            "x].w);\n"
            "}\n");
        QVERIFY(test::writeFile(kernelFile, kernel.toUtf8()));
        const Region roi{3, 4, 10, 8};

        test::PrivateWindow w;
        QList<ErrorReport> reports;
        QVERIFY(test::showWithDevices(w.window, reports, kWaitMs));
        QVERIFY2(w.window.controller().devices().size() >= 2, "POCL_DEVICES=\"pthread pthread\" gives two");
        w.window.openImage(image);
        QTRY_COMPARE_WITH_TIMEOUT(w.window.imagePath(), image, kWaitMs);
        w.window.chooseDevice(QStringLiteral("0:1"));
        w.window.setRotation(30, rotate::FilterMode::Nearest, true);
        QVERIFY(w.window.chooseStageStrategy(QStringLiteral("rotate"), QStringLiteral("buffer")));
        w.window.setFilter(QStringLiteral("gaussian:1.25:7"));
        QVERIFY(w.window.chooseStageStrategy(QStringLiteral("convolve"), QStringLiteral("separable")));
        QVERIFY(w.window.chooseStrategy(QStringLiteral("private-uchar")));
        w.window.setBins(64);
        w.window.setRegion(roi);
        QVERIFY(w.window.runUserKernel(kernelFile, kernel, {{QStringLiteral("amount"), 99}}, 16));
        w.window.history().saveSession(gaussianSession);
        w.window.switchImageStagesOff();
        w.window.setRotation(30, rotate::FilterMode::Nearest, true);
        QVERIFY(w.window.chooseStageStrategy(QStringLiteral("rotate"), QStringLiteral("buffer")));
        w.window.setCustomFilter(matrix);
        w.window.history().saveSession(matrixSession);
        w.window.setFilter(filterFile);
        w.window.history().saveSession(fileSession);
        QVERIFY(QFile::remove(filterFile));
        QVERIFY2(reports.isEmpty(), test::messagesOf(reports).constData());
        const auto kernelStage = [](const RunRequest& request) -> const stages::Stage* {
            for (const auto& stage : request.otherStages)
                if (stage->kind().name() == "kernel") return stage.get();
            return nullptr;
        };

        // The file holds the specs a command line would give.
        const archive::SessionFile saved = archive::loadSession(gaussianSession.toStdString());
        QCOMPARE(saved.stages.size(), std::size_t{4});
        QCOMPARE(saved.stages[1].values.at("filter"), std::string("gaussian:1.25:7"));
        QCOMPARE(saved.stages[1].strategy, std::string("separable"));
        QCOMPARE(saved.stages[2].values.at("kernel"), kernelFile.toStdString());
        QCOMPARE(saved.stages[2].values.at("kernel-group"), std::string("16"));
        QCOMPARE(saved.userKernels,
                 (std::vector<archive::UserKernel>{{kernelFile.toStdString(), kernel.toStdString()}}));
        QVERIFY(saved.roi.has_value());
        QCOMPARE(saved.roi->width, 10);

        const auto changeEverything = [&] {
            auto* group = w.window.findChild<QSpinBox*>(QStringLiteral("labGroup"));
            QVERIFY(group);
            group->setValue(0);
            w.window.chooseDevice(QStringLiteral("0:0"));
            w.window.setRotation(-10, rotate::FilterMode::Linear, false);
            QVERIFY(w.window.chooseStageStrategy(QStringLiteral("rotate"), QStringLiteral("image-sampler")));
            w.window.setFilter(QStringLiteral("box:5"));
            QVERIFY(w.window.chooseStageStrategy(QStringLiteral("convolve"), QStringLiteral("buffer-naive")));
            QVERIFY(w.window.chooseStrategy(QStringLiteral("global-atomic")));
            w.window.setBins(32);
            w.window.setRegion(Region{0, 0, 5, 5});
            QVERIFY(w.window.switchStageOn(QStringLiteral("equalize")));
            const auto others = w.window.currentRequest().otherStages;
            QVERIFY(std::any_of(others.begin(), others.end(),
                                [](const auto& stage) { return stage->kind().name() == "equalize"; }));
        };
        // The region is set once the session's image is open again.
        const auto regionBack = [&] { return w.window.currentRequest().roi == std::optional<Region>(roi); };

        changeEverything();
        QCOMPARE(w.window.history().openSession(gaussianSession), QStringList());
        QTRY_VERIFY_WITH_TIMEOUT(regionBack(), kWaitMs);
        RunRequest request = w.window.currentRequest();
        QCOMPARE(request.device, QStringLiteral("0:1"));
        QVERIFY(request.rotation.has_value());
        QCOMPARE(request.rotation->params.angleDegrees, 30.0);
        QCOMPARE(request.rotation->params.filterMode, rotate::FilterMode::Nearest);
        QVERIFY(request.rotation->params.fitCanvas);
        QCOMPARE(QString::fromUtf8(request.rotation->strategy->name()), QStringLiteral("buffer"));
        QVERIFY(request.convolution.has_value());
        QCOMPARE(request.convolution->spec, std::string("gaussian:1.25:7"));
        QCOMPARE(request.convolution->filter.taps, convolve::gaussianFilter(1.25, 7).taps);
        QCOMPARE(QString::fromUtf8(request.convolution->strategy->name()), QStringLiteral("separable"));
        QCOMPARE(QString::fromUtf8(request.strategy->name()), QStringLiteral("private-uchar"));
        QCOMPARE(request.bins, 64);
        // The user kernel runs again with its parameter; equalize, which the session does not name, is off.
        QCOMPARE(request.otherStages.size(), std::size_t{1});
        QVERIFY(kernelStage(request) != nullptr);
        QCOMPARE(kernelStage(request)->values().at("param"), std::string("amount=99"));
        QCOMPARE(kernelStage(request)->values().at("kernel-group"), std::string("16"));
        QCOMPARE(w.window.userKernelText(), kernel);
        QVERIFY2(reports.isEmpty(), test::messagesOf(reports).constData());

        changeEverything();
        QCOMPARE(w.window.history().openSession(matrixSession), QStringList());
        QTRY_VERIFY_WITH_TIMEOUT(regionBack(), kWaitMs);
        request = w.window.currentRequest();
        QVERIFY(request.convolution.has_value());
        QCOMPARE(request.convolution->spec, std::string());
        QCOMPARE(request.convolution->filter.taps, convolve::parseFilterText(matrix.toStdString()).taps);
        QCOMPARE(request.convolution->filter.divisor, 4.0);
        QCOMPARE(w.window.customFilter(), matrix);
        QCOMPARE(request.bins, 64);
        QVERIFY(request.otherStages.empty());  // the lab's kernel, which this session does not name, is off
        QVERIFY2(reports.isEmpty(), test::messagesOf(reports).constData());

        // The filter file is gone: the matrix comes from the text the session saved, and a report says so.
        changeEverything();
        QVERIFY(archive::loadSession(fileSession.toStdString()).roi.has_value());
        QCOMPARE(w.window.history().openSession(fileSession), QStringList());
        QTRY_VERIFY2_WITH_TIMEOUT(
            regionBack(),
            w.window.currentRequest().roi ? w.window.currentRequest().roi->text().c_str() : "none", kWaitMs);
        request = w.window.currentRequest();
        QVERIFY(request.convolution.has_value());
        QCOMPARE(request.convolution->filter.taps, convolve::parseFilterText(fileMatrix.toStdString()).taps);
        QCOMPARE(w.window.customFilter(), fileMatrix);
        QCOMPARE(reports.size(), 1);
        QVERIFY2(
            reports[0].message.contains(filterFile) && reports[0].message.contains("saved in the session"),
            qPrintable(reports[0].message));
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
