#include "ui/views/plot_style.hpp"

#include <qcustomplot.h>
#include <array>

namespace hs::ui {

void applyPlotStyle(QCustomPlot* plot, const QPalette& palette) {
    const QColor text = palette.color(QPalette::WindowText);
    QColor grid = text;
    grid.setAlphaF(0.15);

    plot->setBackground(palette.color(QPalette::Base));
    for (QCPAxis* axis : plot->axisRect()->axes()) {
        axis->setBasePen(QPen(text, 1));
        axis->setTickPen(QPen(text, 1));
        axis->setSubTickPen(QPen(text, 1));
        axis->setTickLabelColor(text);
        axis->setLabelColor(text);
        axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
        axis->grid()->setZeroLinePen(Qt::NoPen);
    }
    QColor legendBackground = palette.color(QPalette::Base);
    legendBackground.setAlphaF(0.85);
    plot->legend->setBrush(legendBackground);
    plot->legend->setBorderPen(QPen(grid));
    plot->legend->setTextColor(text);
}

QColor seriesColor(int n) {
    // Tableau 10: designed for telling categories apart, readable on white and on dark grey.
    static constexpr std::array<QRgb, 10> kColors{0x4e79a7, 0xf28e2b, 0xe15759, 0x76b7b2, 0x59a14f,
                                                  0xedc948, 0xb07aa1, 0xff9da7, 0x9c755f, 0xbab0ac};
    return QColor(kColors[static_cast<std::size_t>(n) % kColors.size()]);
}

namespace {
constexpr const char* kInteractionProperty = "hsInteractionItem";
}

void markInteractionItem(QCPAbstractItem* item) {
    item->setProperty(kInteractionProperty, true);
}

bool isInteractionItem(const QCPAbstractItem* item) {
    return item->property(kInteractionProperty).toBool();
}

}  // namespace hs::ui
