#include "ui/timing_view.hpp"

#include <qcustomplot.h>
#include <QBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <algorithm>

#include "ui/app_settings.hpp"
#include "ui/plot_style.hpp"
#include "ui/view_helpers.hpp"

namespace hs::ui {

namespace {

constexpr int kDefaultMaxRuns = 50;
constexpr double kNsPerMs = 1e6;
constexpr double kNsPerUs = 1e3;
constexpr int kCommandColumn = 1;

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t middle = values.size() / 2;
    return values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

QString stageLabel(Stage stage) {
    return QString::fromLatin1(stageName(stage).data());
}

QColor stageColor(Stage stage) {
    return seriesColor(static_cast<int>(stage));
}

// The kept durations of one command, one entry per run that issued it.
struct CommandSeries {
    Stage stage;
    std::string name;
    std::vector<int> runNumbers;
    std::vector<double> durationsMs;
};

std::vector<CommandSeries> seriesOf(const std::vector<std::vector<Timing>>& runs,
                                    const std::vector<int>& runNumbers) {
    std::vector<CommandSeries> series;
    for (std::size_t run = 0; run < runs.size(); ++run) {
        for (const Timing& timing : runs[run]) {
            auto it = std::find_if(series.begin(), series.end(), [&](const CommandSeries& s) {
                return s.stage == timing.stage && s.name == timing.name;
            });
            if (it == series.end())
                it = series.insert(series.end(), CommandSeries{timing.stage, timing.name, {}, {}});
            const double ms = static_cast<double>(timing.durationNs()) / kNsPerMs;
            if (!it->runNumbers.empty() && it->runNumbers.back() == runNumbers[run]) {
                it->durationsMs.back() += ms;
            } else {
                it->runNumbers.push_back(runNumbers[run]);
                it->durationsMs.push_back(ms);
            }
        }
    }
    return series;
}

constexpr Qt::Alignment kTextAlignment = Qt::AlignLeft | Qt::AlignVCenter;

QTableWidgetItem* stageCell(Stage stage) {
    auto* item = tableCell(stageLabel(stage), kTextAlignment);
    item->setForeground(stageColor(stage));
    return item;
}

// A command's name, elided in the middle where the column is narrow: in full as the tooltip.
QTableWidgetItem* commandCell(const QString& name) {
    auto* item = tableCell(name, kTextAlignment);
    item->setToolTip(name);
    return item;
}

QTableWidget* commandTable(const QStringList& headers, QWidget* parent) {
    QTableWidget* table = readOnlyTable(headers, parent);
    table->horizontalHeader()->setSectionResizeMode(kCommandColumn, QHeaderView::Stretch);
    return table;
}

QString microseconds(double ns) {
    return QString::number(ns / kNsPerUs, 'f', 1);
}
QString milliseconds(double ms) {
    return QString::number(ms, 'f', 3);
}

}  // namespace

TimingView::TimingView(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
    maxRuns_ = new QSpinBox(this);
    maxRuns_->setObjectName("maxRuns");
    maxRuns_->setRange(1, 10000);
    maxRuns_->setValue(kDefaultMaxRuns);
    maxRuns_->setPrefix(tr("keep last "));
    maxRuns_->setSuffix(tr(" runs"));
    connect(maxRuns_, &QSpinBox::valueChanged, this, [this] {
        trimToMaxRuns();
        refresh();
    });
    repeatCount_ = new QSpinBox(this);
    repeatCount_->setObjectName("repeatCount");
    repeatCount_->setRange(1, AppSettings::kMaxRepeatCount);
    repeatCount_->setValue(AppSettings::kDefaultRepeatCount);
    repeatCount_->setToolTip(tr("How many times Run ×N repeats the current work (here and in the toolbar)"));
    connect(repeatCount_, &QSpinBox::valueChanged, this, &TimingView::repeatCountChanged);
    runRepeated_ = new QPushButton(tr("Run ×N"), this);
    runRepeated_->setObjectName("runRepeated");
    connect(runRepeated_, &QPushButton::clicked, this,
            [this] { emit runRepeatedRequested(repeatCount_->value()); });
    progress_ = new QProgressBar(this);
    progress_->setFormat(tr("%v / %m runs"));
    cancel_ = new QPushButton(tr("Cancel"), this);
    cancel_->setObjectName("cancelRepeated");
    connect(cancel_, &QPushButton::clicked, this, &TimingView::cancelRequested);
    auto* clearButton = new QPushButton(tr("Clear"), this);
    clearButton->setToolTip(tr("Forget the kept runs"));
    connect(clearButton, &QPushButton::clicked, this, &TimingView::clear);

    auto* controls = new QHBoxLayout;
    controls->addWidget(maxRuns_);
    controls->addWidget(clearButton);
    controls->addStretch(1);
    controls->addWidget(runRepeated_);
    controls->addWidget(repeatCount_);
    controls->addWidget(progress_, 1);
    controls->addWidget(cancel_);

    plot_->setMinimumHeight(170);
    plot_->yAxis->ticker()->setTickCount(4);  // few enough to read on a plot sharing its dock with two tables
    plot_->xAxis->setLabel(tr("run"));
    // The legend sits in its own column right of the axes, so it never hides the newest points.
    auto* legendColumn = new QCPLayoutGrid;
    plot_->plotLayout()->addElement(0, 1, legendColumn);
    plot_->plotLayout()->setColumnStretchFactor(1, 0.001);
    legendColumn->addElement(0, 0, plot_->legend);
    legendColumn->addElement(1, 0, new QCPLayoutElement(plot_));  // takes the height the legend does not need
    legendColumn->setRowStretchFactor(0, 0.001);
    legendColumn->setMargins(QMargins(0, 8, 8, 0));
    plot_->legend->setVisible(true);
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerFixed>::create());
    plot_->xAxis->ticker()->setTickCount(8);
    qSharedPointerCast<QCPAxisTickerFixed>(plot_->xAxis->ticker())
        ->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);

    auto* lastRun = new QWidget(this);
    lastRunTitle_ = new QLabel(lastRun);
    lastRunTable_ = commandTable({tr("Stage"), tr("Command"), tr("Queued µs"), tr("Submit µs"),
                                  tr("Start µs"), tr("End µs"), tr("Wait µs"), tr("Duration µs")},
                                 lastRun);
    lastRunTable_->setObjectName("lastRunTable");
    lastRunTable_->setToolTip(
        tr("Times relative to the first command queued in the run; wait = start − queued"));
    stageTotals_ = new QLabel(lastRun);
    stageTotals_->setObjectName("stageTotals");
    stageTotals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* lastRunLayout = new QVBoxLayout(lastRun);
    lastRunLayout->setContentsMargins(0, 0, 0, 0);
    lastRunLayout->addWidget(lastRunTitle_);
    lastRunLayout->addWidget(lastRunTable_, 1);
    lastRunLayout->addWidget(stageTotals_);

    auto* summary = new QWidget(this);
    auto* summaryTitle = new QLabel(tr("<b>Over the kept runs</b>"), summary);
    summaryTable_ = commandTable(
        {tr("Stage"), tr("Command"), tr("Runs"), tr("Min ms"), tr("Median ms"), tr("Max ms")}, summary);
    summaryTable_->setObjectName("summaryTable");
    auto* summaryLayout = new QVBoxLayout(summary);
    summaryLayout->setContentsMargins(0, 0, 0, 0);
    summaryLayout->addWidget(summaryTitle);
    summaryLayout->addWidget(summaryTable_, 1);

    auto* tables = stretchedSplitter(Qt::Horizontal, {{lastRun, 3}, {summary, 2}}, this);
    auto* body = stretchedSplitter(Qt::Vertical, {{plot_, 1}, {tables, 1}}, this);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(body, 1);

    applyPlotStyle(plot_, palette());
    setProgress(0, 0);
    refresh();
}

void TimingView::addRun(const std::vector<Timing>& timings, const QString& strategy) {
    runs_.push_back(timings);
    strategies_.push_back(strategy);
    runNumbers_.push_back(nextRunNumber_++);
    trimToMaxRuns();
    refresh();
}

void TimingView::clear() {
    runs_.clear();
    strategies_.clear();
    runNumbers_.clear();
    refresh();
}

void TimingView::setMaxRuns(int count) {
    maxRuns_->setValue(count);
}
int TimingView::maxRuns() const {
    return maxRuns_->value();
}

void TimingView::trimToMaxRuns() {
    if (runs_.size() <= static_cast<std::size_t>(maxRuns())) return;
    const auto excess = static_cast<std::ptrdiff_t>(runs_.size()) - maxRuns();
    runs_.erase(runs_.begin(), runs_.begin() + excess);
    strategies_.erase(strategies_.begin(), strategies_.begin() + excess);
    runNumbers_.erase(runNumbers_.begin(), runNumbers_.begin() + excess);
}

std::vector<TimingView::CommandSummary> TimingView::summaries() const {
    std::vector<CommandSummary> result;
    for (const CommandSeries& series : seriesOf(runs_, runNumbers_)) {
        const auto [lowest, highest] =
            std::minmax_element(series.durationsMs.begin(), series.durationsMs.end());
        result.push_back({series.stage, QString::fromStdString(series.name),
                          static_cast<int>(series.durationsMs.size()), *lowest, median(series.durationsMs),
                          *highest});
    }
    return result;
}

void TimingView::setProgress(int done, int total) {
    const bool running = total > 0;
    progress_->setVisible(running);
    cancel_->setVisible(running);
    runRepeated_->setEnabled(!running);
    if (!running) return;
    progress_->setRange(0, total);
    progress_->setValue(done);
}

int TimingView::repeatCount() const {
    return repeatCount_->value();
}

void TimingView::setRepeatCount(int count) {
    repeatCount_->setValue(count);
}

void TimingView::refresh() {
    refreshPlot();
    refreshLastRunTable();
    refreshSummaryTable();
    emit runsChanged();
}

void TimingView::refreshPlot() {
    plot_->clearGraphs();
    std::vector<CommandSeries> kernels = seriesOf(runs_, runNumbers_);
    std::erase_if(kernels, [](const CommandSeries& s) { return s.stage != Stage::Kernel; });
    double longestMs = 0;
    for (const auto& series : kernels)
        longestMs =
            std::max(longestMs, *std::max_element(series.durationsMs.begin(), series.durationsMs.end()));
    // Microseconds while every kernel is under a millisecond, so the tick labels stay short.
    const bool inMicroseconds = longestMs < 1.0;
    const double scale = inMicroseconds ? 1000.0 : 1.0;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
        QCPGraph* graph = plot_->addGraph();
        graph->setName(QString::fromStdString(kernels[i].name));
        const QColor color = seriesColor(static_cast<int>(i));
        graph->setPen(QPen(color, 1.5));
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color, color, 4));
        QVector<double> keys;
        QVector<double> values;
        for (std::size_t k = 0; k < kernels[i].runNumbers.size(); ++k) {
            keys.append(kernels[i].runNumbers[k]);
            values.append(kernels[i].durationsMs[k] * scale);
        }
        graph->setData(keys, values, true);
    }
    plot_->legend->setVisible(!kernels.empty());
    plot_->yAxis->setLabel(inMicroseconds ? tr("kernel time (µs)") : tr("kernel time (ms)"));
    const double firstRun = runNumbers_.empty() ? 1 : runNumbers_.front();
    const double lastRun = std::max(firstRun + maxRuns() - 1, runNumbers_.empty() ? 1.0 : runNumbers_.back());
    plot_->xAxis->setRange(firstRun - 0.5, lastRun + 0.5);
    plot_->yAxis->setRange(0, longestMs > 0 ? longestMs * scale * 1.15 : 1.0);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void TimingView::refreshLastRunTable() {
    lastRunTable_->setRowCount(0);
    if (runs_.empty()) {
        lastRunTitle_->setText(tr("<b>Last run</b> — none yet"));
        stageTotals_->clear();
        return;
    }
    const std::vector<Timing>& run = runs_.back();
    lastRunTitle_->setText(tr("<b>Last run</b> — #%1: %2, %3 commands")
                               .arg(runNumbers_.back())
                               .arg(strategies_.back().toHtmlEscaped())
                               .arg(run.size()));
    std::uint64_t origin = UINT64_MAX;
    for (const Timing& timing : run) origin = std::min(origin, timing.queuedNs);
    const auto relative = [origin](std::uint64_t ns) {
        return static_cast<double>(ns - std::min(ns, origin));
    };
    lastRunTable_->setRowCount(static_cast<int>(run.size()));
    for (int row = 0; row < static_cast<int>(run.size()); ++row) {
        const Timing& timing = run[static_cast<std::size_t>(row)];
        lastRunTable_->setItem(row, 0, stageCell(timing.stage));
        lastRunTable_->setItem(row, 1, commandCell(QString::fromStdString(timing.name)));
        lastRunTable_->setItem(row, 2, tableCell(microseconds(relative(timing.queuedNs))));
        lastRunTable_->setItem(row, 3, tableCell(microseconds(relative(timing.submitNs))));
        lastRunTable_->setItem(row, 4, tableCell(microseconds(relative(timing.startNs))));
        lastRunTable_->setItem(row, 5, tableCell(microseconds(relative(timing.endNs))));
        lastRunTable_->setItem(row, 6,
                               tableCell(microseconds(relative(timing.startNs) - relative(timing.queuedNs))));
        lastRunTable_->setItem(row, 7, tableCell(microseconds(static_cast<double>(timing.durationNs()))));
    }
    QStringList totals;
    for (const Stage stage : {Stage::Upload, Stage::Kernel, Stage::Readback, Stage::Interop, Stage::Other}) {
        const bool present = std::any_of(run.begin(), run.end(),
                                         [stage](const Timing& timing) { return timing.stage == stage; });
        if (!present) continue;
        totals.append(QStringLiteral("<span style='color:%1'>%2</span> %3 ms")
                          .arg(stageColor(stage).name(), stageLabel(stage),
                               milliseconds(static_cast<double>(totalNs(run, stage)) / kNsPerMs)));
    }
    stageTotals_->setText(tr("Totals: ") + totals.join(QStringLiteral(" · ")));
}

void TimingView::refreshSummaryTable() {
    const std::vector<CommandSummary> rows = summaries();
    summaryTable_->setRowCount(static_cast<int>(rows.size()));
    for (int row = 0; row < static_cast<int>(rows.size()); ++row) {
        const CommandSummary& summary = rows[static_cast<std::size_t>(row)];
        summaryTable_->setItem(row, 0, stageCell(summary.stage));
        summaryTable_->setItem(row, 1, commandCell(summary.name));
        summaryTable_->setItem(row, 2, tableCell(QString::number(summary.runs)));
        summaryTable_->setItem(row, 3, tableCell(milliseconds(summary.minMs)));
        summaryTable_->setItem(row, 4, tableCell(milliseconds(summary.medianMs)));
        summaryTable_->setItem(row, 5, tableCell(milliseconds(summary.maxMs)));
    }
}

void TimingView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() != QEvent::PaletteChange) return;
    applyPlotStyle(plot_, palette());
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace hs::ui
