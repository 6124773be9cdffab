#include "ui/views/document_render.hpp"

#include <qcustomplot.h>
#include <QBuffer>
#include <QImage>
#include <QPdfWriter>
#include <QPixmap>
#include <QSvgGenerator>
#include <cmath>
#include <memory>

#include "engine/runtime/error.hpp"

namespace hs::ui {

namespace {

[[noreturn]] void fail(const QString& path, const QString& reason) {
    throw InputError((path + QStringLiteral(": ") + reason).toStdString());
}

}  // namespace

// Painting into memory first lets every format end in one atomic file write.
QByteArray renderDocument(const QString& format, const QString& path, QSize layout, int dpi,
                          const QString& title, const DocumentDrawing& draw) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    // The dots per inch text is sized at on screen (a pixmap's): every format keeps text at its on-screen
    // size relative to the drawing (a PDF at 72 dpi drew a 9-pt label 9 layout units high instead of 12).
    const int textDpi = QPixmap(1, 1).logicalDpiY();
    const auto dotsPerMeter = [](int perInch) { return static_cast<int>(std::lround(perInch / 0.0254)); };
    if (format == QLatin1String("png")) {
        const double scale = static_cast<double>(dpi) / kLayoutDpi;
        QImage image(qRound(layout.width() * scale), qRound(layout.height() * scale),
                     QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        image.setDotsPerMeterX(dotsPerMeter(textDpi));
        image.setDotsPerMeterY(dotsPerMeter(textDpi));
        {
            QCPPainter painter(&image);
            if (!painter.isActive()) fail(path, QStringLiteral("cannot draw the PNG image"));
            // Above scale 1 the lines grow with the text; below it they stay one pixel wide, not vanish.
            if (scale > 1) painter.setMode(QCPPainter::pmNonCosmetic);
            painter.scale(scale, scale);
            draw(painter);
        }
        image.setDotsPerMeterX(dotsPerMeter(dpi));
        image.setDotsPerMeterY(dotsPerMeter(dpi));
        if (!image.save(&buffer, "PNG")) fail(path, QStringLiteral("PNG encoding failed"));
        return bytes;
    }
    std::unique_ptr<QPaintDevice> device;
    if (format == QLatin1String("pdf")) {
        auto pdf = std::make_unique<QPdfWriter>(&buffer);
        // A page of layout points, drawn in a window of layout units, the fonts sized as on screen.
        pdf->setResolution(textDpi);
        pdf->setPageSize(QPageSize(QSizeF(layout), QPageSize::Point, QString(), QPageSize::ExactMatch));
        pdf->setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf->setCreator(QStringLiteral("HistoScope"));
        pdf->setTitle(title);
        device = std::move(pdf);
    } else if (format == QLatin1String("svg")) {
        auto svg = std::make_unique<QSvgGenerator>();
        svg->setOutputDevice(&buffer);
        svg->setSize(layout);
        svg->setViewBox(QRect(QPoint(0, 0), layout));
        svg->setResolution(textDpi);  // as the PDF's
        svg->setTitle(title);
        device = std::move(svg);
    } else {
        fail(path, QStringLiteral("unknown format '%1' (use .png, .pdf or .svg)").arg(format));
    }
    QCPPainter painter;
    if (!painter.begin(device.get())) fail(path, QStringLiteral("cannot draw the %1 document").arg(format));
    painter.setMode(QCPPainter::pmVectorized);
    painter.setWindow(QRect(QPoint(0, 0), layout));
    draw(painter);
    painter.end();
    return bytes;
}

}  // namespace hs::ui
