#pragma once
// The look the HistoScope plots share, taken from the widget palette so light and dark themes both read well.

#include <QColor>

class QCustomPlot;

// Background, axes, grid, tick labels and legend in the palette of `plot` (call again on a palette change).
void applyPlotStyle(QCustomPlot* plot);

// A colour for the n-th data series that stays distinguishable from its neighbours on light and dark
// backgrounds.
QColor seriesColor(int n);
