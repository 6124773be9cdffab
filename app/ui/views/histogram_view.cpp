#include "ui/views/histogram_view.hpp"

#include <qcustomplot.h>
#include <QBoxLayout>
#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QToolButton>
#include <algorithm>
#include <cmath>
#include <numeric>

#include "ui/model/run_model.hpp"
#include "ui/views/plot_style.hpp"

namespace hs::ui {

using histogram::BinRange;
using histogram::Channel;
using histogram::Statistics;

namespace {

constexpr double kValueAxisEnd = 256.0;
// Air on both sides of the value axis, so that the first and last bars are not hidden under the axis lines.
constexpr double kValueAxisMargin = 4.0;

// ImageJ's rule (ij.gui.HistogramWindow): when the tallest bin holds more than twice as many pixels as the
// second tallest, the count axis ends at 1.5 × the second tallest, so one dominant bin (a white background,
// say) does not flatten the rest; the clipped bin runs off the top.
constexpr const char* kClipRuleText =
    "Clip a dominant bin (ImageJ's rule): when the tallest bin of a shown channel holds more than twice the "
    "count of its second tallest, the count axis ends at 1.5 × the second tallest.";

double countAxisCeiling(const QVector<double>& heights, bool clipDominant) {
    double tallest = 0;
    double second = 0;
    for (const auto count : heights) {
        if (count > tallest) {
            second = tallest;
            tallest = count;
        } else if (count > second) {
            second = count;
        }
    }
    if (clipDominant && second > 0 && tallest > 2 * second) return 1.5 * second;
    return tallest;
}

std::size_t indexOf(Channel channel) {
    return static_cast<std::size_t>(channel);
}

QString channelLabel(Channel channel) {
    return channel == Channel::Luma ? QStringLiteral("Luma")
                                    : QString::fromLatin1(histogram::channelName(channel).data()).toUpper();
}

// Where a bin's bar starts on the value axis: at its lowest value, so that a bar covers exactly the values it
// counts (bins of 100 are 2 or 3 values wide); bin `bins` is the axis end.
double lowerEdge(int bin, int bins) {
    return bin == bins ? kValueAxisEnd : histogram::binValues(bin, bins).lower;
}

// The number of 8-bit values a bin spans: 256 / bins when that divides, else 2 or 3 for 100 bins, say.
int valuesIn(int bin, int bins) {
    const auto values = histogram::binValues(bin, bins);
    return values.upper - values.lower + 1;
}

QString formatValue(double value) {
    return std::isnan(value) ? QStringLiteral("–") : QString::number(value, 'f', 2);
}

QIcon swatch(const QColor& color) {
    QPixmap pixmap(12, 12);
    pixmap.fill(color);
    return QIcon(pixmap);
}

// The rows of the statistics panel, in the order statisticTexts() fills them. `key` names the value labels
// ("selectionMean", "imageMean") for tests and accessibility.
struct StatisticRow {
    const char* name;
    const char* key;
    const char* tip;
};
constexpr const char* kValueTip = "From the exact 8-bit values of the pixels, whatever the bin count.";
const std::array<StatisticRow, 8> kStatisticRows{{
    {"Count", "Count", "Pixels in the range"},
    {"Mean", "Mean", kValueTip},
    {"Std dev", "StdDev", "Population standard deviation (the histogram holds every pixel)"},
    {"Median", "Median", "By cumulative count: the lower median"},
    {"Mode", "Mode", "The most frequent value (the lowest on ties)"},
    {"Min", "Min", kValueTip},
    {"Max", "Max", kValueTip},
    {"Percentile", "Percentile",
     "Share of the channel's pixels that lie in the range: 100 × count / all pixels"},
}};

QStringList statisticTexts(const std::optional<Statistics>& stats) {
    if (!stats) return QStringList(static_cast<int>(kStatisticRows.size()), QStringLiteral("–"));
    return {QString::number(stats->count), formatValue(stats->mean),
            formatValue(stats->stdDev),    formatValue(stats->median),
            formatValue(stats->mode),      formatValue(stats->min),
            formatValue(stats->max),       QString::number(stats->percentOfChannel, 'f', 2) + " %"};
}

}  // namespace

// The hover read-out: one line whose size hints never depend on its text, so that the read-out appearing,
// changing and going as the pointer moves resizes nothing (not the plot, the statistics beside it, the dock
// or the image view beside the dock). The text shows elided to the width the layout gives; in full as
// tooltip.
class ReadoutLabel final : public QLabel {
  public:
    explicit ReadoutLabel(QWidget* parent) : QLabel(parent) {
        setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
        setTextInteractionFlags(Qt::TextSelectableByMouse);
        showText();
    }
    QSize sizeHint() const override { return {0, fontMetrics().height()}; }
    QSize minimumSizeHint() const override { return sizeHint(); }

    const QString& fullText() const { return fullText_; }
    void setFullText(const QString& text) {
        fullText_ = text;
        showText();
    }

  protected:
    void resizeEvent(QResizeEvent* event) override {
        QLabel::resizeEvent(event);
        showText();
    }

  private:
    void showText() {
        setText(fontMetrics().elidedText(fullText_, Qt::ElideRight, width()));
        setToolTip(
            text() == fullText_
                ? HistogramView::tr(
                      "Point at the plot to read a bin; drag to select a range; double-click clears it.")
                : fullText_);
    }

    QString fullText_;
};

HistogramView::HistogramView(QWidget* parent) : QWidget(parent), plot_(new QCustomPlot(this)) {
    auto* toolbar = new QWidget(this);
    buildToolbar(toolbar);

    plot_->setMouseTracking(true);
    plot_->setMinimumSize(320, 200);
    plot_->xAxis->setRange(-kValueAxisMargin, kValueAxisEnd + kValueAxisMargin);
    plot_->xAxis->setLabel(tr("value (8-bit)"));
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(32);
    plot_->xAxis->setTicker(ticker);
    for (const Channel channel : histogram::kChannels) {
        QCPGraph* graph = plot_->addGraph();
        graph->setName(channelLabel(channel));
        graph->setLineStyle(QCPGraph::lsStepLeft);
        // Steps are axis-aligned, so antialiasing the fill only blurs their edges; with it off and a
        // one-pixel pen (Qt's fast path) an update of 256 bins costs ~3 ms instead of ~20 ms on the GUI
        // thread.
        graph->setAntialiasedFill(false);
        graphs_[indexOf(channel)] = graph;
    }
    selectionRect_ = new QCPItemRect(plot_);
    selectionRect_->topLeft->setTypeX(QCPItemPosition::ptPlotCoords);
    selectionRect_->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    selectionRect_->bottomRight->setTypeX(QCPItemPosition::ptPlotCoords);
    selectionRect_->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    selectionRect_->setPen(Qt::NoPen);
    selectionRect_->setVisible(false);
    markInteractionItem(selectionRect_);
    connect(plot_, &QCustomPlot::mousePress, this, &HistogramView::onMousePress);
    connect(plot_, &QCustomPlot::mouseMove, this, &HistogramView::onMouseMove);
    connect(plot_, &QCustomPlot::mouseRelease, this, &HistogramView::onMouseRelease);
    connect(plot_, &QCustomPlot::mouseDoubleClick, this, [this] { clearSelection(); });
    plot_->installEventFilter(this);

    readout_ = new ReadoutLabel(this);
    readout_->setObjectName("histogramReadout");

    auto* plotColumn = new QVBoxLayout;
    plotColumn->addWidget(plot_, 1);
    plotColumn->addWidget(readout_);
    auto* body = new QHBoxLayout;
    body->addLayout(plotColumn, 1);
    body->addWidget(buildStatisticsPanel());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(toolbar);
    layout->addLayout(body, 1);

    applyPlotStyle(plot_, palette());
    refreshPlot();
    refreshSelection();
    refreshStatistics();
}

void HistogramView::buildToolbar(QWidget* toolbar) {
    auto* row = new QHBoxLayout(toolbar);
    row->setContentsMargins(0, 0, 0, 0);
    const auto addToggle = [&](const QString& text, const QString& tip, bool checked) {
        auto* button = new QToolButton(toolbar);
        button->setText(text);
        button->setToolTip(tip);
        button->setCheckable(true);
        button->setChecked(checked);
        button->setAutoRaise(true);
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        row->addWidget(button);
        return button;
    };
    for (const Channel channel : histogram::kChannels) {
        const bool shownAtStart = channel != Channel::A;
        auto* button = addToggle(channelLabel(channel), tr("Show the %1 channel").arg(channelLabel(channel)),
                                 shownAtStart);
        button->setObjectName(QStringLiteral("channel") + channelLabel(channel));
        channelButtons_[indexOf(channel)] = button;
        connect(button, &QToolButton::toggled, this, [this] { refreshPlot(); });
    }
    auto* overlay = new QToolButton(toolbar);
    overlay->setText(tr("RGB"));
    overlay->setToolTip(tr("Overlay red, green and blue; hide alpha and luma"));
    overlay->setAutoRaise(true);
    connect(overlay, &QToolButton::clicked, this, &HistogramView::showRgbOverlay);
    row->addWidget(overlay);
    row->addSpacing(12);
    logButton_ = addToggle(tr("Log"), tr("Logarithmic count axis"), false);
    cumulativeButton_ = addToggle(tr("Cumulative"), tr("Running sum of the counts up to each bin"), false);
    clipButton_ = addToggle(tr("Clip peak"), tr(kClipRuleText), true);
    for (auto* button : {logButton_, cumulativeButton_, clipButton_})
        connect(button, &QToolButton::toggled, this, [this] { refreshPlot(); });
    row->addStretch(1);
}

QWidget* HistogramView::buildStatisticsPanel() {
    auto* panel = new QWidget(this);
    auto* grid = new QGridLayout(panel);
    grid->setContentsMargins(8, 0, 0, 0);
    grid->setHorizontalSpacing(12);
    grid->setVerticalSpacing(2);

    statisticsChannel_ = new QComboBox(panel);
    statisticsChannel_->setObjectName("statisticsChannel");
    for (const Channel channel : histogram::kChannels)
        statisticsChannel_->addItem(channelLabel(channel), static_cast<int>(channel));
    statisticsChannel_->setCurrentIndex(static_cast<int>(Channel::Luma));
    statisticsChannel_->setToolTip(tr("The channel the statistics describe"));
    connect(statisticsChannel_, &QComboBox::currentIndexChanged, this, [this] { refreshStatistics(); });
    grid->addWidget(new QLabel(tr("Statistics of"), panel), 0, 0);
    grid->addWidget(statisticsChannel_, 0, 1, 1, 2);

    auto* selectionHeader = new QLabel(tr("<b>Selection</b>"), panel);
    auto* imageHeader = new QLabel(tr("<b>Image</b>"), panel);
    grid->addWidget(selectionHeader, 1, 1, Qt::AlignRight);
    grid->addWidget(imageHeader, 1, 2, Qt::AlignRight);
    selectionRangeLabel_ = new QLabel(panel);
    selectionRangeLabel_->setObjectName("selectionRange");
    grid->addWidget(new QLabel(tr("Values"), panel), 2, 0);
    grid->addWidget(selectionRangeLabel_, 2, 1, Qt::AlignRight);
    grid->addWidget(new QLabel(tr("0–255"), panel), 2, 2, Qt::AlignRight);

    for (std::size_t row = 0; row < kStatisticRows.size(); ++row) {
        auto* name = new QLabel(tr(kStatisticRows[row].name), panel);
        name->setToolTip(tr(kStatisticRows[row].tip));
        selectionLabels_[row] = new QLabel(panel);
        selectionLabels_[row]->setObjectName(QStringLiteral("selection") + kStatisticRows[row].key);
        imageLabels_[row] = new QLabel(panel);
        imageLabels_[row]->setObjectName(QStringLiteral("image") + kStatisticRows[row].key);
        for (QLabel* label : {selectionLabels_[row], imageLabels_[row]})
            label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        const int gridRow = static_cast<int>(row) + 3;
        grid->addWidget(name, gridRow, 0);
        grid->addWidget(selectionLabels_[row], gridRow, 1, Qt::AlignRight);
        grid->addWidget(imageLabels_[row], gridRow, 2, Qt::AlignRight);
    }
    grid->setRowStretch(static_cast<int>(kStatisticRows.size()) + 3, 1);
    return panel;
}

void HistogramView::setHistogram(const histogram::Histogram& values, int bins) {
    if (selection_ && bins != histogram_.bins) {
        const auto range = histogram::valueRange(*selection_, histogram_.bins);
        selection_ = BinRange{histogram::binOf(range.first, bins), histogram::binOf(range.last, bins)};
    }
    histogram_ = values.rebinned(bins);
    values_ = values;
    hasHistogram_ = true;
    refreshPlot();
    refreshSelection();
    refreshStatistics();
    emit histogramChanged();
}

void HistogramView::follow(const RunModel& model) {
    connect(&model, &RunModel::histogramChanged, this,
            [this, &model] { setHistogram(model.values(), model.histogram().bins); });
}

QVector<double> HistogramView::plottedValues(Channel channel) const {
    QVector<double> values;
    const auto points = graphs_[indexOf(channel)]->data();
    // The graph carries one extra point at the axis end that closes the last step.
    for (int i = 0; i < histogram_.bins && i < points->size(); ++i) values.append(points->at(i)->value);
    return values;
}

void HistogramView::setLogScale(bool on) {
    logButton_->setChecked(on);
}
bool HistogramView::logScale() const {
    return logButton_->isChecked();
}
void HistogramView::setCumulative(bool on) {
    cumulativeButton_->setChecked(on);
}
bool HistogramView::cumulative() const {
    return cumulativeButton_->isChecked();
}
void HistogramView::setClipDominant(bool on) {
    clipButton_->setChecked(on);
}
bool HistogramView::clipDominant() const {
    return clipButton_->isChecked();
}

void HistogramView::setChannelVisible(Channel channel, bool visible) {
    channelButtons_[indexOf(channel)]->setChecked(visible);
}

bool HistogramView::channelVisible(Channel channel) const {
    return channelButtons_[indexOf(channel)]->isChecked();
}

void HistogramView::showRgbOverlay() {
    for (const Channel channel : histogram::kChannels)
        setChannelVisible(channel, channel != Channel::A && channel != Channel::Luma);
}

void HistogramView::refreshPlot() {
    const QColor text = palette().color(QPalette::WindowText);
    const std::array<QColor, histogram::kChannelCount> colors{
        QColor(214, 39, 40), QColor(44, 160, 44), QColor(31, 119, 220), QColor(127, 127, 127), text};
    const std::array<int, histogram::kChannelCount> fillAlpha{60, 60, 60, 40, 35};
    const int bins = histogram_.bins;
    const bool running = cumulative();
    double tallestShown = 0;
    double axisCeiling = 0;
    for (const Channel channel : histogram::kChannels) {
        const auto& counts = histogram_[channel];
        QVector<double> keys;
        QVector<double> values;
        double sum = 0;
        for (int bin = 0; bin < bins; ++bin) {
            const auto count = static_cast<double>(counts[static_cast<std::size_t>(bin)]);
            sum += count;
            keys.append(lowerEdge(bin, bins));
            values.append(running ? sum : count / valuesIn(bin, bins));
        }
        keys.append(kValueAxisEnd);
        values.append(values.back());
        QCPGraph* graph = graphs_[indexOf(channel)];
        graph->setData(keys, values, true);
        const QColor color = colors[indexOf(channel)];
        QColor fill = color;
        fill.setAlpha(fillAlpha[indexOf(channel)]);
        graph->setPen(QPen(color, 1));
        graph->setBrush(fill);
        graph->setVisible(channelVisible(channel));
        channelButtons_[indexOf(channel)]->setIcon(swatch(color));
        if (!channelVisible(channel)) continue;
        tallestShown = std::max(tallestShown, *std::max_element(values.begin(), values.end()));
        axisCeiling =
            std::max(axisCeiling, running ? sum : countAxisCeiling(values, clipDominant() && !logScale()));
    }

    QCPAxis* countAxis = plot_->yAxis;
    countAxis->setLabel(running                       ? tr("pixels (cumulative)")
                        : bins == histogram::kMaxBins ? tr("pixels per value")
                                                      : tr("pixels per value (bin count ÷ bin width)"));
    // A count of 1 spread over the widest bin is the lowest non-zero height: the axis reaches at least there.
    const double lowest = running ? 1.0 : 1.0 / std::ceil(kValueAxisEnd / bins);
    if (logScale()) {
        countAxis->setScaleType(QCPAxis::stLogarithmic);
        countAxis->setTicker(QSharedPointer<QCPAxisTickerLog>::create());
        countAxis->setNumberFormat("eb");
        countAxis->setNumberPrecision(0);
        // Doubling the top keeps the tallest bin off the frame on a log axis.
        countAxis->setRange(lowest / 2, std::max(tallestShown, lowest) * 2);
    } else {
        countAxis->setScaleType(QCPAxis::stLinear);
        countAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
        countAxis->setNumberFormat("gb");
        countAxis->setNumberPrecision(6);
        // A clipped axis ends exactly at the rule's ceiling; an unclipped one leaves 5 % air above the peak.
        const bool clipped = axisCeiling < tallestShown;
        countAxis->setRange(0, std::max(clipped ? axisCeiling : tallestShown * 1.05, lowest));
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
    if (hoverPixelX_) updateReadout(*hoverPixelX_);
}

void HistogramView::selectRange(int firstBin, int lastBin) {
    const int lastValidBin = histogram_.bins - 1;
    const int low = std::clamp(std::min(firstBin, lastBin), 0, lastValidBin);
    const int high = std::clamp(std::max(firstBin, lastBin), 0, lastValidBin);
    selection_ = BinRange{low, high};
    refreshSelection();
    refreshStatistics();
    emit rangeSelected(low, high);
}

void HistogramView::clearSelection() {
    selection_.reset();
    refreshSelection();
    refreshStatistics();
}

void HistogramView::setStatisticsChannel(Channel channel) {
    statisticsChannel_->setCurrentIndex(statisticsChannel_->findData(static_cast<int>(channel)));
}

Channel HistogramView::statisticsChannel() const {
    return static_cast<Channel>(statisticsChannel_->currentData().toInt());
}

std::optional<Statistics> HistogramView::selectionStatistics() const {
    if (!selection_) return std::nullopt;
    return histogram::computeStatistics(values_, statisticsChannel(),
                                        histogram::valueRange(*selection_, histogram_.bins));
}

Statistics HistogramView::imageStatistics() const {
    return histogram::computeStatistics(values_, statisticsChannel());
}

QString HistogramView::readout() const {
    return readout_->fullText();
}

void HistogramView::refreshSelection() {
    selectionRect_->setVisible(selection_.has_value());
    if (selection_) {
        const int bins = histogram_.bins;
        selectionRect_->topLeft->setCoords(lowerEdge(selection_->first, bins), 0);
        selectionRect_->bottomRight->setCoords(lowerEdge(selection_->last + 1, bins), 1);
        QColor highlight = palette().color(QPalette::Highlight);
        highlight.setAlpha(50);
        selectionRect_->setBrush(highlight);
        const auto values = histogram::valueRange(*selection_, bins);
        selectionRangeLabel_->setText(QStringLiteral("%1–%2").arg(values.first).arg(values.last));
    } else {
        selectionRangeLabel_->setText(tr("drag a range"));
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void HistogramView::refreshStatistics() {
    static_assert(kStatisticRows.size() == kStatisticCount);
    const QStringList selectionTexts = statisticTexts(hasHistogram_ ? selectionStatistics() : std::nullopt);
    const QStringList imageTexts =
        statisticTexts(hasHistogram_ ? std::optional<Statistics>(imageStatistics()) : std::nullopt);
    for (std::size_t row = 0; row < kStatisticRows.size(); ++row) {
        selectionLabels_[row]->setText(selectionTexts[static_cast<int>(row)]);
        imageLabels_[row]->setText(imageTexts[static_cast<int>(row)]);
    }
}

int HistogramView::binAt(double pixelX) const {
    const double value = std::clamp(plot_->xAxis->pixelToCoord(pixelX), 0.0, kValueAxisEnd - 1);
    return histogram::binOf(static_cast<int>(std::floor(value)), histogram_.bins);
}

void HistogramView::updateReadout(double pixelX) {
    hoverPixelX_ = pixelX;
    const double value = plot_->xAxis->pixelToCoord(pixelX);
    // The margins beside the first and last bars read those bars (binAt clamps), as the pointer is on the
    // plot.
    if (!hasHistogram_ || value < -kValueAxisMargin || value >= kValueAxisEnd + kValueAxisMargin) {
        readout_->setFullText({});
        return;
    }
    const int bin = binAt(pixelX);
    const auto values = histogram::binValues(bin, histogram_.bins);
    // In cumulative mode the counts are those of every value up to the bin's upper end.
    const QString valuesText = cumulative() ? tr("values ≤ %1").arg(values.upper)
                               : values.lower == values.upper
                                   ? tr("value %1").arg(values.lower)
                                   : tr("values %1–%2").arg(values.lower).arg(values.upper);
    QStringList parts{tr("bin %1 · %2").arg(bin).arg(valuesText)};
    for (const Channel channel : histogram::kChannels) {
        if (!channelVisible(channel)) continue;
        const auto& counts = histogram_[channel];
        const auto end = counts.begin() + bin + 1;
        const std::uint64_t count = cumulative() ? std::accumulate(counts.begin(), end, std::uint64_t{0})
                                                 : counts[static_cast<std::size_t>(bin)];
        const auto total = histogram_.total(channel);
        const double percent =
            total == 0 ? 0.0 : 100.0 * static_cast<double>(count) / static_cast<double>(total);
        parts.append(
            QStringLiteral("%1 %2 (%3 %)").arg(channelLabel(channel)).arg(count).arg(percent, 0, 'f', 2));
    }
    readout_->setFullText(parts.join(QStringLiteral(" · ")));
}

void HistogramView::onMousePress(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !hasHistogram_) return;
    if (!plot_->axisRect()->rect().contains(event->position().toPoint())) return;
    const int bin = binAt(event->position().x());
    dragAnchorBin_ = bin;
    selection_ = BinRange{bin, bin};
    refreshSelection();
    refreshStatistics();
}

void HistogramView::onMouseMove(QMouseEvent* event) {
    updateReadout(event->position().x());
    if (!dragAnchorBin_) return;
    const int bin = binAt(event->position().x());
    selection_ = BinRange{std::min(*dragAnchorBin_, bin), std::max(*dragAnchorBin_, bin)};
    refreshSelection();
    refreshStatistics();
}

void HistogramView::onMouseRelease(QMouseEvent* event) {
    if (event->button() != Qt::LeftButton || !dragAnchorBin_) return;
    dragAnchorBin_.reset();
    selectRange(selection_->first, selection_->last);
}

bool HistogramView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == plot_ && event->type() == QEvent::Leave) {
        hoverPixelX_.reset();
        readout_->setFullText({});
    }
    return QWidget::eventFilter(watched, event);
}

void HistogramView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() != QEvent::PaletteChange) return;
    applyPlotStyle(plot_, palette());
    refreshPlot();
    refreshSelection();
}

}  // namespace hs::ui
