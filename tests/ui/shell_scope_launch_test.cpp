// The scripted mode's scopes and region (issue 25): --scopes opens the Scopes dock with exactly the scopes
// named, --roi draws the region on the image once it is shown, both read and refused with histoscope-cli's
// words; the counts of the scripted run against scope::referenceScope of the region, and a region outside the
// image ending the real executable with exit code 2 and the CLI's sentence.

#include <QDockWidget>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include "engine/image/region.hpp"
#include "engine/ops/scope/scope.hpp"
#include "engine/runtime/error.hpp"
#include "io/image_io.hpp"
#include "ui/shell/launch.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/views/scope_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;
using namespace hs::ui::test;

namespace {

constexpr int kTimeoutMs = 120000;

// The message of the UsageError `act` throws; empty when it throws none.
template <typename Act>
QString usageErrorOf(Act&& act) {
    try {
        act();
    } catch (const UsageError& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

scope::Params paramsOf(scope::Kind kind, std::optional<Region> roi) {
    scope::Params params;
    params.kind = kind;
    params.roi = roi;
    return params;
}

}  // namespace

class ScopeLaunchTest : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir dir_;
    ImageRGBA8 image_ = test::opaqueRandomImage(120, 80, 47);
    QString imagePath_;

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        imagePath_ = dir_.filePath(QStringLiteral("image.png"));
        io::saveImage(imagePath_, image_);
    }

    void parsesScopesAndRegion() {
        const auto options = parseLaunch({"--scopes", "vectorscope,Waveform", "--roi", "10,5,30,20"});
        QCOMPARE(options.scopes, (std::vector{scope::Kind::Vectorscope, scope::Kind::Waveform}));
        QCOMPARE(options.roi, std::optional<Region>(Region{10, 5, 30, 20}));
        const auto plain = parseLaunch({});
        QVERIFY(plain.scopes.empty() && !plain.roi);
    }

    // The words are those of the functions histoscope-cli reads the same values with.
    void refusesBadScopesAndRegions_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("reason");
        QTest::newRow("scope") << QStringList{"--scopes", "waveform,histogram"}
                               << usageErrorOf([] { scope::parseKind("histogram", "--scopes"); });
        QTest::newRow("three numbers")
            << QStringList{"--roi", "1,2,3"} << usageErrorOf([] { parseRegion("1,2,3", "--roi"); });
        QTest::newRow("negative") << QStringList{"--roi", "-1,0,4,4"}
                                  << usageErrorOf([] { parseRegion("-1,0,4,4", "--roi"); });
        QTest::newRow("empty") << QStringList{"--roi", "0,0,0,4"}
                               << usageErrorOf([] { parseRegion("0,0,0,4", "--roi"); });
    }

    void refusesBadScopesAndRegions() {
        QFETCH(QStringList, arguments);
        QFETCH(QString, reason);
        QVERIFY(reason.startsWith(arguments.front()));  // the reference names the option
        QCOMPARE(usageErrorOf([&] { parseLaunch(arguments); }), reason);
    }

    // --scopes parade,vectorscope --roi on the image's bottom-right border: the dock is shown with those two
    // panes, and the histogram and both scopes count the region, as the references of the cropped pixels.
    void scriptedScopesCountTheRegion() {
        test::PrivateWindow scripted;
        MainWindow& window = scripted.window;
        const Region region{90, 50, 30, 30};
        const LaunchOptions options = parseLaunch(
            {"--scopes", "parade,vectorscope", "--roi", QString::fromStdString(region.text()), "--screenshot",
             test::artifactPath(QStringLiteral("shell_scope_launch.png")), "--quit"});
        auto* launcher = new Launcher(window, options, &window);
        QSignalSpy finished(launcher, &Launcher::finished);
        window.show();
        launcher->start(imagePath_);
        QVERIFY(finished.count() > 0 || finished.wait(kTimeoutMs));
        QCOMPARE(finished.front().at(0).toInt(), 0);

        auto* dock = window.findChild<QDockWidget*>(QStringLiteral("scopesDock"));
        auto* view = test::part<ScopeView>(window);
        QVERIFY(dock && dock->isVisible() && view);
        QVERIFY(!view->scopeShown(scope::Kind::Waveform));
        QVERIFY(view->scopeShown(scope::Kind::Parade) && view->scopeShown(scope::Kind::Vectorscope));
        QCOMPARE(window.model().histogramContext().roi, std::optional<Region>(region));

        const ImageRGBA8 crop = cropped(image_.pixels.data(), image_.width, region);
        QCOMPARE(window.model().values(), test::referenceOf(crop, 256));
        QCOMPARE(window.model().scopes().size(), std::size_t(2));
        for (const auto& counts : window.model().scopes())
            QVERIFY(counts == scope::referenceScope(image_.pixels.data(), image_.width, image_.height,
                                                    paramsOf(counts.kind, region)));
        QVERIFY(view->pane(scope::Kind::Vectorscope)->counts().has_value());
        QVERIFY(!QImage(options.screenshot).isNull());
    }

    // A region beyond the image's right edge: exit code 2 (usage) and the sentence histoscope-cli says.
    void regionOutsideTheImageIsAUsageError() {
        const Region outside{100, 0, 30, 10};
        const QString sentence =
            usageErrorOf([&] { requireInside(outside, image_.width, image_.height, "--roi"); });
        QVERIFY(sentence.contains(QStringLiteral("120x80")));
        QProcess process;
        process.start(QStringLiteral(HISTOSCOPE_GUI_EXECUTABLE),
                      {QStringLiteral("--open"), imagePath_, QStringLiteral("--roi"),
                       QString::fromStdString(outside.text()), QStringLiteral("--quit")});
        QVERIFY(process.waitForFinished(kTimeoutMs));
        const QString standardError = QString::fromUtf8(process.readAllStandardError());
        QCOMPARE(process.exitCode(), 2);
        QVERIFY2(standardError.contains(sentence), qPrintable(standardError));
    }
};

QTEST_MAIN(ScopeLaunchTest)
#include "shell_scope_launch_test.moc"
