#pragma once
// The one way HistoScope lays out a drawing as an exported document: a PNG, PDF or SVG of a layout of
// width × height units (the screen's pixels), titled in its metadata. The plots (QCustomPlot, through
// shell/export_actions' renderPlot) and the scopes (ScopeView) both draw through it, so that a PDF's page, an
// SVG's view box, a PNG's pixels and the size of text relative to the drawing are the same for every export.

#include <QByteArray>
#include <QSize>
#include <QString>
#include <functional>

class QCPPainter;

namespace hs::ui {

// The layout units per inch of a PNG drawn at scale 1 (the screen's), as PlotExportSize counts its DPI.
inline constexpr int kLayoutDpi = 96;

// Draws into the rectangle (0, 0, layout) of the painter it is given.
using DocumentDrawing = std::function<void(QCPPainter& painter)>;

// `draw` as a `format` ("png", "pdf" or "svg") document of `layout` units: a PNG of layout × dpi / 96 pixels
// (text and lines grow with the pixels) tagged with `dpi`; a PDF page or an SVG view box of layout points.
// Throws InputError naming `path` for an unknown format or a failed encoding.
QByteArray renderDocument(const QString& format, const QString& path, QSize layout, int dpi,
                          const QString& title, const DocumentDrawing& draw);

}  // namespace hs::ui
