#pragma once
// What the views and the window share: read-only tables of measurements, splitters that divide a view
// between its plot and its tables, and one way of writing a time.

#include <QString>
#include <QStringList>
#include <initializer_list>
#include <utility>

class QSplitter;
class QTableWidget;
class QTableWidgetItem;
class QWidget;

namespace hs::ui {

// A table people read but do not edit: whole rows selected, alternating row colours, columns as wide as
// their contents, compact rows of one line each (a long cell is elided).
QTableWidget* readOnlyTable(const QStringList& headers, QWidget* parent);

// A read-only cell; numbers align right, text passes Qt::AlignLeft.
QTableWidgetItem* tableCell(const QString& text, Qt::Alignment alignment = Qt::AlignRight | Qt::AlignVCenter);

// A splitter holding `parts` in order, each with its stretch factor.
QSplitter* stretchedSplitter(Qt::Orientation orientation,
                             std::initializer_list<std::pair<QWidget*, int>> parts, QWidget* parent);

// Milliseconds with three decimals, or none from 100 ms on: "0.035 ms", "14.396 ms", "372 ms".
QString millisecondsText(double ms);

}  // namespace hs::ui
