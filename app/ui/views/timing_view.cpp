#include "ui/views/timing_view.hpp"

#include <qcustomplot.h>
#include <QBoxLayout>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <algorithm>
#include <array>

#include "engine/measure/measure.hpp"
#include "ui/model/run_model.hpp"
#include "ui/shell/app_settings.hpp"
#include "ui/views/plot_style.hpp"
#include "ui/views/view_helpers.hpp"

namespace hs::ui {

namespace {

constexpr double kNsPerMs = 1e6;
constexpr double kNsPerUs = 1e3;
constexpr int kCommandColumn = 1;

QString stageLabel(Stage stage) {
    return QString::fromLatin1(stageName(stage).data());
}

QColor stageColor(Stage stage) {
    return seriesColor(static_cast<int>(stage));
}

// Runs that measured the same thing: the same image at the same size through the same stages and parameters,
// on the same device with the same strategies. Their times are comparable with each other, not with another
// group's (a 768 × 512 image and a 4000 × 3000 one, a 3 × 3 box and a 15 × 15 Gaussian).
struct RunGroup {
    QString device;
    QString strategy;
    QString image;
    QSize size;
    QString spec;

    bool operator==(const RunGroup&) const = default;
    static RunGroup of(const TimingView::RunInfo& run) {
        return {run.device, run.strategy, run.image, run.size, run.spec};
    }
    // Device and strategy, then the image (its file name) and size, then the spec: what is empty is left out.
    QString label() const {
        QStringList parts;
        for (const QString& part : {device, strategy})
            if (!part.isEmpty()) parts << part;
        QString what = QFileInfo(image).fileName();
        if (!size.isEmpty())
            what = QStringLiteral("%1 %2×%3").arg(what).arg(size.width()).arg(size.height()).trimmed();
        if (!what.isEmpty()) parts << what;
        if (!spec.isEmpty()) parts << spec;
        return parts.join(QStringLiteral(" · "));
    }
};

// The groups of the kept runs in order of first appearance, and each run's index into them.
std::vector<RunGroup> groupsOf(const std::vector<TimingView::RunInfo>& runs, std::vector<int>& groupOfRun) {
    std::vector<RunGroup> groups;
    groupOfRun.clear();
    for (const auto& run : runs) {
        const RunGroup group = RunGroup::of(run);
        auto it = std::find(groups.begin(), groups.end(), group);
        if (it == groups.end()) it = groups.insert(groups.end(), group);
        groupOfRun.push_back(static_cast<int>(it - groups.begin()));
    }
    return groups;
}

// The kept durations of one command of one group, one entry per run that issued it.
struct CommandSeries {
    int group;
    Stage stage;
    std::string name;
    std::vector<int> runNumbers;
    std::vector<double> durationsMs;
};

// Group by group (in order of first appearance), each group's commands in order of first appearance.
std::vector<CommandSeries> seriesOf(const std::vector<std::vector<Timing>>& runs,
                                    const std::vector<TimingView::RunInfo>& info,
                                    const std::vector<int>& groupOfRun) {
    std::vector<CommandSeries> series;
    for (std::size_t run = 0; run < runs.size(); ++run) {
        const int group = groupOfRun[run];
        for (const Timing& timing : runs[run]) {
            auto it = std::find_if(series.begin(), series.end(), [&](const CommandSeries& s) {
                return s.group == group && s.stage == timing.stage && s.name == timing.name;
            });
            if (it == series.end())
                it = series.insert(series.end(), CommandSeries{group, timing.stage, timing.name, {}, {}});
            const double ms = static_cast<double>(timing.durationNs()) / kNsPerMs;
            if (!it->runNumbers.empty() && it->runNumbers.back() == info[run].number) {
                it->durationsMs.back() += ms;
            } else {
                it->runNumbers.push_back(info[run].number);
                it->durationsMs.push_back(ms);
            }
        }
    }
    std::stable_sort(series.begin(), series.end(),
                     [](const CommandSeries& a, const CommandSeries& b) { return a.group < b.group; });
    return series;
}

// The marker of a group's points in the rolling plot: the colour says which kernel, the shape which group.
QCPScatterStyle::ScatterShape groupShape(int group) {
    static constexpr std::array kShapes{QCPScatterStyle::ssCircle,   QCPScatterStyle::ssSquare,
                                        QCPScatterStyle::ssTriangle, QCPScatterStyle::ssDiamond,
                                        QCPScatterStyle::ssCross,    QCPScatterStyle::ssTriangleInverted,
                                        QCPScatterStyle::ssStar,     QCPScatterStyle::ssPlus};
    return kShapes[static_cast<std::size_t>(group) % kShapes.size()];
}

// A legend entry's picture: the kernel's line or the group's marker, as the plot draws them.
QIcon legendIcon(const QPen& pen, const QCPScatterStyle& marker) {
    QPixmap pixmap(22, 14);
    pixmap.fill(Qt::transparent);
    QCPPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    if (pen.style() != Qt::NoPen) {
        painter.setPen(pen);
        painter.drawLine(QLineF(1, 7, 21, 7));
    }
    if (!marker.isNone()) {
        marker.applyTo(&painter, pen);
        marker.drawShape(&painter, 11, 7);
    }
    return QIcon(pixmap);
}

constexpr Qt::Alignment kTextAlignment = Qt::AlignLeft | Qt::AlignVCenter;

QTableWidgetItem* stageCell(Stage stage) {
    auto* item = tableCell(stageLabel(stage), kTextAlignment);
    item->setForeground(stageColor(stage));
    return item;
}

// Every cell of a row tells the row's full command (or group) when hovered, so a cut-off name is never lost.
void setRowToolTip(QTableWidget* table, int row, const QString& toolTip) {
    for (int column = 0; column < table->columnCount(); ++column)
        if (QTableWidgetItem* item = table->item(row, column)) item->setToolTip(toolTip);
}

QTableWidget* commandTable(const QStringList& headers, QWidget* parent) {
    QTableWidget* table = readOnlyTable(headers, parent);
    // The command is what a row is read by: as wide as its names, the numbers beside it scrolling sideways
    // in a narrow dock. Stretched, it got what the numbers left, "upload…pixels" at 1280 px and "…" once the
    // Device column appeared.
    table->horizontalHeader()->setSectionResizeMode(kCommandColumn, QHeaderView::ResizeToContents);
    table->setTextElideMode(Qt::ElideMiddle);
    return table;
}

QString microseconds(double ns) {
    return QString::number(ns / kNsPerUs, 'f', 1);
}
QString milliseconds(double ms) {
    return QString::number(ms, 'f', 3);
}

}  // namespace

TimingView::TimingView(RunModel& model, QWidget* parent)
    : QWidget(parent), model_(model), plot_(new QCustomPlot(this)) {
    maxRuns_ = new QSpinBox(this);
    maxRuns_->setObjectName("maxRuns");
    maxRuns_->setRange(1, 10000);
    maxRuns_->setValue(model_.maxKeptRuns());
    maxRuns_->setPrefix(tr("keep last "));
    maxRuns_->setSuffix(tr(" runs"));
    connect(maxRuns_, &QSpinBox::valueChanged, &model_, &RunModel::setMaxKeptRuns);
    connect(&model_, &RunModel::keptRunsChanged, this, &TimingView::refresh);
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
    connect(clearButton, &QPushButton::clicked, &model_, &RunModel::clearKeptRuns);

    auto* controls = new QHBoxLayout;
    controls->addWidget(maxRuns_);
    controls->addWidget(clearButton);
    controls->addStretch(1);
    controls->addWidget(runRepeated_);
    controls->addWidget(repeatCount_);
    controls->addWidget(progress_, 1);
    controls->addWidget(cancel_);

    // A fixed minimum: QCustomPlot's own grows with its layout, and a dock's minimum becomes the window's.
    plot_->setMinimumSize(160, 120);
    plot_->yAxis->ticker()->setTickCount(4);  // few enough to read on a plot sharing its dock with two tables
    plot_->xAxis->setLabel(tr("run"));
    plot_->legend->setVisible(false);
    // The legend is a list under the plot, a few rows high, that flows its entries into rows and scrolls:
    // one more strategy, device or pipeline adds an entry, never height to the plot or width to the window.
    legend_ = new QListWidget(this);
    legend_->setObjectName("timingLegend");
    legend_->setFlow(QListView::LeftToRight);
    legend_->setWrapping(true);
    legend_->setResizeMode(QListView::Adjust);
    legend_->setTextElideMode(Qt::ElideMiddle);
    legend_->setSelectionMode(QAbstractItemView::NoSelection);
    legend_->setFocusPolicy(Qt::NoFocus);
    legend_->setFrameShape(QFrame::NoFrame);
    legend_->setIconSize(QSize(22, 14));
    legend_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    legend_->setFixedHeight(legend_->fontMetrics().height() * 3 + 12);
    auto* chart = new QWidget(this);
    auto* chartLayout = new QVBoxLayout(chart);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->setSpacing(0);
    chartLayout->addWidget(plot_, 1);
    chartLayout->addWidget(legend_);
    plot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerFixed>::create());
    plot_->xAxis->ticker()->setTickCount(8);
    qSharedPointerCast<QCPAxisTickerFixed>(plot_->xAxis->ticker())
        ->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);

    auto* lastRun = new QWidget(this);
    lastRunTitle_ = new QLabel(lastRun);
    lastRunTitle_->setObjectName("lastRunTitle");
    lastRunTitle_->setWordWrap(
        true);  // a long pipeline on two devices: its own lines, not the window's width
    lastRunTable_ =
        commandTable({tr("Stage"), tr("Command"), tr("Queued µs"), tr("Submit µs"), tr("Start µs"),
                      tr("End µs"), tr("Wait µs"), tr("Duration µs"), tr("Device")},
                     lastRun);
    lastRunTable_->setObjectName("lastRunTable");
    // The device's long name, as wide as its contents, left the command "…" once it appeared: it gets a
    // width of its own (elided; the title above names the devices in full) and the command the rest.
    constexpr int kDeviceColumn = 8;
    lastRunTable_->horizontalHeader()->setSectionResizeMode(kDeviceColumn, QHeaderView::Interactive);
    lastRunTable_->horizontalHeader()->resizeSection(kDeviceColumn, 120);
    lastRunTable_->setToolTip(
        tr("Times relative to the first command queued in the run, every device's clock mapped onto the "
           "host's; wait = start − queued"));
    stageTotals_ = new QLabel(lastRun);
    stageTotals_->setObjectName("stageTotals");
    stageTotals_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* lastRunLayout = new QVBoxLayout(lastRun);
    lastRunLayout->setContentsMargins(0, 0, 0, 0);
    lastRunLayout->addWidget(lastRunTitle_);
    lastRunLayout->addWidget(lastRunTable_, 1);
    lastRunLayout->addWidget(stageTotals_);

    summaryTable_ = commandTable(
        {tr("Stage"), tr("Command"), tr("Runs"), tr("Min ms"), tr("Median ms"), tr("Max ms")}, this);
    summaryTable_->setObjectName("summaryTable");
    summaryTable_->setToolTip(tr("Runs on another device or with another strategy are summarised apart"));

    // The tables take turns beside the plot, so each gets the dock's whole height: at the default window size
    // that is a dozen rows rather than three and a half under a plot.
    auto* tables = new QTabWidget(this);
    tables->setObjectName("timingTables");
    tables->addTab(lastRun, tr("Last run"));
    tables->addTab(summaryTable_, tr("Over the kept runs"));
    auto* body = stretchedSplitter(Qt::Horizontal, {{chart, 2}, {tables, 3}}, this);
    body->setSizes({2000, 3000});  // 2 : 3 from the start; the tables' wide size hint would squeeze the plot

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(body, 1);

    applyPlotStyle(plot_, palette());
    setProgress(0, 0);
    refresh();
}

void TimingView::setMaxRuns(int count) {
    maxRuns_->setValue(count);
}
int TimingView::maxRuns() const {
    return maxRuns_->value();
}

std::vector<TimingView::CommandSummary> TimingView::summaries() const {
    std::vector<int> groupOfRun;
    const std::vector<RunGroup> groups = groupsOf(runInfo_, groupOfRun);
    std::vector<CommandSummary> result;
    for (const CommandSeries& series : seriesOf(runs_, runInfo_, groupOfRun)) {
        const auto ms = measure::Summary::of(series.durationsMs);
        const RunGroup& group = groups[static_cast<std::size_t>(series.group)];
        result.push_back({group.device, group.strategy, group.label(), series.stage,
                          QString::fromStdString(series.name), static_cast<int>(series.durationsMs.size()),
                          ms.min, ms.median, ms.max});
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
    runs_.clear();
    runInfo_.clear();
    for (const io::RunTimings& run : model_.keptRuns()) {
        std::vector<Timing> records;
        RunInfo info{run.number,       run.strategy, {},
                     run.buildOptions, {},           run.mode,
                     run.overlapNs,    run.image,    QSize(run.width, run.height),
                     run.spec};
        for (const io::DeviceTimings& device : run.devices) {
            records.insert(records.end(), device.timings.begin(), device.timings.end());
            info.lanes.emplace_back(device.device, device.timings.size());
        }
        if (!info.lanes.empty()) info.device = info.lanes.front().first;
        runs_.push_back(std::move(records));
        runInfo_.push_back(std::move(info));
    }
    refreshPlot();
    refreshLastRunTable();
    refreshSummaryTable();
}

void TimingView::refreshPlot() {
    plot_->clearGraphs();
    std::vector<int> groupOfRun;
    const std::vector<RunGroup> groups = groupsOf(runInfo_, groupOfRun);
    std::vector<CommandSeries> kernels = seriesOf(runs_, runInfo_, groupOfRun);
    std::erase_if(kernels, [](const CommandSeries& s) { return s.stage != Stage::Kernel; });
    double longestMs = 0;
    for (const auto& series : kernels)
        longestMs =
            std::max(longestMs, *std::max_element(series.durationsMs.begin(), series.durationsMs.end()));
    // Microseconds while every kernel is under a millisecond, so the tick labels stay short.
    const bool inMicroseconds = longestMs < 1.0;
    const double scale = inMicroseconds ? 1000.0 : 1.0;
    // One graph per kernel and group: a kernel keeps its colour, a group its marker, and no line joins the
    // points of two devices or strategies. Once several groups are kept, the legend lists the kernels by
    // colour and the groups (device · strategy) by marker, through graphs without data.
    const bool grouped = groups.size() > 1;
    legend_->clear();
    const auto legendEntry = [this](const QString& name, const QString& toolTip, const QPen& pen,
                                    const QCPScatterStyle& marker) {
        auto* item = new QListWidgetItem(legendIcon(pen, marker), name, legend_);
        item->setToolTip(toolTip);
        item->setData(kLegendColorRole, pen.style() == Qt::NoPen ? marker.pen().color() : pen.color());
        item->setData(kLegendShapeRole, static_cast<int>(marker.shape()));
    };
    std::vector<std::string> kernelNames;
    for (const auto& series : kernels) {
        auto it = std::find(kernelNames.begin(), kernelNames.end(), series.name);
        const bool newKernel = it == kernelNames.end();
        if (newKernel) it = kernelNames.insert(kernelNames.end(), series.name);
        const QColor color = seriesColor(static_cast<int>(it - kernelNames.begin()));
        const QString name = QString::fromStdString(series.name);
        const QCPScatterStyle marker(groupShape(series.group), color, color, 6);
        if (newKernel)
            legendEntry(name, name, QPen(color, 1.5),
                        grouped ? QCPScatterStyle(QCPScatterStyle::ssNone) : marker);
        QCPGraph* graph = plot_->addGraph();
        graph->setName(grouped ? QStringLiteral("%1 — %2").arg(
                                     name, groups[static_cast<std::size_t>(series.group)].label())
                               : name);
        graph->setPen(QPen(color, 1.5));
        graph->setScatterStyle(marker);
        QVector<double> keys;
        QVector<double> values;
        for (std::size_t k = 0; k < series.runNumbers.size(); ++k) {
            keys.append(series.runNumbers[k]);
            values.append(series.durationsMs[k] * scale);
        }
        graph->setData(keys, values, true);
    }
    if (grouped) {
        const QColor text = palette().color(QPalette::WindowText);
        for (std::size_t group = 0; group < groups.size(); ++group)
            legendEntry(groups[group].label(), groups[group].label(), Qt::NoPen,
                        QCPScatterStyle(groupShape(static_cast<int>(group)), text, text, 6));
    }
    legend_->setVisible(!kernels.empty());
    plot_->yAxis->setLabel(inMicroseconds ? tr("kernel time (µs)") : tr("kernel time (ms)"));
    const double firstRun = runInfo_.empty() ? 1 : runInfo_.front().number;
    const double lastRun =
        std::max(firstRun + maxRuns() - 1, runInfo_.empty() ? 1.0 : runInfo_.back().number);
    plot_->xAxis->setRange(firstRun - 0.5, lastRun + 0.5);
    plot_->yAxis->setRange(0, longestMs > 0 ? longestMs * scale * 1.15 : 1.0);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void TimingView::refreshLastRunTable() {
    lastRunTable_->setRowCount(0);
    if (runs_.empty()) {
        lastRunTitle_->setText(tr("No run yet"));
        stageTotals_->clear();
        return;
    }
    const std::vector<Timing>& run = runs_.back();
    const RunInfo& info = runInfo_.back();
    QString devices;
    for (const auto& lane : info.lanes)
        if (!lane.first.isEmpty()) devices += (devices.isEmpty() ? tr(" on ") : tr(" and ")) + lane.first;
    QString pipelineText;
    if (!info.mode.isEmpty()) pipelineText += tr(", %1 mode").arg(info.mode);
    if (info.overlapNs)
        pipelineText +=
            tr(", overlap %1 ms").arg(milliseconds(static_cast<double>(*info.overlapNs) / kNsPerMs));
    lastRunTitle_->setText(
        tr("<b>#%1</b>: %2%3%4, %5 commands")
            .arg(info.number)
            .arg(info.strategy.toHtmlEscaped(), devices.toHtmlEscaped(), pipelineText.toHtmlEscaped())
            .arg(run.size()));
    // The device of each record, from the run's lanes.
    std::vector<QString> deviceOfRecord;
    for (const auto& [device, count] : info.lanes) deviceOfRecord.insert(deviceOfRecord.end(), count, device);
    // Every device's times on the host clock, from the run's first command: one origin whatever the clocks.
    const std::uint64_t origin = runOriginNs(run);
    const auto relative = [origin](std::uint64_t ns) {
        return static_cast<double>(ns - std::min(ns, origin));
    };
    lastRunTable_->setRowCount(static_cast<int>(run.size()));
    for (int row = 0; row < static_cast<int>(run.size()); ++row) {
        const Timing& timing = run[static_cast<std::size_t>(row)];
        lastRunTable_->setItem(row, 0, stageCell(timing.stage));
        const QString command = QString::fromStdString(timing.name);
        lastRunTable_->setItem(row, 1, tableCell(command, kTextAlignment));
        lastRunTable_->setItem(row, 2, tableCell(microseconds(relative(timing.hostQueuedNs()))));
        lastRunTable_->setItem(row, 3, tableCell(microseconds(relative(timing.hostSubmitNs()))));
        lastRunTable_->setItem(row, 4, tableCell(microseconds(relative(timing.hostStartNs()))));
        lastRunTable_->setItem(row, 5, tableCell(microseconds(relative(timing.hostEndNs()))));
        lastRunTable_->setItem(
            row, 6,
            tableCell(microseconds(relative(timing.hostStartNs()) - relative(timing.hostQueuedNs()))));
        lastRunTable_->setItem(row, 7, tableCell(microseconds(static_cast<double>(timing.durationNs()))));
        lastRunTable_->setItem(row, 8,
                               tableCell(deviceOfRecord[static_cast<std::size_t>(row)], kTextAlignment));
        setRowToolTip(lastRunTable_, row, command);
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
    summaryTable_->setRowCount(0);
    summaryTable_->clearSpans();
    const auto appendRow = [this] {
        summaryTable_->insertRow(summaryTable_->rowCount());
        return summaryTable_->rowCount() - 1;
    };
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const CommandSummary& summary = rows[i];
        // A heading row spanning the table starts each group: which device and strategy the times are from.
        if (i == 0 || summary.group != rows[i - 1].group) {
            const int row = appendRow();
            const QString& group = summary.group;
            auto* heading = tableCell(group, kTextAlignment);
            QFont bold = heading->font();
            bold.setBold(true);
            heading->setFont(bold);
            summaryTable_->setItem(row, 0, heading);
            summaryTable_->setSpan(row, 0, 1, summaryTable_->columnCount());
            setRowToolTip(summaryTable_, row, group);
        }
        const int row = appendRow();
        summaryTable_->setItem(row, 0, stageCell(summary.stage));
        summaryTable_->setItem(row, 1, tableCell(summary.name, kTextAlignment));
        summaryTable_->setItem(row, 2, tableCell(QString::number(summary.runs)));
        summaryTable_->setItem(row, 3, tableCell(milliseconds(summary.minMs)));
        summaryTable_->setItem(row, 4, tableCell(milliseconds(summary.medianMs)));
        summaryTable_->setItem(row, 5, tableCell(milliseconds(summary.maxMs)));
        setRowToolTip(summaryTable_, row, QStringLiteral("%1\n%2").arg(summary.name, summary.group));
    }
}

void TimingView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() != QEvent::PaletteChange) return;
    applyPlotStyle(plot_, palette());
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace hs::ui
