#pragma once
// The Diff view: the A/B diff of two recorded runs or two groups of runs (archive/diff.hpp). Above, both
// distributions of every kernel and of the total as box plots (A and B side by side, in ms); below, the
// verdict table (per kernel, stage and total: median A, median B, ratio B/A, its bootstrap 95 % interval and
// the verdict) and what else differs (spec, build options, device, driver, image, results).

#include <QWidget>
#include <optional>
#include <vector>

#include "archive/diff.hpp"

class QCustomPlot;
class QLabel;
class QPalette;
class QTableWidget;

namespace hs::ui {

class DiffView : public QWidget {
    Q_OBJECT

  public:
    explicit DiffView(QWidget* parent = nullptr);

    // Shows `diff` of the runs `a` and `b` (which the timings export writes).
    void showDiff(archive::Diff diff, std::vector<archive::Record> a, std::vector<archive::Record> b);
    const std::optional<archive::Diff>& diff() const { return diff_; }
    const std::vector<archive::Record>& runsA() const { return a_; }
    const std::vector<archive::Record>& runsB() const { return b_; }
    // The comparisons that have boxes, left to right ("histogram: histogram_local", ..., "total").
    QStringList plottedNames() const { return plotted_; }
    QCustomPlot* plot() const { return plot_; }
    // "Runs 3 vs 5": the sides, for titles.
    QString sidesText() const;

  signals:
    void diffShown();

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void refreshPlot();
    // Keeps the plot tall enough for its vertical axis title.
    void fitAxisTitle();
    void refreshTables();

    QLabel* heading_;
    QCustomPlot* plot_;
    QTableWidget* verdicts_;
    QTableWidget* differences_;
    std::optional<archive::Diff> diff_;
    std::vector<archive::Record> a_;
    std::vector<archive::Record> b_;
    QStringList plotted_;
};

}  // namespace hs::ui
