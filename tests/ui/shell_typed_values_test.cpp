// Input that means what was typed (issue 23): a number typed into a field asks for one run when it is
// complete (Enter, or a pause), not one per keystroke; the angle and the bins go through the engine's rule of
// the same option of the command line (options::parseAngle, options::parseBins), so 270 is -90 as `--angle
// 270` is and 300 bins is refused, beside the field, with the words histoscope-cli uses.
#include <QLabel>
#include <QProcess>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include "engine/runtime/error.hpp"
#include "engine/stages/shared_options.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/shell/number_field.hpp"
#include "ui/shell/transform_panel.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

constexpr int kResultTimeoutMs = 120000;

// The message of the engine's rule for `text`, empty when it accepts it.
template <typename Rule>
QString refusal(Rule rule, const char* text) {
    try {
        rule(text);
    } catch (const UsageError& e) {
        return QString::fromUtf8(e.what());
    }
    return {};
}

}  // namespace

class TypedValuesTest : public QObject {
    Q_OBJECT

  private:
    std::unique_ptr<test::PrivateWindow> app_;
    QList<ErrorReport> problems_;

    MainWindow& window() { return app_->window; }
    TransformPanel& panel() { return *test::part<TransformPanel>(window()); }

    // Replaces the field's text as a user does: select all, type, and (with `enter`) press Enter.
    static void type(QAbstractSpinBox* field, const QString& text, bool enter) {
        field->setFocus();
        field->selectAll();
        QTest::keyClicks(field, text);
        if (enter) QTest::keyClick(field, Qt::Key_Return);
    }

    void waitIdle() {
        QTRY_VERIFY_WITH_TIMEOUT(!window().controller().busy() && window().lastOutcome(), kResultTimeoutMs);
    }

  private slots:
    void init() {
        app_ = std::make_unique<test::PrivateWindow>();
        problems_.clear();
        QVERIFY(test::showWithDevices(window(), problems_, kResultTimeoutMs));
        window().activateWindow();
        window().showImage(std::make_shared<const ImageRGBA8>(test::randomImage(48, 32, 9)),
                           QStringLiteral("small"));
        window().setRotation(10, rotate::FilterMode::Linear, false);
        waitIdle();
    }
    void cleanup() {
        QVERIFY2(problems_.isEmpty(), test::messagesOf(problems_).constData());
        app_.reset();
    }

    // "12.5" and Enter: one run, at 12.5°, where each keystroke used to start one (four runs, three of them
    // of half-typed angles).
    void enterRunsTheTypedValueOnce() {
        QSignalSpy runs(&window(), &MainWindow::runRequested);
        type(panel().angleBox(), QStringLiteral("12.5"), false);
        QCOMPARE(runs.count(), 0);  // the timers of the pause have not run: keystrokes alone start nothing
        QTest::keyClick(panel().angleBox(), Qt::Key_Return);
        QCOMPARE(runs.count(), 1);
        QCOMPARE(panel().angleBox()->value(), 12.5);
        waitIdle();
        // The pause after the Enter finds the same value: no second run.
        QTest::qWait(2 * kTypingPauseMs);
        QCOMPARE(runs.count(), 1);
        QCOMPARE(window().lastOutcome()->request.rotation->params.angleDegrees, 12.5);
    }

    // A pause completes the value without Enter: one run for "45", none for its "4".
    void aPauseRunsTheTypedValueOnce() {
        QSignalSpy runs(&window(), &MainWindow::runRequested);
        type(panel().angleBox(), QStringLiteral("45"), false);
        QTRY_COMPARE_WITH_TIMEOUT(runs.count(), 1, kResultTimeoutMs);
        QCOMPARE(panel().angleBox()->value(), 45.0);
        QTest::qWait(2 * kTypingPauseMs);
        QCOMPARE(runs.count(), 1);
    }

    // Every digit counts: the angle is reduced into (-180, 180] by the command line's function, never cut to
    // the field's range ("270" was 27.0°, "359.5" 35.5°, "-190" -19.0°).
    void anglesAreReducedAsTheCommandLineReducesThem_data() {
        QTest::addColumn<QString>("typed");
        QTest::addColumn<double>("degrees");  // by hand
        QTest::newRow("270") << "270" << -90.0;
        QTest::newRow("359.5") << "359.5" << -0.5;
        QTest::newRow("-190") << "-190" << 170.0;
        QTest::newRow("400") << "400" << 40.0;
        QTest::newRow("-180") << "-180" << 180.0;
        QTest::newRow("33.5") << "33.5" << 33.5;
    }
    void anglesAreReducedAsTheCommandLineReducesThem() {
        QFETCH(QString, typed);
        QFETCH(double, degrees);
        QCOMPARE(options::parseAngle(typed.toStdString()), degrees);  // histoscope-cli's --angle
        type(panel().angleBox(), typed, true);
        QCOMPARE(panel().angleBox()->value(), degrees);
        auto* note = panel().angleBox()->parentWidget()->findChild<QLabel*>(QStringLiteral("fieldNote"));
        QVERIFY(note);
        // A reduced value says what it became; one taken as typed says nothing.
        QCOMPARE(note->isVisible(), typed.toDouble() != degrees);
        if (note->isVisible())
            QVERIFY2(note->text().startsWith(typed + QStringLiteral(" is ")), qPrintable(note->text()));
        waitIdle();
        QCOMPARE(window().lastOutcome()->request.rotation->params.angleDegrees, degrees);
    }

    // 300 bins: refused, beside the field, in the words of histoscope-cli's --bins; the bins stay and nothing
    // runs. 30 (what the field used to keep of "300") is not asked for either.
    void refusedBinsAreSaidBesideTheField() {
        auto* bins = test::part<QSpinBox>(window(), "bins");
        const int before = bins->value();
        QSignalSpy runs(&window(), &MainWindow::runRequested);
        type(bins, QStringLiteral("300"), true);
        QCOMPARE(bins->value(), before);
        QCOMPARE(runs.count(), 0);
        auto* note = bins->parentWidget()->findChild<QLabel*>(QStringLiteral("fieldNote"));
        QVERIFY(note && note->isVisible());
        const QString expected = refusal(options::parseBins, "300");
        QCOMPARE(note->text(), expected);
        QVERIFY(expected.contains(QStringLiteral("1..256")));

        // histoscope-cli refuses the same text with the same words (exit code 2: usage).
        QTemporaryDir folder;
        const QString image = folder.filePath(QStringLiteral("in.png"));
        QVERIFY(QImage(4, 4, QImage::Format_RGBA8888).save(image));
        QProcess cli;
        cli.start(QStringLiteral(HISTOSCOPE_CLI_EXECUTABLE),
                  {QStringLiteral("histogram"), image, QStringLiteral("--bins"), QStringLiteral("300")});
        QVERIFY(cli.waitForFinished(kResultTimeoutMs));
        QCOMPARE(cli.exitCode(), 2);
        QVERIFY2(QString::fromUtf8(cli.readAllStandardError()).contains(expected), qPrintable(expected));

        // An accepted count clears the note and runs once.
        type(bins, QStringLiteral("64"), true);
        QCOMPARE(bins->value(), 64);
        QCOMPARE(runs.count(), 1);
        QVERIFY(!note->isVisible());
    }

    // A stage parameter out of its range is refused with the range, not cut to a digit: box size "99".
    void refusedParametersSayTheirRange() {
        window().setFilter(QStringLiteral("box:3"));
        waitIdle();
        QDoubleSpinBox* size = panel().parameterBox(QStringLiteral("box"), QStringLiteral("size"));
        QVERIFY(size);
        QSignalSpy runs(&window(), &MainWindow::runRequested);
        type(size, QStringLiteral("99"), true);
        QCOMPARE(size->value(), 3.0);
        QCOMPARE(runs.count(), 0);
        auto* note = size->parentWidget()->findChild<QLabel*>(QStringLiteral("fieldNote"));
        QVERIFY(note && note->isVisible());
        QVERIFY2(note->text().contains(QStringLiteral("within 1..15, got '99'")), qPrintable(note->text()));
        type(size, QStringLiteral("5"), true);
        QCOMPARE(size->value(), 5.0);
        QCOMPARE(runs.count(), 1);
    }
};

QTEST_MAIN(TypedValuesTest)
#include "shell_typed_values_test.moc"
