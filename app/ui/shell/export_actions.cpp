#include "ui/shell/export_actions.hpp"

#include <qcustomplot.h>
#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QMessageBox>
#include <vector>

#include "engine/runtime/error.hpp"
#include "io/bow_export.hpp"
#include "io/export.hpp"
#include "ui/model/run_model.hpp"
#include "ui/shell/app_settings.hpp"
#include "ui/shell/plot_export_dialog.hpp"
#include "ui/views/document_render.hpp"
#include "ui/views/histogram_view.hpp"
#include "ui/views/plot_style.hpp"
#include "ui/views/timeline_view.hpp"
#include "ui/views/visual_words_view.hpp"

namespace hs::ui {

namespace {

[[noreturn]] void fail(const QString& path, const QString& reason) {
    throw InputError((path + QStringLiteral(": ") + reason).toStdString());
}

QString suffixOf(const QString& path) {
    return QFileInfo(path).suffix().toLower();
}

// For the length of an export: a title row above the plot, a legend of the channels shown, and no trace of
// the pointer (a selection, a hover mark: isInteractionItem); the on-screen plot is as it was afterwards.
class ExportDecoration {
  public:
    ExportDecoration(QCustomPlot* plot, const QString& title) : plot_(plot) {
        for (int i = 0; i < plot->itemCount(); ++i) {
            QCPAbstractItem* item = plot->item(i);
            if (isInteractionItem(item) && item->visible()) {
                item->setVisible(false);
                hiddenItems_.push_back(item);
            }
        }
        QFont font = plot->xAxis->labelFont();
        font.setBold(true);
        font.setPointSizeF(font.pointSizeF() * 1.2);
        title_ = new QCPTextElement(plot, title, font);
        plot->plotLayout()->insertRow(0);
        plot->plotLayout()->addElement(0, 0, title_);
        legendWasVisible_ = plot->legend->visible();
        for (int i = 0; i < plot->graphCount(); ++i) {
            QCPGraph* graph = plot->graph(i);
            wasInLegend_.push_back(plot->legend->hasItemWithPlottable(graph));
            if (graph->visible())
                graph->addToLegend();
            else
                graph->removeFromLegend();
        }
        plot->legend->setVisible(true);
    }
    ~ExportDecoration() {
        for (QCPAbstractItem* item : hiddenItems_) item->setVisible(true);
        plot_->plotLayout()->remove(title_);
        plot_->plotLayout()->simplify();
        for (int i = 0; i < plot_->graphCount(); ++i) {
            if (wasInLegend_[static_cast<std::size_t>(i)])
                plot_->graph(i)->addToLegend();
            else
                plot_->graph(i)->removeFromLegend();
        }
        plot_->legend->setVisible(legendWasVisible_);
        plot_->replot();
    }
    ExportDecoration(const ExportDecoration&) = delete;
    ExportDecoration& operator=(const ExportDecoration&) = delete;

  private:
    QCustomPlot* plot_;
    QCPTextElement* title_;
    bool legendWasVisible_ = false;
    std::vector<bool> wasInLegend_;
    std::vector<QCPAbstractItem*> hiddenItems_;
};

QString suffixOfFilter(const QString& filter) {
    static const QRegularExpression pattern(QStringLiteral("\\*\\.(\\w+)"));
    const auto match = pattern.match(filter);
    return match.hasMatch() ? match.captured(1) : QString();
}

}  // namespace

// QCustomPlot draws itself onto any QPainter: the document's, through the one layout every export shares.
QByteArray renderPlot(QCustomPlot* plot, const QString& format, const QString& path,
                      const PlotExportSize& size, const QString& title) {
    static_assert(PlotExportSize::kScreenDpi == kLayoutDpi, "a plot's DPI counts the layout's units");
    const ExportDecoration decoration(plot, title);
    return renderDocument(
        format, path, QSize(size.width, size.height), size.dpi, title,
        [plot, &size](QCPPainter& painter) { plot->toPainter(&painter, size.width, size.height); });
}

ExportActions::ExportActions(const RunModel& model, HistogramView* histogram, TimelineView* timeline,
                             VisualWordsView* visualWords, AppSettings& settings, QWidget* dialogParent)
    : QObject(dialogParent),
      model_(model),
      histogram_(histogram),
      timeline_(timeline),
      visualWords_(visualWords),
      settings_(settings),
      dialogParent_(dialogParent) {
    plotAction_ = fileAction(tr("Export &plot…"), tr("Save the histogram plot as PNG, PDF or SVG"),
                             tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)"),
                             &ExportActions::exportPlot, QStringLiteral("plot"));
    histogramAction_ = fileAction(
        tr("Export &histogram…"), tr("Save the counts of every bin and channel as CSV or JSON"),
        tr("CSV table (*.csv);;JSON (*.json)"), &ExportActions::exportHistogram, QStringLiteral("histogram"));
    timingsAction_ = fileAction(
        tr("Export &timings…"), tr("Save every kept run's command timings as CSV or JSON"),
        tr("CSV table (*.csv);;JSON (*.json)"), &ExportActions::exportTimings, QStringLiteral("timings"));
    traceAction_ = fileAction(
        tr("Export Chrome t&race…"), tr("Save the kept runs as a timeline for Perfetto or chrome://tracing"),
        tr("Chrome trace JSON (*.json)"), &ExportActions::exportTrace, QStringLiteral("trace"));
    timelineAction_ =
        fileAction(tr("Export time&line…"), tr("Save the timeline of the run shown as PNG, PDF or SVG"),
                   tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)"),
                   &ExportActions::exportTimeline, QStringLiteral("timeline"));
    copyAction_ = new QAction(tr("&Copy histogram"), this);
    copyAction_->setStatusTip(tr("Put the histogram on the clipboard as CSV text"));
    connect(copyAction_, &QAction::triggered, this, &ExportActions::copyHistogram);
    wordPlotAction_ = fileAction(tr("Export &word histogram plot…"),
                                 tr("Save the Visual words tab's word histogram as PNG, PDF or SVG"),
                                 tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)"),
                                 &ExportActions::exportWordPlot, QStringLiteral("word-plot"));
    wordHistogramAction_ = fileAction(
        tr("Export word hi&stogram…"), tr("Save the descriptors of every visual word as CSV or JSON"),
        tr("CSV table (*.csv);;JSON (*.json)"), &ExportActions::exportWordHistogram, QStringLiteral("words"));
    sweepAction_ = fileAction(
        tr("Export visual-words s&weep…"), tr("Save the builder sweep's table as CSV or JSON"),
        tr("CSV table (*.csv);;JSON (*.json)"), &ExportActions::exportSweep, QStringLiteral("sweep"));

    connect(histogram_, &HistogramView::histogramChanged, this, &ExportActions::updateEnabled);
    connect(&model_, &RunModel::histogramChanged, this, &ExportActions::updateEnabled);
    connect(&model_, &RunModel::keptRunsChanged, this, &ExportActions::updateEnabled);
    connect(visualWords_, &VisualWordsView::wordsShown, this, &ExportActions::updateEnabled);
    connect(visualWords_, &VisualWordsView::sweepShown, this, &ExportActions::updateEnabled);
    updateEnabled();
}

QList<QAction*> ExportActions::actions() const {
    // The timeline's last, where it has always been.
    return {plotAction_,     histogramAction_,     timingsAction_, traceAction_,   copyAction_,
            wordPlotAction_, wordHistogramAction_, sweepAction_,   timelineAction_};
}

void ExportActions::updateEnabled() {
    for (QAction* action : {plotAction_, histogramAction_, copyAction_})
        action->setEnabled(model_.hasHistogram());
    for (QAction* action : {timingsAction_, traceAction_, timelineAction_})
        action->setEnabled(!model_.keptRuns().empty());
    for (QAction* action : {wordPlotAction_, wordHistogramAction_})
        action->setEnabled(visualWords_->words().has_value());
    sweepAction_->setEnabled(visualWords_->sweep().has_value());
}

void ExportActions::exportPlot(const QString& path) {
    if (!model_.hasHistogram()) fail(path, QStringLiteral("there is no histogram to export yet"));
    const QString title = io::histogramTitle(model_.histogramContext(), model_.histogram().bins);
    io::writeFileAtomically(
        path, renderPlot(histogram_->plot(), suffixOf(path), path, settings_.plotExportSize(), title));
    announce(tr("the plot"), path);
}

void ExportActions::exportHistogram(const QString& path) {
    if (!model_.hasHistogram()) fail(path, QStringLiteral("there is no histogram to export yet"));
    const QString format = suffixOf(path);
    if (format == QLatin1String("csv")) {
        io::writeFileAtomically(path, io::histogramCsv(model_.histogram(), model_.histogramContext()));
    } else if (format == QLatin1String("json")) {
        io::writeFileAtomically(path, io::histogramJson(model_.histogram(), model_.histogramContext()));
    } else {
        fail(path, QStringLiteral("unknown histogram format '%1' (use .csv or .json)").arg(format));
    }
    announce(tr("the histogram"), path);
}

void ExportActions::exportTimings(const QString& path) {
    const std::vector<io::RunTimings> runs = model_.keptRuns();
    const QString format = suffixOf(path);
    if (format == QLatin1String("csv")) {
        io::writeFileAtomically(path, io::timingsCsv(runs));
    } else if (format == QLatin1String("json")) {
        const std::string document = jsonDocument([&](JsonWriter& json) {
            json.beginObject().field("device", model_.deviceName().toStdString()).key("runs").beginArray();
            for (const io::RunTimings& run : runs) {
                json.beginObject().field("run", run.number);
                json.field("strategy", run.strategy.toStdString());
                io::writeRunContextMembers(json, run);
                // A produce-consume run's mode and overlap, as the CLI's produce-consume JSON has them.
                if (!run.mode.isEmpty()) json.field("mode", run.mode.toStdString());
                if (run.overlapNs) json.field("overlap_ns", *run.overlapNs);
                json.field("device",
                           run.devices.empty() ? std::string() : run.devices.front().device.toStdString());
                const std::uint64_t origin = io::runOriginNs(run);
                json.key("timings").beginArray();
                for (const auto& device : run.devices) {
                    for (const Timing& timing : device.timings) {
                        json.beginObject();
                        io::writeTimingMembers(json, timing, origin);
                        json.field("device", device.device.toStdString());
                        json.endObject();
                    }
                }
                json.endArray();
                json.endObject();
            }
            json.endArray().endObject();
        });
        io::writeFileAtomically(path, QByteArray::fromStdString(document));
    } else {
        fail(path, QStringLiteral("unknown timings format '%1' (use .csv or .json)").arg(format));
    }
    announce(tr("the timings"), path);
}

void ExportActions::exportTrace(const QString& path) {
    io::writeFileAtomically(path, io::chromeTrace(model_.keptRuns()));
    announce(tr("the Chrome trace"), path);
}

void ExportActions::exportTimeline(const QString& path) {
    if (timeline_->shownRun() == 0) fail(path, QStringLiteral("there is no run to export yet"));
    const QString title = tr("Timeline of run #%1").arg(timeline_->shownRun());
    io::writeFileAtomically(
        path, renderPlot(timeline_->plot(), suffixOf(path), path, settings_.plotExportSize(), title));
    announce(tr("the timeline"), path);
}

void ExportActions::exportWordPlot(const QString& path) {
    const auto& words = visualWords_->words();
    if (!words) fail(path, QStringLiteral("there is no word histogram to export yet"));
    const io::WordsContext context = visualWords_->wordsContext();
    const QString title = QStringLiteral("%1 — %2 — %3 words")
                              .arg(context.imagePath.isEmpty() ? QStringLiteral("image")
                                                               : QFileInfo(context.imagePath).fileName(),
                                   context.strategy)
                              .arg(words->histogram.size());
    io::writeFileAtomically(path, renderPlot(visualWords_->histogramPlot(), suffixOf(path), path,
                                             settings_.plotExportSize(), title));
    announce(tr("the word histogram plot"), path);
}

void ExportActions::exportWordHistogram(const QString& path) {
    const auto& words = visualWords_->words();
    if (!words) fail(path, QStringLiteral("there is no word histogram to export yet"));
    const QString format = suffixOf(path);
    if (format == QLatin1String("csv")) {
        io::writeFileAtomically(path, io::wordHistogramCsv(words->histogram, visualWords_->wordsContext()));
    } else if (format == QLatin1String("json")) {
        io::writeFileAtomically(path, io::wordHistogramJson(words->histogram, visualWords_->wordsContext()));
    } else {
        fail(path, QStringLiteral("unknown word histogram format '%1' (use .csv or .json)").arg(format));
    }
    announce(tr("the word histogram"), path);
}

void ExportActions::exportSweep(const QString& path) {
    const auto& sweep = visualWords_->sweep();
    if (!sweep) fail(path, QStringLiteral("there is no sweep to export yet"));
    const QString format = suffixOf(path);
    if (format == QLatin1String("csv")) {
        io::writeFileAtomically(path, io::sweepCsv(sweep->rows));
    } else if (format == QLatin1String("json")) {
        io::writeFileAtomically(
            path, io::sweepJson(sweep->device ? &*sweep->device : nullptr, sweep->params, sweep->rows));
    } else {
        fail(path, QStringLiteral("unknown sweep format '%1' (use .csv or .json)").arg(format));
    }
    announce(tr("the sweep"), path);
}

void ExportActions::announce(const QString& what, const QString& path) {
    emit exported(
        tr("Exported %1 to %2").arg(what, QDir::toNativeSeparators(QFileInfo(path).absoluteFilePath())));
}

void ExportActions::copyHistogram() const {
    // Tab-separated: what spreadsheets split into cells when pasted.
    QGuiApplication::clipboard()->setText(QString::fromUtf8(io::histogramCsv(model_.histogram(), '\t')));
}

QAction* ExportActions::fileAction(const QString& text, const QString& statusTip, const QString& filters,
                                   Exporter exporter, const QString& what) {
    auto* action = new QAction(text, this);
    action->setStatusTip(statusTip);
    // The dialog is titled like the action, without its mnemonic and ellipsis.
    const QString title = QString(text).remove(QLatin1Char('&')).remove(QStringLiteral("…"));
    connect(action, &QAction::triggered, this,
            [this, title, filters, exporter, what] { runExport(title, filters, exporter, what); });
    return action;
}

QString ExportActions::suggestedPath(const QString& what, const QString& filters) const {
    const QString image = QFileInfo(model_.histogramContext().imagePath).completeBaseName();
    const QString name =
        QStringLiteral("%1-%2.%3")
            .arg(image.isEmpty() ? QStringLiteral("histoscope") : image, what, suffixOfFilter(filters));
    return lastDirectory_.isEmpty() ? name : QDir(lastDirectory_).filePath(name);
}

void ExportActions::runExport(const QString& title, const QString& filters, Exporter exporter,
                              const QString& what) {
    QString selectedFilter;
    QString path = QFileDialog::getSaveFileName(dialogParent_, title, suggestedPath(what, filters), filters,
                                                &selectedFilter);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) path += QLatin1Char('.') + suffixOfFilter(selectedFilter);
    lastDirectory_ = QFileInfo(path).absolutePath();
    if (exporter == &ExportActions::exportPlot || exporter == &ExportActions::exportWordPlot) {
        PlotExportDialog dialog(settings_.plotExportSize(), suffixOf(path), dialogParent_);
        if (dialog.exec() != QDialog::Accepted) return;
        settings_.setPlotExportSize(dialog.size());
    }
    try {
        (this->*exporter)(path);
    } catch (const Error& error) {
        QMessageBox::warning(dialogParent_, title, QString::fromStdString(error.what()));
    }
}

}  // namespace hs::ui
