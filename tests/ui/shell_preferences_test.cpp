// Edit ▸ Preferences (issue 23): each preference set in the dialog takes effect in the window (runs kept,
// recording, the typing pause, the program cache, the device at start) and is still set after a restart;
// Clear empties the program cache's folder; Reset All Settings brings the window and the file back to a
// first start's. And the docks keep their heights while the Transform panel switches filter kinds.
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include "ui/shell/app_settings.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/shell/number_field.hpp"
#include "ui/shell/preferences_dialog.hpp"
#include "ui/shell/run_history.hpp"
#include "ui/shell/transform_panel.hpp"
#include "ui/views/timing_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr int kResultTimeoutMs = 120000;

// Edit ▸ Preferences opened as a user opens it: the dialog it shows (window-modal).
PreferencesDialog* openPreferences(MainWindow& window) {
    window.action(MainWindow::Command::Preferences)->trigger();
    return qobject_cast<PreferencesDialog*>(QApplication::activeModalWidget());
}

void pressOk(PreferencesDialog& dialog) {
    dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
}

}  // namespace

class PreferencesTest : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir dir_;

  private slots:
    void initTestCase() {
        QVERIFY(dir_.isValid());
        // The program cache of these tests: a folder of their own, so that what it holds is theirs.
        qputenv("HISTOSCOPE_CACHE_DIR", dir_.filePath(QStringLiteral("cache")).toUtf8());
    }

    void eachPreferenceTakesEffectAndOutlivesARestart() {
        const QString file = dir_.filePath(QStringLiteral("preferences.ini"));
        {
            AppSettings settings(file);
            QCOMPARE(settings.preferences(), Preferences{});
            MainWindow window(settings);
            QList<ErrorReport> problems;
            QVERIFY(test::showWithDevices(window, problems, kResultTimeoutMs));
            QVERIFY2(window.controller().devices().size() >= 2, "the tests run with two PoCL devices");
            QCOMPARE(window.currentDevice()->selector(), std::string("0:0"));
            QCOMPARE(window.model().maxKeptRuns(), RunModel::kDefaultMaxKeptRuns);

            PreferencesDialog* dialog = openPreferences(window);
            QVERIFY(dialog);
            // What a first start shows.
            auto* startDevice = dialog->findChild<QComboBox*>(QStringLiteral("startDevice"));
            QCOMPARE(startDevice->currentIndex(), 0);
            QCOMPARE(dialog->findChild<QSpinBox*>(QStringLiteral("keptRuns"))->value(), 50);
            QVERIFY(dialog->findChild<QCheckBox*>(QStringLiteral("recordRuns"))->isChecked());
            QVERIFY(dialog->findChild<QCheckBox*>(QStringLiteral("programCache"))->isChecked());
            QCOMPARE(dialog->findChild<QSpinBox*>(QStringLiteral("typingPause"))->value(), kTypingPauseMs);
            QCOMPARE(dialog->findChild<QLabel*>(QStringLiteral("cacheFolder"))->text(),
                     QDir::toNativeSeparators(dir_.filePath(QStringLiteral("cache"))));

            startDevice->setCurrentIndex(startDevice->findText(QStringLiteral("0:1"), Qt::MatchStartsWith));
            dialog->findChild<QSpinBox*>(QStringLiteral("keptRuns"))->setValue(3);
            dialog->findChild<QCheckBox*>(QStringLiteral("recordRuns"))->setChecked(false);
            dialog->findChild<QCheckBox*>(QStringLiteral("programCache"))->setChecked(false);
            dialog->findChild<QSpinBox*>(QStringLiteral("typingPause"))->setValue(1500);
            pressOk(*dialog);

            // At once: the Timings dock keeps 3 runs, Run ▸ Record Runs is off and the controller records
            // nothing, the number fields wait 1.5 s.
            QCOMPARE(window.model().maxKeptRuns(), 3);
            QCOMPARE(test::part<TimingView>(window)->maxRuns(), 3);
            QVERIFY(!window.history().recordAction()->isChecked());
            QVERIFY(!window.controller().recording());
            QCOMPARE(typingPauseMs(), 1500);
            QVERIFY(!Worker::programCacheAllowed());
            window.showImage(std::make_shared<const ImageRGBA8>(test::randomImage(32, 16, 1)),
                             QStringLiteral("small"));
            for (int run = 0; run < 5; ++run) {
                QTRY_VERIFY_WITH_TIMEOUT(!window.controller().busy() && window.lastOutcome(),
                                         kResultTimeoutMs);
                window.runHistogram();
            }
            QTRY_VERIFY_WITH_TIMEOUT(!window.controller().busy(), kResultTimeoutMs);
            QCOMPARE(window.model().keptRuns().size(), std::size_t{3});
            QVERIFY2(problems.isEmpty(), test::messagesOf(problems).constData());
            window.close();
        }
        // A restart: the file holds them, and the window follows them from its start.
        AppSettings reread(file);
        const Preferences kept = reread.preferences();
        QCOMPARE(kept.startDeviceSelector, QStringLiteral("0:1"));
        QCOMPARE(kept.keptRuns, 3);
        QVERIFY(!kept.recordRuns);
        QVERIFY(!kept.programCache);
        QCOMPARE(kept.typingPauseMs, 1500);
        // The last device used was 0:0 (which a start without a fixed device chooses); the fixed one wins.
        QCOMPARE(reread.deviceSelector(), QStringLiteral("0:0"));
        setTypingPauseMs(kTypingPauseMs);
        Worker::setProgramCacheAllowed(true);
        MainWindow restored(reread);
        QList<ErrorReport> problems;
        QVERIFY(test::showWithDevices(restored, problems, kResultTimeoutMs));
        QCOMPARE(restored.currentDevice()->selector(), std::string("0:1"));
        QCOMPARE(restored.model().maxKeptRuns(), 3);
        QCOMPARE(test::part<TimingView>(restored)->maxRuns(), 3);
        QVERIFY(!restored.history().recordAction()->isChecked());
        QCOMPARE(typingPauseMs(), 1500);
        QVERIFY(!Worker::programCacheAllowed());
        // Back to the defaults for the tests that follow.
        restored.applyPreferences(Preferences{});
        QCOMPARE(typingPauseMs(), kTypingPauseMs);
        QVERIFY(Worker::programCacheAllowed());
        QVERIFY2(problems.isEmpty(), test::messagesOf(problems).constData());
    }

    // The pause of typed values is the preference's: with 1.5 s, "64" typed in Bins has not run after the
    // 0.5 s that used to be enough, and runs once after the longer pause.
    void theTypingPauseIsThePreferences() {
        test::PrivateWindow app;
        QList<ErrorReport> problems;
        QVERIFY(test::showWithDevices(app.window, problems, kResultTimeoutMs));
        app.window.activateWindow();
        app.window.showImage(std::make_shared<const ImageRGBA8>(test::randomImage(32, 16, 2)),
                             QStringLiteral("small"));
        QTRY_VERIFY_WITH_TIMEOUT(!app.window.controller().busy() && app.window.lastOutcome(),
                                 kResultTimeoutMs);
        Preferences slow;
        slow.typingPauseMs = 1500;
        app.window.applyPreferences(slow);

        auto* bins = app.window.findChild<QSpinBox*>(QStringLiteral("bins"));
        QSignalSpy runs(&app.window, &MainWindow::runRequested);
        bins->setFocus();
        bins->selectAll();
        QTest::keyClicks(bins, QStringLiteral("64"));
        QTest::qWait(2 * kTypingPauseMs);
        QCOMPARE(runs.count(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(runs.count(), 1, kResultTimeoutMs);
        QCOMPARE(bins->value(), 64);
        app.window.applyPreferences(Preferences{});
        QTRY_VERIFY_WITH_TIMEOUT(!app.window.controller().busy(), kResultTimeoutMs);
        QVERIFY2(problems.isEmpty(), test::messagesOf(problems).constData());
    }

    // The program cache: on, a start's runs leave compiled kernels in its folder, which the dialog counts and
    // Clear removes; off (from the next start), a window's runs leave none.
    void theProgramCacheFollowsThePreferenceAndClears() {
        const QString folder = programCacheFolder();
        QCOMPARE(folder, dir_.filePath(QStringLiteral("cache")));
        QVERIFY(clearProgramCache(folder));
        QCOMPARE(programCacheContents(folder).entries, 0);
        const auto runOnce = [](AppSettings& settings) {
            MainWindow window(settings);
            QList<ErrorReport> problems;
            QVERIFY(test::showWithDevices(window, problems, kResultTimeoutMs));
            window.showImage(std::make_shared<const ImageRGBA8>(test::randomImage(32, 16, 3)),
                             QStringLiteral("small"));
            QTRY_VERIFY_WITH_TIMEOUT(!window.controller().busy() && window.lastOutcome(), kResultTimeoutMs);
            QVERIFY2(problems.isEmpty(), test::messagesOf(problems).constData());
            window.close();
        };
        {
            AppSettings off(dir_.filePath(QStringLiteral("cache-off.ini")));
            Preferences preferences;
            preferences.programCache = false;
            off.setPreferences(preferences);
            runOnce(off);
            QCOMPARE(programCacheContents(folder).entries, 0);
        }
        {
            AppSettings on(dir_.filePath(QStringLiteral("cache-on.ini")));
            runOnce(on);
            QVERIFY(programCacheContents(folder).entries > 0);
            QVERIFY(programCacheContents(folder).bytes > 0);
            // Clear in the dialog: it says what the folder holds, then that it holds nothing.
            MainWindow window(on);
            PreferencesDialog* dialog = openPreferences(window);
            QVERIFY(dialog);
            auto* contents = dialog->findChild<QLabel*>(QStringLiteral("cacheContents"));
            QVERIFY2(!contents->text().startsWith(QStringLiteral("0 ")), qPrintable(contents->text()));
            dialog->findChild<QPushButton*>(QStringLiteral("clearCache"))->click();
            QCOMPARE(programCacheContents(folder).entries, 0);
            QVERIFY2(contents->text().startsWith(QStringLiteral("0 ")), qPrintable(contents->text()));
            dialog->reject();
        }
    }

    // Reset All Settings: the window's settings back to a first start's at once, and the file holds nothing
    // of before.
    void resetAllSettingsBringsBackAFirstStart() {
        const QString file = dir_.filePath(QStringLiteral("reset.ini"));
        {
            AppSettings settings(file);
            MainWindow window(settings);
            QList<ErrorReport> problems;
            QVERIFY(test::showWithDevices(window, problems, kResultTimeoutMs));
            window.setBins(64);
            window.setRotation(30, rotate::FilterMode::Nearest, true);
            Preferences preferences;
            preferences.keptRuns = 7;
            window.applyPreferences(preferences);
            window.close();  // writes all of it
        }
        {
            AppSettings settings(file);
            QCOMPARE(settings.bins(), 64);
            QVERIFY(settings.transform().rotate);
            QVERIFY(settings.histogramDisplay().has_value());
            MainWindow window(settings);
            QList<ErrorReport> problems;
            QVERIFY(test::showWithDevices(window, problems, kResultTimeoutMs));
            QCOMPARE(window.currentRequest().bins, 64);
            QVERIFY(window.currentRequest().rotation.has_value());
            window.resetAllSettings();
            QCOMPARE(window.currentRequest().bins, 256);
            QVERIFY(!window.currentRequest().rotation.has_value());
            QCOMPARE(window.model().maxKeptRuns(), RunModel::kDefaultMaxKeptRuns);
            // The file was written at once: a first start's values, the display's keys gone.
            const QSettings written(file, QSettings::IniFormat);
            QVERIFY(!written.contains(QStringLiteral("histogram/channels")));
            QCOMPARE(written.value(QStringLiteral("run/bins")).toInt(), 256);
            QCOMPARE(written.value(QStringLiteral("run/keptRuns")).toInt(), 50);
            QVERIFY(!written.value(QStringLiteral("transform/rotate")).toBool());
            QVERIFY2(problems.isEmpty(), test::messagesOf(problems).constData());
        }
    }

    // Switching the filter kind changes the Transform panel's page (a size, a σ, a matrix editor): the docks
    // around it keep their heights, so the panels do not jump under the pointer.
    void dockHeightsStayAcrossFilterSwitches() {
        test::PrivateWindow app;
        QList<ErrorReport> problems;
        QVERIFY(test::showWithDevices(app.window, problems, kResultTimeoutMs));
        app.window.setFilter(QStringLiteral("box:3"));
        test::settleLayout();
        auto* filterKind =
            test::part<TransformPanel>(app.window)->findChild<QComboBox*>(QStringLiteral("filterKind"));
        QVERIFY(filterKind);
        QVERIFY(filterKind->count() >= 5);
        const auto heights = [&app] {
            QStringList text;
            for (const char* name : {"deviceDock", "transformDock", "histogramDock", "timingDock"})
                text << QStringLiteral("%1 %2")
                            .arg(QLatin1String(name))
                            .arg(app.window.findChild<QDockWidget*>(QLatin1String(name))->height());
            return text.join(QStringLiteral(", "));
        };
        const QString first = heights();
        // Every kind, and back to the first: no dock's height moves.
        for (int round = 0; round < 2; ++round) {
            for (int kind = 0; kind < filterKind->count(); ++kind) {
                filterKind->setCurrentIndex(kind);
                test::settleLayout();
                QCOMPARE(heights(), first);
            }
        }
        QTRY_VERIFY_WITH_TIMEOUT(!app.window.controller().busy(), kResultTimeoutMs);
        QVERIFY2(problems.isEmpty(), test::messagesOf(problems).constData());
    }
};

QTEST_MAIN(PreferencesTest)
#include "shell_preferences_test.moc"
