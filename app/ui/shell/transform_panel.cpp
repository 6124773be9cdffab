#include "ui/shell/transform_panel.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
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
#include <limits>

#include "engine/ops/convolve/convolve.hpp"
#include "engine/ops/produce_consume/produce_consume.hpp"
#include "engine/ops/rotate/rotate.hpp"
#include "engine/runtime/error.hpp"
#include "engine/stages/shared_options.hpp"
#include "io/files/filter_file.hpp"
#include "ui/shell/number_field.hpp"

namespace hs::ui {

namespace {

constexpr int kDescriptionRole = Qt::UserRole + 1;
constexpr double kMaxAngle = 180;

// Selects the entry called `text`, or the first entry when there is none of that name.
void selectText(QComboBox* box, const QString& text) {
    box->setCurrentIndex(std::max(0, box->findText(text)));
}

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
    for (const auto* kind : stages::kinds()) {
        // A user kernel (the kind `kernel`) belongs in the Kernel tab, which opens its file; a generated page
        // reads no files.
        if (!kind->producesImage() || kind->name() == "rotate" || kind->name() == "convolve" ||
            kind->name() == "kernel")
            continue;
        auto* page = new StagePage(*kind);
        connect(page, &StagePage::changed, this, &TransformPanel::transformChanged);
        layout->addWidget(page);
        stagePages_.append(page);
    }
    layout->addWidget(buildTwoDevices());
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
    auto* angleField = new RealField([](std::string_view text) { return options::parseAngle(text); });
    angleBox_ = angleField;
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
    form->addRow(angleField->note());
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

    fixedTaps_ = new QLabel;
    fixedTaps_->setFont(monospace());
    fixedTaps_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    fixedTaps_->setToolTip(tr("The filter's taps"));

    // One entry and one page per registered filter kind; kinds without parameters share the taps page.
    filterKind_ = new QComboBox;
    filterKind_->setObjectName(QStringLiteral("filterKind"));
    filterPages_ = new QStackedWidget;
    filterPages_->addWidget(fixedTaps_);
    for (const auto* kind : convolve::filterKinds()) {
        const QString name = QString::fromStdString(kind->name);
        filterKind_->addItem(QString::fromStdString(kind->label), name);
        filterKind_->setItemData(filterKind_->count() - 1, QString::fromStdString(kind->help),
                                 Qt::ToolTipRole);
        if (kind->parameters.empty()) {
            filterPage_[name] = fixedTaps_;
        } else {
            filterPage_[name] = buildParameterPage(*kind);
            filterPages_->addWidget(filterPage_[name]);
        }
    }
    filterKind_->addItem(tr("Custom matrix"), QString::fromLatin1(kCustomFilter));
    customPage_ = buildCustomPage();
    filterPages_->addWidget(customPage_);

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
    for (const auto* kind : convolve::filterKinds()) {
        const auto& boxes = parameterBoxes_[QString::fromStdString(kind->name)];
        for (qsizetype i = 0; i < boxes.size(); ++i) {
            const auto& parameter = kind->parameters[static_cast<std::size_t>(i)];
            QDoubleSpinBox* box = boxes[i];
            connect(box, &QDoubleSpinBox::valueChanged, this, [&parameter, box, changed](double value) {
                // A centred size typed in even becomes the next odd one (the automatic value stays).
                const bool automatic = !parameter.automaticText.empty() && value == parameter.min;
                if (parameter.type == convolve::FilterParameter::Type::OddInteger && !automatic &&
                    std::lround(value) % 2 == 0)
                    return box->setValue(value + 1);
                changed();
            });
        }
    }
    connect(convolveStrategy_, &QComboBox::currentIndexChanged, this, [this] {
        if (convolutionGroup_->isChecked()) emit transformChanged();
    });
    filterKindChanged();
    return convolutionGroup_;
}

QWidget* TransformPanel::buildParameterPage(const convolve::FilterKind& kind) {
    auto* page = new QWidget;
    auto* form = new QFormLayout(page);
    form->setContentsMargins(0, 0, 0, 0);
    auto& boxes = parameterBoxes_[QString::fromStdString(kind.name)];
    for (const auto& parameter : kind.parameters) {
        auto* box = new RealField(parameterRule(parameter));
        box->setObjectName(QString::fromStdString(kind.name + "." + parameter.name));
        box->setDecimals(parameter.type == convolve::FilterParameter::Type::Real ? 2 : 0);
        box->setRange(parameter.min, parameter.max);
        box->setSingleStep(parameter.step);
        box->setValue(parameter.defaultValue);
        box->setToolTip(QString::fromStdString(parameter.help));
        if (!parameter.automaticText.empty())
            box->setSpecialValueText(QString::fromStdString(parameter.automaticText));
        form->addRow(QString::fromStdString(parameter.label), box);
        form->addRow(box->note());
        boxes << box;
    }
    return page;
}

QDoubleSpinBox* TransformPanel::parameterBox(const QString& kind, const QString& parameter) const {
    const auto* filterKind = convolve::findFilterKind(kind.toStdString());
    if (!filterKind) return nullptr;
    for (std::size_t i = 0; i < filterKind->parameters.size(); ++i) {
        if (QString::fromStdString(filterKind->parameters[i].name) == parameter)
            return parameterBoxes_.value(kind).value(static_cast<qsizetype>(i));
    }
    return nullptr;
}

const convolve::FilterKind* TransformPanel::selectedKind() const {
    return convolve::findFilterKind(filterKind_->currentData().toString().toStdString());
}

void TransformPanel::selectFilter(const QString& name) {
    filterKind_->setCurrentIndex(std::max(0, filterKind_->findData(name)));
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
    const auto* kind = selectedKind();
    filterPages_->setCurrentWidget(kind ? filterPage_.value(QString::fromStdString(kind->name))
                                        : customPage_);
    if (filterPages_->currentWidget() == fixedTaps_) showFixedTaps();
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
    const auto* kind = selectedKind();
    if (!kind) return customFilter_;
    std::vector<double> values;
    for (const auto* box : parameterBoxes_.value(QString::fromStdString(kind->name)))
        values.push_back(box->value());
    return kind->make(values);
}

void TransformPanel::customTextEdited() {
    try {
        customFilter_ = convolve::parseFilterText(customEditor_->toPlainText().toStdString());
        customText_ = customEditor_->toPlainText();
        customPath_.clear();
    } catch (const Error& e) {
        // The last valid matrix stays in use, so the image does not flicker while a row is being typed.
        customError_->setText(tr("%1 — the last valid matrix stays in use").arg(QString::fromUtf8(e.what())));
        customError_->show();
        return;
    }
    customError_->hide();
    if (selectedKind()) return;
    refreshConvolveSupport();
    if (convolutionGroup_->isChecked()) emit transformChanged();
}

void TransformPanel::loadFilterFile(const QString& path) {
    lastFilterFolder_ = QFileInfo(path).absolutePath();
    io::FilterFile loaded;
    try {
        loaded = io::readFilterFile(path.toStdString());
    } catch (const Error& e) {
        emit problemReported(QString::fromUtf8(e.what()));
        return;
    }
    showCustomFilter(QString::fromStdString(loaded.text), std::move(loaded.filter), path);
}

void TransformPanel::showCustomFilter(const QString& text, convolve::Filter filter, const QString& path) {
    {
        // The file's own label ("custom 3x3 (edge.txt)") is kept rather than the editor's re-parse.
        const QSignalBlocker blocker(customEditor_);
        customEditor_->setPlainText(text);
    }
    customText_ = text;
    customPath_ = path;
    customFilter_ = std::move(filter);
    customError_->hide();
    if (selectedKind()) {
        selectFilter(QString::fromLatin1(kCustomFilter));  // emits through filterKindChanged()
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
    std::string fileText;
    convolve::Filter named = io::filterFromSpec(spec.toStdString(), &fileText);
    const QStringList parts = spec.split(QLatin1Char(':'));
    const auto* kind = convolve::findFilterKind(parts.front().toStdString());
    if (!kind) {
        // Anything but a registered kind's name is a filter file, read once above.
        lastFilterFolder_ = QFileInfo(spec).absolutePath();
        showCustomFilter(QString::fromStdString(fileText), std::move(named), spec);
    } else {
        // filterFromSpec accepted the numbers; the spin boxes must also be able to show them.
        const auto& boxes = parameterBoxes_.value(QString::fromStdString(kind->name));
        for (qsizetype i = 0; i < boxes.size(); ++i) {
            const auto& parameter = kind->parameters[static_cast<std::size_t>(i)];
            const double value = i + 1 < parts.size() ? parts[i + 1].toDouble() : parameter.defaultValue;
            if (value < boxes[i]->minimum() || value > boxes[i]->maximum())
                throw UsageError("filter '" + spec.toStdString() + "': the panel shows " + parameter.name +
                                 " from " + number(boxes[i]->minimum()).toStdString() + " to " +
                                 number(boxes[i]->maximum()).toStdString());
        }
        for (qsizetype i = 0; i < boxes.size(); ++i) {
            boxes[i]->setValue(i + 1 < parts.size()
                                   ? parts[i + 1].toDouble()
                                   : kind->parameters[static_cast<std::size_t>(i)].defaultValue);
        }
        selectFilter(QString::fromStdString(kind->name));
    }
    convolutionGroup_->setChecked(true);
}

void TransformPanel::applyCustomMatrix(const QString& text) {
    convolve::Filter filter = convolve::parseFilterText(text.toStdString());
    showCustomFilter(text, std::move(filter), {});
    convolutionGroup_->setChecked(true);
}

std::string TransformPanel::filterSpec() const {
    const auto* kind = selectedKind();
    if (!kind) return customPath_.toStdString();
    std::vector<double> values;
    for (const auto* box : parameterBoxes_.value(QString::fromStdString(kind->name)))
        values.push_back(box->value());
    return convolve::filterSpec(*kind, values);
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
    settings.filter = filterKind_->currentData().toString();
    for (const auto* kind : convolve::filterKinds()) {
        const QString name = QString::fromStdString(kind->name);
        const auto& boxes = parameterBoxes_.value(name);
        for (qsizetype i = 0; i < boxes.size(); ++i)
            settings
                .filterParameters[filterParameterKey(*kind, kind->parameters[static_cast<std::size_t>(i)])] =
                boxes[i]->value();
    }
    // The matrix in use, never a refused text: saved, it would be refused again at the next start and
    // silently replaced by the default.
    settings.customMatrix = customText_;
    settings.convolveStrategy = convolveStrategy_->currentText();
    for (const StagePage* page : stagePages_)
        settings.stagePages[QString::fromUtf8(page->kind().name().data())] = page->settings();
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
        for (const auto* kind : convolve::filterKinds()) {
            const auto& boxes = parameterBoxes_.value(QString::fromStdString(kind->name));
            for (qsizetype i = 0; i < boxes.size(); ++i) {
                const auto& parameter = kind->parameters[static_cast<std::size_t>(i)];
                boxes[i]->setValue(settings.filterParameters.value(filterParameterKey(*kind, parameter),
                                                                   parameter.defaultValue));
            }
        }
        customEditor_->setPlainText(settings.customMatrix);
        selectFilter(settings.filter);
        selectText(convolveStrategy_, settings.convolveStrategy);
        for (StagePage* page : stagePages_)
            page->applySettings(settings.stagePages.value(QString::fromUtf8(page->kind().name().data())));
    }
    emit transformChanged();
}

// ---- stages and support ----

std::optional<pipeline::RotateStage> TransformPanel::rotation() const {
    // Pipeline mode convolves and counts; it rotates nothing.
    if (!rotationGroup_->isChecked() || twoDevicesGroup_->isChecked()) return std::nullopt;
    const auto mode = static_cast<rotate::FilterMode>(sampling_->currentData().toInt());
    return pipeline::RotateStage{rotate::Params{angle(), mode, fitCanvas_->isChecked()},
                                 &strategyAt<rotate::Operation>(rotateStrategy_->currentIndex())};
}

std::optional<pipeline::ConvolveStage> TransformPanel::convolution() const {
    if (!convolutionGroup_->isChecked()) return std::nullopt;
    return pipeline::ConvolveStage{
        filter(), &strategyAt<convolve::Operation>(convolveStrategy_->currentIndex()), filterSpec()};
}

stages::StageList TransformPanel::otherStages() const {
    stages::StageList list;
    if (twoDevicesGroup_->isChecked()) return list;  // pipeline mode convolves and counts, nothing else
    for (const StagePage* page : stagePages_)
        if (auto stage = page->stage()) list.push_back(std::move(stage));
    return list;
}

StagePage* TransformPanel::stagePage(const QString& name) const {
    for (StagePage* page : stagePages_)
        if (QString::fromUtf8(page->kind().name().data()) == name) return page;
    return nullptr;
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
    // At most a chunk per row; before any image the count waits for one (a 1-pixel guess would clamp it).
    // The count the user chose comes back with a taller image: a 2-row image lowers it for itself only.
    if (!imageSize.isEmpty()) {
        const QSignalBlocker blocker(chunks_);
        chunks_->setMaximum(imageSize.height());
        chunks_->setValue(std::min(chunksWanted_, imageSize.height()));
    }
    // Another producer may not pair with the second device: pipeline mode goes off, saying why.
    if (!twoDevicesGroup_->isChecked()) return;
    const PairCheck check = checkTwoDevices();
    pairNote_->setText(check.text);
    if (!check.ok) {
        twoDevicesGroup_->setChecked(false);
        emit pipelineRefused(check.text);
    }
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

// ---- pipeline mode ----

QWidget* TransformPanel::buildTwoDevices() {
    twoDevicesGroup_ = new QGroupBox(tr("Two devices (pipeline)"), this);
    twoDevicesGroup_->setObjectName("twoDevicesGroup");
    twoDevicesGroup_->setCheckable(true);
    twoDevicesGroup_->setChecked(false);
    twoDevicesGroup_->setToolTip(
        tr("Convolve on the selected device and count the histogram on a second one, chunk by chunk, so that "
           "producing chunk k + 1 overlaps counting chunk k"));
    consumer_ = new QComboBox;
    consumer_->setObjectName("consumerDevice");
    consumer_->setToolTip(tr("The device that counts the histogram"));
    mode_ = new QComboBox;
    mode_->setObjectName("pipelineMode");
    for (const auto mode :
         {produce_consume::Mode::Auto, produce_consume::Mode::Buffer, produce_consume::Mode::Pipe})
        mode_->addItem(QString::fromUtf8(produce_consume::modeName(mode)), static_cast<int>(mode));
    mode_->setItemData(0, tr("Pipes where both devices have them, buffers otherwise"), Qt::ToolTipRole);
    mode_->setItemData(1, tr("Double-buffered chunks handed over through buffers"), Qt::ToolTipRole);
    mode_->setItemData(2, tr("OpenCL 2.0 pipes (both devices must report pipe support)"), Qt::ToolTipRole);
    chunks_ = new QSpinBox;
    chunks_->setObjectName("pipelineChunks");
    chunks_->setRange(1, std::numeric_limits<int>::max());
    chunks_->setValue(TwoDeviceStage{}.chunks);
    chunks_->setSuffix(tr(" chunks of rows"));
    pairNote_ = new QLabel;
    pairNote_->setObjectName("pairNote");
    pairNote_->setWordWrap(true);

    auto* form = new QFormLayout(twoDevicesGroup_);
    form->addRow(tr("Histogram on"), consumer_);
    form->addRow(tr("Mode"), mode_);
    form->addRow(tr("Chunks"), chunks_);
    form->addRow(pairNote_);

    connect(twoDevicesGroup_, &QGroupBox::toggled, this, &TransformPanel::twoDevicesToggled);
    // Without its convolution there is no pipeline.
    connect(convolutionGroup_, &QGroupBox::toggled, this, [this](bool on) {
        if (!on) twoDevicesGroup_->setChecked(false);
    });
    connect(consumer_, &QComboBox::currentIndexChanged, this, &TransformPanel::twoDevicesChoiceChanged);
    connect(mode_, &QComboBox::currentIndexChanged, this, &TransformPanel::twoDevicesChoiceChanged);
    connect(chunks_, &QSpinBox::valueChanged, this, [this](int chunks) {
        chunksWanted_ = chunks;
        if (twoDevicesGroup_->isChecked()) emit transformChanged();
    });
    return twoDevicesGroup_;
}

void TransformPanel::setDevices(const std::vector<DeviceInfo>& devices) {
    const QSignalBlocker blocker(consumer_);
    const QString current = consumer_->currentData().toString();
    devices_ = devices;
    consumer_->clear();
    // The selector first, as the Device panel lists them: a narrow panel cuts the name, not what tells two
    // identical devices apart.
    for (const auto& device : devices_)
        consumer_->addItem(QStringLiteral("%1 · %2").arg(QString::fromStdString(device.selector()),
                                                         QString::fromStdString(device.name)),
                           QString::fromStdString(device.selector()));
    // The device chosen before where the list still has it; else the registry's second device: two devices
    // are what pipeline mode is for.
    const int kept = current.isEmpty() ? -1 : consumer_->findData(current);
    acceptedConsumer_ = kept >= 0 ? kept : std::min(1, consumer_->count() - 1);
    consumer_->setCurrentIndex(acceptedConsumer_);
}

std::optional<TwoDeviceStage> TransformPanel::twoDevices() const {
    if (!twoDevicesGroup_->isChecked() || !convolutionGroup_->isChecked() || consumer_->currentIndex() < 0)
        return std::nullopt;
    return TwoDeviceStage{consumer_->currentData().toString(),
                          static_cast<produce_consume::Mode>(mode_->currentData().toInt()), chunks_->value()};
}

TransformPanel::PairCheck TransformPanel::checkTwoDevices() const {
    const int index = consumer_->currentIndex();
    if (!device_ || index < 0) return {false, tr("pipeline mode needs two OpenCL devices and none is known")};
    const DeviceInfo& consumer = devices_.at(static_cast<std::size_t>(index));
    try {
        const std::string note = produce_consume::checkPair(*device_, consumer);
        const auto mode = static_cast<produce_consume::Mode>(mode_->currentData().toInt());
        const produce_consume::Mode runs = produce_consume::resolveMode(mode, *device_, consumer);
        QString text = tr("Runs in %1 mode.").arg(QString::fromUtf8(produce_consume::modeName(runs)));
        if (!note.empty()) text += QLatin1Char(' ') + QString::fromStdString(note);
        return {true, text};
    } catch (const OpenClError& e) {
        return {false, QString::fromStdString(e.what())};
    }
}

void TransformPanel::twoDevicesChoiceChanged() {
    const PairCheck check = checkTwoDevices();
    if (!check.ok) {
        {
            const QSignalBlocker consumerBlocker(consumer_);
            const QSignalBlocker modeBlocker(mode_);
            consumer_->setCurrentIndex(acceptedConsumer_);
            mode_->setCurrentIndex(acceptedMode_);
        }
        emit pipelineRefused(check.text);
        return;
    }
    acceptedConsumer_ = consumer_->currentIndex();
    acceptedMode_ = mode_->currentIndex();
    pairNote_->setText(check.text);
    if (twoDevicesGroup_->isChecked()) emit transformChanged();
}

void TransformPanel::twoDevicesToggled(bool on) {
    if (on && device_ && consumer_->currentData().toString() == QString::fromStdString(device_->selector())) {
        // Two devices are what pipeline mode is for: the first other device counts, where there is one.
        for (int i = 0; i < consumer_->count(); ++i) {
            if (consumer_->itemData(i).toString() == QString::fromStdString(device_->selector())) continue;
            const QSignalBlocker blocker(consumer_);
            consumer_->setCurrentIndex(i);
            acceptedConsumer_ = i;
            break;
        }
    }
    if (on) {
        const PairCheck check = checkTwoDevices();
        if (!check.ok) {
            const QSignalBlocker blocker(twoDevicesGroup_);
            twoDevicesGroup_->setChecked(false);
            emit pipelineRefused(check.text);
            return;
        }
        pairNote_->setText(check.text);
        // The pipeline convolves on the first device: its filter and strategy are the convolution's.
        const QSignalBlocker blocker(convolutionGroup_);
        convolutionGroup_->setChecked(true);
    }
    // Pipeline mode runs convolution then histogram: the rotation waits, greyed, until it is off.
    rotationGroup_->setEnabled(!on);
    emit transformChanged();
}

}  // namespace hs::ui
