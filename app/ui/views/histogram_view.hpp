#pragma once
// The histogram window: per-channel curves over the 8-bit value axis, linear/log/cumulative display, a
// dominant-bin clip, a hover readout, and statistics of a dragged range beside those of the whole image.
// Bars are drawn as pixels per value (a bin's count / the values it spans), so that bins of unequal width
// (100 bins of 2 or 3 values) do not draw a comb; the statistics come from the 256 exact values.

#include <QVector>
#include <QWidget>
#include <array>
#include <optional>

#include "ops/histogram/histogram.hpp"
#include "ops/histogram/statistics.hpp"

class QCPGraph;
class QCPItemRect;
class QComboBox;
class QCustomPlot;
class QLabel;
class QMouseEvent;
class QToolButton;

namespace hs::ui {

class ReadoutLabel;
class RunModel;

class HistogramView : public QWidget {
    Q_OBJECT

  public:
    explicit HistogramView(QWidget* parent = nullptr);

    // Replaces the data with the histogram of the 256 values (histogram::Result::values), shown in `bins`
    // bins, and keeps the display state; a selection keeps its value range across bin counts.
    void setHistogram(const histogram::Histogram& values, int bins);
    // Shows `model`'s histogram from now on, whenever it changes.
    void follow(const RunModel& model);
    // The shown bins.
    const histogram::Histogram& histogram() const { return histogram_; }
    // The 256 values the statistics are computed from.
    const histogram::Histogram& values() const { return values_; }
    // False until the first setHistogram().
    bool hasHistogram() const { return hasHistogram_; }

    // What the graph of the channel shows now, one height per bin: pixels per value, or the running count in
    // cumulative mode.
    QVector<double> plottedValues(histogram::Channel channel) const;
    QCustomPlot* plot() const { return plot_; }

    void setLogScale(bool on);
    bool logScale() const;
    void setCumulative(bool on);
    bool cumulative() const;
    void setChannelVisible(histogram::Channel channel, bool visible);
    bool channelVisible(histogram::Channel channel) const;
    // Shows R, G and B together and hides alpha and luma.
    void showRgbOverlay();
    void setClipDominant(bool on);
    bool clipDominant() const;

    // Bins first..last (either order); emits rangeSelected with first <= last.
    void selectRange(int firstBin, int lastBin);
    void clearSelection();
    std::optional<histogram::BinRange> selectedRange() const { return selection_; }

    // The channel the statistics describe.
    void setStatisticsChannel(histogram::Channel channel);
    histogram::Channel statisticsChannel() const;
    std::optional<histogram::Statistics> selectionStatistics() const;
    histogram::Statistics imageStatistics() const;
    // The text of the hover readout (empty while the pointer is outside the plot).
    QString readout() const;

  signals:
    // A range chosen by dragging over the plot or through selectRange().
    void rangeSelected(int firstBin, int lastBin);
    void histogramChanged();

  protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override;

  private:
    void buildToolbar(QWidget* toolbar);
    QWidget* buildStatisticsPanel();
    void refreshPlot();
    void refreshSelection();
    void refreshStatistics();
    void updateReadout(double pixelX);
    int binAt(double pixelX) const;
    void onMousePress(QMouseEvent* event);
    void onMouseMove(QMouseEvent* event);
    void onMouseRelease(QMouseEvent* event);

    histogram::Histogram values_;
    histogram::Histogram histogram_;
    bool hasHistogram_ = false;
    std::optional<histogram::BinRange> selection_;
    std::optional<int> dragAnchorBin_;
    std::optional<double> hoverPixelX_;  // where the pointer is, so the readout follows display changes

    QCustomPlot* plot_ = nullptr;
    std::array<QCPGraph*, histogram::kChannelCount> graphs_{};
    QCPItemRect* selectionRect_ = nullptr;
    std::array<QToolButton*, histogram::kChannelCount> channelButtons_{};
    QToolButton* logButton_ = nullptr;
    QToolButton* cumulativeButton_ = nullptr;
    QToolButton* clipButton_ = nullptr;
    QComboBox* statisticsChannel_ = nullptr;
    ReadoutLabel* readout_ = nullptr;
    QLabel* selectionRangeLabel_ = nullptr;
    static constexpr std::size_t kStatisticCount =
        8;  // count, mean, std dev, median, mode, min, max, percentile
    std::array<QLabel*, kStatisticCount> selectionLabels_{};
    std::array<QLabel*, kStatisticCount> imageLabels_{};
};

}  // namespace hs::ui
