// CompareView: one bar per supported strategy with min–max whiskers, unsupported strategies in the table with
// their reason, and the Compare button's request.

#include <qcustomplot.h>
#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest/QtTest>
#include <cmath>

#include "handmade_timings.hpp"

#include "ui/views/compare_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

measure::StrategyMeasurement measured(const char* strategy, std::vector<double> kernelMs, double gbps,
                                      double ratioToSerial) {
    for (double& ms : kernelMs) ms *= 1e6;
    return {strategy, {}, {}, measure::Summary::of(kernelMs), gbps, ratioToSerial};
}

measure::StrategyMeasurement unsupported(const char* strategy, const char* reason) {
    return {strategy, {}, reason, std::nullopt, 0, std::nullopt};
}

// What the engine's comparison hands the view: min / median / max from each strategy's kernel times.
measure::Comparison comparison() {
    return {"serial",
            1'000'000,
            3,
            {
                measured("serial", {11.0, 9.5, 10.0}, 0.4, 1.0),
                measured("global-atomic", {40.0, 47.0, 42.0}, 0.1, 10.0 / 42.0),
                unsupported("image-sampler", "device has no image support"),
                measured("private-uchar", {1.9, 2.0, 2.6}, 2.0, 5.0),
                measured("local-atomic", {3.0, 4.0, 6.0}, 1.0, 2.5),
                unsupported("subgroup", "needs cl_khr_subgroups"),
            },
            {}};
}

QCPBars* barsOf(const CompareView& view) {
    for (int i = 0; i < view.plot()->plottableCount(); ++i)
        if (auto* bars = qobject_cast<QCPBars*>(view.plot()->plottable(i))) return bars;
    return nullptr;
}

QCPErrorBars* whiskersOf(const CompareView& view) {
    for (int i = 0; i < view.plot()->plottableCount(); ++i)
        if (auto* whiskers = qobject_cast<QCPErrorBars*>(view.plot()->plottable(i))) return whiskers;
    return nullptr;
}

}  // namespace

class CompareViewTest : public QObject {
    Q_OBJECT

  private slots:
    // The empty state says what Compare does, in place of an empty plot, until a comparison is shown, and
    // again once it is cleared.
    void saysWhatCompareDoesUntilAComparison() {
        CompareView view;
        QVERIFY(!view.emptyState()->isHidden());
        QVERIFY(view.emptyState()->text().contains(QStringLiteral("every strategy")));
        QVERIFY(!view.plot()->isVisibleTo(&view));
        view.showComparison(comparison());
        QVERIFY(view.emptyState()->isHidden());
        QVERIFY(view.plot()->isVisibleTo(&view));
        view.clear();
        QVERIFY(!view.emptyState()->isHidden());
        QVERIFY(!view.plot()->isVisibleTo(&view));
    }

    void showsOneBarPerSupportedStrategy() {
        CompareView view;
        view.showComparison(comparison());
        QCOMPARE(view.plottedStrategies(),
                 QStringList({"serial", "global-atomic", "private-uchar", "local-atomic"}));
        QCPBars* bars = barsOf(view);
        QVERIFY(bars);
        QCOMPARE(bars->data()->size(), 4);
        const QVector<double> medians{10.0, 42.0, 2.0, 4.0};
        for (int i = 0; i < 4; ++i) QCOMPARE(bars->data()->at(i)->value, medians[i]);

        // Whiskers reach from min to max around each median.
        QCPErrorBars* whiskers = whiskersOf(view);
        QVERIFY(whiskers);
        QCOMPARE(whiskers->dataCount(), 4);
        QCOMPARE(whiskers->data()->at(1).errorMinus, 2.0);  // 42 - 40
        QCOMPARE(whiskers->data()->at(1).errorPlus, 5.0);   // 47 - 42
        QVERIFY(view.plot()->yAxis->range().upper > 47.0);

        // A smaller comparison replaces the bars.
        auto fewer = comparison();
        fewer.strategies.resize(1);
        view.showComparison(fewer);
        QCOMPARE(view.plottedStrategies(), QStringList({"serial"}));
        QCOMPARE(barsOf(view)->data()->size(), 1);
    }

    // Issue 8: the hand-made log of 4 runs (kernel times 7, 1, 100, 2 µs) shows the engine's median, 4.5 µs.
    void showsTheEngineMedianOfTheHandmadeLog() {
        auto handmade = comparison();
        handmade.strategies = {measured("serial", {1.0}, 0, 1.0), measured("local-atomic", {1.0}, 0, 0)};
        handmade.strategies[1].kernel = measure::kernelSummary(hs::test::handmadeFourRuns());
        CompareView view;
        view.showComparison(handmade);
        QCOMPARE(view.entries()[1].medianMs, hs::test::kHandmadeMedianNs / 1e6);
        QCOMPARE(barsOf(view)->data()->at(1)->value, 0.0045);
        QCOMPARE(whiskersOf(view)->data()->at(1).errorMinus, 0.0045 - 0.001);
        QCOMPARE(whiskersOf(view)->data()->at(1).errorPlus, 0.1 - 0.0045);
    }

    void autoNamesTheStrategyItChose() {
        auto chosen = comparison();
        chosen.strategies[3].strategy = "auto";
        chosen.strategies[3].ranAs = "private-uchar";
        CompareView view;
        view.showComparison(chosen);
        QCOMPARE(view.entries()[3].strategy, QStringLiteral("auto → private-uchar"));
        QCOMPARE(view.plottedStrategies()[2], QStringLiteral("auto → private-uchar"));
    }

    void tableListsEveryStrategyWithReasons() {
        CompareView view;
        view.showComparison(comparison());
        const auto* table = view.findChild<QTableWidget*>("compareTable");
        QVERIFY(table);
        QCOMPARE(table->rowCount(), 6);
        QCOMPARE(table->item(2, 0)->text(), QStringLiteral("image-sampler"));
        QCOMPARE(table->item(2, 6)->text(), QStringLiteral("unsupported: device has no image support"));
        QCOMPARE(table->item(2, 1)->text(), QStringLiteral("–"));
        QCOMPARE(table->item(3, 1)->text(), QStringLiteral("2.000"));
        QCOMPARE(table->item(3, 4)->text(), QStringLiteral("2.00"));   // GB/s
        QCOMPARE(table->item(3, 5)->text(), QStringLiteral("5.00×"));  // speed-up over serial
        QCOMPARE(table->item(3, 6)->text(), QStringLiteral("fastest"));
        QCOMPARE(table->item(1, 5)->text(), QStringLiteral("0.24×"));
    }

    void compareButtonRequestsTheChosenRepetitions() {
        CompareView view;
        QSignalSpy requested(&view, &CompareView::compareRequested);
        view.findChild<QSpinBox*>("repetitions")->setValue(25);
        QTest::mouseClick(view.findChild<QPushButton*>("compare"), Qt::LeftButton);
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.first().at(0).toInt(), 25);
    }

    void rendersForPeopleToLookAt() {
        CompareView view;
        QVERIFY(hs::ui::test::showExposed(view, {1000, 620}));
        view.showComparison(comparison());
        view.plot()->replot();
        QVERIFY(view.grab().save(hs::ui::test::artifactPath(QStringLiteral("views_compare.png"))));
    }
};

QTEST_MAIN(CompareViewTest)
#include "views_compare_test.moc"
