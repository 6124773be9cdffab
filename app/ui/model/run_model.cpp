#include "ui/model/run_model.hpp"

#include <QStringList>
#include <utility>

#include "engine/stages/builtin.hpp"

namespace hs::ui {

RunModel::RunModel(QObject* parent) : QObject(parent) {}

void RunModel::show(const RunOutcome& outcome, const QString& imagePath) {
    outcome_ = outcome;
    const RunRequest& request = outcome.request;
    io::HistogramContext context =
        io::histogramContext(imagePath, request.image->width, request.image->height,
                             outcome.device ? &*outcome.device : nullptr, outcome.result.strategy->name(),
                             request.strategy->name(), request.imageStages(), request.ignoreTransparent);
    context.roi = request.roi;
    showHistogram(outcome.result.values, request.bins, context);
    scopes_ = outcome.scopes;
    emit scopesChanged();

    io::RunTimings run;
    if (outcome.twoDevices) {
        // Each device's records in a lane of its own, with the mode that ran and the overlap.
        run = io::runTimingsOf(*outcome.twoDevices, 0);
    } else {
        // The device's selector beside its name tells two identical devices apart.
        const QString device =
            outcome.device ? QStringLiteral("%1 (%2)").arg(QString::fromStdString(outcome.device->name),
                                                           QString::fromStdString(outcome.device->selector()))
                           : QString();
        run.devices = {{device, outcome.result.timings}};
    }
    run.strategy = stagesText(outcome);
    run.image = imagePath;
    run.width = request.image->width;
    run.height = request.image->height;
    run.spec = specText(request);
    // A stage builds one program (its kernels come from one source); a host strategy builds none.
    for (const auto& stage : outcome.stages)
        if (!stage.builds.empty())
            run.buildOptions[stageText(stage.stage)] = QString::fromStdString(stage.builds.front().options);
    keep(std::move(run));
}

void RunModel::discard(const RunOutcome& outcome) {
    discardedRequests_.push_back(outcome.requestId);
}

void RunModel::showHistogram(const histogram::Histogram& values, int bins, io::HistogramContext context) {
    values_ = values;
    histogram_ = values.rebinned(bins);
    context_ = std::move(context);
    hasHistogram_ = true;
    emit histogramChanged();
}

int RunModel::keep(io::RunTimings run) {
    run.number = nextRunNumber_++;
    keptRuns_.push_back(std::move(run));
    if (keptRuns_.size() > static_cast<std::size_t>(maxKeptRuns_))
        keptRuns_.erase(keptRuns_.begin(), keptRuns_.end() - maxKeptRuns_);
    emit keptRunsChanged();
    return keptRuns_.back().number;
}

void RunModel::clearKeptRuns() {
    keptRuns_.clear();
    emit keptRunsChanged();
}

void RunModel::setMaxKeptRuns(int count) {
    maxKeptRuns_ = std::max(count, 1);
    if (keptRuns_.size() <= static_cast<std::size_t>(maxKeptRuns_)) return;
    keptRuns_.erase(keptRuns_.begin(), keptRuns_.end() - maxKeptRuns_);
    emit keptRunsChanged();
}

QString RunModel::deviceName() const {
    return context_.device ? QString::fromStdString(context_.device->name) : QString();
}

QString stageText(const std::string& stage) {
    return QString::fromStdString(stage);
}

QString stagesText(const RunOutcome& outcome) {
    QStringList stages;
    for (const auto& stage : outcome.stages)
        stages << QStringLiteral("%1 %2").arg(stageText(stage.stage), stage.strategyName()).trimmed();
    return stages.join(QStringLiteral(" → "));
}

}  // namespace hs::ui

namespace hs::ui {

QString specText(const RunRequest& request) {
    QStringList stages;
    const auto add = [&stages](const stages::Stage& stage) {
        stages << QStringLiteral("%1 (%2)").arg(QString::fromUtf8(stage.kind().name()),
                                                QString::fromStdString(stage.summary()));
    };
    for (const auto& stage : request.imageStages()) add(*stage);
    if (request.strategy) add(*stages::histogramStage(request.histogramParams(), *request.strategy));
    QString spec = stages.join(QStringLiteral(" → "));
    if (request.twoDevices)
        spec += QStringLiteral("; histogram on %1, %2 mode, %3 chunks")
                    .arg(request.twoDevices->consumer,
                         QString::fromUtf8(produce_consume::modeName(request.twoDevices->mode)))
                    .arg(request.twoDevices->chunks);
    return spec;
}

}  // namespace hs::ui
