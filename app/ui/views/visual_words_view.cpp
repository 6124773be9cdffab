#include "ui/views/visual_words_view.hpp"

#include <qcustomplot.h>
#include <QBoxLayout>
#include <QCheckBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableWidget>
#include <cmath>
#include <limits>

#include "engine/runtime/error.hpp"
#include "io/image_io.hpp"
#include "io/npy.hpp"
#include "ui/views/plot_style.hpp"
#include "ui/views/view_helpers.hpp"

namespace hs::ui {

namespace {

constexpr int kMaxWords = 4096;
constexpr int kDefaultWords = 64;
constexpr int kMaxWindow = 2000;        // bow::validate's limit
constexpr int kWindowStep = 20;         // a window is a multiple of SURF's 20 samples
constexpr int kPlotMinimumHeight = 90;  // the axes, their titles and a few bars

// Distinct hues for neighbouring words: the golden-ratio walk round the colour wheel.
QColor wordColor(std::uint32_t word) {
    const double hue = std::fmod(0.12 + 0.618033988749895 * static_cast<double>(word), 1.0);
    return QColor::fromHsvF(static_cast<float>(hue), 0.85f, 1.0f, 0.85f);
}

// "1024, 4096" as counts; throws UsageError naming `what` for anything else.
std::vector<std::size_t> countsOf(const QString& text, const char* what) {
    std::vector<std::size_t> counts;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool ok = false;
        const qulonglong count = part.trimmed().toULongLong(&ok);
        if (!ok || count == 0)
            throw UsageError(std::string("sweep ") + what + ": '" + part.trimmed().toStdString() +
                             "' is not a positive count");
        counts.push_back(static_cast<std::size_t>(count));
    }
    if (counts.empty()) throw UsageError(std::string("sweep ") + what + ": give at least one count");
    return counts;
}

double milliseconds(double ns) {
    return ns / 1e6;
}

}  // namespace

// ---- the grid overlay ----

DescriptorGridOverlay::DescriptorGridOverlay(QWidget* parent) : QWidget(parent) {
    setMinimumSize(160, 120);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void DescriptorGridOverlay::setImage(std::shared_ptr<const ImageRGBA8> image) {
    image_ = std::move(image);
    picture_ = image_ ? QImage(image_->pixels.data(), image_->width, image_->height, image_->width * 4,
                               QImage::Format_RGBA8888)
                      : QImage();
    grid_ = image_ ? bow::descriptorGrid(image_->width, image_->height, params_) : bow::Grid{};
    words_.clear();
    update();
}

void DescriptorGridOverlay::setGrid(const bow::DescriptorParams& params) {
    params_ = params;
    grid_ = image_ ? bow::descriptorGrid(image_->width, image_->height, params_) : bow::Grid{};
    words_.clear();
    update();
}

void DescriptorGridOverlay::setWords(std::vector<std::uint32_t> words, std::size_t vocabularySize) {
    words_ = words.size() == grid_.count() ? std::move(words) : std::vector<std::uint32_t>{};
    vocabularySize_ = vocabularySize;
    update();
}

void DescriptorGridOverlay::setGridVisible(bool visible) {
    gridVisible_ = visible;
    update();
}

std::size_t DescriptorGridOverlay::drawnWindows() const {
    return gridVisible_ && image_ ? grid_.count() : 0;
}

void DescriptorGridOverlay::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    if (picture_.isNull()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("Open an image"));
        return;
    }
    // The image fitted into the widget, its aspect kept; the windows are drawn in image pixels.
    const double scale = std::min(static_cast<double>(width()) / picture_.width(),
                                  static_cast<double>(height()) / picture_.height());
    const QSizeF shown(picture_.width() * scale, picture_.height() * scale);
    const QPointF origin((width() - shown.width()) / 2, (height() - shown.height()) / 2);
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    painter.drawImage(QRectF(origin, shown), picture_);
    if (!gridVisible_ || grid_.count() == 0) return;
    painter.translate(origin);
    painter.scale(scale, scale);
    QPen pen(QColor(255, 255, 255, 150));
    pen.setCosmetic(true);
    for (int row = 0; row < grid_.rows; ++row) {
        for (int column = 0; column < grid_.columns; ++column) {
            const std::size_t index =
                static_cast<std::size_t>(row) * static_cast<std::size_t>(grid_.columns) +
                static_cast<std::size_t>(column);
            if (!words_.empty()) pen.setColor(wordColor(words_[index]));
            painter.setPen(pen);
            painter.drawRect(
                QRectF(params_.stride * column, params_.stride * row, params_.window, params_.window));
        }
    }
}

// ---- the tab ----

VisualWordsView::VisualWordsView(QWidget* parent) : QWidget(parent), worker_(new VisualWordsWorker(this)) {
    overlay_ = new DescriptorGridOverlay(this);
    overlay_->setObjectName(QStringLiteral("descriptorGrid"));

    histogramPlot_ = new QCustomPlot(this);
    histogramPlot_->setObjectName(QStringLiteral("wordHistogramPlot"));
    // Short enough that the tab fits the bottom dock of a 1280 × 800 window.
    histogramPlot_->setMinimumHeight(kPlotMinimumHeight);
    histogramPlot_->xAxis->setLabel(tr("word"));
    histogramPlot_->yAxis->setLabel(tr("descriptors"));
    histogramPlot_->xAxis->grid()->setVisible(false);
    // Words are whole numbers: ticks on integers only.
    QSharedPointer<QCPAxisTickerFixed> wordTicker(new QCPAxisTickerFixed);
    wordTicker->setTickStep(1);
    wordTicker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
    histogramPlot_->xAxis->setTicker(wordTicker);
    auto* bars = new QCPBars(histogramPlot_->xAxis, histogramPlot_->yAxis);
    bars->setName(tr("descriptors per word"));
    bars->setWidth(0.85);

    auto* tabs = new QTabWidget(this);
    tabs->setObjectName(QStringLiteral("visualWordsTabs"));
    tabs->addTab(histogramPlot_, tr("Word histogram"));
    tabs->addTab(buildSweepPage(), tr("Sweep"));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(buildVocabularyControls());
    layout->addWidget(stretchedSplitter(Qt::Horizontal, {{overlay_, 1}, {tabs, 1}}, this), 1);

    connect(worker_, &VisualWordsWorker::vocabularyProgress, this, [this](int iteration, qulonglong changed) {
        progress_->setValue(std::min(iteration, progress_->maximum()));
        progress_->setFormat(tr("k-means step %1: %2 changed").arg(iteration).arg(changed));
        emit vocabularyProgress(iteration, changed);
    });
    connect(worker_, &VisualWordsWorker::vocabularyReady, this, [this](const VocabularyOutcome& outcome) {
        setBuilding(false);
        setVocabulary(outcome.centroids,
                      tr("%1 (k-means over %2 descriptors, %3 step(s)%4)")
                          .arg(pendingOrigin_)
                          .arg(outcome.descriptors)
                          .arg(outcome.iterations)
                          .arg(outcome.converged ? tr(", converged") : tr(", not converged")));
    });
    connect(worker_, &VisualWordsWorker::vocabularyCancelled, this, [this] {
        setBuilding(false);
        emit vocabularyCancelled();
    });
    connect(worker_, &VisualWordsWorker::wordsReady, this, &VisualWordsView::showWords);
    connect(worker_, &VisualWordsWorker::sweepProgress, this, [this](int done, int total) {
        sweepTotal_ = total;
        sweepProgress_->setRange(0, total);
        sweepProgress_->setValue(done);
        sweepProgress_->setFormat(tr("row %1 of %2").arg(done + 1).arg(total));
    });
    connect(worker_, &VisualWordsWorker::sweepReady, this, &VisualWordsView::showSweep);
    connect(worker_, &VisualWordsWorker::failed, this, &VisualWordsView::onFailed);

    applyPlotStyle(histogramPlot_, palette());
    applyPlotStyle(sweepPlot_, palette());
    updateStrategySupport();
    setBuilding(false);
    setSweeping(false);
}

VisualWordsView::~VisualWordsView() = default;

QWidget* VisualWordsView::buildVocabularyControls() {
    auto* controls = new QWidget(this);
    imagesButton_ = new QPushButton(tr("Build from images…"), controls);
    imagesButton_->setObjectName(QStringLiteral("buildVocabulary"));
    imagesButton_->setToolTip(
        tr("Choose images: k-means over their descriptors gives a vocabulary of k words"));
    connect(imagesButton_, &QPushButton::clicked, this, &VisualWordsView::chooseImages);
    k_ = new QSpinBox(controls);
    k_->setObjectName(QStringLiteral("vocabularySize"));
    k_->setRange(1, kMaxWords);
    k_->setValue(kDefaultWords);
    k_->setPrefix(tr("k = "));
    k_->setToolTip(tr("Words of the vocabulary k-means builds"));
    window_ = new QSpinBox(controls);
    window_->setObjectName(QStringLiteral("descriptorWindow"));
    window_->setRange(kWindowStep, kMaxWindow);
    window_->setSingleStep(kWindowStep);
    window_->setValue(bow::DescriptorParams{}.window);
    window_->setPrefix(tr("window "));
    window_->setSuffix(tr(" px"));
    window_->setToolTip(tr("Side of a descriptor's square window, a multiple of 20 pixels"));
    stride_ = new QSpinBox(controls);
    stride_->setObjectName(QStringLiteral("descriptorStride"));
    stride_->setRange(1, kMaxWindow);
    stride_->setValue(bow::DescriptorParams{}.stride);
    stride_->setPrefix(tr("stride "));
    stride_->setSuffix(tr(" px"));
    stride_->setToolTip(tr("Distance between neighbouring windows"));
    cancel_ = new QPushButton(tr("Cancel"), controls);
    cancel_->setObjectName(QStringLiteral("cancelVocabulary"));
    connect(cancel_, &QPushButton::clicked, this, &VisualWordsView::cancelVocabulary);
    progress_ = new QProgressBar(controls);
    progress_->setObjectName(QStringLiteral("vocabularyProgress"));
    progress_->setRange(0, bow::KMeansParams{}.maxIterations);
    progress_->setTextVisible(true);
    load_ = new QPushButton(tr("Load…"), controls);
    load_->setObjectName(QStringLiteral("loadVocabulary"));
    load_->setToolTip(tr("Load a vocabulary: a float32 .npy array of k rows of 64 values"));
    connect(load_, &QPushButton::clicked, this, &VisualWordsView::chooseVocabularyFile);
    save_ = new QPushButton(tr("Save…"), controls);
    save_->setObjectName(QStringLiteral("saveVocabulary"));
    save_->setToolTip(tr("Save the vocabulary as a float32 .npy array"));
    connect(save_, &QPushButton::clicked, this, &VisualWordsView::chooseSaveFile);
    vocabularyLabel_ = new QLabel(tr("No vocabulary: build one from images or load a .npy file"), controls);
    vocabularyLabel_->setObjectName(QStringLiteral("vocabularyLabel"));
    vocabularyLabel_->setWordWrap(true);
    // Wrapped without height-for-width: a label that has it makes the dock's scroll area size the whole tab
    // to its preferred height (the plots' size hints) instead of the dock's, and at 1280 × 800 the tab then
    // scrolled with the plot's axis title cut to "ptors".
    QSizePolicy wrapped = vocabularyLabel_->sizePolicy();
    wrapped.setHeightForWidth(false);
    vocabularyLabel_->setSizePolicy(wrapped);

    strategy_ = new QComboBox(controls);
    strategy_->setObjectName(QStringLiteral("bowStrategy"));
    strategy_->setToolTip(tr("How descriptors are assigned to their nearest word"));
    for (const bow::Strategy* strategy : bow::strategies()) {
        strategy_->addItem(QString::fromUtf8(strategy->name()));
        strategy_->setItemData(strategy_->count() - 1, QString::fromUtf8(strategy->description()),
                               Qt::ToolTipRole);
    }
    strategy_->setCurrentText(wantedStrategy_);
    connect(strategy_, &QComboBox::activated, this, [this] { wantedStrategy_ = strategy_->currentText(); });
    connect(strategy_, &QComboBox::currentTextChanged, this, &VisualWordsView::refreshWords);
    showGrid_ = new QCheckBox(tr("Descriptor grid"), controls);
    showGrid_->setObjectName(QStringLiteral("showDescriptorGrid"));
    showGrid_->setChecked(true);
    showGrid_->setToolTip(tr("Draw each descriptor's window over the image, coloured by its word"));
    connect(showGrid_, &QCheckBox::toggled, overlay_, &DescriptorGridOverlay::setGridVisible);
    wordsLabel_ = new QLabel(controls);
    wordsLabel_->setObjectName(QStringLiteral("wordsLabel"));

    const auto descriptorsChanged = [this] {
        overlay_->setGrid(descriptorParams());
        updateStrategySupport();
        refreshWords();
    };
    // A window is a multiple of 20 pixels: a typed value snaps to the nearest one once it is entered.
    window_->setKeyboardTracking(false);
    connect(window_, &QSpinBox::valueChanged, this, [this, descriptorsChanged](int value) {
        const int snapped = std::max(kWindowStep, (value + kWindowStep / 2) / kWindowStep * kWindowStep);
        if (snapped != value) {
            window_->setValue(snapped);  // which signals again
            return;
        }
        descriptorsChanged();
    });
    stride_->setKeyboardTracking(false);
    connect(stride_, &QSpinBox::valueChanged, this, descriptorsChanged);
    connect(k_, &QSpinBox::valueChanged, this, &VisualWordsView::updateStrategySupport);

    auto* vocabularyRow = new QHBoxLayout;
    for (QWidget* widget : std::initializer_list<QWidget*>{imagesButton_, k_, window_, stride_, load_, save_})
        vocabularyRow->addWidget(widget);
    vocabularyRow->addWidget(cancel_);
    vocabularyRow->addWidget(progress_, 2);
    vocabularyRow->addStretch(1);
    auto* wordsRow = new QHBoxLayout;
    wordsRow->addWidget(new QLabel(tr("Builder"), controls));
    wordsRow->addWidget(strategy_);
    wordsRow->addWidget(showGrid_);
    // The vocabulary's state beside the builder rather than on a line of its own: one row less.
    wordsRow->addWidget(vocabularyLabel_, 1);
    wordsRow->addWidget(wordsLabel_, 1);
    for (QWidget* widget : std::initializer_list<QWidget*>{imagesButton_, k_, window_, stride_, load_, save_,
                                                           cancel_, strategy_})
        widget->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    auto* layout = new QVBoxLayout(controls);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(vocabularyRow);
    layout->addLayout(wordsRow);
    return controls;
}

QWidget* VisualWordsView::buildSweepPage() {
    auto* page = new QWidget(this);
    // Smaller than the CLI's table (bow::SweepParams' defaults), so that it finishes in seconds on a CPU.
    sweepDescriptors_ = new QLineEdit(QStringLiteral("1024, 4096"), page);
    sweepDescriptors_->setObjectName(QStringLiteral("sweepDescriptors"));
    sweepDescriptors_->setToolTip(tr("Descriptor counts, comma-separated"));
    sweepCentroids_ = new QLineEdit(QStringLiteral("16, 64"), page);
    sweepCentroids_->setObjectName(QStringLiteral("sweepCentroids"));
    sweepCentroids_->setToolTip(tr("Centroid counts, comma-separated"));
    sweepRepetitions_ = new QSpinBox(page);
    sweepRepetitions_->setObjectName(QStringLiteral("sweepRepetitions"));
    sweepRepetitions_->setRange(1, 1000);
    sweepRepetitions_->setValue(3);
    sweepRepetitions_->setPrefix(tr("repetitions: "));
    sweepRepetitions_->setToolTip(tr("Timed runs per strategy and size after an untimed warm-up"));
    runSweep_ = new QPushButton(tr("Sweep"), page);
    runSweep_->setObjectName(QStringLiteral("runSweep"));
    runSweep_->setToolTip(tr("Time every builder strategy on synthetic descriptors of each size"));
    connect(runSweep_, &QPushButton::clicked, this, &VisualWordsView::runSweep);
    cancelSweep_ = new QPushButton(tr("Cancel"), page);
    cancelSweep_->setObjectName(QStringLiteral("cancelSweep"));
    cancelSweep_->setToolTip(tr("Stop before the next strategy; the rows measured so far stay"));
    connect(cancelSweep_, &QPushButton::clicked, this, &VisualWordsView::cancelSweep);
    sweepProgress_ = new QProgressBar(page);
    sweepProgress_->setObjectName(QStringLiteral("sweepProgress"));
    sweepProgress_->setTextVisible(true);
    sweepProgress_->setMinimumWidth(sweepProgress_->fontMetrics().horizontalAdvance(tr("row 888 of 888")) *
                                    2);
    sweepLabel_ = new QLabel(page);
    sweepLabel_->setObjectName(QStringLiteral("sweepLabel"));
    auto* controls = new QHBoxLayout;
    controls->addWidget(runSweep_);
    controls->addWidget(new QLabel(tr("descriptors"), page));
    controls->addWidget(sweepDescriptors_);
    controls->addWidget(new QLabel(tr("centroids"), page));
    controls->addWidget(sweepCentroids_);
    controls->addWidget(sweepRepetitions_);
    controls->addWidget(cancelSweep_);
    controls->addWidget(sweepProgress_, 1);
    controls->addWidget(sweepLabel_, 1);

    sweepPlot_ = new QCustomPlot(page);
    sweepPlot_->setObjectName(QStringLiteral("sweepPlot"));
    sweepPlot_->setMinimumHeight(kPlotMinimumHeight);
    sweepPlot_->xAxis->setLabel(tr("descriptors × centroids"));
    sweepPlot_->yAxis->setLabel(tr("median ms"));  // short: the plot may be as low as its minimum
    sweepPlot_->yAxis->setScaleType(QCPAxis::stLogarithmic);
    sweepPlot_->yAxis->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
    sweepPlot_->xAxis->grid()->setVisible(false);
    sweepPlot_->legend->setVisible(true);
    sweepGroup_ = new QCPBarsGroup(sweepPlot_);
    sweepGroup_->setSpacingType(QCPBarsGroup::stAbsolute);
    sweepGroup_->setSpacing(1);
    QFont legendFont = sweepPlot_->legend->font();
    legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
    sweepPlot_->legend->setFont(legendFont);
    // The legend beside the bars rather than over them.
    sweepPlot_->plotLayout()->addElement(0, 1, sweepPlot_->legend);
    sweepPlot_->plotLayout()->setColumnStretchFactor(1, 0.001);

    sweepTable_ = readOnlyTable({tr("Descriptors"), tr("Centroids"), tr("Strategy"), tr("Median ms"),
                                 tr("Min ms"), tr("Max ms"), tr("Transpose ms"), tr("Speed-up"), tr("Note")},
                                page);
    sweepTable_->setObjectName(QStringLiteral("sweepTable"));

    auto* layout = new QVBoxLayout(page);
    layout->setContentsMargins(0, 4, 0, 0);
    layout->addLayout(controls);
    // The table beside the plot: below it, the page's minimum height made the whole tab scroll in a
    // 1280 × 800 window.
    layout->addWidget(stretchedSplitter(Qt::Horizontal, {{sweepPlot_, 3}, {sweepTable_, 2}}, page), 1);
    return page;
}

void VisualWordsView::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) {
        applyPlotStyle(histogramPlot_, palette());
        applyPlotStyle(sweepPlot_, palette());
    }
}

void VisualWordsView::setKMeansProbe(std::function<void()> probe) {
    worker_->setKMeansProbe(std::move(probe));
}

void VisualWordsView::setSweepProbe(std::function<void()> probe) {
    worker_->setSweepProbe(std::move(probe));
}

// ---- inputs ----

void VisualWordsView::setSource(std::shared_ptr<const ImageRGBA8> image, const QString& imagePath,
                                const std::optional<DeviceInfo>& device) {
    const bool deviceChanged =
        (device ? device->selector() : std::string()) != (device_ ? device_->selector() : std::string());
    const bool imageChanged = image != image_;
    device_ = device;
    imagePath_ = imagePath;
    if (imageChanged) {
        image_ = std::move(image);
        overlay_->setImage(image_);
    }
    if (!imageChanged && !deviceChanged) return;
    updateStrategySupport();
    refreshWords();
}

bow::DescriptorParams VisualWordsView::descriptorParams() const {
    return {window_->value(), stride_->value()};
}

void VisualWordsView::setDescriptorParams(const bow::DescriptorParams& params) {
    window_->setValue(params.window);
    stride_->setValue(params.stride);
}

void VisualWordsView::setVocabularySize(int k) {
    k_->setValue(k);
}

void VisualWordsView::setSweepSizes(const QString& descriptors, const QString& centroids) {
    sweepDescriptors_->setText(descriptors);
    sweepCentroids_->setText(centroids);
}

QString VisualWordsView::strategy() const {
    return strategy_->currentText();
}

bool VisualWordsView::setStrategy(const QString& name) {
    const int index = strategy_->findText(name);
    const auto* model = qobject_cast<const QStandardItemModel*>(strategy_->model());
    if (index < 0) return false;
    wantedStrategy_ = name;
    if (!model->item(index)->isEnabled()) return false;
    strategy_->setCurrentIndex(index);
    return true;
}

void VisualWordsView::updateStrategySupport() {
    const bow::Grid grid =
        image_ ? bow::descriptorGrid(image_->width, image_->height, descriptorParams()) : bow::Grid{};
    const bow::Shape shape{std::max<std::size_t>(grid.count(), 1),
                           vocabulary_ ? vocabulary_->rows() : static_cast<std::size_t>(k_->value())};
    auto* model = qobject_cast<QStandardItemModel*>(strategy_->model());
    const auto& strategies = bow::strategies();
    for (int i = 0; i < strategy_->count(); ++i) {
        const bow::Strategy& strategy = *strategies[static_cast<std::size_t>(i)];
        // The support rules read the shape only; the centroids themselves are not needed to ask.
        const Support support =
            supportOn<bow::Operation>(device_ ? &*device_ : nullptr, shape, bow::Matrix{}, strategy);
        model->item(i)->setEnabled(support.ok);
        model->item(i)->setToolTip(support.ok ? QString::fromUtf8(strategy.description())
                                              : QString::fromStdString(support.reason));
    }
    // The user's choice (at first the engine's default) where it runs, else the first strategy that does
    // until it runs again.
    const int wanted = strategy_->findText(wantedStrategy_);
    if (model->item(wanted)->isEnabled()) {
        strategy_->setCurrentIndex(wanted);
        return;
    }
    if (model->item(strategy_->currentIndex())->isEnabled()) return;
    for (int i = 0; i < strategy_->count(); ++i) {
        if (model->item(i)->isEnabled()) {
            strategy_->setCurrentIndex(i);
            return;
        }
    }
}

// ---- the vocabulary ----

void VisualWordsView::chooseImages() {
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Images for the vocabulary"),
                                                            lastFolder_, io::openDialogFilter());
    if (paths.isEmpty()) return;
    lastFolder_ = QFileInfo(paths.front()).absolutePath();
    buildVocabulary(paths);
}

void VisualWordsView::buildVocabulary(const QStringList& images) {
    if (building_) return;
    if (images.isEmpty()) {
        emit problemReported(tr("Cannot build a vocabulary"), tr("No images chosen for the vocabulary"));
        return;
    }
    VocabularyRequest request;
    request.images = images;
    request.kmeans.k = static_cast<std::size_t>(k_->value());
    request.descriptors = descriptorParams();
    request.device = device_ ? QString::fromStdString(device_->selector()) : QString();
    request.strategy = strategy();
    pendingOrigin_ =
        images.size() == 1 ? QFileInfo(images.front()).fileName() : tr("%1 images").arg(images.size());
    setBuilding(true);
    worker_->buildVocabulary(request);
}

void VisualWordsView::cancelVocabulary() {
    if (building_) worker_->cancelVocabulary();
}

void VisualWordsView::setBuilding(bool building) {
    building_ = building;
    progress_->setValue(0);
    progress_->setFormat(building ? tr("computing descriptors…") : QString());
    progress_->setVisible(building);
    cancel_->setVisible(building);
    for (QWidget* widget : std::initializer_list<QWidget*>{imagesButton_, k_, load_})
        widget->setEnabled(!building);
    save_->setEnabled(!building && vocabulary_);
}

bool VisualWordsView::loadVocabulary(const QString& path) {
    try {
        auto vocabulary = std::make_shared<const bow::Matrix>(io::readDescriptorArray(path));
        if (vocabulary->rows() == 0)
            throw InputError(path.toStdString() + ": the vocabulary has no words (0 rows)");
        setVocabulary(std::move(vocabulary), QFileInfo(path).fileName());
        return true;
    } catch (const Error& error) {
        emit problemReported(tr("Cannot load vocabulary"), QString::fromUtf8(error.what()));
        return false;
    }
}

void VisualWordsView::saveVocabulary(const QString& path) const {
    if (!vocabulary_) throw InputError(path.toStdString() + ": there is no vocabulary to save yet");
    io::writeDescriptorArray(path, *vocabulary_);
}

void VisualWordsView::chooseVocabularyFile() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Load vocabulary"), lastFolder_,
                                                      tr("NumPy array (*.npy);;All files (*)"));
    if (path.isEmpty()) return;
    lastFolder_ = QFileInfo(path).absolutePath();
    loadVocabulary(path);
}

void VisualWordsView::chooseSaveFile() {
    QString path =
        QFileDialog::getSaveFileName(this, tr("Save vocabulary"), lastFolder_, tr("NumPy array (*.npy)"));
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".npy");
    lastFolder_ = QFileInfo(path).absolutePath();
    try {
        saveVocabulary(path);
    } catch (const Error& error) {
        emit problemReported(tr("Cannot save vocabulary"), QString::fromUtf8(error.what()));
    }
}

void VisualWordsView::setVocabulary(std::shared_ptr<const bow::Matrix> vocabulary, const QString& origin) {
    vocabulary_ = std::move(vocabulary);
    vocabularyOrigin_ = origin;
    vocabularyLabel_->setText(tr("Vocabulary: %1 words from %2").arg(vocabulary_->rows()).arg(origin));
    save_->setEnabled(!building_);
    updateStrategySupport();
    emit vocabularyChanged();
    refreshWords();
}

// ---- the words of the image ----

void VisualWordsView::refreshWords() {
    if (!image_ || !vocabulary_) return;
    WordsRequest request;
    request.image = image_;
    request.vocabulary = vocabulary_;
    request.descriptors = descriptorParams();
    request.device = device_ ? QString::fromStdString(device_->selector()) : QString();
    request.strategy = strategy();
    wordsLabel_->setText(tr("computing the words…"));
    worker_->assignWords(request);
}

void VisualWordsView::showWords(const WordsOutcome& outcome) {
    words_ = outcome;
    const std::size_t k = outcome.request.vocabulary->rows();
    overlay_->setWords(outcome.memberships, k);
    QVector<double> keys;
    QVector<double> values;
    double highest = 0;
    for (std::size_t word = 0; word < outcome.histogram.size(); ++word) {
        keys << static_cast<double>(word);
        values << static_cast<double>(outcome.histogram[word]);
        highest = std::max(highest, values.back());
    }
    auto* bars = qobject_cast<QCPBars*>(histogramPlot_->plottable(0));
    bars->setData(keys, values, true);
    bars->setPen(Qt::NoPen);
    bars->setBrush(seriesColor(0));
    histogramPlot_->xAxis->setRange(-0.5, static_cast<double>(k) - 0.5);
    histogramPlot_->yAxis->setRange(0, std::max(1.0, highest * 1.05));
    histogramPlot_->replot(QCustomPlot::rpQueuedReplot);
    const double kernelMs = static_cast<double>(totalNs(outcome.timings, Stage::Kernel)) / 1e6;
    wordsLabel_->setText(tr("%1 descriptors (%2 × %3), %4 words, kernels %5")
                             .arg(outcome.grid.count())
                             .arg(outcome.grid.columns)
                             .arg(outcome.grid.rows)
                             .arg(k)
                             .arg(millisecondsText(kernelMs)));
    emit wordsShown();
}

QVector<double> VisualWordsView::plottedHistogram() const {
    QVector<double> values;
    const auto* bars = qobject_cast<const QCPBars*>(histogramPlot_->plottable(0));
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it) values << it->value;
    return values;
}

io::WordsContext VisualWordsView::wordsContext() const {
    io::WordsContext context;
    if (!words_) return context;
    const WordsRequest& request = words_->request;
    context.imagePath = imagePath_;
    context.imageWidth = request.image->width;
    context.imageHeight = request.image->height;
    context.device = request.device.isEmpty() ? std::nullopt : device_;
    context.strategy = request.strategy;
    context.window = request.descriptors.window;
    context.stride = request.descriptors.stride;
    context.vocabulary = vocabularyOrigin_;
    return context;
}

// ---- the sweep ----

void VisualWordsView::runSweep() {
    bow::SweepParams params;
    try {
        params.descriptorCounts = countsOf(sweepDescriptors_->text(), "descriptors");
        params.centroidCounts = countsOf(sweepCentroids_->text(), "centroids");
    } catch (const Error& error) {
        emit problemReported(tr("Cannot sweep"), QString::fromUtf8(error.what()));
        return;
    }
    params.repetitions = sweepRepetitions_->value();
    setSweeping(true);
    worker_->runSweep(params, device_ ? QString::fromStdString(device_->selector()) : QString());
}

void VisualWordsView::cancelSweep() {
    if (sweeping_) worker_->cancelSweep();
}

void VisualWordsView::setSweeping(bool sweeping) {
    sweeping_ = sweeping;
    if (sweeping) sweepTotal_ = 0;
    runSweep_->setText(sweeping ? tr("Sweeping…") : tr("Sweep"));
    for (QWidget* widget :
         std::initializer_list<QWidget*>{runSweep_, sweepDescriptors_, sweepCentroids_, sweepRepetitions_})
        widget->setEnabled(!sweeping);
    cancelSweep_->setVisible(sweeping);
    sweepProgress_->setValue(0);
    sweepProgress_->setFormat(sweeping ? tr("starting…") : QString());
    sweepProgress_->setVisible(sweeping);
    sweepLabel_->setVisible(!sweeping);
}

void VisualWordsView::showSweep(const SweepOutcome& outcome) {
    sweep_ = outcome;
    setSweeping(false);
    sweepLabel_->setText(
        outcome.cancelled ? tr("Cancelled: %1 of %2 rows measured").arg(outcome.rows.size()).arg(sweepTotal_)
                          : QString());

    // One group of bars per problem size, in the sweep's order; one bar per strategy inside each group.
    std::vector<std::pair<std::size_t, std::size_t>> sizes;
    std::vector<std::string> strategyOrder;
    for (const auto& row : outcome.rows) {
        const std::pair size{row.descriptors, row.centroids};
        if (std::find(sizes.begin(), sizes.end(), size) == sizes.end()) sizes.push_back(size);
        if (std::find(strategyOrder.begin(), strategyOrder.end(), row.strategy) == strategyOrder.end())
            strategyOrder.push_back(row.strategy);
    }
    sweepPlot_->clearPlottables();
    const double barWidth = 0.8 / static_cast<double>(std::max<std::size_t>(strategyOrder.size(), 1));
    double lowest = std::numeric_limits<double>::infinity();
    double highest = 0;
    for (std::size_t s = 0; s < strategyOrder.size(); ++s) {
        auto* bars = new QCPBars(sweepPlot_->xAxis, sweepPlot_->yAxis);
        bars->setName(QString::fromStdString(strategyOrder[s]));
        bars->setWidth(barWidth);
        bars->setPen(Qt::NoPen);
        bars->setBrush(seriesColor(static_cast<int>(s)));
        bars->setBarsGroup(sweepGroup_);
        for (const auto& row : outcome.rows) {
            if (row.strategy != strategyOrder[s] || !row.kernel) continue;
            const auto at = std::find(sizes.begin(), sizes.end(), std::pair{row.descriptors, row.centroids});
            const double ms = std::max(milliseconds(row.kernel->median), 1e-6);  // a log axis has no 0
            bars->addData(static_cast<double>(at - sizes.begin()), ms);
            lowest = std::min(lowest, ms);
            highest = std::max(highest, ms);
        }
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    for (std::size_t i = 0; i < sizes.size(); ++i)
        ticker->addTick(static_cast<double>(i),
                        QStringLiteral("%1 × %2").arg(sizes[i].first).arg(sizes[i].second));
    sweepPlot_->xAxis->setTicker(ticker);
    sweepPlot_->xAxis->setRange(-0.5, static_cast<double>(sizes.size()) - 0.5);
    if (highest > 0) sweepPlot_->yAxis->setRange(lowest / 2, highest * 4);
    sweepPlot_->replot(QCustomPlot::rpQueuedReplot);

    sweepTable_->setRowCount(0);
    const auto msText = [](const std::optional<measure::Summary>& summary, double measure::Summary::*figure) {
        return summary ? millisecondsText(milliseconds((*summary).*figure)) : QStringLiteral("–");
    };
    for (const auto& row : outcome.rows) {
        const int r = sweepTable_->rowCount();
        sweepTable_->insertRow(r);
        const QString cells[] = {
            QString::number(row.descriptors),
            QString::number(row.centroids),
            QString::fromStdString(row.strategy),
            msText(row.kernel, &measure::Summary::median),
            msText(row.kernel, &measure::Summary::min),
            msText(row.kernel, &measure::Summary::max),
            msText(row.transpose, &measure::Summary::median),
            row.speedupOverGpu1 ? QString::number(*row.speedupOverGpu1, 'f', 2) + QStringLiteral("×")
                                : QStringLiteral("–"),
            QString::fromStdString(row.detail),
        };
        for (int c = 0; c < static_cast<int>(std::size(cells)); ++c)
            sweepTable_->setItem(r, c,
                                 c == 2 || c == 8 ? tableCell(cells[c], Qt::AlignLeft | Qt::AlignVCenter)
                                                  : tableCell(cells[c]));
    }
    emit sweepShown();
    if (outcome.cancelled) emit sweepCancelled();
}

void VisualWordsView::onFailed(VisualWordsJob job, const QString& message) {
    switch (job) {
        case VisualWordsJob::Vocabulary:
            setBuilding(false);
            emit problemReported(tr("Cannot build a vocabulary"), message);
            break;
        case VisualWordsJob::Words:
            wordsLabel_->setText(tr("the words could not be computed"));
            emit problemReported(tr("Cannot compute the visual words"), message);
            break;
        case VisualWordsJob::Sweep:
            setSweeping(false);
            emit problemReported(tr("Cannot sweep"), message);
            break;
    }
}

}  // namespace hs::ui
