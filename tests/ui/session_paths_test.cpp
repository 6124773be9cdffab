// One run spec through the app's path (the panel, the controller on its worker thread, the session) and
// through histoscope-cli's (options in the order the stages run, the session): the same report — stages in
// order, the strategies that ran and were asked for, the programs built, the histogram, the export's context
// — timing values aside. And the equalize stage as a user switches it on in the Transform panel, against its
// CPU reference, with a screenshot to look at.
#include <QCheckBox>
#include <QComboBox>
#include <QGroupBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include "engine/ops/pipeline/pipeline.hpp"
#include "engine/stages/stage.hpp"
#include "io/export.hpp"
#include "io/image_io.hpp"
#include "ui/display/image_view.hpp"
#include "ui/shell/app_settings.hpp"
#include "ui/shell/export_actions.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/shell/transform_panel.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr int kResultTimeoutMs = 120000;

QJsonObject parseObject(const QByteArray& json) {
    QJsonParseError error;
    const QJsonDocument document = QJsonDocument::fromJson(json, &error);
    if (error.error != QJsonParseError::NoError) qFatal("not JSON: %s", qPrintable(error.errorString()));
    return document.object();
}

QJsonArray countsOf(const std::vector<std::uint64_t>& counts) {
    QJsonArray array;
    for (const auto count : counts) array.append(static_cast<qint64>(count));
    return array;
}

}  // namespace

class SessionPathsTest : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir dir_;
    QString imagePath_;
    ImageRGBA8 image_ = test::opaqueRandomImage(83, 61, 5);
    std::unique_ptr<AppSettings> settings_;
    std::unique_ptr<MainWindow> window_;
    QList<ErrorReport> reports_;

    TransformPanel& panel() { return *test::part<TransformPanel>(*window_); }
    bool settled() const { return !window_->controller().busy() && window_->lastOutcome().has_value(); }

    QGroupBox* equalizePage() {
        auto* page = panel().stagePage(QStringLiteral("equalize"));
        if (!page) qFatal("no generated page for the equalize stage");
        return page;
    }

    // Runs histoscope-cli with `arguments`; its stdout.
    QByteArray cli(const QStringList& arguments) {
        QProcess process;
        process.start(QStringLiteral(HISTOSCOPE_CLI_EXECUTABLE), arguments);
        if (!process.waitForFinished(kResultTimeoutMs)) qFatal("histoscope-cli did not finish");
        if (process.exitCode() != 0) qFatal("histoscope-cli: %s", process.readAllStandardError().constData());
        return process.readAllStandardOutput();
    }

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        imagePath_ = dir_.filePath(QStringLiteral("random.png"));
        io::saveImage(imagePath_, image_);
        settings_ = std::make_unique<AppSettings>(dir_.filePath(QStringLiteral("settings.ini")));
        window_ = std::make_unique<MainWindow>(*settings_);
        QVERIFY(test::showWithDevices(*window_, reports_, kResultTimeoutMs));
        QSignalSpy loaded(window_.get(), &MainWindow::imageLoaded);
        window_->openImage(imagePath_);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, kResultTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(settled(), kResultTimeoutMs);
    }

    void equalizeIsAPageMadeFromItsDeclaration() {
        const auto& kind = stages::findKind("equalize");
        QGroupBox* page = equalizePage();
        QCOMPARE(page->title(), QString::fromUtf8(kind.label()));
        QCOMPARE(page->toolTip(), QString::fromUtf8(kind.help()));
        QVERIFY(page->isCheckable());
        QVERIFY(!page->isChecked());

        // Switched on as a user does (its check box, by keyboard): the shown image is the equalized one.
        page->setFocus();
        QTest::keyClick(page, Qt::Key_Space);
        QVERIFY(page->isChecked());
        QTRY_VERIFY_WITH_TIMEOUT(settled() && !window_->lastOutcome()->request.otherStages.empty(),
                                 kResultTimeoutMs);
        const ImageRGBA8 expected =
            pipeline::referencePipeline(image_, window_->lastOutcome()->request.imageStages());
        QTRY_VERIFY_WITH_TIMEOUT(
            test::part<ImageView>(*window_)->image() && *test::part<ImageView>(*window_)->image() == expected,
            kResultTimeoutMs);
        QVERIFY(expected != image_);
        window_->grab().save(test::artifactPath(QStringLiteral("equalize-panel.png")));

        // Remembered as the settings keys the page makes: stages/equalize/on.
        QCOMPARE(panel().settings().stagePages.value(QStringLiteral("equalize")).value(QStringLiteral("on")),
                 QStringLiteral("true"));
        QVERIFY(reports_.isEmpty());
    }

    void theAppAndTheCliReportTheSameRun() {
        window_->setBins(64);
        QVERIFY(window_->chooseStrategy(QStringLiteral("local-atomic")));
        window_->setRotation(30, rotate::FilterMode::Nearest, false);
        panel().rotateStrategyBox()->setCurrentText(QStringLiteral("buffer"));
        window_->setFilter(QStringLiteral("box:3"));
        panel().convolveStrategyBox()->setCurrentText(QStringLiteral("local-tiled"));
        if (!equalizePage()->isChecked()) equalizePage()->setChecked(true);
        QTRY_VERIFY_WITH_TIMEOUT(
            settled() && window_->lastOutcome()->request.bins == 64 &&
                window_->lastOutcome()->request.rotation && window_->lastOutcome()->request.convolution &&
                window_->lastOutcome()->request.rotation->strategy->name() == "buffer" &&
                window_->lastOutcome()->request.convolution->strategy->name() == "local-tiled" &&
                !window_->lastOutcome()->request.otherStages.empty(),
            kResultTimeoutMs);
        const RunOutcome app = *window_->lastOutcome();
        const QJsonObject appContext =
            parseObject(io::histogramJson(app.result.histogram, window_->model().histogramContext()))
                .value(QStringLiteral("context"))
                .toObject();

        const QString selector = QString::fromStdString(app.device->selector());
        const QJsonObject cliReport = parseObject(cli({QStringLiteral("pipeline"),
                                                       imagePath_,
                                                       QStringLiteral("--device"),
                                                       selector,
                                                       QStringLiteral("--angle"),
                                                       QStringLiteral("30"),
                                                       QStringLiteral("--sampling"),
                                                       QStringLiteral("nearest"),
                                                       QStringLiteral("--rotate-strategy"),
                                                       QStringLiteral("buffer"),
                                                       QStringLiteral("--filter"),
                                                       QStringLiteral("box:3"),
                                                       QStringLiteral("--convolve-strategy"),
                                                       QStringLiteral("local-tiled"),
                                                       QStringLiteral("--equalize"),
                                                       QStringLiteral("--histogram-strategy"),
                                                       QStringLiteral("local-atomic"),
                                                       QStringLiteral("--bins"),
                                                       QStringLiteral("64"),
                                                       QStringLiteral("--out"),
                                                       dir_.filePath(QStringLiteral("out.png")),
                                                       QStringLiteral("--json")}));

        // The stages that ran, in order, each with what ran and the programs it built; transfers aside.
        QJsonArray cliStages;
        for (const auto& stage : cliReport.value(QStringLiteral("stages")).toArray())
            if (stage.toObject().contains(QStringLiteral("builds")) &&
                !stage.toObject().value(QStringLiteral("builds")).toArray().isEmpty())
                cliStages.append(stage);
        QCOMPARE(cliStages.size(), static_cast<qsizetype>(app.stages.size()));
        for (std::size_t i = 0; i < app.stages.size(); ++i) {
            const StageOutcome& ran = app.stages[i];
            const QJsonObject cliStage = cliStages.at(static_cast<qsizetype>(i)).toObject();
            QCOMPARE(cliStage.value(QStringLiteral("stage")).toString(), QString::fromStdString(ran.stage));
            QCOMPARE(cliStage.value(QStringLiteral("strategy")).toString(), ran.strategyName());
            QJsonArray appBuilds;
            for (const auto& build : ran.builds)
                appBuilds.append(
                    QJsonObject{{QStringLiteral("source"), QString::fromStdString(build.source)},
                                {QStringLiteral("options"), QString::fromStdString(build.options)}});
            QCOMPARE(cliStage.value(QStringLiteral("builds")).toArray(), appBuilds);
        }
        QCOMPARE(cliStages.at(0).toObject().value(QStringLiteral("stage")).toString(),
                 QStringLiteral("rotate"));
        QCOMPARE(cliStages.at(2).toObject().value(QStringLiteral("stage")).toString(),
                 QStringLiteral("equalize"));

        // The histogram, channel by channel, and the context every export writes.
        const QJsonObject histograms = cliReport.value(QStringLiteral("histograms")).toObject();
        for (const auto channel : histogram::kChannels)
            QCOMPARE(histograms.value(QString::fromUtf8(histogram::channelName(channel))).toArray(),
                     countsOf(app.result.histogram[channel]));
        QCOMPARE(cliReport.value(QStringLiteral("context")).toObject(), appContext);
        QVERIFY(reports_.isEmpty());
    }
};

QTEST_MAIN(SessionPathsTest)
#include "session_paths_test.moc"
