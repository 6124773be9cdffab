#include "ui/shell/run_history.hpp"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QStatusBar>
#include <filesystem>
#include <memory>
#include <optional>

#include "archive/diff.hpp"
#include "archive/export.hpp"
#include "engine/ops/convolve/filter.hpp"
#include "engine/ops/rotate/rotate.hpp"
#include "engine/runtime/error.hpp"
#include "engine/stages/builtin.hpp"
#include "engine/stages/shared_options.hpp"
#include "io/export.hpp"
#include "io/files/files.hpp"
#include "ui/shell/app_settings.hpp"
#include "ui/shell/export_actions.hpp"
#include "ui/shell/main_window.hpp"
#include "ui/shell/plot_export_dialog.hpp"
#include "ui/views/diff_view.hpp"
#include "ui/views/history_view.hpp"

namespace hs::ui {

namespace {

constexpr int kStatusMs = 10000;
// The view settings a session keeps: the window's docks and toolbars as QMainWindow::saveState has them.
const std::string kWindowStateKey = "window_state";

[[noreturn]] void fail(const QString& path, const QString& reason) {
    throw InputError((path + QStringLiteral(": ") + reason).toStdString());
}

QString suffixOf(const QString& path) {
    return QFileInfo(path).suffix().toLower();
}

std::string valueOf(const stages::Stage& stage, std::string_view name) {
    const auto found = stage.values().find(name);
    return found == stage.values().end() ? std::string() : found->second;
}

bool flagOf(const stages::Stage& stage, std::string_view name) {
    return stage.values().contains(name);
}

// An image stage's strategy, as the Transform panel's list offers it; one the list lacks is said in `missed`.
void chooseStageStrategy(MainWindow& window, const stages::Stage& stage, QStringList& missed) {
    const auto* strategy = stage.requestedStrategy();
    if (!strategy) return;
    const QString name = QString::fromUtf8(strategy->name());
    if (!window.chooseStageStrategy(QString::fromUtf8(stage.kind().name()), name))
        missed << QObject::tr("%1 strategy %2: not offered here")
                      .arg(QString::fromUtf8(stage.kind().name()), name);
}

}  // namespace

bool isSessionPath(const QString& path) {
    return path.endsWith(QStringLiteral(".histoscope"), Qt::CaseInsensitive);
}

RunHistory::RunHistory(MainWindow& window, AppSettings& settings)
    : QObject(&window), window_(window), settings_(settings) {
    try {
        archive_ = archive::Settings::fromEnvironment();
    } catch (const Error& e) {
        archiveProblem_ = QString::fromUtf8(e.what());
    }
    history_ = new HistoryView;
    diff_ = new DiffView;
    QDockWidget* historyDock = dock(tr("History"), "historyDock", history_);
    dock(tr("Diff"), "diffDock", diff_);
    historyDock->raise();
    if (auto* timings = window_.findChild<QDockWidget*>(QStringLiteral("timingDock"))) timings->raise();

    recordAction_ = new QAction(tr("&Record Runs"), this);
    recordAction_->setObjectName(QStringLiteral("recordRuns"));
    recordAction_->setCheckable(true);
    recordAction_->setChecked(settings_.recordRuns());
    recordAction_->setStatusTip(
        tr("Keep every Run ×N, all its repetitions, in the run archive (History dock)"));
    window_.controller().setRecording(settings_.recordRuns());
    connect(recordAction_, &QAction::toggled, this, [this](bool on) {
        settings_.setRecordRuns(on);
        window_.controller().setRecording(on);
    });
    connect(&window_.controller(), &Controller::runRecorded, this, &RunHistory::recorded);

    saveSessionAction_ = new QAction(tr("&Save Session…"), this);
    saveSessionAction_->setStatusTip(tr("Save the image, device, stages and layout as a .histoscope file"));
    connect(saveSessionAction_, &QAction::triggered, this, [this] {
        askAndWrite(tr("Save Session"), tr("HistoScope session (*.histoscope)"), &RunHistory::saveSession,
                    false);
    });
    openSessionAction_ = new QAction(tr("Open Sessio&n…"), this);
    openSessionAction_->setStatusTip(
        tr("Restore the image, device, stages and layout of a .histoscope file"));
    connect(openSessionAction_, &QAction::triggered, this, [this] {
        const QString path = QFileDialog::getOpenFileName(&window_, tr("Open Session"), startDirectory(),
                                                          tr("HistoScope session (*.histoscope)"));
        if (path.isEmpty()) return;
        lastDirectory_ = QFileInfo(path).absolutePath();
        openSession(path);
    });
    diffPlotAction_ = new QAction(tr("Export &diff plot…"), this);
    diffPlotAction_->setStatusTip(tr("Save the Diff view's box plots as PNG, PDF or SVG"));
    connect(diffPlotAction_, &QAction::triggered, this, [this] {
        askAndWrite(tr("Export diff plot"),
                    tr("PNG image (*.png);;PDF document (*.pdf);;SVG drawing (*.svg)"),
                    &RunHistory::exportDiffPlot, true);
    });
    diffTableAction_ = new QAction(tr("Export di&ff table…"), this);
    diffTableAction_->setStatusTip(
        tr("Save the diff as JSON, its runs' timings as CSV, or its table as text"));
    connect(diffTableAction_, &QAction::triggered, this, [this] {
        askAndWrite(tr("Export diff"),
                    tr("JSON (*.json);;CSV table of the timings (*.csv);;Text table (*.txt)"),
                    &RunHistory::exportDiffTable, false);
    });
    const auto updateEnabled = [this] {
        diffPlotAction_->setEnabled(diff_->diff().has_value());
        diffTableAction_->setEnabled(diff_->diff().has_value());
    };
    connect(diff_, &DiffView::diffShown, this, updateEnabled);
    updateEnabled();

    connect(history_, &HistoryView::refreshRequested, this, &RunHistory::refresh);
    connect(history_, &HistoryView::diffRequested, this, &RunHistory::showDiff);
    connect(history_, &HistoryView::problemReported, this,
            [this](const QString& message) { window_.statusBar()->showMessage(message, kStatusMs); });
    refresh();
}

QDockWidget* RunHistory::dock(const QString& title, const char* objectName, QWidget* view) {
    auto* dock = new QDockWidget(title, &window_);
    dock->setObjectName(QLatin1String(objectName));
    dock->setWidget(view);
    window_.addDockWidget(Qt::BottomDockWidgetArea, dock);
    // With the other bottom views, as tabs.
    if (auto* timings = window_.findChild<QDockWidget*>(QStringLiteral("timingDock")))
        window_.tabifyDockWidget(timings, dock);
    return dock;
}

QList<QAction*> RunHistory::sessionActions() const {
    return {openSessionAction_, saveSessionAction_};
}

QList<QAction*> RunHistory::exportActions() const {
    return {diffPlotAction_, diffTableAction_};
}

void RunHistory::refresh() {
    if (!archiveProblem_.isEmpty()) {
        window_.statusBar()->showMessage(archiveProblem_, kStatusMs);
        return;
    }
    history_->refresh(archive_);
}

void RunHistory::recorded(qint64 id, const QString& problem) {
    if (!problem.isEmpty()) {
        // One line, not a dialog: the run is kept in the pending folder (or said to be lost) and the user
        // goes on measuring.
        window_.statusBar()->showMessage(problem, kStatusMs);
        return;
    }
    window_.statusBar()->showMessage(tr("Recorded run %1 in the History").arg(id), kStatusMs);
    refresh();
}

void RunHistory::showDiff(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b) {
    try {
        const archive::Archive archive(archive_);
        const auto load = [&archive](const std::vector<std::int64_t>& ids) {
            std::vector<archive::Record> runs;
            for (auto id : ids) runs.push_back(archive.load(id));
            return runs;
        };
        std::vector<archive::Record> runsA = load(a);
        std::vector<archive::Record> runsB = load(b);
        // Before the runs move into the view (arguments are evaluated in no set order).
        archive::Diff diff = archive::diff(runsA, runsB);
        diff_->showDiff(std::move(diff), std::move(runsA), std::move(runsB));
        if (auto* dock = qobject_cast<QDockWidget*>(diff_->parentWidget())) {
            dock->show();
            dock->raise();
        }
    } catch (const Error& e) {
        window_.reportProblem({e.kind(), tr("Cannot diff the runs"), QString::fromUtf8(e.what()), {}, {}});
    }
}

archive::SessionFile RunHistory::currentSession() const {
    const RunRequest request = window_.currentRequest();
    archive::SessionFile session;
    session.image = window_.imagePath().toStdString();
    session.device = request.device.toStdString();
    stages::StageList list = request.imageStages();
    if (request.strategy)
        list.push_back(stages::histogramStage(request.histogramParams(), *request.strategy));
    for (const auto& stage : list) {
        archive::SessionStage entry;
        entry.kind = std::string(stage->kind().name());
        if (const auto* strategy = stage->requestedStrategy()) entry.strategy = std::string(strategy->name());
        entry.values.insert(stage->values().begin(), stage->values().end());
        if (entry.kind == "kernel") {
            // The lab's stage names its file by name alone: the session keeps the whole path and the text.
            const QString path = window_.userKernelPath();
            if (!path.isEmpty()) entry.values["kernel"] = path.toStdString();
            session.userKernels.push_back({entry.values["kernel"], window_.userKernelText().toStdString()});
        }
        if (entry.kind == "convolve" && request.convolution) {
            const std::string& spec = request.convolution->spec;
            // A typed matrix has no spec, a filter file a path: the session keeps the matrix's text.
            if (spec.empty()) entry.values.erase("filter");
            if (!convolve::findFilterKind(spec.substr(0, spec.find(':'))))
                entry.text = window_.customFilter().toStdString();
        }
        session.stages.push_back(std::move(entry));
    }
    // The region, also among the histogram's values (--roi), as a member of its own: the window sets it on
    // the session's image once that is open, for the scopes as well as the histogram.
    if (request.roi)
        session.roi = archive::Roi{request.roi->x, request.roi->y, request.roi->width, request.roi->height};
    session.view[kWindowStateKey] = window_.saveState().toBase64().toStdString();
    return session;
}

void RunHistory::saveSession(const QString& path) {
    archive::saveSession(path.toStdString(), currentSession());
    window_.statusBar()->showMessage(tr("Saved the session to %1").arg(path), kStatusMs);
}

QStringList RunHistory::openSession(const QString& path) {
    archive::SessionFile session;
    try {
        session = archive::loadSession(path.toStdString());
    } catch (const Error& e) {
        const QString message = QString::fromUtf8(e.what());
        window_.reportProblem({e.kind(), tr("Cannot open the session"), message, {}, {}});
        return {message};
    }
    QStringList restored;
    QStringList missed;

    if (const auto state = session.view.find(kWindowStateKey); state != session.view.end()) {
        if (window_.restoreState(QByteArray::fromBase64(QByteArray::fromStdString(state->second))))
            restored << tr("the layout");
        else
            missed << tr("the layout (not one this version wrote)");
    }

    const QString device = QString::fromStdString(session.device);
    if (!device.isEmpty()) {
        // Once the devices are known a selector that names none is said here, with the rest; before, the
        // window says so itself when they are.
        bool found = !window_.controller().devicesKnown();
        if (!found) {
            try {
                selectDevice(window_.controller().devices(), session.device);
                found = true;
            } catch (const Error&) {
            }
        }
        if (found) {
            window_.chooseDevice(device);
            restored << tr("device %1").arg(device);
        } else {
            missed << tr("device %1: no such device here (the current one stays)").arg(device);
        }
    }

    const auto readFile = [](const std::string& file, std::uint64_t maxBytes, std::string_view what) {
        return io::readWholeFile(file, static_cast<std::size_t>(maxBytes), what);
    };
    const archive::RestoredStages stages = archive::restoreStages(session, readFile);
    for (const std::string& problem : stages.problems) missed << QString::fromStdString(problem);
    QStringList notes;
    for (const std::string& note : stages.notes) notes << QString::fromStdString(note);
    // The session's stages and no others: what it does not name is switched off.
    window_.switchImageStagesOff();
    for (std::size_t i = 0; i < stages.stages.size(); ++i) {
        const stages::Stage& stage = *stages.stages[i];
        const std::string kind(stage.kind().name());
        const QString name = QString::fromStdString(kind);
        try {
            if (kind == "rotate") {
                const std::string angle = valueOf(stage, options::kAngle.name);
                const std::string sampling = valueOf(stage, options::kSampling.name);
                window_.setRotation(
                    angle.empty() ? 0.0 : std::stod(angle),
                    sampling.empty() ? rotate::FilterMode::Linear : rotate::parseFilterMode(sampling),
                    flagOf(stage, options::kFitCanvas.name));
                chooseStageStrategy(window_, stage, missed);
            } else if (kind == "convolve") {
                const std::string spec = valueOf(stage, "filter");
                std::error_code error;
                const bool named = !spec.empty() && convolve::findFilterKind(spec.substr(0, spec.find(':')));
                if (named || (!spec.empty() && std::filesystem::exists(spec, error)))
                    window_.setFilter(QString::fromStdString(spec));
                else
                    window_.setCustomFilter(QString::fromStdString(stages.texts[i]));
                chooseStageStrategy(window_, stage, missed);
            } else if (kind == "kernel") {
                QMap<QString, double> params;
                for (const QString& assignment : QString::fromStdString(valueOf(stage, "param"))
                                                     .split(QLatin1Char('\n'), Qt::SkipEmptyParts))
                    params.insert(assignment.section(QLatin1Char('='), 0, 0),
                                  assignment.section(QLatin1Char('='), 1).toDouble());
                const std::string group = valueOf(stage, "kernel-group");
                if (!window_.runUserKernel(QString::fromStdString(valueOf(stage, "kernel")),
                                           QString::fromStdString(stages.texts[i]), params,
                                           group.empty() ? 0 : std::stoi(group)))
                    missed << tr("stage kernel: its parameters are not the kernel's");
            } else if (kind == "histogram") {
                if (const auto* strategy = stage.requestedStrategy();
                    strategy && !window_.chooseStrategy(QString::fromUtf8(strategy->name())))
                    missed << tr("strategy %1: this device cannot run it (chosen once one can)")
                                  .arg(QString::fromUtf8(strategy->name()));
                if (const std::string bins = valueOf(stage, options::kBins.name); !bins.empty())
                    window_.setBins(std::stoi(bins));
                window_.setIgnoreTransparent(flagOf(stage, options::kIgnoreTransparent.name));
            } else if (!window_.switchStageOn(stage)) {
                missed << tr("stage %1: the Transform panel has no page for it").arg(name);
                continue;
            }
            restored << tr("stage %1").arg(name);
        } catch (const std::exception& e) {
            missed << tr("stage %1: %2").arg(name, QString::fromUtf8(e.what()));
        }
    }

    const QString image = QString::fromStdString(session.image);
    std::optional<Region> roi;
    if (session.roi) roi = Region{session.roi->x, session.roi->y, session.roi->width, session.roi->height};
    if (!image.isEmpty() && QFileInfo(image).isFile()) {
        // The region belongs to the session's image: set once it is the window's (regions are kept per
        // image), and cleared there when the session has none.
        auto loaded = std::make_shared<QMetaObject::Connection>();
        auto failed = std::make_shared<QMetaObject::Connection>();
        const auto done = [loaded, failed] {
            QObject::disconnect(*loaded);
            QObject::disconnect(*failed);
        };
        *loaded = connect(&window_, &MainWindow::imageLoaded, this, [this, roi, done] {
            done();
            window_.setRegion(roi);
        });
        *failed = connect(&window_, &MainWindow::imageLoadFailed, this, done);
        window_.openImage(image);
        restored << tr("image %1").arg(image);
        if (roi) restored << tr("region %1").arg(QString::fromStdString(roi->text()));
    } else if (!image.isEmpty()) {
        missed << tr("image %1: the file is gone (the current image stays)").arg(image);
        if (roi)
            missed
                << tr("region %1: it belongs to the missing image").arg(QString::fromStdString(roi->text()));
    }

    const QString summary =
        tr("Opened session %1: restored %2")
            .arg(QFileInfo(path).fileName(),
                 restored.isEmpty() ? tr("nothing") : restored.join(QStringLiteral(", ")));
    window_.statusBar()->showMessage(summary, kStatusMs);
    if (!missed.isEmpty()) {
        QString message = tr("%1: not restored: %2.").arg(path, missed.join(QStringLiteral("; ")));
        if (!notes.isEmpty())
            message += QLatin1Char(' ') + notes.join(QStringLiteral("; ")) + QLatin1Char('.');
        window_.reportProblem(
            {ErrorKind::Input, tr("Session partly restored"), message, summary + QLatin1Char('.'), {}});
    } else if (!notes.isEmpty()) {
        window_.reportProblem({ErrorKind::Input,
                               tr("Session restored from its saved texts"),
                               tr("%1: %2.").arg(path, notes.join(QStringLiteral("; "))),
                               summary + QLatin1Char('.'),
                               {}});
    }
    emit sessionOpened(path);
    return missed;
}

void RunHistory::exportDiffPlot(const QString& path) {
    if (!diff_->diff()) fail(path, QStringLiteral("there is no diff to export yet"));
    io::writeFileAtomically(path, renderPlot(diff_->plot(), suffixOf(path), path, settings_.plotExportSize(),
                                             tr("Diff: %1").arg(diff_->sidesText())));
    window_.statusBar()->showMessage(tr("Exported the diff plot to %1").arg(path), kStatusMs);
}

void RunHistory::exportDiffTable(const QString& path) {
    if (!diff_->diff()) fail(path, QStringLiteral("there is no diff to export yet"));
    const QString format = suffixOf(path);
    std::string document;
    if (format == QLatin1String("json")) {
        document = jsonDocument([this](JsonWriter& json) { archive::writeDiffJson(json, *diff_->diff()); });
    } else if (format == QLatin1String("csv")) {
        std::vector<archive::Record> runs = diff_->runsA();
        runs.insert(runs.end(), diff_->runsB().begin(), diff_->runsB().end());
        document = archive::timingsCsv(runs);
    } else if (format == QLatin1String("txt")) {
        document = archive::diffText(*diff_->diff());
    } else {
        fail(path, QStringLiteral("unknown diff format '%1' (use .json, .csv or .txt)").arg(format));
    }
    io::writeFileAtomically(path, QByteArray::fromStdString(document));
    window_.statusBar()->showMessage(tr("Exported the diff to %1").arg(path), kStatusMs);
}

QString RunHistory::startDirectory() const {
    if (!lastDirectory_.isEmpty() || window_.imagePath().isEmpty()) return lastDirectory_;
    return QFileInfo(window_.imagePath()).absolutePath();
}

void RunHistory::askAndWrite(const QString& title, const QString& filters,
                             void (RunHistory::*write)(const QString&), bool plot) {
    QString selectedFilter;
    QString path = QFileDialog::getSaveFileName(&window_, title, startDirectory(), filters, &selectedFilter);
    if (path.isEmpty()) return;
    if (QFileInfo(path).suffix().isEmpty()) {
        static const QRegularExpression pattern(QStringLiteral("\\*\\.(\\w+)"));
        path += QLatin1Char('.') + pattern.match(selectedFilter).captured(1);
    }
    lastDirectory_ = QFileInfo(path).absolutePath();
    if (plot) {
        PlotExportDialog dialog(settings_.plotExportSize(), suffixOf(path), &window_);
        if (dialog.exec() != QDialog::Accepted) return;
        settings_.setPlotExportSize(dialog.size());
    }
    try {
        (this->*write)(path);
    } catch (const Error& error) {
        QMessageBox::warning(&window_, title, QString::fromUtf8(error.what()));
    }
}

}  // namespace hs::ui
