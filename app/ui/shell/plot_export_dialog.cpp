#include "ui/shell/plot_export_dialog.hpp"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <cmath>

namespace hs::ui {

namespace {

// Room for a title bar's icon and buttons beside its title, in pixels.
constexpr int kTitleBarButtonsWidth = 160;

QSpinBox* spinBox(int minimum, int maximum, int value, const QString& suffix) {
    auto* box = new QSpinBox;
    box->setRange(minimum, maximum);
    box->setValue(value);
    box->setSuffix(suffix);
    box->setAlignment(Qt::AlignRight);
    return box;
}

}  // namespace

PlotExportDialog::PlotExportDialog(const PlotExportSize& size, const QString& format, QWidget* parent)
    : QDialog(parent), format_(format) {
    setWindowTitle(tr("Plot size — %1").arg(format_.toUpper()));
    const PlotExportSize start = size.clamped();
    width_ = spinBox(PlotExportSize::kMinSide, PlotExportSize::kMaxSide, start.width, tr(" px"));
    height_ = spinBox(PlotExportSize::kMinSide, PlotExportSize::kMaxSide, start.height, tr(" px"));
    dpi_ = spinBox(PlotExportSize::kMinDpi, PlotExportSize::kMaxDpi, start.dpi, tr(" dpi"));
    dpi_->setToolTip(
        tr("%1 dpi draws the plot as on screen; 192 dpi doubles every pixel, text and lines included")
            .arg(PlotExportSize::kScreenDpi));
    dpi_->setEnabled(format_ == QLatin1String("png"));
    output_ = new QLabel;

    auto* form = new QFormLayout(this);
    form->addRow(tr("Width"), width_);
    form->addRow(tr("Height"), height_);
    form->addRow(tr("Resolution"), dpi_);
    form->addRow(tr("Output"), output_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    for (QSpinBox* box : {width_, height_, dpi_})
        connect(box, &QSpinBox::valueChanged, this, &PlotExportDialog::updateOutput);
    updateOutput();
    // A form this small is narrower than its title bar needs: window managers then cut the title.
    setMinimumWidth(fontMetrics().horizontalAdvance(windowTitle()) + kTitleBarButtonsWidth);
}

PlotExportSize PlotExportDialog::size() const {
    return PlotExportSize{width_->value(), height_->value(), dpi_->value()}.clamped();
}

QString PlotExportDialog::outputText() const {
    const PlotExportSize chosen = size();
    if (format_ != QLatin1String("png"))
        return tr("%1 × %2 points (vector)").arg(chosen.width).arg(chosen.height);
    const double scale = static_cast<double>(chosen.dpi) / PlotExportSize::kScreenDpi;
    return tr("%1 × %2 pixels")
        .arg(std::lround(chosen.width * scale))
        .arg(std::lround(chosen.height * scale));
}

void PlotExportDialog::updateOutput() {
    output_->setText(outputText());
}

}  // namespace hs::ui
