#include "ui/export_actions.hpp"

#include <qcustomplot.h>
#include <QAction>
#include <QBuffer>
#include <QClipboard>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QJsonDocument>
#include <QMessageBox>
#include <QPdfWriter>
#include <QSvgGenerator>

#include "io/export.hpp"
#include "runtime/error.hpp"
#include "ui/histogram_view.hpp"
#include "ui/timing_view.hpp"

namespace {

[[noreturn]] void fail(const QString& path, const QString& reason) {
    throw hs::InputError((path + QStringLiteral(": ") + reason).toStdString());
}

QString suffixOf(const QString& path) {
    return QFileInfo(path).suffix().toLower();
}

// QCustomPlot draws itself onto any QPainter; painting into memory first lets every format end in one
// atomic file write.
QByteArray renderPlot(QCustomPlot* plot, const QString& format, const QString& path) {
    const int width = plot->width();
    const int height = plot->height();
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    if (format == QLatin1String("png")) {
        if (!plot->toPixmap(width, height, 1.0).save(&buffer, "PNG"))
            fail(path, QStringLiteral("PNG encoding failed"));
        return bytes;
    }
    std::unique_ptr<QPaintDevice> device;
    if (format == QLatin1String("pdf")) {
        auto pdf = std::make_unique<QPdfWriter>(&buffer);
        pdf->setResolution(72);  // one plot pixel per PDF point
        pdf->setPageSize(
            QPageSize(QSizeF(width, height), QPageSize::Point, QString(), QPageSize::ExactMatch));
        pdf->setPageMargins(QMarginsF(0, 0, 0, 0));
        pdf->setCreator(QStringLiteral("HistoScope"));
        pdf->setTitle(QStringLiteral("Histogram"));
        device = std::move(pdf);
    } else if (format == QLatin1String("svg")) {
        auto svg = std::make_unique<QSvgGenerator>();
        svg->setOutputDevice(&buffer);
        svg->setSize(QSize(width, height));
        svg->setViewBox(QRect(0, 0, width, height));
        svg->setTitle(QStringLiteral("Histogram"));
        device = std::move(svg);
    } else {
        fail(path, QStringLiteral("unknown plot format '%1' (use .png, .pdf or .svg)").arg(format));
    }
    QCPPainter painter;
    if (!painter.begin(device.get())) fail(path, QStringLiteral("cannot draw the %1 document").arg(format));
    painter.setMode(QCPPainter::pmVectorized);
    painter.setWindow(0, 0, width, height);
    plot->toPainter(&painter, width, height);
    painter.end();
    return bytes;
}

QString suffixOfFilter(const QString& filter) {
    static const QRegularExpression pattern(QStringLiteral("\\*\\.(\\w+)"));
    const auto match = pattern.match(filter);
    return match.hasMatch() ? match.captured(1) : QString();
}

}  // namespace

ExportActions::ExportActions(HistogramView* histogram, TimingView* timings, QWidget* dialogParent)
    : QObject(dialogParent), histogram_(histogram), timings_(timings), dialogParent_(dialogParent) {
    plotAction_ = new QAction(tr("Export &plot…"), this);
    plotAction_->setStatusTip(tr("Save the histogram plot as PNG, PDF or SVG"));
    connect(plotAction_, &QAction::triggered, this, [this] {
        runExport(tr("Export plot"), tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)"),
                  &ExportActions::exportPlot);
    });
    histogramAction_ = new QAction(tr("Export &histogram…"), this);
    histogramAction_->setStatusTip(tr("Save the counts of every bin and channel as CSV or JSON"));
    connect(histogramAction_, &QAction::triggered, this, [this] {
        runExport(tr("Export histogram"), tr("CSV table (*.csv);;JSON (*.json)"),
                  &ExportActions::exportHistogram);
    });
    timingsAction_ = new QAction(tr("Export &timings…"), this);
    timingsAction_->setStatusTip(tr("Save every kept run's command timings as CSV or JSON"));
    connect(timingsAction_, &QAction::triggered, this, [this] {
        runExport(tr("Export timings"), tr("CSV table (*.csv);;JSON (*.json)"),
                  &ExportActions::exportTimings);
    });
    traceAction_ = new QAction(tr("Export Chrome t&race…"), this);
    traceAction_->setStatusTip(tr("Save the kept runs as a timeline for Perfetto or chrome://tracing"));
    connect(traceAction_, &QAction::triggered, this, [this] {
        runExport(tr("Export Chrome trace"), tr("Chrome trace JSON (*.json)"), &ExportActions::exportTrace);
    });
    copyAction_ = new QAction(tr("&Copy histogram"), this);
    copyAction_->setStatusTip(tr("Put the histogram on the clipboard as CSV text"));
    connect(copyAction_, &QAction::triggered, this, &ExportActions::copyHistogram);

    connect(histogram_, &HistogramView::histogramChanged, this, &ExportActions::updateEnabled);
    connect(timings_, &TimingView::runsChanged, this, &ExportActions::updateEnabled);
    updateEnabled();
}

QList<QAction*> ExportActions::actions() const {
    return {plotAction_, histogramAction_, timingsAction_, traceAction_, copyAction_};
}

void ExportActions::updateEnabled() {
    for (QAction* action : {plotAction_, histogramAction_, copyAction_})
        action->setEnabled(histogram_->hasHistogram());
    for (QAction* action : {timingsAction_, traceAction_}) action->setEnabled(!timings_->runs().empty());
}

void ExportActions::exportPlot(const QString& path) const {
    hs::io::writeFileAtomically(path, renderPlot(histogram_->plot(), suffixOf(path), path));
}

void ExportActions::exportHistogram(const QString& path) const {
    if (!histogram_->hasHistogram()) fail(path, QStringLiteral("there is no histogram to export yet"));
    const QString format = suffixOf(path);
    if (format == QLatin1String("csv")) {
        hs::io::writeFileAtomically(path, hs::io::histogramCsv(histogram_->histogram()));
    } else if (format == QLatin1String("json")) {
        hs::io::writeFileAtomically(path,
                                    QJsonDocument(hs::io::histogramJson(histogram_->histogram())).toJson());
    } else {
        fail(path, QStringLiteral("unknown histogram format '%1' (use .csv or .json)").arg(format));
    }
}

void ExportActions::exportTimings(const QString& path) const {
    const auto& runs = timings_->runs();
    const QString format = suffixOf(path);
    if (format == QLatin1String("csv")) {
        hs::io::writeFileAtomically(path, hs::io::timingsCsv(runs));
    } else if (format == QLatin1String("json")) {
        QJsonArray runArray;
        for (std::size_t run = 0; run < runs.size(); ++run) {
            runArray.append(QJsonObject{{"strategy", timings_->runStrategies()[run]},
                                        {"timings", hs::io::timingsJson(runs[run])}});
        }
        const QJsonObject document{{"device", deviceName_}, {"runs", runArray}};
        hs::io::writeFileAtomically(path, QJsonDocument(document).toJson());
    } else {
        fail(path, QStringLiteral("unknown timings format '%1' (use .csv or .json)").arg(format));
    }
}

void ExportActions::exportTrace(const QString& path) const {
    hs::io::writeFileAtomically(path, hs::io::chromeTrace(timings_->runs(), deviceName_));
}

void ExportActions::copyHistogram() const {
    QGuiApplication::clipboard()->setText(QString::fromUtf8(hs::io::histogramCsv(histogram_->histogram())));
}

void ExportActions::runExport(const QString& title, const QString& filters,
                              void (ExportActions::*exporter)(const QString&) const) {
    QString selectedFilter;
    QString path =
        QFileDialog::getSaveFileName(dialogParent_, title, lastDirectory_, filters, &selectedFilter);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += QLatin1Char('.') + suffixOfFilter(selectedFilter);
    lastDirectory_ = QFileInfo(path).absolutePath();
    try {
        (this->*exporter)(path);
    } catch (const hs::Error& error) {
        QMessageBox::warning(dialogParent_, title, QString::fromStdString(error.what()));
    }
}
