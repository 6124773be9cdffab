#pragma once
// The run the window shows and the runs it keeps: what the views subscribe to and what every export reads.
// The window puts each result in (show); the histogram, timing and timeline views redraw from the model on
// its signals; File ▸ Export reads the model, never a widget's data (a plot export renders the plot the user
// sees, with the model's data in it).

#include <QObject>
#include <QString>
#include <optional>
#include <vector>

#include "engine/ops/histogram/histogram.hpp"
#include "io/export.hpp"
#include "io/timeline.hpp"
#include "ui/model/run.hpp"

namespace hs::ui {

class RunModel : public QObject {
    Q_OBJECT

  public:
    static constexpr int kDefaultMaxKeptRuns = 50;

    explicit RunModel(QObject* parent = nullptr);

    // The window's one call per result: shows `outcome`'s histogram with what it counts (computed from the
    // image at `imagePath`) and keeps its timings as the next run.
    void show(const RunOutcome& outcome, const QString& imagePath);
    // The outcome show() was last given; unset before the first.
    const std::optional<RunOutcome>& outcome() const { return outcome_; }

    // A cancelled request's result, which arrived because the device could not be interrupted: recorded as
    // cancelled (discardedRequests), neither shown nor kept.
    void discard(const RunOutcome& outcome);
    // The request ids of the discarded results, oldest first.
    const std::vector<quint64>& discardedRequests() const { return discardedRequests_; }

    // The shown histogram: its 256 values, grouped into `bins`, and what it counts.
    void showHistogram(const histogram::Histogram& values, int bins, io::HistogramContext context);
    bool hasHistogram() const { return hasHistogram_; }
    const histogram::Histogram& values() const { return values_; }
    // The values grouped into the requested bins.
    const histogram::Histogram& histogram() const { return histogram_; }
    const io::HistogramContext& histogramContext() const { return context_; }
    // The counts of the shown run's scopes (RunRequest::scopes, in its order); what they count is
    // histogramContext().
    const std::vector<scope::Counts>& scopes() const { return scopes_; }

    // Keeps `run` as the newest, numbered from 1 since the model was made (as the exports and the CLI count;
    // the number is set here); only the last maxKeptRuns() are kept. Returns its number.
    int keep(io::RunTimings run);
    // Oldest first.
    const std::vector<io::RunTimings>& keptRuns() const { return keptRuns_; }
    void clearKeptRuns();
    void setMaxKeptRuns(int count);
    int maxKeptRuns() const { return maxKeptRuns_; }
    // The name of the device the shown histogram was counted on; empty on the host alone.
    QString deviceName() const;

  signals:
    void histogramChanged();
    void scopesChanged();
    void keptRunsChanged();

  private:
    std::optional<RunOutcome> outcome_;
    bool hasHistogram_ = false;
    histogram::Histogram values_;
    histogram::Histogram histogram_;
    io::HistogramContext context_;
    std::vector<scope::Counts> scopes_;
    std::vector<io::RunTimings> keptRuns_;
    std::vector<quint64> discardedRequests_;
    int maxKeptRuns_ = kDefaultMaxKeptRuns;
    int nextRunNumber_ = 1;
};

// A stage's name as the views show it ("Rotate" for "rotate", its kind's label; a transfer's name as it is).
QString stageText(const std::string& stage);
// Every stage that ran, in order: "rotate image-sampler → convolve separable → histogram private-uchar".
QString stagesText(const RunOutcome& outcome);
// What `request` asks of its image, every stage with its parameters in order, and the second device of a
// two-device run: "rotate (30 degrees, linear) → convolve (Box 3×3) → histogram (256 bins)".
QString specText(const RunRequest& request);

}  // namespace hs::ui
