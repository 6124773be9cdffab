// The smaller items of issue 23: two identical devices told apart in the status bar; "Two devices" counts on
// another device than the one that convolves; a 2-row image lowers Chunks for itself only; dropping two
// files says that one is shown; the Histogram dock's Log, Cumulative, Clip peak and channels are remembered.
#include <QComboBox>
#include <QGroupBox>
#include <QMimeData>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include "engine/ops/rotate/rotate.hpp"
#include "io/image_io.hpp"
#include "ui/shell/app_settings.hpp"
#include "ui/shell/device_panel.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/shell/shortcuts_dialog.hpp"
#include "ui/shell/transform_panel.hpp"
#include "ui/views/histogram_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr int kResultTimeoutMs = 120000;

}  // namespace

class PolishTest : public QObject {
    Q_OBJECT

  private:
    QTemporaryDir dir_;
    std::unique_ptr<test::PrivateWindow> app_;
    QList<ErrorReport> problems_;

    MainWindow& window() { return app_->window; }
    TransformPanel& panel() { return *test::part<TransformPanel>(window()); }
    void waitIdle() {
        QTRY_VERIFY_WITH_TIMEOUT(!window().controller().busy() && window().lastOutcome(), kResultTimeoutMs);
    }

  private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }
    void init() {
        app_ = std::make_unique<test::PrivateWindow>();
        problems_.clear();
        QVERIFY(test::showWithDevices(window(), problems_, kResultTimeoutMs));
        QVERIFY2(window().controller().devices().size() >= 2, "POCL_DEVICES=\"pthread pthread\" gives two");
        window().showImage(std::make_shared<const ImageRGBA8>(test::randomImage(64, 48, 2)),
                           QStringLiteral("small"));
        waitIdle();
    }
    void cleanup() {
        QVERIFY2(problems_.isEmpty(), test::messagesOf(problems_).constData());
        app_.reset();
    }

    // Two devices of one name: the status bar names the one in use with its selector.
    void theStatusBarTellsIdenticalDevicesApart() {
        window().chooseDevice(QStringLiteral("0:1"));
        waitIdle();
        const auto device = window().currentDevice();
        QVERIFY(device);
        QCOMPARE(QString::fromStdString(device->selector()), QStringLiteral("0:1"));
        QVERIFY2(window().statusSummary().contains(
                     QStringLiteral("%1 (0:1)").arg(QString::fromStdString(device->name))),
                 qPrintable(window().statusSummary()));
    }

    // The producer is 0:1, the registry's second device, which "Two devices" used to pick as consumer too.
    void twoDevicesCountsOnAnotherDevice() {
        window().chooseDevice(QStringLiteral("0:1"));
        waitIdle();
        window().setFilter(QStringLiteral("box:3"));
        auto* group = test::part<QGroupBox>(window(), "twoDevicesGroup");
        group->setChecked(true);
        QVERIFY(group->isChecked());
        const auto pipeline = panel().twoDevices();
        QVERIFY(pipeline);
        QCOMPARE(pipeline->consumer, QStringLiteral("0:0"));
        // The list shows the selector first, where a narrow panel cannot cut it off.
        QVERIFY(test::part<QComboBox>(window(), "consumerDevice")
                    ->currentText()
                    .startsWith(QStringLiteral("0:0 · ")));
        waitIdle();
        QVERIFY(window().lastOutcome()->consumer);
        QCOMPARE(QString::fromStdString(window().lastOutcome()->consumer->selector()), QStringLiteral("0:0"));
    }

    // Chunks 8, then a 2-row image (at most a chunk per row), then a taller one: 8 again.
    void aShortImageLowersChunksForItselfOnly() {
        QSpinBox* chunks = panel().chunksBox();
        chunks->setValue(8);
        window().showImage(std::make_shared<const ImageRGBA8>(test::randomImage(64, 2, 3)),
                           QStringLiteral("strip"));
        QCOMPARE(chunks->value(), 2);
        waitIdle();
        window().showImage(std::make_shared<const ImageRGBA8>(test::randomImage(64, 48, 4)),
                           QStringLiteral("tall"));
        QCOMPARE(chunks->value(), 8);
        waitIdle();
    }

    // A fit-canvas rotation changes the output's size: the status bar gives both, as the engine's rule has
    // it.
    void theStatusBarGivesTheOutputSize() {
        window().setRotation(30, rotate::FilterMode::Linear, true);
        QTRY_VERIFY_WITH_TIMEOUT(!window().controller().busy() && window().lastOutcome()->frame,
                                 kResultTimeoutMs);
        const auto size = rotate::outputSize({30, rotate::FilterMode::Linear, true}, 64, 48);
        QVERIFY(size.width != 64 || size.height != 48);
        QVERIFY2(window().statusSummary().contains(
                     QStringLiteral("64 × 48 → %1 × %2").arg(size.width).arg(size.height)),
                 qPrintable(window().statusSummary()));
    }

    // Tab leaves the device's read-only property table at once instead of walking its cells.
    void tabLeavesTheDeviceTable() {
        QTableWidget* table = test::part<DevicePanel>(window())->propertiesTable();
        QVERIFY(table->rowCount() > 2);
        window().activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&window()));
        table->setFocus();
        table->setCurrentCell(0, 0);
        QTRY_VERIFY(table->hasFocus());
        QTest::keyClick(table, Qt::Key_Tab);
        QVERIFY(!table->hasFocus());
    }

    // Two files dropped: the first is opened and the status bar says that the other was not.
    void droppingTwoFilesSaysSo() {
        QList<QUrl> urls;
        for (const char* name : {"first.png", "second.png"}) {
            const QString path = dir_.filePath(QLatin1String(name));
            io::saveImage(path, QImage(8, 6, QImage::Format_RGBA8888));
            urls << QUrl::fromLocalFile(path);
        }
        QMimeData mime;
        mime.setUrls(urls);
        QSignalSpy loaded(&window(), &MainWindow::imageLoaded);
        QDropEvent drop(QPointF(window().rect().center()), Qt::CopyAction, &mime, Qt::LeftButton,
                        Qt::NoModifier);
        // Straight to the window's handler: sent through QApplication, a drop made up here came back
        // unaccepted without reaching dropEvent (Qt routes drops through its own drag-and-drop state).
        static_cast<QObject&>(window()).event(&drop);
        QVERIFY(drop.isAccepted());
        QVERIFY(loaded.wait(kResultTimeoutMs));
        QCOMPARE(loaded.first().first().toString(), dir_.filePath(QStringLiteral("first.png")));
        QTRY_VERIFY_WITH_TIMEOUT(!window().controller().busy(), kResultTimeoutMs);
        const QString status = window().statusBar()->currentMessage();
        QVERIFY2(status.contains(QStringLiteral("2 files were dropped")) &&
                     status.contains(QStringLiteral("first.png")),
                 qPrintable(status));
    }

    // Log, Cumulative, Clip peak and the channels shown, set in one window, are there in the next.
    void histogramTogglesAreRemembered() {
        const QString file = dir_.filePath(QStringLiteral("toggles.ini"));
        const histogram::Channel hidden = histogram::Channel::G;
        bool clip = false;
        {
            AppSettings settings(file);
            MainWindow first(settings);
            auto& view = *test::part<HistogramView>(first);
            view.setLogScale(true);
            view.setCumulative(true);
            clip = !view.clipDominant();
            view.setClipDominant(clip);
            view.setChannelVisible(histogram::Channel::A, true);
            view.setChannelVisible(hidden, false);
            first.close();
        }
        AppSettings settings(file);
        MainWindow second(settings);
        const auto& view = *test::part<HistogramView>(second);
        QVERIFY(view.logScale());
        QVERIFY(view.cumulative());
        QCOMPARE(view.clipDominant(), clip);
        QVERIFY(view.channelVisible(histogram::Channel::A));
        QVERIFY(!view.channelVisible(hidden));
        QVERIFY(view.channelVisible(histogram::Channel::R));
    }

    // Help ▸ Keyboard Shortcuts lists every action that has a shortcut, with its keys, as it is when opened.
    void theShortcutListHasEveryShortcut() {
        QAction* late = new QAction(QStringLiteral("&Late action…"), &window());
        late->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F12));
        window().addAction(late);
        ShortcutsDialog dialog(window());
        const QTableWidget& table = *dialog.table();
        QMap<QString, QString> listed;
        for (int row = 0; row < table.rowCount(); ++row)
            listed.insert(table.item(row, 0)->text(), table.item(row, 1)->text());
        int withShortcut = 0;
        for (QAction* action : window().findChildren<QAction*>()) {
            if (action->shortcuts().isEmpty()) continue;
            ++withShortcut;
            const QString name = action->text().remove(QLatin1Char('&')).remove(QStringLiteral("…"));
            QVERIFY2(listed.contains(name), qPrintable(name));
            for (const QKeySequence& keys : action->shortcuts())
                QVERIFY2(listed.value(name).contains(keys.toString(QKeySequence::NativeText)),
                         qPrintable(name));
        }
        QCOMPARE(table.rowCount(), withShortcut);
        // What the window is known to have, written by hand: a shortcut lost from an action fails here.
        QCOMPARE(listed.value(QStringLiteral("Late action")), QStringLiteral("Ctrl+Shift+F12"));
        QCOMPARE(listed.value(QStringLiteral("Cancel")), QStringLiteral("Esc"));
        // An action without a tip of its own says nothing rather than its name again.
        const auto lateRow = table.findItems(QStringLiteral("Late action"), Qt::MatchExactly);
        QCOMPARE(lateRow.size(), 1);
        QCOMPARE(table.item(lateRow.front()->row(), 2)->text(), QString());
        QCOMPARE(listed.value(QStringLiteral("Keyboard Shortcuts")), QStringLiteral("Ctrl+/"));
        QCOMPARE(listed.value(QStringLiteral("User Guide")), QStringLiteral("F1"));
        QVERIFY(test::showExposed(dialog, dialog.size()));
        // The title fits the dialog.
        QVERIFY(dialog.width() > dialog.fontMetrics().horizontalAdvance(dialog.windowTitle()));
        QVERIFY(dialog.grab().save(test::artifactPath(QStringLiteral("shell_shortcuts.png"))));
    }
};

QTEST_MAIN(PolishTest)
#include "shell_polish_test.moc"
