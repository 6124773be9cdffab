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
#include "ui/timeline_view.hpp"
#include "ui/timing_view.hpp"

namespace hs::ui {

namespace {

[[noreturn]] void fail(const QString& path, const QString& reason) {
    throw InputError((path + QStringLiteral(": ") + reason).toStdString());
}

QString suffixOf(const QString& path) {
    return QFileInfo(path).suffix().toLower();
}

// QCustomPlot draws itself onto any QPainter; painting into memory first lets every format end in one
// atomic file write.
QByteArray renderPlot(QCustomPlot* plot, const QString& title, const QString& format, const QString& path) {
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
        pdf->setTitle(title);
        device = std::move(pdf);
    } else if (format == QLatin1String("svg")) {
        auto svg = std::make_unique<QSvgGenerator>();
        svg->setOutputDevice(&buffer);
        svg->setSize(QSize(width, height));
        svg->setViewBox(QRect(0, 0, width, height));
        svg->setTitle(title);
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

ExportActions::ExportActions(HistogramView* histogram, TimingView* timings, TimelineView* timeline,
                             QWidget* dialogParent)
    : QObject(dialogParent),
      histogram_(histogram),
      timings_(timings),
      timeline_(timeline),
      dialogParent_(dialogParent) {
    plotAction_ = fileAction(tr("Export &plot…"), tr("Save the histogram plot as PNG, PDF or SVG"),
                             tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)"),
                             &ExportActions::exportPlot);
    histogramAction_ =
        fileAction(tr("Export &histogram…"), tr("Save the counts of every bin and channel as CSV or JSON"),
                   tr("CSV table (*.csv);;JSON (*.json)"), &ExportActions::exportHistogram);
    timingsAction_ =
        fileAction(tr("Export &timings…"), tr("Save every kept run's command timings as CSV or JSON"),
                   tr("CSV table (*.csv);;JSON (*.json)"), &ExportActions::exportTimings);
    traceAction_ = fileAction(tr("Export Chrome t&race…"),
                              tr("Save the kept runs as a timeline for Perfetto or chrome://tracing"),
                              tr("Chrome trace JSON (*.json)"), &ExportActions::exportTrace);
    timelineAction_ = fileAction(
        tr("Export time&line…"), tr("Save the timeline of the run shown as PNG, PDF or SVG"),
        tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)"), &ExportActions::exportTimeline);
    copyAction_ = new QAction(tr("&Copy histogram"), this);
    copyAction_->setStatusTip(tr("Put the histogram on the clipboard as CSV text"));
    connect(copyAction_, &QAction::triggered, this, &ExportActions::copyHistogram);

    connect(histogram_, &HistogramView::histogramChanged, this, &ExportActions::updateEnabled);
    connect(timings_, &TimingView::runsChanged, this, &ExportActions::updateEnabled);
    updateEnabled();
}

QList<QAction*> ExportActions::actions() const {
    return {plotAction_, histogramAction_, timingsAction_, traceAction_, copyAction_, timelineAction_};
}

void ExportActions::updateEnabled() {
    for (QAction* action : {plotAction_, histogramAction_, copyAction_})
        action->setEnabled(histogram_->hasHistogram());
    for (QAction* action : {timingsAction_, traceAction_, timelineAction_})
        action->setEnabled(!timings_->runs().empty());
}

void ExportActions::exportPlot(const QString& path) const {
    io::writeFileAtomically(
        path, renderPlot(histogram_->plot(), QStringLiteral("Histogram"), suffixOf(path), path));
}

void ExportActions::exportHistogram(const QString& path) const {
    if (!histogram_->hasHistogram()) fail(path, QStringLiteral("there is no histogram to export yet"));
    const QString format = suffixOf(path);
    if (format == QLatin1String("csv")) {
        io::writeFileAtomically(path, io::histogramCsv(histogram_->histogram()));
    } else if (format == QLatin1String("json")) {
        io::writeFileAtomically(path, QJsonDocument(io::histogramJson(histogram_->histogram())).toJson());
    } else {
        fail(path, QStringLiteral("unknown histogram format '%1' (use .csv or .json)").arg(format));
    }
}

void ExportActions::exportTimings(const QString& path) const {
    const auto& runs = timings_->runs();
    const auto& info = timings_->runInfo();
    const QString format = suffixOf(path);
    if (format == QLatin1String("csv")) {
        io::writeFileAtomically(path, io::timingsCsv(runs, info.empty() ? 1 : info.front().number));
    } else if (format == QLatin1String("json")) {
        QJsonArray runArray;
        for (std::size_t run = 0; run < runs.size(); ++run) {
            runArray.append(QJsonObject{{"run", info[run].number},
                                        {"strategy", info[run].strategy},
                                        {"device", info[run].device},
                                        {"timings", io::timingsJson(runs[run])}});
        }
        const QJsonObject document{{"device", deviceName_}, {"runs", runArray}};
        io::writeFileAtomically(path, QJsonDocument(document).toJson());
    } else {
        fail(path, QStringLiteral("unknown timings format '%1' (use .csv or .json)").arg(format));
    }
}

void ExportActions::exportTrace(const QString& path) const {
    io::writeFileAtomically(path, io::chromeTrace(timings_->keptRuns()));
}

void ExportActions::exportTimeline(const QString& path) const {
    if (timeline_->shownRun() == 0) fail(path, QStringLiteral("there is no run to export yet"));
    io::writeFileAtomically(path,
                            renderPlot(timeline_->plot(), QStringLiteral("Timeline"), suffixOf(path), path));
}

void ExportActions::copyHistogram() const {
    QGuiApplication::clipboard()->setText(QString::fromUtf8(io::histogramCsv(histogram_->histogram())));
}

QAction* ExportActions::fileAction(const QString& text, const QString& statusTip, const QString& filters,
                                   Exporter exporter) {
    auto* action = new QAction(text, this);
    action->setStatusTip(statusTip);
    // The dialog is titled like the action, without its mnemonic and ellipsis.
    const QString title = QString(text).remove(QLatin1Char('&')).remove(QStringLiteral("…"));
    connect(action, &QAction::triggered, this,
            [this, title, filters, exporter] { runExport(title, filters, exporter); });
    return action;
}

void ExportActions::runExport(const QString& title, const QString& filters, Exporter exporter) {
    QString selectedFilter;
    QString path =
        QFileDialog::getSaveFileName(dialogParent_, title, lastDirectory_, filters, &selectedFilter);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += QLatin1Char('.') + suffixOfFilter(selectedFilter);
    lastDirectory_ = QFileInfo(path).absolutePath();
    try {
        (this->*exporter)(path);
    } catch (const Error& error) {
        QMessageBox::warning(dialogParent_, title, QString::fromStdString(error.what()));
    }
}

}  // namespace hs::ui
