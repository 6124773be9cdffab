#include "ui/transform_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStandardItemModel>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <iterator>

#include "ops/convolve/convolve.hpp"
#include "ops/rotate/rotate.hpp"
#include "runtime/error.hpp"

namespace hs::ui {

namespace {

constexpr int kDescriptionRole = Qt::UserRole + 1;
constexpr double kMaxAngle = 180;

// Every filter the panel offers: its name in settings and on the command line (convolve::filterFromSpec's,
// where it has one), and its label in the list.
struct FilterKindEntry {
    TransformPanel::FilterKind kind;
    const char* name;
    const char* label;
};
constexpr FilterKindEntry kFilterKinds[] = {
    {TransformPanel::FilterKind::Box, "box", QT_TRANSLATE_NOOP("hs::ui::TransformPanel", "Box N×N")},
    {TransformPanel::FilterKind::Gaussian, "gaussian",
     QT_TRANSLATE_NOOP("hs::ui::TransformPanel", "Gaussian")},
    {TransformPanel::FilterKind::Sharpen, "sharpen", QT_TRANSLATE_NOOP("hs::ui::TransformPanel", "Sharpen")},
    {TransformPanel::FilterKind::Emboss, "emboss", QT_TRANSLATE_NOOP("hs::ui::TransformPanel", "Emboss")},
    {TransformPanel::FilterKind::Sobel, "sobel",
     QT_TRANSLATE_NOOP("hs::ui::TransformPanel", "Sobel magnitude")},
    {TransformPanel::FilterKind::Laplacian, "laplacian",
     QT_TRANSLATE_NOOP("hs::ui::TransformPanel", "Laplacian")},
    {TransformPanel::FilterKind::Custom, "custom",
     QT_TRANSLATE_NOOP("hs::ui::TransformPanel", "Custom matrix")},
};

const FilterKindEntry& entryOf(TransformPanel::FilterKind kind) {
    return *std::find_if(std::begin(kFilterKinds), std::end(kFilterKinds),
                         [kind](const FilterKindEntry& entry) { return entry.kind == kind; });
}

// Selects the entry called `text`, or the first entry when there is none of that name.
void selectText(QComboBox* box, const QString& text) {
    box->setCurrentIndex(std::max(0, box->findText(text)));
}

// A Gaussian size of 1 would be the identity: the spin box's lowest value stands for "auto" instead.
constexpr int kGaussianAutoSize = 1;

// One entry per registered strategy of `Op`, in the registry's order: entry i is strategyAt<Op>(i).
template <class Op>
void fillStrategies(QComboBox* box) {
    for (const auto* strategy : Registry<Op>::list()) {
        const QString description = QString::fromUtf8(strategy->description());
        box->addItem(QString::fromUtf8(strategy->name()));
        box->setItemData(box->count() - 1, description, kDescriptionRole);
        box->setItemData(box->count() - 1, description, Qt::ToolTipRole);
    }
}

template <class Op>
const Strategy<Op>& strategyAt(int index) {
    return *Registry<Op>::list().at(static_cast<std::size_t>(index));
}

// Enables entry `index` when `reason` is empty; otherwise disables it with the reason as its tooltip.
void setSupport(QComboBox* box, int index, const QString& reason) {
    auto* model = qobject_cast<QStandardItemModel*>(box->model());
    model->item(index)->setEnabled(reason.isEmpty());
    box->setItemData(index,
                     reason.isEmpty() ? box->itemData(index, kDescriptionRole).toString()
                                      : TransformPanel::tr("Not available here: %1").arg(reason),
                     Qt::ToolTipRole);
}

QString number(double value) {
    return QString::number(value, 'g', 6);
}

// The rows of `taps` as aligned text.
QStringList matrixRows(const convolve::Filter& filter, const std::vector<double>& taps) {
    int width = 1;
    for (const double tap : taps) width = std::max(width, static_cast<int>(number(tap).size()));
    QStringList rows;
    for (int y = 0; y < filter.height; ++y) {
        QStringList row;
        for (int x = 0; x < filter.width; ++x)
            row << number(taps[static_cast<std::size_t>(y * filter.width + x)]).rightJustified(width);
        rows << row.join(QLatin1Char(' '));
    }
    return rows;
}

// The taps as an aligned matrix, for the filters whose taps are fixed; a gradient magnitude's two tap sets
// side by side.
QString tapsText(const convolve::Filter& filter) {
    QStringList rows = matrixRows(filter, filter.taps);
    if (filter.isMagnitude()) {
        const QStringList second = matrixRows(filter, filter.tapsB);
        const int gap = static_cast<int>(rows.front().size()) + 4;
        for (int i = 0; i < rows.size(); ++i) rows[i] = rows[i].leftJustified(gap) + second[i];
        rows.prepend(QStringLiteral("a").leftJustified(gap) + QStringLiteral("b"));
        rows.prepend(TransformPanel::tr("√(a² + b²) of"));
    } else if (filter.divisor != 1.0) {
        rows << QStringLiteral("/ %1").arg(number(filter.divisor));
    }
    return rows.join(QLatin1Char('\n'));
}

QFont monospace() {
    return QFontDatabase::systemFont(QFontDatabase::FixedFont);
}

}  // namespace

TransformPanel::TransformPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(buildRotation());
    layout->addWidget(buildConvolution());
    // No taller than the controls need: the panel beside it (the device's properties) has a use for the rest.
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    applySettings(TransformSettings{});
    updateSupport(nullptr, {});
}

QWidget* TransformPanel::buildRotation() {
    rotationGroup_ = new QGroupBox(tr("Rotation"), this);
    rotationGroup_->setCheckable(true);
    rotationGroup_->setChecked(false);
    rotationGroup_->setToolTip(
        tr("Rotate about the image centre; positive angles turn the picture counter-clockwise"));

    angleSlider_ = new QSlider(Qt::Horizontal);
    angleSlider_->setRange(static_cast<int>(-kMaxAngle) * kAngleStepsPerDegree,
                           static_cast<int>(kMaxAngle) * kAngleStepsPerDegree);
    angleSlider_->setSingleStep(1);
    angleSlider_->setPageStep(15 * kAngleStepsPerDegree);
    angleSlider_->setTickPosition(QSlider::TicksBelow);
    angleSlider_->setTickInterval(90 * kAngleStepsPerDegree);
    angleSlider_->setToolTip(tr("Angle in tenths of a degree: arrow keys step 0.1°, Page Up/Down 15°"));
    angleBox_ = new QDoubleSpinBox;
    angleBox_->setRange(-kMaxAngle, kMaxAngle);
    angleBox_->setDecimals(1);
    angleBox_->setSingleStep(1.0 / kAngleStepsPerDegree);
    angleBox_->setSuffix(QStringLiteral("°"));
    angleBox_->setAlignment(Qt::AlignRight);
    auto* reset = new QToolButton;
    reset->setText(QStringLiteral("0°"));
    reset->setToolTip(tr("Back to no rotation"));
    fitCanvas_ = new QCheckBox(tr("Fit canvas"));
    fitCanvas_->setToolTip(
        tr("Enlarge the output to the smallest canvas that holds the whole rotated image, padded with "
           "transparent pixels (W·|cos| + H·|sin| by W·|sin| + H·|cos|, rounded up); off, the output keeps "
           "the image's size and the corners are cut off"));
    auto* angleRow = new QHBoxLayout;
    angleRow->setContentsMargins(0, 0, 0, 0);
    angleRow->addWidget(angleBox_);
    angleRow->addWidget(reset);
    angleRow->addSpacing(8);
    angleRow->addWidget(fitCanvas_);
    angleRow->addStretch(1);

    sampling_ = new QComboBox;
    for (const auto mode : {rotate::FilterMode::Linear, rotate::FilterMode::Nearest})
        sampling_->addItem(QString::fromUtf8(rotate::filterModeName(mode)), static_cast<int>(mode));
    sampling_->setItemData(0, tr("Bilinear: weighs the four nearest pixels"), Qt::ToolTipRole);
    sampling_->setItemData(1, tr("Nearest: takes the pixel whose centre is closest"), Qt::ToolTipRole);
    rotateStrategy_ = new QComboBox;
    fillStrategies<rotate::Operation>(rotateStrategy_);

    auto* form = new QFormLayout(rotationGroup_);
    form->addRow(tr("Angle"), angleRow);
    // The slider gets the panel's whole width: on a short one each pixel would be several degrees.
    form->addRow(angleSlider_);
    form->addRow(tr("Sampling"), sampling_);
    form->addRow(tr("Strategy"), rotateStrategy_);

    connect(rotationGroup_, &QGroupBox::toggled, this, &TransformPanel::transformChanged);
    connect(angleSlider_, &QSlider::valueChanged, this, &TransformPanel::setAngleFromSlider);
    connect(angleBox_, &QDoubleSpinBox::valueChanged, this, &TransformPanel::setAngleFromBox);
    connect(reset, &QToolButton::clicked, this, [this] { angleBox_->setValue(0); });
    connect(fitCanvas_, &QCheckBox::toggled, this, [this] {
        if (rotationGroup_->isChecked()) emit transformChanged();
    });
    for (auto* box : {sampling_, rotateStrategy_}) {
        connect(box, &QComboBox::currentIndexChanged, this, [this] {
            if (rotationGroup_->isChecked()) emit transformChanged();
        });
    }
    return rotationGroup_;
}

QWidget* TransformPanel::buildConvolution() {
    convolutionGroup_ = new QGroupBox(tr("Convolution"), this);
    convolutionGroup_->setCheckable(true);
    convolutionGroup_->setChecked(false);
    convolutionGroup_->setToolTip(
        tr("Correlate with a filter (as OpenCV's filter2D): edges clamp, alpha is kept"));

    filterKind_ = new QComboBox;
    for (const auto& entry : kFilterKinds)
        filterKind_->addItem(tr(entry.label), static_cast<int>(entry.kind));

    boxSize_ = new QSpinBox;
    boxSize_->setRange(1, convolve::kMaxFilterSize);
    boxSize_->setToolTip(tr("Side of the square, in pixels: every tap 1 / N²"));
    auto* boxPage = new QWidget;
    auto* boxForm = new QFormLayout(boxPage);
    boxForm->setContentsMargins(0, 0, 0, 0);
    boxForm->addRow(tr("Size"), boxSize_);

    sigma_ = new QDoubleSpinBox;
    sigma_->setRange(0.1, 10);
    sigma_->setDecimals(2);
    sigma_->setSingleStep(0.1);
    sigma_->setToolTip(tr("Standard deviation in pixels"));
    gaussianSize_ = new QSpinBox;
    gaussianSize_->setRange(kGaussianAutoSize, convolve::kMaxFilterSize);
    gaussianSize_->setSingleStep(2);
    gaussianSize_->setSpecialValueText(tr("auto (6σ + 1, at most 15)"));
    gaussianSize_->setToolTip(tr("Odd side of the square; auto covers ±3σ"));
    auto* gaussianPage = new QWidget;
    auto* gaussianForm = new QFormLayout(gaussianPage);
    gaussianForm->setContentsMargins(0, 0, 0, 0);
    gaussianForm->addRow(tr("σ"), sigma_);
    gaussianForm->addRow(tr("Size"), gaussianSize_);

    fixedTaps_ = new QLabel;
    fixedTaps_->setFont(monospace());
    fixedTaps_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    fixedTaps_->setToolTip(tr("The filter's taps"));

    filterPages_ = new QStackedWidget;
    filterPages_->addWidget(boxPage);
    filterPages_->addWidget(gaussianPage);
    filterPages_->addWidget(fixedTaps_);
    filterPages_->addWidget(buildCustomPage());

    convolveStrategy_ = new QComboBox;
    fillStrategies<convolve::Operation>(convolveStrategy_);

    auto* form = new QFormLayout(convolutionGroup_);
    form->addRow(tr("Filter"), filterKind_);
    form->addRow(filterPages_);
    form->addRow(tr("Strategy"), convolveStrategy_);

    const auto changed = [this] {
        refreshConvolveSupport();
        if (convolutionGroup_->isChecked()) emit transformChanged();
    };
    connect(convolutionGroup_, &QGroupBox::toggled, this, &TransformPanel::transformChanged);
    connect(filterKind_, &QComboBox::currentIndexChanged, this, &TransformPanel::filterKindChanged);
    connect(boxSize_, &QSpinBox::valueChanged, this, changed);
    connect(sigma_, &QDoubleSpinBox::valueChanged, this, changed);
    connect(gaussianSize_, &QSpinBox::valueChanged, this, [this, changed](int size) {
        // Gaussian filters are centred: an even size typed in becomes the next odd one.
        if (size % 2 == 0) return gaussianSize_->setValue(size + 1);
        changed();
    });
    connect(convolveStrategy_, &QComboBox::currentIndexChanged, this, [this] {
        if (convolutionGroup_->isChecked()) emit transformChanged();
    });
    filterKindChanged();
    return convolutionGroup_;
}

QWidget* TransformPanel::buildCustomPage() {
    customEditor_ = new QPlainTextEdit;
    customEditor_->setFont(monospace());
    customEditor_->setTabChangesFocus(true);
    customEditor_->setLineWrapMode(QPlainTextEdit::NoWrap);
    customEditor_->setFixedHeight(customEditor_->fontMetrics().lineSpacing() * 8);
    customEditor_->setToolTip(
        tr("Up to 15 × 15 taps, one row per line, separated by spaces or commas;\n"
           "an optional last line '/ N' divides every tap by N; '#' starts a comment"));

    customError_ = new QLabel;
    customError_->setWordWrap(true);
    customError_->setStyleSheet(QStringLiteral("color: #d9534f;"));
    customError_->hide();

    loadFilter_ = new QPushButton(tr("Load filter file…"));
    connect(loadFilter_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Load Filter"), lastFilterFolder_,
                                                          tr("Filter files (*.txt *.filter);;All files (*)"));
        if (!path.isEmpty()) loadFilterFile(path);
    });
    connect(customEditor_, &QPlainTextEdit::textChanged, this, &TransformPanel::customTextEdited);

    auto* page = new QWidget;
    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(customEditor_);
    layout->addWidget(customError_);
    layout->addWidget(loadFilter_, 0, Qt::AlignLeft);
    return page;
}

// ---- angle ----

void TransformPanel::setAngleFromSlider(int steps) {
    {
        const QSignalBlocker blocker(angleBox_);
        angleBox_->setValue(static_cast<double>(steps) / kAngleStepsPerDegree);
    }
    if (rotationGroup_->isChecked()) emit transformChanged();
}

void TransformPanel::setAngleFromBox(double degrees) {
    {
        const QSignalBlocker blocker(angleSlider_);
        angleSlider_->setValue(static_cast<int>(std::lround(degrees * kAngleStepsPerDegree)));
    }
    if (rotationGroup_->isChecked()) emit transformChanged();
}

double TransformPanel::angle() const {
    return angleBox_->value();
}

// ---- filters ----

void TransformPanel::filterKindChanged() {
    const auto kind = static_cast<FilterKind>(filterKind_->currentData().toInt());
    switch (kind) {
        case FilterKind::Box:
            filterPages_->setCurrentIndex(0);
            break;
        case FilterKind::Gaussian:
            filterPages_->setCurrentIndex(1);
            break;
        case FilterKind::Custom:
            filterPages_->setCurrentIndex(3);
            break;
        default:
            filterPages_->setCurrentIndex(2);
            showFixedTaps();
            break;
    }
    // A stacked widget is as tall as its tallest page; only the shown page's parameters should take room.
    for (int i = 0; i < filterPages_->count(); ++i) {
        filterPages_->widget(i)->setSizePolicy(QSizePolicy::Preferred, i == filterPages_->currentIndex()
                                                                           ? QSizePolicy::Preferred
                                                                           : QSizePolicy::Ignored);
    }
    filterPages_->updateGeometry();
    refreshConvolveSupport();
    if (convolutionGroup_->isChecked()) emit transformChanged();
}

void TransformPanel::showFixedTaps() {
    fixedTaps_->setText(tapsText(filter()));
}

convolve::Filter TransformPanel::filter() const {
    switch (static_cast<FilterKind>(filterKind_->currentData().toInt())) {
        case FilterKind::Box:
            return convolve::boxFilter(boxSize_->value());
        case FilterKind::Gaussian:
            return convolve::gaussianFilter(
                sigma_->value(), gaussianSize_->value() == kGaussianAutoSize ? 0 : gaussianSize_->value());
        case FilterKind::Sharpen:
            return convolve::sharpenFilter();
        case FilterKind::Emboss:
            return convolve::embossFilter();
        case FilterKind::Sobel:
            return convolve::sobelFilter();
        case FilterKind::Laplacian:
            return convolve::laplacianFilter();
        case FilterKind::Custom:
            break;
    }
    return customFilter_;
}

void TransformPanel::customTextEdited() {
    try {
        customFilter_ = convolve::parseFilterText(customEditor_->toPlainText().toStdString());
    } catch (const Error& e) {
        // The last valid matrix stays in use, so the image does not flicker while a row is being typed.
        customError_->setText(tr("%1 — the last valid matrix stays in use").arg(QString::fromUtf8(e.what())));
        customError_->show();
        return;
    }
    customError_->hide();
    if (static_cast<FilterKind>(filterKind_->currentData().toInt()) != FilterKind::Custom) return;
    refreshConvolveSupport();
    if (convolutionGroup_->isChecked()) emit transformChanged();
}

void TransformPanel::loadFilterFile(const QString& path) {
    lastFilterFolder_ = QFileInfo(path).absolutePath();
    convolve::Filter loaded;
    QFile file(path);
    try {
        loaded = convolve::loadFilterFile(path.toStdString());
        if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
            throw InputError(path.toStdString() + ": " + file.errorString().toStdString());
    } catch (const Error& e) {
        emit problemReported(QString::fromUtf8(e.what()));
        return;
    }
    {
        // The file's own label ("custom 3x3 (edge.txt)") is kept rather than the editor's re-parse.
        const QSignalBlocker blocker(customEditor_);
        customEditor_->setPlainText(QString::fromUtf8(file.readAll()));
    }
    customFilter_ = std::move(loaded);
    customError_->hide();
    const int custom = filterKind_->findData(static_cast<int>(FilterKind::Custom));
    if (filterKind_->currentIndex() != custom) {
        filterKind_->setCurrentIndex(custom);  // emits through filterKindChanged()
        return;
    }
    refreshConvolveSupport();
    if (convolutionGroup_->isChecked()) emit transformChanged();
}

void TransformPanel::setRotation(double degrees, rotate::FilterMode mode, bool fitCanvas) {
    angleBox_->setValue(rotate::normalizeAngle(degrees));
    sampling_->setCurrentIndex(sampling_->findData(static_cast<int>(mode)));
    fitCanvas_->setChecked(fitCanvas);
    rotationGroup_->setChecked(true);
}

void TransformPanel::applyFilterSpec(const QString& spec) {
    const convolve::Filter named = convolve::filterFromSpec(spec.toStdString());
    const QStringList parts = spec.split(QLatin1Char(':'));
    // Anything but a built-in filter's name is a filter file.
    FilterKind kind = FilterKind::Custom;
    for (const auto& entry : kFilterKinds) {
        if (entry.kind != FilterKind::Custom && parts.front() == QLatin1String(entry.name)) kind = entry.kind;
    }
    if (kind == FilterKind::Box) {
        boxSize_->setValue(named.width);
    } else if (kind == FilterKind::Gaussian) {
        const double sigma = parts[1].toDouble();
        if (sigma < sigma_->minimum() || sigma > sigma_->maximum() || (parts.size() > 2 && named.width == 1))
            throw UsageError("filter '" + spec.toStdString() + "': the panel shows Gaussians of sigma " +
                             QString::number(sigma_->minimum()).toStdString() + " to " +
                             QString::number(sigma_->maximum()).toStdString() + " and size 3 to 15");
        sigma_->setValue(sigma);
        gaussianSize_->setValue(parts.size() > 2 ? named.width : kGaussianAutoSize);
    } else if (kind == FilterKind::Custom) {
        loadFilterFile(spec);
    }
    filterKind_->setCurrentIndex(filterKind_->findData(static_cast<int>(kind)));
    convolutionGroup_->setChecked(true);
}

// ---- settings ----

TransformSettings TransformPanel::settings() const {
    TransformSettings settings;
    settings.rotate = rotationGroup_->isChecked();
    settings.angle = angle();
    settings.fitCanvas = fitCanvas_->isChecked();
    settings.sampling = sampling_->currentText();
    settings.rotateStrategy = rotateStrategy_->currentText();
    settings.convolve = convolutionGroup_->isChecked();
    settings.filter =
        QString::fromLatin1(entryOf(static_cast<FilterKind>(filterKind_->currentData().toInt())).name);
    settings.boxSize = boxSize_->value();
    settings.sigma = sigma_->value();
    settings.gaussianSize = gaussianSize_->value() == kGaussianAutoSize ? 0 : gaussianSize_->value();
    settings.customMatrix = customEditor_->toPlainText();
    settings.convolveStrategy = convolveStrategy_->currentText();
    return settings;
}

void TransformPanel::applySettings(const TransformSettings& settings) {
    {
        // One transformChanged for the lot, not one per widget.
        const QSignalBlocker quiet(this);
        rotationGroup_->setChecked(settings.rotate);
        angleBox_->setValue(settings.angle);
        fitCanvas_->setChecked(settings.fitCanvas);
        selectText(sampling_, settings.sampling);
        selectText(rotateStrategy_, settings.rotateStrategy);
        convolutionGroup_->setChecked(settings.convolve);
        boxSize_->setValue(settings.boxSize);
        sigma_->setValue(settings.sigma);
        gaussianSize_->setValue(settings.gaussianSize == 0 ? kGaussianAutoSize : settings.gaussianSize);
        customEditor_->setPlainText(settings.customMatrix);
        FilterKind kind = FilterKind::Box;
        for (const auto& entry : kFilterKinds) {
            if (settings.filter == QLatin1String(entry.name)) kind = entry.kind;
        }
        filterKind_->setCurrentIndex(filterKind_->findData(static_cast<int>(kind)));
        selectText(convolveStrategy_, settings.convolveStrategy);
    }
    emit transformChanged();
}

// ---- stages and support ----

std::optional<pipeline::RotateStage> TransformPanel::rotation() const {
    if (!rotationGroup_->isChecked()) return std::nullopt;
    const auto mode = static_cast<rotate::FilterMode>(sampling_->currentData().toInt());
    return pipeline::RotateStage{rotate::Params{angle(), mode, fitCanvas_->isChecked()},
                                 &strategyAt<rotate::Operation>(rotateStrategy_->currentIndex())};
}

std::optional<pipeline::ConvolveStage> TransformPanel::convolution() const {
    if (!convolutionGroup_->isChecked()) return std::nullopt;
    return pipeline::ConvolveStage{filter(),
                                   &strategyAt<convolve::Operation>(convolveStrategy_->currentIndex())};
}

void TransformPanel::updateSupport(const DeviceInfo* device, QSize imageSize) {
    device_ = device ? std::optional<DeviceInfo>(*device) : std::nullopt;
    // Before any image, judge by a single pixel: only what the device lacks entirely shows.
    imageSize_ = imageSize.isEmpty() ? QSize(1, 1) : imageSize;
    const ImageShape shape{imageSize_.width(), imageSize_.height()};
    const rotate::Params params;  // the rotate strategies' support does not depend on the angle
    for (int i = 0; i < rotateStrategy_->count(); ++i) {
        const auto support =
            supportOn(device_ ? &*device_ : nullptr, shape, params, strategyAt<rotate::Operation>(i));
        setSupport(rotateStrategy_, i, QString::fromStdString(support.reason));
    }
    refreshConvolveSupport();
}

void TransformPanel::refreshConvolveSupport() {
    const convolve::Filter current = filter();
    const ImageShape shape{imageSize_.width(), imageSize_.height()};
    for (int i = 0; i < convolveStrategy_->count(); ++i) {
        const auto support =
            supportOn(device_ ? &*device_ : nullptr, shape, current, strategyAt<convolve::Operation>(i));
        setSupport(convolveStrategy_, i, QString::fromStdString(support.reason));
    }
}

}  // namespace hs::ui
