#pragma once
// Asks for the size of an exported plot: width and height of its layout, and for PNG the resolution in DPI.
// Starts from the remembered size; ExportActions remembers what the user accepts.

#include <QDialog>

#include "ui/shell/app_settings.hpp"

class QLabel;
class QSpinBox;

namespace hs::ui {

class PlotExportDialog : public QDialog {
    Q_OBJECT

  public:
    // `format`: png, pdf or svg (the resolution applies to PNG only; vectors scale).
    PlotExportDialog(const PlotExportSize& size, const QString& format, QWidget* parent = nullptr);

    PlotExportSize size() const;
    QSpinBox* widthBox() const { return width_; }
    QSpinBox* heightBox() const { return height_; }
    QSpinBox* dpiBox() const { return dpi_; }
    // "2000 × 1200 pixels" for PNG, "1000 × 600 points" for PDF and SVG.
    QString outputText() const;

  private:
    void updateOutput();

    QString format_;
    QSpinBox* width_;
    QSpinBox* height_;
    QSpinBox* dpi_;
    QLabel* output_;
};

}  // namespace hs::ui
