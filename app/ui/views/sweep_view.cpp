#include "ui/views/sweep_view.hpp"

#include <qcustomplot.h>
#include <QComboBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QToolTip>
#include <QVBoxLayout>
#include <cmath>
#include <limits>

#include "engine/ops/tuning.hpp"
#include "engine/runtime/device_properties.hpp"
#include "engine/runtime/error.hpp"
#include "engine/util/json_writer.hpp"
#include "io/export.hpp"
#include "ui/views/plot_style.hpp"
#include "ui/work/sweep_worker.hpp"

namespace hs::ui {

namespace {

// The kinds whose strategies declare tunables, in the order a bare strategy name is looked up.
const char* const kSweptKinds[] = {"histogram", "rotate", "convolve"};

// What a rotation or convolution sweeps through: nearest sampling and an integer filter, whose results equal
// the CPU reference bit for bit.
stages::Values defaultValues(const std::string& kind) {
    if (kind == "rotate") return {{"angle", "30"}, {"sampling", "nearest"}};
    if (kind == "convolve") return {{"filter", "box:3"}};
    return {};
}

const StrategyInfo* strategyOf(const QString& item) {
    const auto slash = item.indexOf('/');
    const auto& kind = stages::findKind(item.left(slash).toStdString());
    for (const auto* strategy : kind.strategies())
        if (QString::fromUtf8(strategy->name()) == item.mid(slash + 1)) return strategy;
    return nullptr;
}

// Values to start from: powers of two within the tunable's range, a few of them.
QString suggestedValues(const Tunable& tunable) {
    QStringList values;
    const int first = tunable.max >= 256 ? 16 : tunable.min;
    for (int v = std::max(first, tunable.min); v <= tunable.max && values.size() < 5; v *= 2)
        values << QString::number(v);
    return values.join(',');
}

QString pointText(const lab::Point& point) {
    QStringList parts;
    for (const auto& [name, value] : point)
        parts << QString::fromStdString(name) + '=' + QString::fromStdString(value);
    return parts.join(' ');
}

}  // namespace

SweepView::SweepView(QWidget* parent) : QWidget(parent), worker_(new SweepWorker(this)) {
    setObjectName(QStringLiteral("sweepView"));
    strategy_ = new QComboBox;
    strategy_->setObjectName(QStringLiteral("sweepStrategy"));
    for (const char* kindName : kSweptKinds) {
        const auto& kind = stages::findKind(kindName);
        for (const auto* strategy : kind.strategies()) {
            if (strategy->tunables().empty()) continue;
            strategy_->addItem(
                QString::fromUtf8(kind.label()) + QStringLiteral(" · ") + QString::fromUtf8(strategy->name()),
                QString::fromUtf8(kind.name()) + '/' + QString::fromUtf8(strategy->name()));
        }
    }
    auto* form = new QFormLayout;
    form->addRow(tr("Strategy"), strategy_);
    for (int a = 0; a < 2; ++a) {
        tunable_[a] = new QComboBox;
        values_[a] = new QLineEdit;
        values_[a]->setPlaceholderText(tr("values, comma-separated"));
        auto* row = new QHBoxLayout;
        row->addWidget(tunable_[a]);
        row->addWidget(values_[a], 1);
        form->addRow(a == 0 ? tr("Columns") : tr("Rows"), row);
        connect(tunable_[a], &QComboBox::currentIndexChanged, this, [this, a] {
            const auto* strategy = strategyOf(strategy_->currentData().toString());
            if (!strategy) return;
            for (const auto& tunable : strategy->tunables())
                if (QString::fromStdString(tunable.name) == tunable_[a]->currentText())
                    values_[a]->setText(suggestedValues(tunable));
        });
    }
    repeat_ = new QSpinBox;
    repeat_->setRange(1, 100);
    repeat_->setValue(3);
    repeat_->setToolTip(tr("Timed runs per cell, after one untimed"));
    form->addRow(tr("Runs per cell"), repeat_);

    run_ = new QPushButton(tr("Run grid"));
    run_->setObjectName(QStringLiteral("sweepRun"));
    cancel_ = new QPushButton(tr("Cancel"));
    cancel_->setEnabled(false);
    progress_ = new QProgressBar;
    progress_->setTextVisible(true);
    figure_ = new QComboBox;
    figure_->addItems({tr("Median time (ms)"), tr("GB/s"), tr("× read")});
    exportCsv_ = new QPushButton(tr("Export CSV…"));
    exportJson_ = new QPushButton(tr("Export JSON…"));
    exportCsv_->setEnabled(false);
    exportJson_->setEnabled(false);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(run_);
    buttons->addWidget(cancel_);
    buttons->addWidget(progress_, 1);
    auto* shown = new QHBoxLayout;
    shown->addWidget(new QLabel(tr("Show")));
    shown->addWidget(figure_);
    shown->addStretch(1);
    shown->addWidget(exportCsv_);
    shown->addWidget(exportJson_);
    status_ =
        new QLabel(tr("Pick a strategy and two of its tunables, then Run grid. Click a cell to adopt it."));
    status_->setWordWrap(true);

    auto* controls = new QVBoxLayout;
    controls->addLayout(form);
    controls->addLayout(buttons);
    controls->addLayout(shown);
    controls->addWidget(status_);
    controls->addStretch(1);
    auto* left = new QWidget;
    left->setLayout(controls);
    left->setMaximumWidth(420);

    plot_ = new QCustomPlot;
    plot_->setObjectName(QStringLiteral("sweepHeatMap"));
    applyPlotStyle(plot_, palette());
    map_ = new QCPColorMap(plot_->xAxis, plot_->yAxis);
    auto* scale = new QCPColorScale(plot_);
    plot_->plotLayout()->addElement(0, 1, scale);
    map_->setColorScale(scale);
    map_->setInterpolate(false);
    plot_->setMouseTracking(true);
    plot_->setMinimumSize(320, 220);

    auto* layout = new QHBoxLayout(this);
    layout->addWidget(left);
    layout->addWidget(plot_, 1);

    connect(strategy_, &QComboBox::currentIndexChanged, this, &SweepView::strategyChosen);
    connect(run_, &QPushButton::clicked, this, [this] { run(); });
    connect(cancel_, &QPushButton::clicked, this, &SweepView::cancel);
    connect(figure_, &QComboBox::currentIndexChanged, this,
            [this](int index) { setFigure(static_cast<Figure>(index)); });
    connect(exportCsv_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export grid"), {}, tr("CSV (*.csv)"));
        if (path.isEmpty()) return;
        try {
            exportCsv(path);
        } catch (const Error& e) {
            setStatus(QString::fromUtf8(e.what()));
        }
    });
    connect(exportJson_, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getSaveFileName(this, tr("Export grid"), {}, tr("JSON (*.json)"));
        if (path.isEmpty()) return;
        try {
            exportJson(path);
        } catch (const Error& e) {
            setStatus(QString::fromUtf8(e.what()));
        }
    });
    connect(plot_, &QCustomPlot::mouseMove, this, &SweepView::showCell);
    connect(plot_, &QCustomPlot::mousePress, this, &SweepView::clickCell);
    connect(worker_, &SweepWorker::progress, this, [this](int done, int total) {
        progress_->setRange(0, total);
        progress_->setValue(done);
        progress_->setFormat(tr("%1 of %2 cells").arg(done).arg(total));
    });
    connect(worker_, &SweepWorker::finished, this, [this](const lab::Sweep& sweep, const DeviceInfo& device) {
        running_ = false;
        run_->setEnabled(true);
        cancel_->setEnabled(false);
        sweep_ = sweep;
        device_ = device;
        showSweep();
        emit sweepFinished();
    });
    connect(worker_, &SweepWorker::cancelled, this, [this] {
        running_ = false;
        run_->setEnabled(true);
        cancel_->setEnabled(false);
        setStatus(tr("Cancelled."));
    });
    connect(worker_, &SweepWorker::failed, this, [this](const QString& message) {
        running_ = false;
        run_->setEnabled(true);
        cancel_->setEnabled(false);
        setStatus(message);
        emit sweepFailed(message);
    });
    connect(worker_, &SweepWorker::adopted, this, &SweepView::adopted);
    strategyChosen();
    // local-atomic first: the strategy the walk-through sweeps.
    configure(QStringLiteral("histogram/local-atomic:WG=32,64,128,256:COPIES=1,2,4,8"));
    setStatus(tr("Pick a strategy and two of its tunables, then Run grid. Click a cell to adopt it."));
}

SweepView::~SweepView() = default;

void SweepView::setImageSource(std::function<std::shared_ptr<const ImageRGBA8>()> image) {
    imageSource_ = std::move(image);
}
void SweepView::setDeviceSource(std::function<QString()> selector) {
    deviceSource_ = std::move(selector);
}

void SweepView::strategyChosen() {
    const auto* strategy = strategyOf(strategy_->currentData().toString());
    for (int a = 0; a < 2; ++a) {
        const QSignalBlocker block(tunable_[a]);
        tunable_[a]->clear();
        if (!strategy) continue;
        for (const auto& tunable : strategy->tunables())
            tunable_[a]->addItem(QString::fromStdString(tunable.name), QString::fromStdString(tunable.help));
        tunable_[a]->setCurrentIndex(std::min(a, tunable_[a]->count() - 1));
        const auto tunables = strategy->tunables();
        values_[a]->setText(suggestedValues(tunables[static_cast<std::size_t>(tunable_[a]->currentIndex())]));
    }
}

bool SweepView::configure(const QString& spec) {
    const QStringList parts = spec.split(':');
    if (parts.size() != 3) {
        setStatus(tr("--sweep: '%1' is not STRATEGY:NAME=V,V:NAME=V,V").arg(spec));
        return false;
    }
    int index = -1;
    for (int i = 0; i < strategy_->count() && index < 0; ++i) {
        const QString item = strategy_->itemData(i).toString();
        if (item == parts[0] || item.section('/', 1) == parts[0]) index = i;
    }
    if (index < 0) {
        setStatus(tr("--sweep: no strategy %1 with tunables").arg(parts[0]));
        return false;
    }
    strategy_->setCurrentIndex(index);
    strategyChosen();
    for (int a = 0; a < 2; ++a) {
        const QString name = parts[a + 1].section('=', 0, 0);
        const int found = tunable_[a]->findText(name);
        if (found < 0) {
            setStatus(tr("--sweep: %1 has no tunable %2").arg(parts[0], name));
            return false;
        }
        tunable_[a]->setCurrentIndex(found);
        values_[a]->setText(parts[a + 1].section('=', 1));
    }
    return true;
}

bool SweepView::run() {
    if (running_) return false;
    const QString chosen = strategy_->currentData().toString();
    session::SweepSpec spec;
    spec.stage = chosen.section('/', 0, 0).toStdString();
    spec.strategy = chosen.section('/', 1).toStdString();
    spec.values = defaultValues(spec.stage);
    spec.image = imageSource_ ? imageSource_() : nullptr;
    if (!spec.image) {
        setStatus(tr("Open an image first: the grid runs on it."));
        return false;
    }
    spec.device = deviceSource_ ? deviceSource_().toStdString() : std::string();
    spec.repetitions = repeat_->value();
    try {
        for (int a = 0; a < 2; ++a)
            spec.axes.push_back(lab::parseAxis(tunable_[a]->currentText().toStdString() + '=' +
                                               values_[a]->text().remove(' ').toStdString()));
        session::sweepStages(
            spec, [](const std::string& path, std::uint64_t, std::string_view what) -> std::string {
                throw InputError(path + ": " + std::string(what) + " files are read when the grid runs");
            });
    } catch (const Error& e) {
        setStatus(QString::fromUtf8(e.what()));
        return false;
    }
    running_ = true;
    runDevice_ = QString::fromStdString(spec.device);
    run_->setEnabled(false);
    cancel_->setEnabled(true);
    progress_->setRange(0, static_cast<int>(spec.axes[0].values.size() * spec.axes[1].values.size()));
    progress_->setValue(0);
    setStatus(tr("Running the grid of %1…").arg(QString::fromStdString(spec.strategy)));
    worker_->start(std::move(spec));
    return true;
}

void SweepView::cancel() {
    if (running_) worker_->cancel();
}

std::optional<std::size_t> SweepView::pointAt(int column, int row) const {
    if (!sweep_ || sweep_->axes.size() != 2) return std::nullopt;
    const auto columns = sweep_->axes[0].values.size();
    const auto rows = sweep_->axes[1].values.size();
    if (column < 0 || row < 0 || static_cast<std::size_t>(column) >= columns ||
        static_cast<std::size_t>(row) >= rows)
        return std::nullopt;
    // The grid's order: the first tunable varies slowest.
    return static_cast<std::size_t>(column) * rows + static_cast<std::size_t>(row);
}

double SweepView::figureOf(const lab::PointResult& point) const {
    if (!point.ns) return std::numeric_limits<double>::quiet_NaN();
    switch (static_cast<Figure>(figure_->currentIndex())) {
        case Figure::MedianMs:
            return point.ns->median / 1e6;
        case Figure::Gbps:
            return point.gbps;
        case Figure::TimesRead:
            return sweep_->timesRead(point).value_or(std::numeric_limits<double>::quiet_NaN());
    }
    return std::numeric_limits<double>::quiet_NaN();
}

double SweepView::cellFigure(int column, int row) const {
    if (!pointAt(column, row)) return std::numeric_limits<double>::quiet_NaN();
    return map_->data()->cell(column, row);
}

void SweepView::setFigure(Figure figure) {
    if (figure_->currentIndex() != static_cast<int>(figure)) {
        figure_->setCurrentIndex(static_cast<int>(figure));
        return;  // the signal shows it
    }
    if (sweep_) showSweep();
}

QString SweepView::cellText(std::size_t index) const {
    const auto& point = sweep_->points[index];
    QString text = pointText(point.built);
    if (point.built != point.asked) text += tr(" (asked %1)").arg(pointText(point.asked));
    if (!point.ns) return text + '\n' + QString::fromStdString(point.error);
    text += tr("\nmedian %1 ms (min %2, max %3)\n%4 GB/s")
                .arg(point.ns->median / 1e6, 0, 'f', 3)
                .arg(point.ns->min / 1e6, 0, 'f', 3)
                .arg(point.ns->max / 1e6, 0, 'f', 3)
                .arg(point.gbps, 0, 'f', 2);
    if (const auto times = sweep_->timesRead(point)) text += tr(", %1 × read").arg(*times, 0, 'g', 3);
    if (point.maxDifference)
        text += tr("\nlargest difference from the CPU reference: %1").arg(*point.maxDifference);
    if (point.sameBuildAs)
        text += tr("\nsame build as %1").arg(pointText(sweep_->points[*point.sameBuildAs].asked));
    return text;
}

void SweepView::showSweep() {
    const auto& axes = sweep_->axes;
    const int columns = static_cast<int>(axes[0].values.size());
    const int rows = static_cast<int>(axes[1].values.size());
    map_->data()->setSize(columns, rows);
    map_->data()->setRange(QCPRange(0, std::max(columns - 1, 1)), QCPRange(0, std::max(rows - 1, 1)));
    plot_->clearItems();
    for (int c = 0; c < columns; ++c)
        for (int r = 0; r < rows; ++r) map_->data()->setCell(c, r, figureOf(sweep_->points[*pointAt(c, r)]));
    map_->rescaleDataRange(true);
    // Fast is bright in every figure: the time's gradient runs the other way.
    QCPColorGradient gradient(QCPColorGradient::gpThermal);
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    if (figure_->currentIndex() == static_cast<int>(Figure::MedianMs)) gradient = gradient.inverted();
    map_->setGradient(gradient);
    for (int c = 0; c < columns; ++c) {
        for (int r = 0; r < rows; ++r) {
            const auto index = *pointAt(c, r);
            const auto& point = sweep_->points[index];
            const double figure = figureOf(point);
            auto* label = new QCPItemText(plot_);
            label->position->setCoords(columns > 1 ? c : 0.0, rows > 1 ? r : 0.0);
            QString text = std::isnan(figure) ? tr("failed") : QString::number(figure, 'g', 3);
            if (point.sameBuildAs) text += QStringLiteral(" =");
            if (sweep_->best() == index) text = QStringLiteral("★ ") + text;
            label->setText(text);
            // Dark text on the bright cells, light on the dark ones.
            const QColor cell = std::isnan(figure) ? palette().color(QPalette::Base)
                                                   : QColor(gradient.color(figure, map_->dataRange()));
            label->setColor(cell.lightness() > 140 ? Qt::black : Qt::white);
            QFont font = label->font();
            font.setBold(sweep_->best() == index);
            label->setFont(font);
        }
    }
    const auto ticker = [](const lab::Axis& axis) {
        QSharedPointer<QCPAxisTickerText> text(new QCPAxisTickerText);
        for (std::size_t v = 0; v < axis.values.size(); ++v)
            text->addTick(static_cast<double>(v), QString::fromStdString(axis.values[v]));
        return text;
    };
    // The columns' values along the top, as a table's header: they stay in sight when the tab is short.
    plot_->xAxis2->setVisible(true);
    plot_->xAxis->setTickLabels(false);
    plot_->xAxis2->setTicker(ticker(axes[0]));
    plot_->yAxis->setTicker(ticker(axes[1]));
    plot_->xAxis2->setLabel(QString::fromStdString(axes[0].name));
    plot_->yAxis->setLabel(QString::fromStdString(axes[1].name));
    plot_->xAxis->setRange(-0.5, columns - 0.5);
    plot_->xAxis2->setRange(-0.5, columns - 0.5);
    plot_->yAxis->setRange(-0.5, rows - 0.5);
    map_->rescaleDataRange(true);
    map_->colorScale()->axis()->setLabel(figure_->currentText());
    // Fast is good: the time's scale runs the other way, so the best cell is bright in every figure.
    map_->colorScale()->axis()->setRangeReversed(figure_->currentIndex() ==
                                                 static_cast<int>(Figure::MedianMs));
    plot_->replot();
    exportCsv_->setEnabled(true);
    exportJson_->setEnabled(true);
    const auto best = sweep_->best();
    setStatus(
        best ? tr("%1 on %2: best %3 (median %4 ms); = marks a cell that built an earlier cell's program. "
                  "Click a cell to adopt it.")
                   .arg(QString::fromStdString(sweep_->strategy), QString::fromStdString(device_->name),
                        pointText(sweep_->points[*best].built))
                   .arg(sweep_->points[*best].ns->median / 1e6, 0, 'f', 3)
             : tr("No cell of the grid ran."));
}

std::optional<std::pair<int, int>> SweepView::cellAt(QMouseEvent* event) const {
    if (!sweep_) return std::nullopt;
    const int column = static_cast<int>(std::lround(plot_->xAxis->pixelToCoord(event->position().x())));
    const int row = static_cast<int>(std::lround(plot_->yAxis->pixelToCoord(event->position().y())));
    if (!pointAt(column, row)) return std::nullopt;
    return std::pair{column, row};
}

void SweepView::showCell(QMouseEvent* event) {
    const auto cell = cellAt(event);
    if (!cell) {
        QToolTip::hideText();
        return;
    }
    QToolTip::showText(event->globalPosition().toPoint(), cellText(*pointAt(cell->first, cell->second)),
                       plot_);
}

void SweepView::clickCell(QMouseEvent* event) {
    if (const auto cell = cellAt(event)) adoptCell(cell->first, cell->second);
}

bool SweepView::adoptCell(int column, int row) {
    const auto index = pointAt(column, row);
    if (!index || !sweep_->points[*index].ns || sweep_->stage == "kernel") return false;
    const auto& built = sweep_->points[*index].built;
    worker_->adopt(runDevice_, sweep_->tuningKey, built);
    setStatus(tr("Adopted %1 for %2 on %3: it runs with these values from now on.")
                  .arg(pointText(built), QString::fromStdString(sweep_->strategy),
                       QString::fromStdString(device_->name)));
    return true;
}

void SweepView::exportCsv(const QString& path) const {
    if (!sweep_) throw UsageError("no grid to export yet");
    io::writeFileAtomically(path, QByteArray::fromStdString(lab::csv(*sweep_)));
}

void SweepView::exportJson(const QString& path) const {
    if (!sweep_) throw UsageError("no grid to export yet");
    io::writeFileAtomically(path, QByteArray::fromStdString(jsonDocument([&](JsonWriter& json) {
                                json.beginObject().key("device");
                                writeDeviceJson(json, *device_);
                                lab::writeJson(json, *sweep_);
                                json.endObject();
                            })));
}

QString SweepView::status() const {
    return status_->text();
}
void SweepView::setStatus(const QString& text) {
    status_->setText(text);
}

}  // namespace hs::ui
