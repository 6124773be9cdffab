#include "ui/views/diff_view.hpp"

#include <qcustomplot.h>
#include <QEvent>
#include <QFontMetrics>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "archive/export.hpp"
#include "ui/views/plot_style.hpp"
#include "ui/views/view_helpers.hpp"

namespace hs::ui {

namespace {

constexpr double kNsPerMs = 1e6;

QString idsText(const std::vector<std::int64_t>& ids) {
    QStringList parts;
    for (auto id : ids) parts << QString::number(id);
    return parts.join(QStringLiteral(", "));
}

QCPStatisticalBox* boxes(QCustomPlot* plot, const QColor& colour, const QString& name) {
    auto* box = new QCPStatisticalBox(plot->xAxis, plot->yAxis);
    box->setName(name);
    box->setWidth(0.32);
    box->setPen(QPen(colour.darker(130), 1.2));
    QColor fill = colour;
    fill.setAlpha(140);
    box->setBrush(fill);
    box->setMedianPen(QPen(colour.darker(170), 2));
    return box;
}

// One side's box at `key`: quartiles and whiskers at the nearest-rank percentiles of the diff (min, 25 %,
// median, 75 %, max), so the box and the table's medians come from one definition.
void addBox(QCPStatisticalBox* box, double key, std::vector<double> ns, double median) {
    if (ns.empty()) return;
    std::sort(ns.begin(), ns.end());
    const auto ms = [](double value) { return value / kNsPerMs; };
    box->addData(key, ms(ns.front()), ms(archive::percentile(ns, 0.25)), ms(median),
                 ms(archive::percentile(ns, 0.75)), ms(ns.back()));
}

}  // namespace

DiffView::DiffView(QWidget* parent) : QWidget(parent) {
    heading_ = new QLabel(tr("Select two runs (or two groups) in the History dock and press Diff."), this);
    heading_->setObjectName(QStringLiteral("diffHeading"));
    heading_->setWordWrap(true);
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("diffPlot"));
    plot_->yAxis->setLabel(tr("ms per repetition"));
    // The legend in a row of its own above the axes, where it covers no box.
    plot_->plotLayout()->insertRow(0);
    plot_->plotLayout()->addElement(0, 0, plot_->legend);
    plot_->plotLayout()->setRowStretchFactor(0, 0.001);
    plot_->legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    verdicts_ = readOnlyTable({tr("Scope"), tr("Name"), tr("Median A"), tr("Median B"), tr("Ratio B/A"),
                               tr("95 % interval"), tr("Verdict")},
                              this);
    verdicts_->setObjectName(QStringLiteral("diffVerdicts"));
    differences_ = readOnlyTable({tr("What differs"), tr("A"), tr("B")}, this);
    differences_->setObjectName(QStringLiteral("diffDifferences"));
    // The dock is wide and short (a tab of the bottom area): the plot beside the tables gets the dock's whole
    // height, and never less than its vertical axis title needs.
    auto* tables = stretchedSplitter(Qt::Vertical, {{verdicts_, 3}, {differences_, 2}}, this);
    auto* body = stretchedSplitter(Qt::Horizontal, {{plot_, 2}, {tables, 3}}, this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(heading_);
    layout->addWidget(body, 1);
    applyPlotStyle(plot_, palette());
    fitAxisTitle();
}

void DiffView::fitAxisTitle() {
    // The title runs along the axis: the axis rect must be at least as tall, and the x axis's slanted names
    // and the margins come on top.
    const QFontMetrics title(plot_->yAxis->labelFont());
    plot_->setMinimumHeight(title.horizontalAdvance(plot_->yAxis->label()) + 6 * title.height());
    // Beside the tables, which would take every pixel they can show columns in: room for a few boxes.
    plot_->setMinimumWidth(24 * title.height());
}

void DiffView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::PaletteChange) {
        applyPlotStyle(plot_, palette());
        fitAxisTitle();
        refreshPlot();
    }
    QWidget::changeEvent(event);
}

QString DiffView::sidesText() const {
    if (!diff_) return {};
    const auto side = [](const std::vector<std::int64_t>& ids) {
        return (ids.size() == 1 ? tr("run %1") : tr("runs %1")).arg(idsText(ids));
    };
    return tr("A: %1 vs B: %2").arg(side(diff_->idsA), side(diff_->idsB));
}

void DiffView::showDiff(archive::Diff diff, std::vector<archive::Record> a, std::vector<archive::Record> b) {
    diff_ = std::move(diff);
    a_ = std::move(a);
    b_ = std::move(b);
    const auto describe = [](const std::vector<archive::Record>& runs) {
        const archive::Record& first = runs.front();
        return QStringLiteral("%1 on %2")
            .arg(QString::fromStdString(first.strategies()), QString::fromStdString(first.device));
    };
    heading_->setText(tr("%1 — A: %2; B: %3").arg(sidesText(), describe(a_), describe(b_)));
    refreshPlot();
    refreshTables();
    emit diffShown();
}

void DiffView::refreshPlot() {
    plot_->clearPlottables();
    plotted_.clear();
    plot_->legend->setVisible(diff_.has_value());  // an empty legend is a stray box
    if (!diff_) {
        plot_->replot();
        return;
    }
    auto* sideA = boxes(plot_, seriesColor(0), tr("A"));
    auto* sideB = boxes(plot_, seriesColor(1), tr("B"));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    double top = 0;
    for (const archive::TimeComparison& time : diff_->times) {
        // Kernels and the total: a stage's time repeats its kernels' with the transfers added.
        if (time.scope == "stage") continue;
        const double key = plotted_.size();
        addBox(sideA, key - 0.2, time.a, time.summaryA.median);
        addBox(sideB, key + 0.2, time.b, time.summaryB.median);
        top = std::max(
            {top, time.a.empty() ? 0.0 : time.summaryA.max, time.b.empty() ? 0.0 : time.summaryB.max});
        const QString name = QString::fromStdString(time.name);
        // Under the box the kernel alone ("reduce_partials"): the table names its stage.
        ticker->addTick(key, name.section(QStringLiteral(": "), -1));
        plotted_ << name;
    }
    plot_->xAxis->setTicker(ticker);
    // Kernel names are long ("histogram: reduce_partials"): slanted as soon as they are more than two.
    plot_->xAxis->setTickLabelRotation(plotted_.size() > 2 ? -30 : 0);
    plot_->xAxis->setRange(-0.6, std::max<double>(0.6, plotted_.size() - 0.4));
    plot_->yAxis->setRange(0, top > 0 ? top / kNsPerMs * 1.15 : 1.0);
    plot_->replot();
}

void DiffView::refreshTables() {
    verdicts_->setRowCount(0);
    differences_->setRowCount(0);
    if (!diff_) return;
    const auto ms = [](const std::vector<double>& values, double median) {
        return values.empty() ? QStringLiteral("—") : millisecondsText(median / kNsPerMs);
    };
    verdicts_->setRowCount(static_cast<int>(diff_->times.size()));
    for (int row = 0; row < verdicts_->rowCount(); ++row) {
        const archive::TimeComparison& time = diff_->times[static_cast<std::size_t>(row)];
        const bool judged = !time.a.empty() && !time.b.empty();
        const bool interval = judged && time.verdict != archive::Verdict::TooFewSamples;
        verdicts_->setItem(row, 0, tableCell(QString::fromStdString(time.scope), Qt::AlignLeft));
        verdicts_->setItem(row, 1, tableCell(QString::fromStdString(time.name), Qt::AlignLeft));
        verdicts_->setItem(row, 2, tableCell(ms(time.a, time.summaryA.median)));
        verdicts_->setItem(row, 3, tableCell(ms(time.b, time.summaryB.median)));
        verdicts_->setItem(row, 4,
                           tableCell(judged ? QString::number(time.ratio, 'f', 3) : QStringLiteral("—")));
        verdicts_->setItem(row, 5,
                           tableCell(interval ? QStringLiteral("%1 – %2")
                                                    .arg(time.interval.low, 0, 'f', 3)
                                                    .arg(time.interval.high, 0, 'f', 3)
                                              : QStringLiteral("—")));
        auto* verdict = tableCell(QString::fromUtf8(archive::verdictText(time.verdict)), Qt::AlignLeft);
        if (time.verdict == archive::Verdict::Slower) verdict->setForeground(QColor(200, 40, 40));
        if (time.verdict == archive::Verdict::Faster) verdict->setForeground(QColor(30, 150, 60));
        verdicts_->setItem(row, 6, verdict);
    }
    const auto addDifference = [this](const QString& what, const QString& a, const QString& b) {
        const int row = differences_->rowCount();
        differences_->insertRow(row);
        differences_->setItem(row, 0, tableCell(what, Qt::AlignLeft));
        differences_->setItem(row, 1, tableCell(a, Qt::AlignLeft));
        differences_->setItem(row, 2, tableCell(b, Qt::AlignLeft));
    };
    for (const archive::Difference& difference : diff_->differences)
        addDifference(QString::fromStdString(difference.what), QString::fromStdString(difference.a),
                      QString::fromStdString(difference.b));
    for (const archive::BinDifference& bin : diff_->bins)
        addDifference(tr("%1 bin %2").arg(QString::fromStdString(bin.channel)).arg(bin.bin),
                      QString::number(bin.a), QString::number(bin.b));
    if (diff_->pixels && !(diff_->pixels->compared && diff_->pixels->differing == 0)) {
        // "output pixels: 2 of 48 differ, ..." without its name, which the first column gives.
        const QString text = QString::fromStdString(archive::pixelsText(*diff_->pixels));
        addDifference(tr("output pixels"), text.section(QStringLiteral(": "), 1), {});
    }
    if (differences_->rowCount() == 0) addDifference(tr("nothing else differs"), {}, {});
    verdicts_->resizeColumnsToContents();
    differences_->resizeColumnsToContents();
}

}  // namespace hs::ui
