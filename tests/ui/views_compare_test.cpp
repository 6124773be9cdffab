// CompareView: one bar per supported strategy with min–max whiskers, unsupported strategies in the table with
// their reason, and the Compare button's request.

#include <qcustomplot.h>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QtTest/QtTest>
#include <cmath>

#include "ui/compare_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;

namespace {

QVector<CompareView::Entry> entries() {
    const double notMeasured = std::nan("");
    return {
        {"serial", {}, 9.5, 10.0, 11.0, 0.4, 1.0},
        {"global-atomic", {}, 40.0, 42.0, 47.0, 0.1, 10.0 / 42.0},
        {"image-sampler", "device has no image support", 0, 0, 0, 0, notMeasured},
        {"private-uchar", {}, 1.9, 2.0, 2.6, 2.0, 5.0},
        {"local-atomic", {}, 3.0, 4.0, 6.0, 1.0, 2.5},
        {"subgroup", "needs cl_khr_subgroups", 0, 0, 0, 0, notMeasured},
    };
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
    void showsOneBarPerSupportedStrategy() {
        CompareView view;
        view.setEntries(entries());
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

        // Setting fewer entries replaces the bars.
        view.setEntries(entries().mid(0, 1));
        QCOMPARE(view.plottedStrategies(), QStringList({"serial"}));
        QCOMPARE(barsOf(view)->data()->size(), 1);
    }

    void tableListsEveryStrategyWithReasons() {
        CompareView view;
        view.setEntries(entries());
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
        QVERIFY(test::showExposed(view, {1000, 620}));
        view.setEntries(entries());
        view.plot()->replot();
        QVERIFY(view.grab().save(test::artifactPath(QStringLiteral("views_compare.png"))));
    }
};

QTEST_MAIN(CompareViewTest)
#include "views_compare_test.moc"
