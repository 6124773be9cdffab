// HistogramView: the plotted data against histograms built by hand, the display modes, the clip rule, range
// selection by API and by mouse, the hover readout and the statistics labels.

#include <qcustomplot.h>
#include <QLabel>
#include <QSignalSpy>
#include <QtTest/QtTest>

#include "ui/views/histogram_view.hpp"
#include "ui_test_support.hpp"

using namespace hs;
using namespace hs::ui;
using histogram::Channel;
using histogram::Histogram;

namespace {

// 16 bins (values 16·b .. 16·b + 15); each channel gets its own counts so a mix-up shows.
Histogram handMadeHistogram() {
    Histogram histogram(16);
    for (std::size_t bin = 0; bin < 16; ++bin) {
        histogram[Channel::R][bin] = bin * 3;
        histogram[Channel::G][bin] = 100 - bin;
        histogram[Channel::B][bin] = bin % 4 == 0 ? 40 : 1;
        histogram[Channel::A][bin] = bin == 15 ? 200 : 0;
        histogram[Channel::Luma][bin] = (bin * 7) % 11;
    }
    return histogram;
}

// The drawn heights of bins of equal width: each count over the 256 / bins values of its bin.
QVector<double> perValue(const std::vector<std::uint64_t>& counts) {
    QVector<double> values;
    const double width = 256.0 / static_cast<double>(counts.size());
    for (const auto count : counts) values.append(static_cast<double>(count) / width);
    return values;
}

// `copies` pixels of every 8-bit value, grey (r = g = b = luma) and opaque.
Histogram everyValue(std::uint64_t copies) {
    Histogram values;
    for (const Channel channel : {Channel::R, Channel::G, Channel::B, Channel::Luma})
        values[channel].assign(256, copies);
    values[Channel::A][255] = 256 * copies;
    return values;
}

QCPGraph* graphNamed(const HistogramView& view, const QString& name) {
    for (int i = 0; i < view.plot()->graphCount(); ++i)
        if (view.plot()->graph(i)->name() == name) return view.plot()->graph(i);
    return nullptr;
}

QString labelText(const HistogramView& view, const char* name) {
    const auto* label = view.findChild<QLabel*>(QString::fromLatin1(name));
    return label ? label->text() : QStringLiteral("<no label %1>").arg(QString::fromLatin1(name));
}

// The pixel column at the middle of a bin, for mouse events on the plot.
int pixelOfBin(const HistogramView& view, int bin, int bins) {
    return static_cast<int>(view.plot()->xAxis->coordToPixel((bin + 0.5) * 256.0 / bins));
}

}  // namespace

class HistogramViewTest : public QObject {
    Q_OBJECT

  private slots:
    void plotsTheHistogramItIsGiven() {
        HistogramView view;
        QVERIFY(!view.hasHistogram());
        const Histogram histogram = handMadeHistogram();
        QSignalSpy changed(&view, &HistogramView::histogramChanged);
        test::showBins(view, histogram);
        QCOMPARE(changed.count(), 1);
        QVERIFY(view.histogram() == histogram);
        for (const Channel channel : hs::histogram::kChannels)
            QCOMPARE(view.plottedValues(channel), perValue(histogram[channel]));

        // The smallest bin count: one bin holding every value.
        Histogram single(1);
        single[Channel::B][0] = 12345;
        test::showBins(view, single);
        QCOMPARE(view.plottedValues(Channel::B), QVector<double>({12345.0 / 256}));
        QCOMPARE(view.plottedValues(Channel::R), QVector<double>({0.0}));
    }

    void logScaleChangesTheAxisNotTheValues() {
        HistogramView view;
        test::showBins(view, handMadeHistogram());
        view.setLogScale(true);
        QCOMPARE(view.plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(view.plottedValues(Channel::G), perValue(handMadeHistogram()[Channel::G]));
        QVERIFY(view.plot()->yAxis->range().lower > 0);
        view.setLogScale(false);
        QCOMPARE(view.plot()->yAxis->scaleType(), QCPAxis::stLinear);
    }

    void cumulativeShowsRunningSums() {
        HistogramView view;
        const Histogram histogram = handMadeHistogram();
        test::showBins(view, histogram);
        view.setCumulative(true);
        for (const Channel channel : hs::histogram::kChannels) {
            QVector<double> expected;
            double sum = 0;
            for (const auto count : histogram[channel]) expected.append(sum += static_cast<double>(count));
            QCOMPARE(view.plottedValues(channel), expected);
        }
        // The axis reaches the largest total of a shown channel (G: 100 + 99 + ... + 85 = 1480).
        QVERIFY(view.plot()->yAxis->range().upper >= 1480);
        view.setCumulative(false);
        QCOMPARE(view.plottedValues(Channel::R), perValue(histogram[Channel::R]));
    }

    // 100 bins are 2 or 3 values wide: drawn as counts, a flat histogram would be a comb of 2s and 3s.
    void unevenBinsAreDrawnPerValue() {
        HistogramView view;
        view.setHistogram(everyValue(10), 100);
        QCOMPARE(view.histogram()[Channel::R][0], std::uint64_t{30});  // values 0..2
        QCOMPARE(view.histogram()[Channel::R][2], std::uint64_t{20});  // values 6..7
        for (const Channel channel : {Channel::R, Channel::G, Channel::B, Channel::Luma})
            QCOMPARE(view.plottedValues(channel), QVector<double>(100, 10.0));
        QVERIFY2(view.plot()->yAxis->label().contains(QStringLiteral("per value")),
                 qPrintable(view.plot()->yAxis->label()));
        // Each bar covers the values it counts: bin 1 is 3..5, bin 2 is 6..7.
        const auto bars = graphNamed(view, "R")->data();
        QCOMPARE(bars->at(1)->key, 3.0);
        QCOMPARE(bars->at(2)->key, 6.0);
        QCOMPARE(bars->at(3)->key, 8.0);
        // Cumulative counts are not divided: the running count reaches every pixel.
        view.setCumulative(true);
        QCOMPARE(view.plottedValues(Channel::R).back(), 2560.0);
        QVERIFY(!view.plot()->yAxis->label().contains(QStringLiteral("per value")));
    }

    // Six grey pixels 3, 3, 7, 100, 101, 250: the statistics are the exact ones at every bin count (bin
    // centres would give min 3.5 at 32 bins, 18 at 7).
    void statisticsDoNotChangeWithTheBinCount() {
        Histogram values;
        for (const int grey : {3, 3, 7, 100, 101, 250}) {
            for (const Channel channel : {Channel::R, Channel::G, Channel::B, Channel::Luma})
                ++values[channel][static_cast<std::size_t>(grey)];
        }
        HistogramView view;
        view.setStatisticsChannel(Channel::Luma);
        for (const int bins : {256, 32, 100, 7}) {
            view.setHistogram(values, bins);
            QCOMPARE(view.histogram().bins, bins);
            QCOMPARE(labelText(view, "imageCount"), QStringLiteral("6"));
            QCOMPARE(labelText(view, "imageMean"), QStringLiteral("77.33"));  // 464 / 6
            QCOMPARE(labelText(view, "imageStdDev"),
                     QStringLiteral("88.40"));  // sqrt((82768 - 464² / 6) / 6)
            QCOMPARE(labelText(view, "imageMedian"), QStringLiteral("7.00"));
            QCOMPARE(labelText(view, "imageMode"), QStringLiteral("3.00"));
            QCOMPARE(labelText(view, "imageMin"), QStringLiteral("3.00"));
            QCOMPARE(labelText(view, "imageMax"), QStringLiteral("250.00"));
        }
        // A selection of bins describes the exact values in them: bins 0..3 of 7 are values 0..146.
        view.selectRange(0, 3);
        QCOMPARE(labelText(view, "selectionRange"), QStringLiteral("0–146"));
        QCOMPARE(labelText(view, "selectionCount"), QStringLiteral("5"));
        QCOMPARE(labelText(view, "selectionMax"), QStringLiteral("101.00"));
        QCOMPARE(labelText(view, "selectionMean"), QStringLiteral("42.80"));  // 214 / 5
    }

    // The value axis reaches past both ends, so bin 0 is not drawn under the count axis line and bin 255 not
    // under the frame.
    void firstAndLastBarsAreClearOfTheAxes() {
        HistogramView view;
        QVERIFY(test::showExposed(view, {900, 420}));
        view.setHistogram(everyValue(1), 256);
        view.plot()->replot();
        const QCPRange range = view.plot()->xAxis->range();
        QVERIFY2(range.lower < 0.0, qPrintable(QString::number(range.lower)));
        QVERIFY2(range.upper > 256.0, qPrintable(QString::number(range.upper)));
        const QRect axisRect = view.plot()->axisRect()->rect();
        QVERIFY(view.plot()->xAxis->coordToPixel(0.0) > axisRect.left() + 1);
        QVERIFY(view.plot()->xAxis->coordToPixel(256.0) < axisRect.right() - 1);
    }

    void channelTogglesShowAndHideGraphs() {
        HistogramView view;
        test::showBins(view, handMadeHistogram());
        view.setChannelVisible(Channel::G, false);
        QVERIFY(!graphNamed(view, "G")->visible());
        QVERIFY(graphNamed(view, "R")->visible());
        view.setChannelVisible(Channel::A, true);
        QVERIFY(graphNamed(view, "A")->visible());

        view.showRgbOverlay();
        for (const char* shown : {"R", "G", "B"}) QVERIFY2(graphNamed(view, shown)->visible(), shown);
        for (const char* hidden : {"A", "Luma"}) QVERIFY2(!graphNamed(view, hidden)->visible(), hidden);

        // The toggle buttons drive the same state.
        auto* lumaButton = view.findChild<QToolButton*>("channelLuma");
        QVERIFY(lumaButton);
        lumaButton->click();
        QVERIFY(view.channelVisible(Channel::Luma));
        QVERIFY(graphNamed(view, "Luma")->visible());
    }

    void dominantBinIsClippedByImageJsRule() {
        Histogram histogram(4);
        histogram[Channel::R] = {1000, 10, 20, 5};  // 1000 > 2 × 20: the axis ends at 1.5 × 20
        HistogramView view;
        view.showRgbOverlay();
        view.setChannelVisible(Channel::G, false);
        view.setChannelVisible(Channel::B, false);
        test::showBins(view, histogram);
        // Bins of 64 values: the drawn heights are the counts / 64.
        QVERIFY(view.clipDominant());
        QCOMPARE(view.plot()->yAxis->range().upper, 30.0 / 64);
        view.setClipDominant(false);
        QVERIFY(view.plot()->yAxis->range().upper >= 1000.0 / 64);

        // Without a dominant bin the rule changes nothing: 30 is not more than 2 × 20.
        histogram[Channel::R] = {30, 10, 20, 5};
        view.setClipDominant(true);
        test::showBins(view, histogram);
        QVERIFY(view.plot()->yAxis->range().upper >= 30.0 / 64);
    }

    void selectedRangeShowsHandComputedStatistics() {
        // Red (256 bins): 10, 10, 20, 40 and one 200.
        Histogram histogram(256);
        histogram[Channel::R][10] = 2;
        histogram[Channel::R][20] = 1;
        histogram[Channel::R][40] = 1;
        histogram[Channel::R][200] = 1;
        HistogramView view;
        test::showBins(view, histogram);
        view.setStatisticsChannel(Channel::R);
        QSignalSpy selected(&view, &HistogramView::rangeSelected);
        view.selectRange(45, 15);  // either order
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.first().at(0).toInt(), 15);
        QCOMPARE(selected.first().at(1).toInt(), 45);

        // Range 15..45 holds 20 and 40: count 2, mean 30, population std dev 10, median (rank 1) 20.
        const auto stats = view.selectionStatistics();
        QVERIFY(stats.has_value());
        QCOMPARE(stats->count, std::uint64_t{2});
        QCOMPARE(stats->mean, 30.0);
        QCOMPARE(labelText(view, "selectionCount"), QStringLiteral("2"));
        QCOMPARE(labelText(view, "selectionMean"), QStringLiteral("30.00"));
        QCOMPARE(labelText(view, "selectionStdDev"), QStringLiteral("10.00"));
        QCOMPARE(labelText(view, "selectionMedian"), QStringLiteral("20.00"));
        QCOMPARE(labelText(view, "selectionMode"), QStringLiteral("20.00"));
        QCOMPARE(labelText(view, "selectionMin"), QStringLiteral("20.00"));
        QCOMPARE(labelText(view, "selectionMax"), QStringLiteral("40.00"));
        QCOMPARE(labelText(view, "selectionPercentile"), QStringLiteral("40.00 %"));  // 2 of 5 pixels
        QCOMPARE(labelText(view, "selectionRange"), QStringLiteral("15–45"));

        // The whole image beside it: mean (10 + 10 + 20 + 40 + 200) / 5 = 56, median (rank 3) 20.
        QCOMPARE(labelText(view, "imageCount"), QStringLiteral("5"));
        QCOMPARE(labelText(view, "imageMean"), QStringLiteral("56.00"));
        QCOMPARE(labelText(view, "imageMedian"), QStringLiteral("20.00"));
        QCOMPARE(labelText(view, "imageMax"), QStringLiteral("200.00"));
        QCOMPARE(labelText(view, "imagePercentile"), QStringLiteral("100.00 %"));

        // Another channel: green is empty, so its values are dashes and its count 0.
        view.setStatisticsChannel(Channel::G);
        QCOMPARE(labelText(view, "selectionCount"), QStringLiteral("0"));
        QCOMPARE(labelText(view, "selectionMean"), QStringLiteral("–"));

        view.clearSelection();
        QVERIFY(!view.selectedRange());
        QCOMPARE(labelText(view, "selectionCount"), QStringLiteral("–"));
    }

    void draggingOverThePlotSelectsBins() {
        HistogramView view;
        QVERIFY(test::showExposed(view, {900, 420}));
        test::showBins(view, handMadeHistogram());
        view.plot()->replot();
        QSignalSpy selected(&view, &HistogramView::rangeSelected);
        const int y = view.plot()->axisRect()->center().y();
        QTest::mousePress(view.plot(), Qt::LeftButton, Qt::NoModifier, QPoint(pixelOfBin(view, 9, 16), y));
        QTest::mouseMove(view.plot(), QPoint(pixelOfBin(view, 6, 16), y));
        QTest::mouseMove(view.plot(), QPoint(pixelOfBin(view, 3, 16), y));
        QTest::mouseRelease(view.plot(), Qt::LeftButton, Qt::NoModifier, QPoint(pixelOfBin(view, 3, 16), y));
        QCOMPARE(selected.count(), 1);
        QCOMPARE(selected.first().at(0).toInt(), 3);
        QCOMPARE(selected.first().at(1).toInt(), 9);
        QVERIFY(view.selectedRange().has_value());
        QCOMPARE(view.selectedRange()->first, 3);
        QCOMPARE(view.selectedRange()->last, 9);
        QCOMPARE(labelText(view, "selectionRange"), QStringLiteral("48–159"));
    }

    void hoverReadsOutTheBinUnderThePointer() {
        HistogramView view;
        QVERIFY(test::showExposed(view, {900, 420}));
        view.showRgbOverlay();
        view.setChannelVisible(Channel::B, false);
        test::showBins(view, handMadeHistogram());
        view.plot()->replot();
        QTest::mouseMove(view.plot(), QPoint(pixelOfBin(view, 2, 16), view.plot()->axisRect()->center().y()));
        // Bin 2 holds values 32–47; R has 6 of 360 pixels (1.67 %), G 98 of 1480 (6.62 %).
        QCOMPARE(view.readout(), QStringLiteral("bin 2 · values 32–47 · R 6 (1.67 %) · G 98 (6.62 %)"));
        // Cumulative: everything up to value 47; R 0 + 3 + 6 = 9 of 360, G 100 + 99 + 98 = 297 of 1480.
        view.setCumulative(true);
        QCOMPARE(view.readout(), QStringLiteral("bin 2 · values ≤ 47 · R 9 (2.50 %) · G 297 (20.07 %)"));
    }

    void newDataKeepsTheDisplayStateAndMapsTheSelection() {
        HistogramView view;
        test::showBins(view, handMadeHistogram());
        view.setLogScale(true);
        view.setChannelVisible(Channel::R, false);
        view.selectRange(4, 7);  // values 64..127
        Histogram finer(256);
        finer[Channel::G][100] = 5;
        test::showBins(view, finer);
        QVERIFY(view.logScale());
        QVERIFY(!view.channelVisible(Channel::R));
        QCOMPARE(view.plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
        QCOMPARE(view.selectedRange()->first, 64);
        QCOMPARE(view.selectedRange()->last, 127);
        QCOMPARE(view.plottedValues(Channel::G).size(), 256);
    }

    // Not an assertion: the cost of one update on the GUI thread (new 256-bin data plus an immediate replot),
    // printed as min / median / max over 21 updates, for the responsiveness budget.
    void printsTheCostOfAnUpdate() {
        HistogramView view;
        QVERIFY(test::showExposed(view, {1000, 420}));
        Histogram histogram(256);
        std::vector<double> ms;
        for (int i = 0; i < 21; ++i) {
            for (auto& counts : histogram.counts)
                for (std::size_t bin = 0; bin < counts.size(); ++bin) counts[bin] = (bin * 37 + i * 11) % 997;
            QElapsedTimer timer;
            timer.start();
            test::showBins(view, histogram);
            view.plot()->replot(QCustomPlot::rpImmediateRefresh);
            ms.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
        }
        std::sort(ms.begin(), ms.end());
        qInfo("HistogramView update, 256 bins, 4 channels shown: min %.2f ms, median %.2f ms, max %.2f ms",
              ms.front(), ms[ms.size() / 2], ms.back());
    }

    void rendersForPeopleToLookAt() {
        Histogram histogram(256);
        // A smooth three-channel image with a dominant white background, the case the clip rule is for.
        for (int v = 0; v < 256; ++v) {
            const auto at = static_cast<std::size_t>(v);
            histogram[Channel::R][at] =
                static_cast<std::uint64_t>(2000 * std::exp(-std::pow((v - 90) / 30.0, 2)));
            histogram[Channel::G][at] =
                static_cast<std::uint64_t>(1500 * std::exp(-std::pow((v - 130) / 45.0, 2)));
            histogram[Channel::B][at] =
                static_cast<std::uint64_t>(1800 * std::exp(-std::pow((v - 170) / 25.0, 2)));
            histogram[Channel::A][at] = v == 255 ? 60000 : 0;
            histogram[Channel::Luma][at] =
                static_cast<std::uint64_t>(1700 * std::exp(-std::pow((v - 125) / 40.0, 2)));
        }
        histogram[Channel::R][255] += 20000;
        histogram[Channel::G][255] += 20000;
        histogram[Channel::B][255] += 20000;
        histogram[Channel::Luma][255] += 20000;
        HistogramView view;
        QVERIFY(test::showExposed(view, {1000, 420}));
        test::showBins(view, histogram);
        view.setStatisticsChannel(Channel::Luma);
        view.selectRange(60, 140);
        view.plot()->replot();
        QTest::mouseMove(view.plot(),
                         QPoint(pixelOfBin(view, 100, 256), view.plot()->axisRect()->center().y()));
        QVERIFY(view.grab().save(test::artifactPath(QStringLiteral("views_histogram.png"))));
        view.setLogScale(true);
        view.showRgbOverlay();
        view.plot()->replot();
        QVERIFY(view.grab().save(test::artifactPath(QStringLiteral("views_histogram_log_rgb.png"))));
        view.setLogScale(false);
        view.setCumulative(true);
        view.plot()->replot();
        QVERIFY(view.grab().save(test::artifactPath(QStringLiteral("views_histogram_cumulative.png"))));

        // A dark theme: the plot follows the palette, luma turns white.
        QPalette dark;
        dark.setColor(QPalette::Window, QColor(45, 45, 48));
        dark.setColor(QPalette::Base, QColor(30, 30, 32));
        dark.setColor(QPalette::WindowText, QColor(220, 220, 220));
        dark.setColor(QPalette::Text, QColor(220, 220, 220));
        dark.setColor(QPalette::Button, QColor(60, 60, 64));
        dark.setColor(QPalette::ButtonText, QColor(220, 220, 220));
        view.setPalette(dark);
        view.setCumulative(false);
        view.setChannelVisible(Channel::Luma, true);
        view.plot()->replot();
        QCOMPARE(view.plot()->xAxis->tickLabelColor(), QColor(220, 220, 220));
        QCOMPARE(graphNamed(view, "Luma")->pen().color(), QColor(220, 220, 220));
        QCOMPARE(view.plot()->toPixmap().toImage().pixelColor(2, 2), QColor(30, 30, 32));
        QVERIFY(view.grab().save(test::artifactPath(QStringLiteral("views_histogram_dark.png"))));
    }
};

QTEST_MAIN(HistogramViewTest)
#include "views_histogram_test.moc"
