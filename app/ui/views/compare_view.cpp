#include "ui/views/compare_view.hpp"

#include <qcustomplot.h>
#include <QBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <algorithm>
#include <cmath>

#include "ui/views/plot_style.hpp"
#include "ui/views/view_helpers.hpp"

namespace hs::ui {

namespace {

bool supported(const CompareView::Entry& entry) {
    return entry.unsupportedReason.isEmpty();
}

QString orDash(double value, const QString& text) {
    return std::isfinite(value) && value > 0 ? text : QStringLiteral("–");
}

QString speedupText(double speedup) {
    return orDash(speedup, QString::number(speedup, 'f', 2) + QStringLiteral("×"));
}
QString bandwidthText(double gbPerS) {
    return orDash(gbPerS, QString::number(gbPerS, 'f', 2));
}

}  // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
    repetitions_ = new QSpinBox(this);
    repetitions_->setObjectName("repetitions");
    repetitions_->setRange(1, 1000);
    repetitions_->setValue(10);
    repetitions_->setPrefix(tr("repetitions: "));
    repetitions_->setToolTip(tr("Timed runs per strategy after an untimed warm-up"));
    compare_ = new QPushButton(tr("Compare"), this);
    compare_->setObjectName("compare");
    compare_->setToolTip(tr("Run every supported strategy on the current image and device"));
    connect(compare_, &QPushButton::clicked, this, [this] { emit compareRequested(repetitions_->value()); });
    auto* controls = new QHBoxLayout;
    controls->addWidget(compare_);
    controls->addWidget(repetitions_);
    controls->addStretch(1);

    plot_->setMinimumHeight(230);  // bars, their two-line labels and slanted strategy names
    plot_->yAxis->setLabel(tr("median kernel time (ms)"));
    plot_->xAxis->grid()->setVisible(false);

    table_ = readOnlyTable(
        {tr("Strategy"), tr("Median ms"), tr("Min ms"), tr("Max ms"), tr("GB/s"), tr("Speed-up"), tr("Note")},
        this);
    table_->setObjectName("compareTable");
    table_->horizontalHeaderItem(5)->setToolTip(
        tr("Median time of serial divided by this strategy's median"));
    table_->horizontalHeaderItem(4)->setToolTip(tr("Image bytes read per second of median kernel time"));
    table_->horizontalHeader()->setStretchLastSection(true);

    emptyState_ = new QLabel(
        tr("<b>Compare the histogram strategies.</b> Compare runs every strategy the device supports on the "
           "current image, each the chosen number of repetitions after an untimed warm-up, and shows their "
           "median kernel times here as bars (min–max whiskers), with GB/s and the speed-up over serial. "
           "Press <b>Compare</b> above (or Run ▸ Compare) to measure the open image."),
        this);
    emptyState_->setObjectName("compareEmptyState");
    emptyState_->setWordWrap(true);
    emptyState_->setTextFormat(Qt::RichText);

    body_ = stretchedSplitter(Qt::Vertical, {{plot_, 3}, {table_, 2}}, this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(emptyState_, 1, Qt::AlignTop);
    layout->addWidget(body_, 1);

    applyPlotStyle(plot_, palette());
    setEntries({});
}

void CompareView::showComparison(const measure::Comparison& comparison) {
    constexpr double kNsPerMs = 1e6;
    QVector<Entry> rows;
    for (const auto& measured : comparison.strategies) {
        Entry row{QString::fromStdString(measured.strategy),
                  QString::fromStdString(measured.unsupported),
                  0,
                  0,
                  0,
                  measured.gbps,
                  measured.ratioToBaseline.value_or(std::nan(""))};
        if (!measured.ranAs.empty()) row.strategy += " → " + QString::fromStdString(measured.ranAs);
        if (measured.kernel) {
            row.minMs = measured.kernel->min / kNsPerMs;
            row.medianMs = measured.kernel->median / kNsPerMs;
            row.maxMs = measured.kernel->max / kNsPerMs;
        }
        rows.append(row);
    }
    setEntries(std::move(rows));
}

void CompareView::clear() {
    setEntries({});
}

void CompareView::setEntries(QVector<Entry> entries) {
    entries_ = std::move(entries);
    // Until a comparison, the text instead of an empty plot and table.
    emptyState_->setVisible(entries_.isEmpty());
    body_->setVisible(!entries_.isEmpty());
    refreshPlot();
    refreshTable();
}

QStringList CompareView::plottedStrategies() const {
    return plotted_;
}

void CompareView::refreshPlot() {
    plot_->clearPlottables();
    plot_->clearItems();
    plotted_.clear();
    auto* bars = new QCPBars(plot_->xAxis, plot_->yAxis);
    bars->setWidth(0.6);
    const QColor barColor = seriesColor(0);
    bars->setPen(QPen(barColor.darker(130), 1));
    QColor fill = barColor;
    fill.setAlpha(170);
    bars->setBrush(fill);
    auto* whiskers = new QCPErrorBars(plot_->xAxis, plot_->yAxis);
    whiskers->setDataPlottable(bars);
    whiskers->setPen(QPen(palette().color(QPalette::WindowText), 1.2));
    whiskers->setWhiskerWidth(10);

    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> keys;
    QVector<double> medians;
    QVector<double> below;
    QVector<double> above;
    double top = 0;
    for (const Entry& entry : entries_) {
        if (!supported(entry)) continue;
        const double key = static_cast<double>(keys.size());
        keys.append(key);
        medians.append(entry.medianMs);
        below.append(std::max(0.0, entry.medianMs - entry.minMs));
        above.append(std::max(0.0, entry.maxMs - entry.medianMs));
        ticker->addTick(key, entry.strategy);
        plotted_.append(entry.strategy);
        top = std::max(top, entry.maxMs);

        auto* label = new QCPItemText(plot_);
        label->position->setCoords(key, std::max(entry.maxMs, entry.medianMs));
        label->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
        label->setTextAlignment(Qt::AlignCenter);
        label->setPadding(QMargins(0, 0, 0, 4));
        label->setColor(palette().color(QPalette::WindowText));
        label->setText(QStringLiteral("%1\n%2 GB/s · %3")
                           .arg(millisecondsText(entry.medianMs), bandwidthText(entry.gbPerS),
                                speedupText(entry.speedupOverSerial)));
    }
    bars->setData(keys, medians, true);
    whiskers->setData(below, above);
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setTickLabelRotation(keys.size() > 5 ? -30 : 0);
    plot_->xAxis->setRange(-0.6, std::max(0.6, keys.size() - 0.4));
    // Room above the tallest whisker for its two-line label.
    plot_->yAxis->setRange(0, top > 0 ? top * 1.35 : 1.0);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void CompareView::refreshTable() {
    table_->setRowCount(static_cast<int>(entries_.size()));
    double fastest = INFINITY;
    for (const Entry& entry : entries_)
        if (supported(entry)) fastest = std::min(fastest, entry.medianMs);
    const QColor muted = palette().color(QPalette::Disabled, QPalette::WindowText);
    for (int row = 0; row < static_cast<int>(entries_.size()); ++row) {
        const Entry& entry = entries_[row];
        const bool ran = supported(entry);
        const auto number = [ran](double ms) {
            return ran ? QString::number(ms, 'f', 3) : QStringLiteral("–");
        };
        const QList<QTableWidgetItem*> items{
            tableCell(entry.strategy, Qt::AlignLeft | Qt::AlignVCenter),
            tableCell(number(entry.medianMs)),
            tableCell(number(entry.minMs)),
            tableCell(number(entry.maxMs)),
            tableCell(ran ? bandwidthText(entry.gbPerS) : QStringLiteral("–")),
            tableCell(ran ? speedupText(entry.speedupOverSerial) : QStringLiteral("–")),
            tableCell(ran ? (entry.medianMs == fastest ? tr("fastest") : QString())
                          : tr("unsupported: %1").arg(entry.unsupportedReason),
                      Qt::AlignLeft | Qt::AlignVCenter)};
        for (int column = 0; column < items.size(); ++column) {
            QTableWidgetItem* item = items[column];
            if (!ran) item->setForeground(muted);
            if (ran && entry.medianMs == fastest) {
                QFont bold = item->font();
                bold.setBold(true);
                item->setFont(bold);
            }
            if (!ran) item->setToolTip(entry.unsupportedReason);
            table_->setItem(row, column, item);
        }
    }
}

void CompareView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() != QEvent::PaletteChange) return;
    applyPlotStyle(plot_, palette());
    refreshPlot();
    refreshTable();
}

}  // namespace hs::ui
