#pragma once
// The building blocks the views share: read-only tables of measurements, and splitters that divide a view
// between its plot and its tables.

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
// their contents, one line a row (a long cell elides and shows in full in its tooltip).
QTableWidget* readOnlyTable(const QStringList& headers, QWidget* parent);

// A read-only cell; numbers align right, text passes Qt::AlignLeft.
QTableWidgetItem* tableCell(const QString& text, Qt::Alignment alignment = Qt::AlignRight | Qt::AlignVCenter);

// A splitter holding `parts` in order, each with its stretch factor.
QSplitter* stretchedSplitter(Qt::Orientation orientation,
                             std::initializer_list<std::pair<QWidget*, int>> parts, QWidget* parent);

}  // namespace hs::ui
