// The Transform panel's filter pages are generated from the engine's filter registry: one list entry and one
// page of spin boxes (each with its parameter's range) per filter kind, settings kept per parameter, and
// --filter specs shown on them. The unsharp mask, added to the registry only, shows up with its own page.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QtTest/QtTest>

#include "engine/ops/convolve/filter.hpp"
#include "engine/runtime/error.hpp"
#include "io/files/files.hpp"
#include "ui/shell/transform_panel.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

// The spin boxes on the filter page the panel shows now, top to bottom.
QList<QDoubleSpinBox*> visibleParameterBoxes(const TransformPanel& panel) {
    QList<QDoubleSpinBox*> shown;
    for (auto* box : panel.findChildren<QDoubleSpinBox*>()) {
        if (box != panel.angleBox() && box->isVisible()) shown << box;
    }
    std::sort(shown.begin(), shown.end(), [](const QWidget* a, const QWidget* b) { return a->y() < b->y(); });
    return shown;
}

void select(const TransformPanel& panel, const QString& name) {
    panel.filterBox()->setCurrentIndex(panel.filterBox()->findData(name));
}

}  // namespace

class FilterPagesTest : public QObject {
    Q_OBJECT

  private slots:
    void theListHoldsEveryRegisteredKindAndTheCustomMatrix() {
        TransformPanel panel;
        const auto kinds = convolve::filterKinds();
        QCOMPARE(panel.filterBox()->count(), static_cast<int>(kinds.size()) + 1);
        for (std::size_t i = 0; i < kinds.size(); ++i) {
            QCOMPARE(panel.filterBox()->itemData(static_cast<int>(i)).toString(),
                     QString::fromStdString(kinds[i]->name));
            QCOMPARE(panel.filterBox()->itemText(static_cast<int>(i)),
                     QString::fromStdString(kinds[i]->label));
        }
        QCOMPARE(panel.filterBox()->itemData(panel.filterBox()->count() - 1).toString(),
                 QString::fromLatin1(TransformPanel::kCustomFilter));
    }

    void everyParameterHasASpinBoxWithItsRangeAndDefault() {
        TransformPanel panel;
        for (const auto* kind : convolve::filterKinds()) {
            for (const auto& parameter : kind->parameters) {
                const QString name = QString::fromStdString(kind->name + "." + parameter.name);
                QDoubleSpinBox* box = panel.parameterBox(QString::fromStdString(kind->name),
                                                         QString::fromStdString(parameter.name));
                QVERIFY2(box, qPrintable(name));
                QCOMPARE(box->minimum(), parameter.min);
                QCOMPARE(box->maximum(), parameter.max);
                QCOMPARE(box->value(), parameter.defaultValue);
                QCOMPARE(box->decimals(), parameter.type == convolve::FilterParameter::Type::Real ? 2 : 0);
            }
        }
        QVERIFY(!panel.parameterBox(QStringLiteral("box"), QStringLiteral("sigma")));
        QVERIFY(!panel.parameterBox(QStringLiteral("median"), QStringLiteral("size")));
    }

    void theUnsharpPageHasItsTwoSpinBoxesAndBuildsTheRegistrysFilter() {
        TransformPanel panel;
        QVERIFY(test::showExposed(panel, {420, 520}));
        panel.convolutionGroup()->setChecked(true);
        select(panel, QStringLiteral("unsharp"));
        QCOMPARE(panel.filterBox()->currentText(), QStringLiteral("Unsharp mask"));
        const auto boxes = visibleParameterBoxes(panel);
        QCOMPARE(boxes.size(), 2);
        QDoubleSpinBox* amount = boxes[0];
        QDoubleSpinBox* sigma = boxes[1];
        QCOMPARE(amount->objectName(), QStringLiteral("unsharp.amount"));
        QCOMPARE(amount->minimum(), 0.0);
        QCOMPARE(amount->maximum(), 5.0);
        QCOMPARE(amount->value(), 1.0);
        QCOMPARE(sigma->objectName(), QStringLiteral("unsharp.sigma"));
        QCOMPARE(sigma->minimum(), 0.1);
        QCOMPARE(sigma->maximum(), convolve::kMaxGaussianSigma);
        QCOMPARE(sigma->value(), 1.0);

        QSignalSpy changed(&panel, &TransformPanel::transformChanged);
        amount->setValue(1.5);
        sigma->setValue(2);
        QCOMPARE(changed.count(), 2);
        const auto convolution = panel.convolution();
        QVERIFY(convolution);
        QCOMPARE(convolution->filter.taps, convolve::namedFilterFromSpec("unsharp:1.5:2")->taps);
        QCOMPARE(QString::fromStdString(convolution->filter.label),
                 QStringLiteral("unsharp amount 1.5, sigma 2 13x13"));
        QVERIFY(panel.grab().save(test::artifactPath(QStringLiteral("transform-unsharp.png"))));
    }

    void kindsWithoutParametersShowTheirTaps() {
        TransformPanel panel;
        QVERIFY(test::showExposed(panel, {420, 520}));
        select(panel, QStringLiteral("sharpen"));
        QVERIFY(visibleParameterBoxes(panel).isEmpty());
        const auto labels = panel.findChildren<QLabel*>();
        const bool shown = std::any_of(labels.begin(), labels.end(), [](const QLabel* label) {
            return label->isVisible() && label->text().contains(QStringLiteral("-1  5 -1"));
        });
        QVERIFY(shown);
    }

    void anEvenGaussianSizeBecomesOddAndTheLowestIsAutomatic() {
        TransformPanel panel;
        select(panel, QStringLiteral("gaussian"));
        QDoubleSpinBox* size = panel.parameterBox(QStringLiteral("gaussian"), QStringLiteral("size"));
        QCOMPARE(size->value(), 0.0);
        QCOMPARE(size->text(), QStringLiteral("auto (6σ + 1, at most 15)"));
        QCOMPARE(panel.filter().width, convolve::gaussianFilter(1.5).width);
        size->setValue(4);
        QCOMPARE(size->value(), 5.0);
        QCOMPARE(panel.filter().taps, convolve::gaussianFilter(1.5, 5).taps);
    }

    void specsSetThePageOrSayWhyNot() {
        TransformPanel panel;
        panel.applyFilterSpec(QStringLiteral("unsharp:2:0.5"));
        QVERIFY(panel.convolutionGroup()->isChecked());
        QCOMPARE(panel.filterBox()->currentData().toString(), QStringLiteral("unsharp"));
        QCOMPARE(panel.parameterBox(QStringLiteral("unsharp"), QStringLiteral("amount"))->value(), 2.0);
        QCOMPARE(panel.parameterBox(QStringLiteral("unsharp"), QStringLiteral("sigma"))->value(), 0.5);
        // A parameter left out takes its default.
        panel.applyFilterSpec(QStringLiteral("unsharp:3"));
        QCOMPARE(panel.parameterBox(QStringLiteral("unsharp"), QStringLiteral("sigma"))->value(), 1.0);
        QCOMPARE(panel.filter().taps, convolve::namedFilterFromSpec("unsharp:3:1")->taps);
        // The engine takes sigma 0.05, the spin box does not show it: refused, nothing changes.
        bool refused = false;
        try {
            panel.applyFilterSpec(QStringLiteral("gaussian:0.05"));
        } catch (const UsageError& e) {
            refused =
                QString::fromUtf8(e.what()).contains(QStringLiteral("the panel shows sigma from 0.1 to 15"));
        }
        QVERIFY(refused);
        QCOMPARE(panel.filterBox()->currentData().toString(), QStringLiteral("unsharp"));
        // Bad values are the engine's usage errors.
        QVERIFY_THROWS_EXCEPTION(UsageError, panel.applyFilterSpec(QStringLiteral("unsharp:9")));
    }

    void aFilterFileSpecIsReadOnceIntoTheCustomEditor() {
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("ridge.txt"));
        const std::string text = "# a ridge\n0 1 0\n0 2 0\n0 1 0\n/ 4\n";
        io::writeFileAtomically(path.toStdString(), text);
        TransformPanel panel;
        panel.applyFilterSpec(path);
        QCOMPARE(panel.filterBox()->currentData().toString(),
                 QString::fromLatin1(TransformPanel::kCustomFilter));
        QCOMPARE(panel.customEditor()->toPlainText(), QString::fromStdString(text));
        QCOMPARE(QString::fromStdString(panel.filter().label), QStringLiteral("custom 3x3 (ridge.txt)"));
        QCOMPARE(panel.filter().taps, convolve::parseFilterText(text).taps);
    }

    void settingsKeepEveryParameterByName() {
        TransformPanel panel;
        panel.parameterBox(QStringLiteral("unsharp"), QStringLiteral("amount"))->setValue(4.25);
        panel.parameterBox(QStringLiteral("box"), QStringLiteral("size"))->setValue(9);
        select(panel, QStringLiteral("unsharp"));
        const TransformSettings saved = panel.settings();
        QCOMPARE(saved.filter, QStringLiteral("unsharp"));
        QCOMPARE(saved.filterParameters.value(QStringLiteral("unsharp/amount")), 4.25);
        QCOMPARE(saved.filterParameters.value(QStringLiteral("box/size")), 9.0);
        QCOMPARE(saved.filterParameters.size(), defaultFilterParameters().size());

        TransformPanel other;
        other.applySettings(saved);
        QCOMPARE(other.filterBox()->currentData().toString(), QStringLiteral("unsharp"));
        QCOMPARE(other.parameterBox(QStringLiteral("unsharp"), QStringLiteral("amount"))->value(), 4.25);
        QCOMPARE(other.parameterBox(QStringLiteral("box"), QStringLiteral("size"))->value(), 9.0);
        QCOMPARE(other.settings(), saved);
    }
};

QTEST_MAIN(FilterPagesTest)
#include "transform_filter_pages_test.moc"
