#pragma once
// Strategy comparison: median kernel time per strategy as bars with min–max whiskers, GB/s and speed-up over
// serial as labels and in a table; unsupported strategies are listed with their reason.

#include <QString>
#include <QVector>
#include <QWidget>

#include "engine/measure/compare.hpp"

class QCustomPlot;
class QLabel;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace hs::ui {

class CompareView : public QWidget {
    Q_OBJECT

  public:
    // One row: a strategy's measurement in milliseconds; an empty unsupportedReason means it ran.
    // speedupOverSerial is NaN where serial (the comparison's baseline) was not measured.
    struct Entry {
        QString strategy;
        QString unsupportedReason;
        double minMs = 0;
        double medianMs = 0;
        double maxMs = 0;
        double gbPerS = 0;
        double speedupOverSerial = 0;
    };

    explicit CompareView(QWidget* parent = nullptr);

    // Shows the engine's measurements: one row per strategy, one bar per measured one.
    void showComparison(const measure::Comparison& comparison);
    void clear();
    // The rows shown, in the comparison's order.
    const QVector<Entry>& entries() const { return entries_; }
    // The strategies that have a bar, left to right.
    QStringList plottedStrategies() const;
    QCustomPlot* plot() const { return plot_; }
    // What Compare does and how to start it, shown until a comparison is.
    QLabel* emptyState() const { return emptyState_; }

  signals:
    void compareRequested(int repetitions);

  protected:
    void changeEvent(QEvent* event) override;

  private:
    void setEntries(QVector<Entry> entries);
    void refreshPlot();
    void refreshTable();

    QVector<Entry> entries_;
    QStringList plotted_;
    QCustomPlot* plot_ = nullptr;
    QLabel* emptyState_ = nullptr;
    QWidget* body_ = nullptr;  // the plot above the table
    QTableWidget* table_ = nullptr;
    QSpinBox* repetitions_ = nullptr;
    QPushButton* compare_ = nullptr;
};

}  // namespace hs::ui
