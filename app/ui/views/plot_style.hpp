#pragma once
// The look the HistoScope plots share, taken from the widget palette so light and dark themes both read well.

#include <QColor>

class QCPAbstractItem;
class QCustomPlot;
class QPalette;

namespace hs::ui {

// Background, axes, grid, tick labels and legend in the colours of `palette`. Views call it again on a
// palette change with their own palette: their children (the plot) learn of the change only after them.
void applyPlotStyle(QCustomPlot* plot, const QPalette& palette);

// A colour for the n-th data series that stays distinguishable from its neighbours on light and dark
// backgrounds.
QColor seriesColor(int n);

// Marks `item` as showing what the pointer does (a selection, a hover mark) rather than the data: exports
// leave it out (isInteractionItem).
void markInteractionItem(QCPAbstractItem* item);
bool isInteractionItem(const QCPAbstractItem* item);

}  // namespace hs::ui
