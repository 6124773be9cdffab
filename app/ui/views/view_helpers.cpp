#include "ui/views/view_helpers.hpp"

#include <QHeaderView>
#include <QSplitter>
#include <QTableWidget>

namespace hs::ui {

QTableWidget* readOnlyTable(const QStringList& headers, QWidget* parent) {
    auto* table = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    table->setHorizontalHeaderLabels(headers);
    table->verticalHeader()->setVisible(false);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setAlternatingRowColors(true);
    table->setWordWrap(false);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    return table;
}

QTableWidgetItem* tableCell(const QString& text, Qt::Alignment alignment) {
    auto* item = new QTableWidgetItem(text);
    item->setTextAlignment(alignment);
    item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
    return item;
}

QSplitter* stretchedSplitter(Qt::Orientation orientation,
                             std::initializer_list<std::pair<QWidget*, int>> parts, QWidget* parent) {
    auto* splitter = new QSplitter(orientation, parent);
    for (const auto& [widget, stretch] : parts) {
        splitter->addWidget(widget);
        splitter->setStretchFactor(splitter->count() - 1, stretch);
    }
    return splitter;
}

QString millisecondsText(double ms) {
    return QStringLiteral("%1 ms").arg(ms, 0, 'f', ms >= 100 ? 0 : 3);
}

}  // namespace hs::ui
