#include "ui/views/timeline_view.hpp"

#include <qcustomplot.h>
#include <QBoxLayout>
#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QMouseEvent>
#include <QPushButton>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "ui/model/run_model.hpp"
#include "ui/views/plot_style.hpp"

namespace hs::ui {

namespace {

// Hover finds a bar narrower than this many pixels as if it were this wide.
constexpr double kHoverSlackPixels = 3.0;
constexpr int kWaitQueuedAlpha = 70;
constexpr int kWaitSubmitAlpha = 130;
// The overlap of two devices' commands: a light band behind every lane, under the waits and the bars.
const QColor kOverlapFill(255, 200, 0, 60);

// Below 10 µs to the nanosecond, else to a tenth of a microsecond.
QString microsecondsText(double us) {
    return QStringLiteral("%1 µs").arg(us, 0, 'f', std::abs(us) < 10 ? 3 : 1);
}

QColor stageColor(Stage stage) {
    return seriesColor(static_cast<int>(stage));  // as the timing view colours its stages
}

QString runText(const io::RunTimings& run) {
    QStringList devices;
    for (const auto& device : run.devices)
        if (!device.device.isEmpty()) devices << device.device;
    QString text = devices.isEmpty() ? QStringLiteral("#%1: %2").arg(run.number).arg(run.strategy)
                                     : QStringLiteral("#%1: %2 on %3")
                                           .arg(run.number)
                                           .arg(run.strategy, devices.join(QStringLiteral(", ")));
    // What it measured, so that runs of two images or two filters can be told apart.
    if (run.width > 0)
        text += QStringLiteral(" — %1 %2×%3")
                    .arg(run.image.isEmpty() ? QString() : QFileInfo(run.image).fileName())
                    .arg(run.width)
                    .arg(run.height);
    if (!run.spec.isEmpty()) text += QStringLiteral(" — %1").arg(run.spec);
    return text;
}

QString barText(const io::TimelineBar& bar, const QString& lane) {
    QStringList lines{bar.name,
                      QStringLiteral("%1 · %2").arg(QString::fromLatin1(stageName(bar.stage).data()), lane),
                      QStringLiteral("queued %1 → submit %2 → start %3 → end %4")
                          .arg(microsecondsText(bar.queuedUs), microsecondsText(bar.submitUs),
                               microsecondsText(bar.startUs), microsecondsText(bar.endUs)),
                      QStringLiteral("duration %1 · wait %2 (queued → submit %3, submit → start %4)")
                          .arg(microsecondsText(bar.durationUs()), microsecondsText(bar.waitUs()),
                               microsecondsText(bar.submitUs - bar.queuedUs),
                               microsecondsText(bar.startUs - bar.submitUs))};
    if (!bar.buildOptions.isEmpty()) lines << QStringLiteral("build options: %1").arg(bar.buildOptions);
    return lines.join(QLatin1Char('\n'));
}

// A rectangle from `fromUs` to `toUs` around the lane's centre, named so that tests and people can find it.
QCPItemRect* laneRect(QCustomPlot* plot, const QString& name, int lane, double fromUs, double toUs,
                      double halfHeight, const QColor& fill, const QPen& pen) {
    auto* rect = new QCPItemRect(plot);
    rect->setObjectName(name);
    rect->setSelectable(false);
    rect->topLeft->setCoords(fromUs, lane - halfHeight);
    rect->bottomRight->setCoords(toUs, lane + halfHeight);
    rect->setBrush(fill);
    rect->setPen(pen);
    return rect;
}

}  // namespace

TimelineView::TimelineView(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
    runSelector_ = new QComboBox(this);
    runSelector_->setObjectName("timelineRun");
    // As wide as a run's number, strategies and device, not its whole spec: a long entry must not widen the
    // window (each entry's tooltip has it whole).
    runSelector_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    runSelector_->setMinimumContentsLength(48);
    runSelector_->setToolTip(tr("The run the timeline shows: the last one, or any kept run"));
    connect(runSelector_, &QComboBox::activated, this,
            [this](int index) { showRun(runSelector_->itemData(index).toInt()); });
    auto* runLabel = new QLabel(tr("Run "), this);
    runLabel->setBuddy(runSelector_);
    auto* fit = new QPushButton(tr("Fit"), this);
    fit->setToolTip(tr("Show the whole run (the wheel zooms, a drag pans, a shift-drag selects a range)"));
    connect(fit, &QPushButton::clicked, this, &TimelineView::fitRun);
    selectionLabel_ = new QLabel(this);
    selectionLabel_->setObjectName("timelineSelection");
    selectionLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* controls = new QHBoxLayout;
    controls->addWidget(runLabel);
    controls->addWidget(runSelector_);
    controls->addWidget(fit);
    controls->addWidget(selectionLabel_, 1);

    plot_->setMinimumHeight(120);
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->axisRect()->setRangeDrag(Qt::Horizontal);
    plot_->axisRect()->setRangeZoom(Qt::Horizontal);
    plot_->xAxis->setLabel(tr("time since the run's first queued command (µs)"));
    // Plain numbers rather than powers of ten, with the decimals the zoom calls for.
    plot_->xAxis->setNumberFormat(QStringLiteral("f"));
    connect(plot_->xAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this,
            [this](const QCPRange& range) {
                plot_->xAxis->setNumberPrecision(range.size() >= 20 ? 0 : range.size() >= 2 ? 1 : 3);
            });
    plot_->yAxis->setRangeReversed(true);  // the first lane on top
    plot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
    plot_->yAxis->grid()->setVisible(false);
    plot_->setMouseTracking(true);
    connect(plot_, &QCustomPlot::mousePress, this, &TimelineView::onMousePress);
    connect(plot_, &QCustomPlot::mouseMove, this, &TimelineView::onMouseMove);
    connect(plot_, &QCustomPlot::mouseRelease, this, &TimelineView::onMouseRelease);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(controls);
    layout->addWidget(plot_, 1);

    applyPlotStyle(plot_, palette());
    setRuns({});
}

void TimelineView::follow(const RunModel& model) {
    connect(&model, &RunModel::keptRunsChanged, this, [this, &model] { setRuns(model.keptRuns()); });
}

void TimelineView::setRuns(std::vector<io::RunTimings> runs) {
    const int wanted = followsLastRun_ ? 0 : shownRun();
    runs_ = std::move(runs);
    rebuildSelector();
    if (!showRun(wanted)) showRun(0);
}

bool TimelineView::showRun(int number) {
    const io::RunTimings* run = nullptr;
    if (number == 0) {
        if (!runs_.empty()) run = &runs_.back();
    } else {
        const auto it = std::find_if(runs_.begin(), runs_.end(),
                                     [number](const io::RunTimings& kept) { return kept.number == number; });
        if (it == runs_.end()) return false;
        run = &*it;
    }
    followsLastRun_ = number == 0;
    runSelector_->setCurrentIndex(std::max(0, runSelector_->findData(number)));
    // The same run again (its list was refreshed) keeps the zoom and the selection the user made.
    const bool sameRun = run && run->number == shownRun_;
    shownRun_ = run ? run->number : 0;
    timeline_ = run ? io::timelineOf(*run) : io::Timeline{};
    if (!sameRun) clearSelection();
    rebuildPlot();
    if (!sameRun) fitRun();
    return true;
}

void TimelineView::rebuildSelector() {
    runSelector_->clear();
    runSelector_->addItem(
        runs_.empty() ? tr("Last run (none yet)") : tr("Last run (#%1)").arg(runs_.back().number), 0);
    for (auto run = runs_.rbegin(); run != runs_.rend(); ++run) {
        runSelector_->addItem(runText(*run), run->number);
        runSelector_->setItemData(runSelector_->count() - 1, runText(*run), Qt::ToolTipRole);
    }
}

void TimelineView::rebuildPlot() {
    plot_->clearItems();
    selectionItem_ = nullptr;
    auto ticker = qSharedPointerCast<QCPAxisTickerText>(plot_->yAxis->ticker());
    ticker->clear();
    for (std::size_t lane = 0; lane < timeline_.lanes.size(); ++lane)
        ticker->addTick(static_cast<double>(lane), timeline_.lanes[lane]);

    // The overlap bands first: behind everything, across every lane.
    const auto overlaps = io::overlapUs(timeline_);
    const double laneMiddle = (static_cast<double>(timeline_.lanes.size()) - 1) / 2;
    const double laneHalfSpan = static_cast<double>(timeline_.lanes.size()) / 2;
    for (std::size_t i = 0; i < overlaps.size(); ++i) {
        auto* band = new QCPItemRect(plot_);
        band->setObjectName(QStringLiteral("overlap:%1").arg(i));
        band->setSelectable(false);
        band->topLeft->setCoords(overlaps[i].first, laneMiddle - laneHalfSpan);
        band->bottomRight->setCoords(overlaps[i].second, laneMiddle + laneHalfSpan);
        band->setBrush(kOverlapFill);
        band->setPen(Qt::NoPen);
    }
    // The waits first, so that the bars of the commands they waited for are drawn over them.
    for (std::size_t i = 0; i < timeline_.bars.size(); ++i) {
        const io::TimelineBar& bar = timeline_.bars[i];
        QColor queued = stageColor(bar.stage);
        queued.setAlpha(kWaitQueuedAlpha);
        QColor submitted = stageColor(bar.stage);
        submitted.setAlpha(kWaitSubmitAlpha);
        laneRect(plot_, QStringLiteral("wait-queued:%1").arg(i), bar.lane, bar.queuedUs, bar.submitUs,
                 kWaitHalfHeight, queued, Qt::NoPen);
        laneRect(plot_, QStringLiteral("wait-submit:%1").arg(i), bar.lane, bar.submitUs, bar.startUs,
                 kWaitHalfHeight, submitted, Qt::NoPen);
    }
    for (std::size_t i = 0; i < timeline_.bars.size(); ++i) {
        const io::TimelineBar& bar = timeline_.bars[i];
        const QColor color = stageColor(bar.stage);
        laneRect(plot_, QStringLiteral("bar:%1").arg(i), bar.lane, bar.startUs, bar.endUs, kBarHalfHeight,
                 color, QPen(color.darker(140), 1));
    }
    rebuildLegend();
    updateSelectionItem();
    plot_->yAxis->setRange(-0.5, std::max<double>(1, static_cast<double>(timeline_.lanes.size())) - 0.5);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::rebuildLegend() {
    // The bars are coloured by stage; the legend (shown in exports) names each stage's colour and the
    // commands drawn in it. Its entries are data-less graphs: QCustomPlot's legend lists plottables only.
    plot_->clearGraphs();
    std::vector<std::pair<Stage, QStringList>> stages;
    for (const io::TimelineBar& bar : timeline_.bars) {
        auto it = std::find_if(stages.begin(), stages.end(),
                               [&bar](const auto& entry) { return entry.first == bar.stage; });
        if (it == stages.end()) it = stages.insert(stages.end(), {bar.stage, {}});
        if (!it->second.contains(bar.name)) it->second << bar.name;
    }
    for (const auto& [stage, names] : stages) {
        QCPGraph* entry = plot_->addGraph();
        const QColor color = stageColor(stage);
        entry->setLineStyle(QCPGraph::lsNone);
        entry->setBrush(color);
        entry->setPen(QPen(color.darker(140), 1));
        entry->setName(QStringLiteral("%1: %2").arg(QString::fromLatin1(stageName(stage).data()),
                                                    names.join(QStringLiteral(", "))));
    }
}

void TimelineView::fitRun() {
    const double end = std::max(timeline_.endUs(), 1.0);
    plot_->xAxis->setRange(-0.02 * end, 1.02 * end);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

QString TimelineView::hoverTextAt(double timeUs, double lane) const {
    const int laneIndex = static_cast<int>(std::lround(lane));
    if (laneIndex < 0 || laneIndex >= static_cast<int>(timeline_.lanes.size())) return {};
    const double offset = std::abs(lane - laneIndex);
    const double pixels = std::max(1, plot_->axisRect()->width());
    const double slackUs = kHoverSlackPixels * plot_->xAxis->range().size() / pixels / 2;
    const QString& laneName = timeline_.lanes[static_cast<std::size_t>(laneIndex)];
    const auto inLane = [laneIndex](const io::TimelineBar& bar) { return bar.lane == laneIndex; };
    if (offset <= kBarHalfHeight) {
        for (const auto& bar : timeline_.bars)
            if (inLane(bar) && timeUs >= bar.startUs - slackUs && timeUs <= bar.endUs + slackUs)
                return barText(bar, laneName);
    }
    if (offset <= kWaitHalfHeight) {
        for (const auto& bar : timeline_.bars)
            if (inLane(bar) && timeUs >= bar.queuedUs && timeUs < bar.startUs)
                return tr("waiting: ") + barText(bar, laneName);
    }
    return {};
}

void TimelineView::selectRange(double fromUs, double toUs) {
    selection_ = std::minmax(fromUs, toUs);
    selectionLabel_->setText(selectionText());
    updateSelectionItem();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void TimelineView::clearSelection() {
    selection_.reset();
    selectionLabel_->setText(timeline_.bars.empty() ? QString() : tr("shift-drag to measure a range"));
    updateSelectionItem();
}

QString TimelineView::selectionText() const {
    if (!selection_) return {};
    const auto [from, to] = *selection_;
    const std::vector<double> busy = io::laneBusyUs(timeline_, from, to);
    QStringList lanes;
    double total = 0;
    for (std::size_t lane = 0; lane < busy.size(); ++lane) {
        lanes << QStringLiteral("%1 %2").arg(timeline_.lanes[lane], microsecondsText(busy[lane]));
        total += busy[lane];
    }
    return tr("%1 → %2 (%3): busy %4 in total — %5")
        .arg(microsecondsText(from), microsecondsText(to), microsecondsText(to - from),
             microsecondsText(total), lanes.join(QStringLiteral(", ")));
}

void TimelineView::updateSelectionItem() {
    if (!selection_) {
        if (selectionItem_) plot_->removeItem(selectionItem_);
        selectionItem_ = nullptr;
        return;
    }
    if (!selectionItem_) {
        selectionItem_ = new QCPItemRect(plot_);
        selectionItem_->setObjectName("selection");
        selectionItem_->setSelectable(false);
        markInteractionItem(selectionItem_);
        // Across the whole height of the plot, whatever lanes are in view.
        selectionItem_->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
        selectionItem_->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    QColor fill = palette().color(QPalette::Highlight);
    fill.setAlpha(50);
    selectionItem_->setBrush(fill);
    selectionItem_->setPen(QPen(palette().color(QPalette::Highlight), 1, Qt::DashLine));
    selectionItem_->topLeft->setCoords(selection_->first, 0);
    selectionItem_->bottomRight->setCoords(selection_->second, 1);
}

void TimelineView::onMousePress(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !(event->modifiers() & Qt::ShiftModifier)) return;
    // A shift-drag selects instead of panning; QCustomPlot asks for the interaction after this signal.
    plot_->setInteraction(QCP::iRangeDrag, false);
    dragStartUs_ = plot_->xAxis->pixelToCoord(event->position().x());
}

void TimelineView::onMouseMove(QMouseEvent* event) {
    const double timeUs = plot_->xAxis->pixelToCoord(event->position().x());
    if (dragStartUs_) {
        selectRange(*dragStartUs_, timeUs);
        return;
    }
    const QString text = hoverTextAt(timeUs, plot_->yAxis->pixelToCoord(event->position().y()));
    if (text.isEmpty())
        QToolTip::hideText();
    else
        QToolTip::showText(event->globalPosition().toPoint(), text, plot_);
}

void TimelineView::onMouseRelease(QMouseEvent* event) {
    if (!dragStartUs_) return;
    const double endUs = plot_->xAxis->pixelToCoord(event->position().x());
    if (endUs == *dragStartUs_) {
        clearSelection();
        plot_->replot(QCustomPlot::rpQueuedReplot);
    } else {
        selectRange(*dragStartUs_, endUs);
    }
    dragStartUs_.reset();
    plot_->setInteraction(QCP::iRangeDrag, true);
}

void TimelineView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() != QEvent::PaletteChange) return;
    applyPlotStyle(plot_, palette());
    updateSelectionItem();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

}  // namespace hs::ui
