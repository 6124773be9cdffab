#include "ui/views/scope_view.hpp"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <numbers>
#include <sstream>

#include "engine/runtime/error.hpp"
#include "engine/util/json_writer.hpp"
#include "io/npy.hpp"
#include "ui/model/run_model.hpp"
#include "ui/views/document_render.hpp"

namespace hs::ui {

namespace {

constexpr std::array<scope::Kind, 3> kKinds = {scope::Kind::Waveform, scope::Kind::Parade,
                                               scope::Kind::Vectorscope};
constexpr std::array<scope::Channel, 4> kChannels = {scope::Channel::Luma, scope::Channel::R,
                                                     scope::Channel::G, scope::Channel::B};

std::size_t indexOf(scope::Kind kind) {
    return static_cast<std::size_t>(kind);
}

QString kindText(scope::Kind kind) {
    switch (kind) {
        case scope::Kind::Waveform:
            return QObject::tr("Waveform");
        case scope::Kind::Parade:
            return QObject::tr("Parade");
        case scope::Kind::Vectorscope:
            return QObject::tr("Vectorscope");
    }
    return {};
}

QColor tintOf(scope::Channel channel) {
    switch (channel) {
        case scope::Channel::R:
            return QColor(255, 64, 64);
        case scope::Channel::G:
            return QColor(64, 255, 64);
        case scope::Channel::B:
            return QColor(96, 128, 255);
        case scope::Channel::A:  // no scope counts alpha
        case scope::Channel::Luma:
            break;
    }
    return QColor(220, 255, 220);
}

[[noreturn]] void fail(const QString& path, const QString& reason) {
    throw InputError((path + QStringLiteral(": ") + reason).toStdString());
}

}  // namespace

QImage scopeIntensity(const scope::Counts& counts, bool logIntensity) {
    QImage image(counts.columns * counts.planes, counts.rows, QImage::Format_RGB32);
    image.fill(Qt::black);
    const std::uint32_t largest =
        counts.counts.empty() ? 0 : *std::max_element(counts.counts.begin(), counts.counts.end());
    if (largest == 0) return image;
    const double logLargest = std::log1p(static_cast<double>(largest));
    for (int plane = 0; plane < counts.planes; ++plane) {
        const scope::Channel channel = counts.kind == scope::Kind::Parade ? kChannels[std::size_t(plane) + 1]
                                       : counts.kind == scope::Kind::Waveform ? counts.channel
                                                                              : scope::Channel::Luma;
        const QColor tint = counts.kind == scope::Kind::Vectorscope ? QColor(Qt::white) : tintOf(channel);
        for (int row = 0; row < counts.rows; ++row) {
            auto* line = reinterpret_cast<QRgb*>(image.scanLine(counts.rows - 1 - row));
            for (int column = 0; column < counts.columns; ++column) {
                const std::uint32_t count = counts.at(plane, row, column);
                if (count == 0) continue;
                const double level = logIntensity ? std::log1p(static_cast<double>(count)) / logLargest
                                                  : static_cast<double>(count) / largest;
                // A single count stays visible in linear mode beside a dominant cell.
                const double shown = std::max(level, 0.15);
                line[plane * counts.columns + column] =
                    qRgb(int(tint.red() * shown), int(tint.green() * shown), int(tint.blue() * shown));
            }
        }
    }
    return image;
}

namespace {

// A label's vertical centre: on its line, moved inside the area where the line is at its edge.
double labelCentre(double lineY, const QRectF& area, double textHeight) {
    return std::clamp(lineY, area.top() + textHeight / 2, area.bottom() - textHeight / 2);
}

}  // namespace

std::vector<int> graticuleLabels(double areaHeight, double textHeight) {
    // 0 and 100 % first (the range), then 50, then 25 and 75: at small sizes the middle labels give way.
    constexpr std::array<int, 5> kPriority = {0, 100, 50, 25, 75};
    constexpr double kGap = 2;  // pixels between two labels' plates
    const QRectF area(0, 0, 1, areaHeight);
    std::vector<int> shown;
    std::vector<double> centres;
    for (const int percent : kPriority) {
        if (textHeight + 2 * kGap > areaHeight) break;
        const double line = (255 - 255.0 * percent / 100 + 0.5) * areaHeight / 256;
        const double centre = labelCentre(line, area, textHeight);
        const bool overlaps = std::any_of(centres.begin(), centres.end(), [&](double other) {
            return std::abs(other - centre) < textHeight + kGap;
        });
        if (overlaps) continue;
        shown.push_back(percent);
        centres.push_back(centre);
    }
    std::sort(shown.begin(), shown.end());
    return shown;
}

QImage shrunkByMaximum(const QImage& image, QSize size) {
    QImage out(size, QImage::Format_RGB32);
    out.fill(Qt::black);
    const QImage source = image.convertToFormat(QImage::Format_RGB32);
    for (int y = 0; y < source.height(); ++y) {
        const auto* in = reinterpret_cast<const QRgb*>(source.constScanLine(y));
        auto* line = reinterpret_cast<QRgb*>(out.scanLine(y * size.height() / source.height()));
        for (int x = 0; x < source.width(); ++x) {
            QRgb& cell = line[x * size.width() / source.width()];
            cell = qRgb(std::max(qRed(cell), qRed(in[x])), std::max(qGreen(cell), qGreen(in[x])),
                        std::max(qBlue(cell), qBlue(in[x])));
        }
    }
    return out;
}

std::array<ChromaTarget, 6> colourBarTargets() {
    constexpr int k = 191;  // 75 % of 255
    const auto target = [](const char* name, int r, int g, int b) {
        return ChromaTarget{QString::fromLatin1(name), scope::cb(r, g, b), scope::cr(r, g, b)};
    };
    return {target("R", k, 0, 0),  target("Mg", k, 0, k), target("B", 0, 0, k),
            target("Cy", 0, k, k), target("G", 0, k, 0),  target("Yl", k, k, 0)};
}

// ---- ScopePane ----

ScopePane::ScopePane(scope::Kind kind, QWidget* parent) : QWidget(parent), kind_(kind) {
    setMouseTracking(true);
    // Small enough to share the right area with the histogram on a 1280 × 800 screen; graticuleLabels
    // thins the labels out at such heights.
    setMinimumSize(kind == scope::Kind::Vectorscope ? QSize(120, 120) : QSize(200, 60));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ScopePane::setCounts(std::optional<scope::Counts> counts, bool logIntensity) {
    counts_ = std::move(counts);
    intensity_ = counts_ ? scopeIntensity(*counts_, logIntensity) : QImage();
    update();
}

QSize ScopePane::sizeHint() const {
    return kind_ == scope::Kind::Vectorscope ? QSize(240, 240) : QSize(360, 180);
}

QRectF ScopePane::scopeArea() const {
    return areaIn(kind_, rect());
}

QRectF ScopePane::areaIn(scope::Kind kind, const QRectF& whole) {
    if (kind != scope::Kind::Vectorscope) return whole;
    const double side = std::min(whole.width(), whole.height());
    return QRectF(whole.center() - QPointF(side / 2, side / 2), QSizeF(side, side));
}

QString ScopePane::describe(QPointF position) const {
    const QRectF area = scopeArea();
    if (!counts_ || area.width() <= 0 || area.height() <= 0) return {};
    const int cellsAcross = counts_->columns * counts_->planes;
    const int x = static_cast<int>(std::floor((position.x() - area.left()) * cellsAcross / area.width()));
    const int y = static_cast<int>(std::floor((position.y() - area.top()) * counts_->rows / area.height()));
    if (x < 0 || x >= cellsAcross || y < 0 || y >= counts_->rows) return {};
    const int plane = x / counts_->columns;
    const int column = x % counts_->columns;
    const int row = counts_->rows - 1 - y;
    const std::uint32_t count = counts_->at(plane, row, column);
    if (kind_ == scope::Kind::Vectorscope)
        return tr("Cb %1  Cr %2  count %3").arg(column).arg(row).arg(count);
    const QString channel = kind_ == scope::Kind::Parade
                                ? QString::fromUtf8(scope::channelName(kChannels[std::size_t(plane) + 1]))
                                : QString::fromUtf8(scope::channelName(counts_->channel));
    return tr("%1 value %2  column %3  count %4").arg(channel).arg(row).arg(column).arg(count);
}

void ScopePane::paintScope(QPainter& painter, const QRectF& area) const {
    painter.fillRect(area, Qt::black);
    if (!intensity_.isNull()) {
        // A raster smaller than the counts gets the brightest cell of each block (drawImage would drop whole
        // rows and columns of cells, and a lone count with them); a PDF or an SVG holds every cell.
        const QPaintEngine* engine = painter.paintEngine();
        const bool vector =
            engine && (engine->type() == QPaintEngine::Pdf || engine->type() == QPaintEngine::SVG);
        const QSizeF onDevice = painter.transform().mapRect(area).size();
        const QSize shrunk(std::min(intensity_.width(), static_cast<int>(std::ceil(onDevice.width()))),
                           std::min(intensity_.height(), static_cast<int>(std::ceil(onDevice.height()))));
        painter.drawImage(area, vector || shrunk == intensity_.size() || shrunk.isEmpty()
                                    ? intensity_
                                    : shrunkByMaximum(intensity_, shrunk));
    }
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing);
    // Dashed, so that a trace on a line (the 75 % bars lie on the 75 % line) shows between the dashes.
    QPen pen(QColor(255, 200, 80, 150), 0, Qt::DashLine);
    pen.setCosmetic(true);
    painter.setPen(pen);
    QFont font = painter.font();
    font.setPointSizeF(kGraticulePointSize);
    painter.setFont(font);
    if (kind_ == scope::Kind::Vectorscope) {
        // Cb across, Cr upwards, each cell 1/256 of the side; a chroma's point is its cell's centre.
        const auto at = [&area](double cb, double cr) {
            return QPointF(area.left() + (cb + 0.5) * area.width() / 256,
                           area.top() + (255 - cr + 0.5) * area.height() / 256);
        };
        const QPointF centre = at(128, 128);
        painter.drawLine(at(0, 128), at(255, 128));
        painter.drawLine(at(128, 0), at(128, 255));
        painter.drawEllipse(centre, area.width() / 2, area.height() / 2);
        for (const ChromaTarget& target : colourBarTargets()) {
            const QPointF point = at(target.cb, target.cr);
            painter.drawRect(QRectF(point - QPointF(4, 4), QSizeF(8, 8)));
            painter.drawText(point + QPointF(6, -6), target.name);
        }
        const double radians = kSkinToneDegrees * std::numbers::pi / 180;
        painter.drawLine(centre, at(128 + 127 * std::cos(radians), 128 + 127 * std::sin(radians)));
    } else {
        const QFontMetricsF metrics(font, painter.device());
        const double textHeight = metrics.height();
        const auto lineAt = [&area](int percent) {
            return area.top() + (255 - 255.0 * percent / 100 + 0.5) * area.height() / 256;
        };
        for (const int percent : kGraticulePercents)
            painter.drawLine(QPointF(area.left(), lineAt(percent)), QPointF(area.right(), lineAt(percent)));
        // Each label sits on a dark plate at the left end of its line (inside the area at 0 and 100 %), so
        // that it reads over a bright trace.
        painter.setPen(QColor(255, 200, 80));
        for (const int percent : graticuleLabels(area.height(), textHeight)) {
            const QString text = QStringLiteral("%1%").arg(percent);
            const double centre = labelCentre(lineAt(percent), area, textHeight);
            const QRectF plate(area.left() + 2, centre - textHeight / 2, metrics.horizontalAdvance(text) + 4,
                               textHeight);
            painter.fillRect(plate, QColor(0, 0, 0, 170));
            painter.drawText(plate, Qt::AlignCenter, text);
        }
        painter.setPen(pen);
        if (kind_ == scope::Kind::Parade)
            for (int plane = 1; plane < 3; ++plane) {
                const double x = area.left() + area.width() * plane / 3;
                painter.drawLine(QPointF(x, area.top()), QPointF(x, area.bottom()));
            }
    }
    painter.restore();
}

void ScopePane::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    paintScope(painter, scopeArea());
}

void ScopePane::mouseMoveEvent(QMouseEvent* event) {
    emit hovered(describe(event->position()));
}

void ScopePane::leaveEvent(QEvent*) {
    emit hovered({});
}

// ---- ScopeView ----

ScopeView::ScopeView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    // Tight: the dock shares its area with the histogram, and every pixel saved goes to the panes.
    layout->setContentsMargins(2, 2, 2, 2);
    layout->setSpacing(2);
    auto* toolbar = new QHBoxLayout;
    for (const scope::Kind kind : kKinds) {
        auto* box = new QCheckBox(kindText(kind));
        box->setChecked(kind == scope::Kind::Waveform);
        shown_[indexOf(kind)] = box;
        toolbar->addWidget(box);
        connect(box, &QCheckBox::toggled, this, [this] {
            refresh();
            emit requestChanged();
        });
    }
    toolbar->addStretch();
    layout->addLayout(toolbar);
    // A second row: the dock stays as narrow as the histogram's.
    toolbar = new QHBoxLayout;
    channel_ = new QComboBox;
    for (const scope::Channel channel : kChannels)
        channel_->addItem(QString::fromUtf8(scope::channelName(channel)));
    channel_->setToolTip(tr("The waveform's channel"));
    toolbar->addWidget(channel_);
    connect(channel_, &QComboBox::currentIndexChanged, this, &ScopeView::requestChanged);
    log_ = new QCheckBox(tr("Log"));
    log_->setToolTip(tr("Brightness by the logarithm of the count"));
    toolbar->addWidget(log_);
    connect(log_, &QCheckBox::toggled, this, &ScopeView::refresh);
    auto* clear = new QPushButton(tr("Clear region"));
    clear->setToolTip(
        tr("Count the whole image again (Esc on the image; Shift+drag on the image draws one)"));
    toolbar->addWidget(clear);
    connect(clear, &QPushButton::clicked, this, &ScopeView::clearRegionRequested);
    // The hover readout ends the row: the panes keep every other pixel of a dock that shares its area.
    readout_ = new QLabel;
    readout_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    readout_->setMinimumWidth(0);
    readout_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    toolbar->addWidget(readout_, 1);
    layout->addLayout(toolbar);
    panesLayout_ = new QBoxLayout(QBoxLayout::TopToBottom);
    layout->addLayout(panesLayout_, 1);
    for (const scope::Kind kind : kKinds) {
        auto* pane = new ScopePane(kind);
        panes_[indexOf(kind)] = pane;
        panesLayout_->addWidget(pane, 1);
        connect(pane, &ScopePane::hovered, this, [this](const QString& text) { readout_->setText(text); });
    }
    addExportActions();
    refresh();
}

void ScopeView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // Side by side in a wide dock (the bottom area), stacked in a tall one (a side area): each pane keeps a
    // useful height, and the vectorscope its square.
    panesLayout_->setDirection(width() >= 2 * height() ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
}

void ScopeView::follow(const RunModel& model) {
    model_ = &model;
    connect(&model, &RunModel::scopesChanged, this, [this] { setCounts(model_->scopes()); });
    setCounts(model.scopes());
}

void ScopeView::setCounts(const std::vector<scope::Counts>& counts) {
    counts_ = counts;
    refresh();
}

void ScopeView::refresh() {
    for (const scope::Kind kind : kKinds) {
        ScopePane* pane = panes_[indexOf(kind)];
        pane->setVisible(shown_[indexOf(kind)]->isChecked());
        std::optional<scope::Counts> found;
        for (const auto& counts : counts_)
            if (counts.kind == kind) found = counts;
        pane->setCounts(std::move(found), log_->isChecked());
    }
    for (std::size_t i = 0; i < kKinds.size(); ++i) {
        exportActions_[static_cast<int>(2 * i)]->setEnabled(panes_[i]->counts().has_value());
        exportActions_[static_cast<int>(2 * i + 1)]->setEnabled(panes_[i]->counts().has_value());
    }
}

std::vector<scope::Params> ScopeView::requestedScopes() const {
    std::vector<scope::Params> list;
    for (const scope::Kind kind : kKinds) {
        if (!scopeShown(kind)) continue;
        scope::Params params;
        params.kind = kind;
        params.channel = kChannels[static_cast<std::size_t>(std::max(channel_->currentIndex(), 0))];
        list.push_back(params);
    }
    return list;
}

void ScopeView::setScopeShown(scope::Kind kind, bool shown) {
    shown_[indexOf(kind)]->setChecked(shown);
}

bool ScopeView::scopeShown(scope::Kind kind) const {
    return shown_[indexOf(kind)]->isChecked();
}

void ScopeView::setWaveformChannel(scope::Channel channel) {
    channel_->setCurrentIndex(
        static_cast<int>(std::find(kChannels.begin(), kChannels.end(), channel) - kChannels.begin()));
}

void ScopeView::setLogIntensity(bool on) {
    log_->setChecked(on);
}

bool ScopeView::logIntensity() const {
    return log_->isChecked();
}

ScopePane* ScopeView::pane(scope::Kind kind) const {
    return panes_[indexOf(kind)];
}

QString ScopeView::readout() const {
    return readout_->text();
}

QString ScopeView::titleOf(scope::Kind kind) const {
    QString title = kindText(kind);
    const auto& counts = pane(kind)->counts();
    if (kind == scope::Kind::Waveform && counts)
        title += QStringLiteral(" (%1)").arg(QString::fromUtf8(scope::channelName(counts->channel)));
    if (model_ && !model_->histogramContext().imagePath.isEmpty())
        title = tr("%1 of %2").arg(title, QFileInfo(model_->histogramContext().imagePath).fileName());
    return title;
}

QString ScopeView::contextOf(scope::Kind kind) const {
    QStringList parts;
    if (model_) {
        const io::HistogramContext& context = model_->histogramContext();
        parts << tr("%1 × %2 pixels").arg(context.imageWidth).arg(context.imageHeight);
        if (!context.stages.isEmpty()) parts << tr("after %1").arg(context.stages.join(QStringLiteral(", ")));
        parts << (context.roi ? tr("region %1").arg(QString::fromStdString(context.roi->text()))
                              : tr("whole image"));
        if (context.ignoreTransparent) parts << tr("transparent pixels left out");
        parts << (context.device ? QString::fromStdString(context.device->name) : tr("no OpenCL device"));
    }
    if (const auto& counts = pane(kind)->counts(); counts && kind != scope::Kind::Vectorscope)
        parts << tr("%1 columns").arg(counts->columns);
    parts << (logIntensity() ? tr("log intensity") : tr("linear intensity"));
    return parts.join(QStringLiteral(" — "));
}

void ScopeView::paintDocument(QPainter& painter, scope::Kind kind, QSizeF size) const {
    constexpr double kTitleHeight = 26;
    constexpr double kContextHeight = 20;
    painter.fillRect(QRectF(QPointF(0, 0), size), Qt::white);
    painter.setPen(Qt::black);
    QFont font = painter.font();
    font.setPointSizeF(11);
    font.setBold(true);
    painter.setFont(font);
    painter.drawText(QRectF(0, 0, size.width(), kTitleHeight), Qt::AlignCenter, titleOf(kind));
    font.setPointSizeF(8);
    font.setBold(false);
    painter.setFont(font);
    painter.drawText(QRectF(0, kTitleHeight, size.width(), kContextHeight), Qt::AlignCenter, contextOf(kind));
    const QRectF below(0, kTitleHeight + kContextHeight, size.width(),
                       size.height() - kTitleHeight - kContextHeight);
    pane(kind)->paintScope(painter, ScopePane::areaIn(kind, below));
}

QSize ScopeView::documentSize(scope::Kind kind) {
    return kind == scope::Kind::Vectorscope ? QSize(640, 686) : QSize(1000, 560);
}

QImage ScopeView::renderWithTitle(scope::Kind kind, QSize size) const {
    QImage image(size, QImage::Format_RGB32);
    QPainter painter(&image);
    paintDocument(painter, kind, QSizeF(size));
    return image;
}

void ScopeView::exportImage(scope::Kind kind, const QString& path) const {
    if (!pane(kind)->counts()) fail(path, tr("no %1 counted yet").arg(kindText(kind)));
    const QSize size = documentSize(kind);
    io::writeFileAtomically(path, renderDocument(QFileInfo(path).suffix().toLower(), path, size, kLayoutDpi,
                                                 titleOf(kind), [this, kind, size](QCPPainter& painter) {
                                                     paintDocument(painter, kind, QSizeF(size));
                                                 }));
}

void ScopeView::exportCounts(scope::Kind kind, const QString& path) const {
    const auto& counts = pane(kind)->counts();
    if (!counts) fail(path, tr("no %1 counted yet").arg(kindText(kind)));
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("npy")) {
        io::writeUint32Array(path, counts->shape(), counts->counts);
        return;
    }
    QByteArray bytes;
    if (suffix == QLatin1String("json")) {
        std::ostringstream text;
        JsonWriter json(text);
        json.beginObject().field("kind", scope::kindName(counts->kind));
        if (counts->kind == scope::Kind::Waveform) json.field("channel", scope::channelName(counts->channel));
        json.key("shape").beginArray();
        for (const auto dimension : counts->shape()) json.value(static_cast<std::uint64_t>(dimension));
        json.endArray().key("counts");
        io::writeScopeCountsJson(json, *counts);
        if (model_) {
            json.key("context");
            io::writeScopeContextJson(json, model_->histogramContext());
        }
        json.endObject();
        bytes = QByteArray::fromStdString(text.str());
    } else if (suffix == QLatin1String("csv")) {
        // One row per (plane,) row; the columns are the column bins (a vectorscope's Cb).
        if (model_ && model_->histogramContext().roi)
            bytes += "# roi: " + QByteArray::fromStdString(model_->histogramContext().roi->text()) + '\n';
        bytes += counts->planes > 1 ? "channel,value" : (kind == scope::Kind::Vectorscope ? "cr" : "value");
        for (int column = 0; column < counts->columns; ++column) bytes += ',' + QByteArray::number(column);
        bytes += '\n';
        for (int plane = 0; plane < counts->planes; ++plane)
            for (int row = 0; row < counts->rows; ++row) {
                if (counts->planes > 1) {
                    const std::string_view channel = scope::channelName(kChannels[std::size_t(plane) + 1]);
                    bytes += QByteArray(channel.data(), qsizetype(channel.size())) + ',';
                }
                bytes += QByteArray::number(row);
                for (int column = 0; column < counts->columns; ++column)
                    bytes += ',' + QByteArray::number(counts->at(plane, row, column));
                bytes += '\n';
            }
    } else {
        fail(path, tr("unknown format '%1': .csv, .json or .npy").arg(suffix));
    }
    io::writeFileAtomically(path, bytes);
}

void ScopeView::addExportActions() {
    for (const scope::Kind kind : kKinds) {
        const QString name = kindText(kind);
        const auto add = [this, kind](const QString& text, const QString& filters, bool image) {
            auto* action = new QAction(text, this);
            connect(action, &QAction::triggered, this, [this, kind, text, filters, image] {
                const QString path = QFileDialog::getSaveFileName(this, text, {}, filters);
                if (path.isEmpty()) return;
                try {
                    image ? exportImage(kind, path) : exportCounts(kind, path);
                    emit exported(tr("Exported to %1").arg(path));
                } catch (const Error& error) {
                    QMessageBox::warning(this, text, QString::fromStdString(error.what()));
                }
            });
            exportActions_ << action;
        };
        add(tr("%1 Image…").arg(name), tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)"),
            true);
        add(tr("%1 Counts…").arg(name), tr("NumPy array (*.npy);;CSV (*.csv);;JSON (*.json)"), false);
    }
}

}  // namespace hs::ui
