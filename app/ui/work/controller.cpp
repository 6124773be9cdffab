#include "ui/work/controller.hpp"

#include <QMetaObject>
#include <algorithm>
#include <chrono>
#include <limits>

#include "archive/archive.hpp"
#include "engine/image/pixel_source.hpp"
#include "engine/lab/edited_strategy.hpp"
#include "engine/measure/compare.hpp"
#include "engine/ops/histogram/auto_strategy.hpp"
#include "engine/runtime/runtime.hpp"
#include "engine/runtime/timing.hpp"
#include "engine/stages/builtin.hpp"
#include "interop/texture_sink.hpp"

namespace hs::ui {

namespace {

std::uint64_t nanosecondsSince(std::chrono::steady_clock::time_point start) {
    return static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start)
            .count());
}

// `list` with the stage of the lab's edited built-in running it: that stage made again with the edited
// strategy (whatever the panel or toolbar chose), then built from the lab's text. A run without a stage of
// that kind (rotation switched off) is refused, naming it.
void withEditedStrategy(stages::StageList& list, const RunRequest& request) {
    const RunRequest::EditedStrategy& edited = *request.edited;
    const auto stage = std::find_if(list.begin(), list.end(),
                                    [&](const auto& each) { return each->kind().name() == edited.stage; });
    if (stage == list.end())
        throw UsageError("the run has no " + edited.stage + " stage for the edited " + edited.strategy +
                         " to run in: switch it on in the Transform panel");
    std::shared_ptr<const stages::Stage> chosen = *stage;
    if (const auto* params = stages::histogramParamsOf(*chosen))
        chosen = stages::histogramStage(*params, histogram::findStrategy(edited.strategy));
    else if (const auto* filter = stages::filterOf(*chosen))
        chosen = stages::convolveStage(*filter, convolve::findStrategy(edited.strategy));
    else if (edited.stage == "rotate" && request.rotation)
        chosen = stages::rotateStage(request.rotation->params, rotate::findStrategy(edited.strategy));
    *stage = lab::editedStrategy(std::move(chosen), edited.label, edited.text);
}

const histogram::Strategy& histogramStrategy(const RunRequest& request) {
    if (!request.strategy) throw UsageError("no histogram strategy is chosen");
    return *request.strategy;
}

}  // namespace

Controller::Controller(QObject* parent) : Worker(QStringLiteral("histoscope-worker"), parent) {}

Controller::~Controller() {
    {
        std::lock_guard lock(waitingMutex_);
        waiting_.reset();
    }
    // Whatever runs stops at its next repetition; the runtime is released on the thread that used it.
    latestId_.store(std::numeric_limits<quint64>::max());
    // The display's OpenCL objects belong to contexts of the runtime's devices: they go first.
    stopThread([this] {
        if (display_) display_->release();
    });
}

void Controller::setDisplay(DisplayLink* link) {
    Q_ASSERT(!display_ && link);
    link->moveToThread(workerThread());
    onWorker([this, link] { display_ = link; });
}

void Controller::setWorkerProbe(std::function<void()> probe) {
    std::lock_guard lock(probeMutex_);
    probe_ = std::move(probe);
}

void Controller::probe() {
    std::function<void()> current;
    {
        std::lock_guard lock(probeMutex_);
        current = probe_;
    }
    if (current) current();
}

void Controller::start() {
    onWorker([this] {
        std::vector<DeviceInfo> devices;
        QString problem;
        try {
            devices = session().runtime().devices();
        } catch (const std::exception& e) {
            problem = QString::fromStdString(e.what());
        }
        onOwner([this, devices, problem] {
            devices_ = devices;
            devicesKnown_ = true;
            if (!problem.isEmpty())
                emit failed(RunFailure{0, ErrorKind::OpenCl, {}, "OpenCL runtime: " + problem, {}});
            emit devicesReady();
        });
    });
}

quint64 Controller::runHistogram(const RunRequest& request) {
    return submit(JobKind::Histogram, request, 1);
}

quint64 Controller::runRepeated(const RunRequest& request, int count) {
    return submit(JobKind::Repeated, request, std::max(count, 1));
}

quint64 Controller::runCompare(const RunRequest& request, int repetitions) {
    return submit(JobKind::Compare, request, std::max(repetitions, 1));
}

void Controller::cancel() {
    const quint64 id = latestId_.load();
    if (!busy() || cancelledId_.load() >= id) return;
    // Every request up to the latest is abandoned: one waiting never starts, Run ×N and Compare stop before
    // their next repetition, and a result still to come is discarded (discarded()), never shown.
    cancelledId_.store(id);
    emit cancelled(id);
}

quint64 Controller::submit(JobKind kind, const RunRequest& request, int count) {
    Q_ASSERT(request.image);
    const bool wasBusy = busy();
    const quint64 id = latestId_.load() + 1;
    // The id is published before the job: the worker must never see its own job as superseded.
    latestId_.store(id);
    latestImage_ = request.image;
    latestDevice_ = request.device;
    {
        std::lock_guard lock(waitingMutex_);
        waiting_ = Job{id, kind, request, count};
    }
    if (!wasBusy) emit busyChanged(true);
    onWorker([this] { drain(); });
    return id;
}

void Controller::drain() {
    for (;;) {
        std::optional<Job> job;
        {
            std::lock_guard lock(waitingMutex_);
            job.swap(waiting_);
        }
        if (!job) return;
        if (job->id > cancelledId_.load()) {
            ++startedRequests_;
            probe();
            execute(*job);
        }
        onOwner([this, id = job->id] { finished(id); });
    }
}

bool Controller::stillWanted(const Job& job) const {
    return latestId_.load() == job.id && cancelledId_.load() < job.id;
}

template <typename Deliver>
void Controller::post(quint64 id, Deliver&& deliver) {
    onOwner([this, id, deliver = std::forward<Deliver>(deliver)]() mutable {
        if (id == latestId_.load() && id > cancelledId_.load()) deliver();
    });
}

void Controller::postResult(RunOutcome outcome, std::function<void()> shown) {
    // Judged on the owner's thread, where cancel() runs: a result that arrives after its request was
    // cancelled is discarded, whenever the worker finished it.
    onOwner([this, outcome = std::move(outcome), shown = std::move(shown)] {
        const quint64 id = outcome.requestId;
        if (id <= cancelledId_.load()) {
            emit discarded(outcome);
            return;
        }
        const bool refines = outcome.request.image == latestImage_ && outcome.request.device == latestDevice_;
        if (id != latestId_.load() && (id < shownId_ || !refines)) return;
        shownId_ = id;
        emit histogramReady(outcome);
        if (shown) shown();
    });
}

void Controller::finished(quint64 id) {
    finishedId_ = std::max(finishedId_, id);
    if (!busy()) emit busyChanged(false);
}

void Controller::execute(const Job& job) {
    // An `auto` trial takes a while on a new device or image size: the window says which candidate it tries.
    const histogram::ScopedAutoTrialObserver trialProgress(
        [this, id = job.id](int candidate, int candidates, std::string_view strategy) {
            post(id, [this, candidate, candidates, name = QString::fromUtf8(strategy)] {
                emit autoTrialProgress(candidate, candidates, name);
            });
            probe();
        });
    RunFailure failure{job.id, ErrorKind::OpenCl, job.request.device, {}, {}};
    try {
        switch (job.kind) {
            case JobKind::Histogram:
                runOnce(job);
                return;
            case JobKind::Repeated:
                runRepeatedly(job);
                return;
            case JobKind::Compare:
                executeCompare(job);
                return;
        }
    } catch (const OpenClError& e) {
        failure.message = QString::fromStdString(e.what());
        failure.buildLog = QString::fromStdString(e.buildLog());
    } catch (const Error& e) {
        failure.kind = e.kind();
        failure.message = QString::fromStdString(e.what());
    } catch (const std::exception& e) {
        failure.message = QString::fromStdString(e.what());
    }
    post(job.id, [this, failure] { emit failed(failure); });
}

DeviceContext* Controller::openDevice(const QString& selector) {
    if (selector.isEmpty()) return nullptr;
    return &session().device(selector.toStdString());
}

session::RunSpec Controller::specOf(const RunRequest& request, DeviceContext* device) const {
    session::RunSpec spec;
    spec.image = request.image;
    spec.device = request.device.toStdString();
    spec.stages = request.imageStages();
    spec.stages.push_back(stages::histogramStage(request.histogramParams(), histogramStrategy(request)));
    if (request.edited) withEditedStrategy(spec.stages, request);
    // The scopes' fast strategy on a device; the host has only the serial one.
    const scope::Strategy& scopeStrategy = scope::findStrategy(device ? "local-atomic" : "serial");
    for (const scope::Params& params : request.scopeParams())
        spec.stages.push_back(stages::scopeStage(params, scopeStrategy));
    if (!device) {
        spec.onHost = true;
    } else if (request.twoDevices) {
        spec.twoDevices = session::TwoDevices{request.twoDevices->consumer.toStdString(),
                                              request.twoDevices->mode, request.twoDevices->chunks};
    } else if (display_) {
        // On the shared display path the stages run in the display's GL-sharing context of the same device,
        // so that the last stage's buffer can be copied into the texture on the device.
        spec.context = &display_->pipelineDevice();
    }
    return spec;
}

RunOutcome Controller::prepare(const Job& job, DeviceContext* device) {
    const RunRequest& request = job.request;
    RunOutcome outcome;
    outcome.requestId = job.id;
    outcome.request = request;
    if (!device) return outcome;
    outcome.device = device->info();
    outcome.display =
        display_
            ? display_->prepare(*device, session().runtime().programCache(),
                                request.forceCopyDisplay ? interop::PathPreference::ForceCopy
                                                         : interop::PathPreference::Auto)
            : DisplayStatus{QStringLiteral("host"), tr("no display link to the image view's OpenGL (it draws "
                                                       "without, or is not shown yet); processed images are "
                                                       "read back to the host")};
    return outcome;
}

void Controller::complete(RunOutcome& outcome, session::RunReport& report) {
    pipeline::Result& result = report.result;
    // A two-device run reports the producer's convolved image too (produce_consume::run).
    if (outcome.request.processesImage()) {
        TimingLog displayLog;
        if (display_) {
            outcome.frame = display_->present(result, displayLog);
        } else {
            outcome.frame = DisplayFrame{result.image.width(), result.image.height(),
                                         std::make_shared<const ImageRGBA8>(result.readBack()), false, 0};
        }
        if (auto timings = displayLog.collect(); !timings.empty()) {
            pipeline::StageReport display;
            display.stage = pipeline::kDisplay;
            display.timings = std::move(timings);
            result.stages.push_back(std::move(display));
        }
    }
    for (const auto& stage : result.stages) {
        if (!stage.configured) continue;  // transfers
        outcome.stages.push_back({stage.stage, stage.strategy, QString::fromStdString(stage.note),
                                  stage.builds, stage.referenceCheck});
    }
    const pipeline::StageReport& counted = *result.stage("histogram");
    outcome.result.strategy = counted.strategy;
    outcome.result.note = counted.note;
    outcome.result.builds = counted.builds;
    outcome.result.histogram = std::move(*result.histogram);
    outcome.result.values = std::move(*result.values);
    outcome.result.timings = result.timings();
    outcome.scopes = std::move(result.scopes);
    outcome.consumer = std::move(report.consumer);
    outcome.twoDevices = std::move(report.twoDevices);
}

void Controller::runOnce(const Job& job) {
    DeviceContext* device = openDevice(job.request.device);
    const auto start = std::chrono::steady_clock::now();
    RunOutcome outcome = prepare(job, device);
    session::RunReport report = session().run(specOf(job.request, device));
    complete(outcome, report);
    outcome.workerNs = nanosecondsSince(start);
    postResult(std::move(outcome));
}

void Controller::runRepeatedly(const Job& job) {
    DeviceContext* device = openDevice(job.request.device);
    // Every run is shown, the first with its program builds: no warm-up.
    const measure::Plan plan{measure::Clock::Kernel, 0, job.count, 0};
    int done = 0;
    auto start = std::chrono::steady_clock::now();
    RunOutcome outcome = prepare(job, device);
    const session::RunSpec spec = specOf(job.request, device);
    const bool recording = recording_.load();
    std::optional<archive::Record> record;
    session().measure(
        spec, plan, [this, &job] { return stillWanted(job); },
        [&](session::RunReport& report) {
            // Before complete(), which moves the histogram out of the report.
            if (recording && !record) {
                record = archive::recordOf(
                    "histoscope Run ×N",
                    archive::identify(job.request.imagePath.toStdString(), *job.request.image), spec.stages,
                    report);
                // The first run's pixels, as the CLI keeps them, for a diff's pixels that differ.
                if (job.request.processesImage()) {
                    pipeline::Result& result = report.result;
                    result.withPixels([&](const std::uint8_t* pixels) {
                        archive::OutputImage output =
                            archive::outputOf(result.image.width(), result.image.height(), pixels);
                        record->outputHash = std::move(output.hash);
                        record->outputPng = std::move(output.png);
                    });
                }
            } else if (record) {
                archive::addRepetition(*record, report);
            }
            RunOutcome shown = outcome;
            complete(shown, report);
            shown.workerNs = nanosecondsSince(start);
            postResult(std::move(shown), [this, id = job.id, done = ++done, total = job.count] {
                if (id == latestId_.load()) emit progress(done, total);
            });
            start = std::chrono::steady_clock::now();
        });
    if (record) recordRun(*record);
}

void Controller::recordRun(const archive::Record& record) {
    archive::Recorded recorded;
    try {
        recorded = archive::record(archive::Settings::fromEnvironment(), record);
    } catch (const Error& e) {  // a bad $HISTOSCOPE_ARCHIVE_MAX_RUNS or _MAX_MB
        recorded.problem = std::string("the run is not recorded: ") + e.what();
    }
    // Every recording is said, superseded or not: the History dock refreshes on it.
    onOwner([this, id = recorded.id, problem = QString::fromStdString(recorded.problem)] {
        emit runRecorded(id, problem);
    });
}

std::shared_ptr<const ImageRGBA8> Controller::processedImage(DeviceContext* device,
                                                             const RunRequest& request) {
    if (!request.processesImage()) return request.image;
    session::RunSpec spec;
    spec.image = request.image;
    spec.stages = request.imageStages();
    spec.onHost = !device;  // where an image stage refuses, naming itself
    spec.context = device;
    return std::make_shared<const ImageRGBA8>(session().run(spec).result.readBack());
}

void Controller::executeCompare(const Job& job) {
    DeviceContext* device = openDevice(job.request.device);
    // The histogram strategies are compared on what the histogram stage sees: the processed image.
    const auto processed = processedImage(device, job.request);
    const measure::CompareHooks hooks{[this, &job] { return stillWanted(job); },
                                      [this, id = job.id](int done, int total) {
                                          post(id, [this, done, total] { emit progress(done, total); });
                                      }};
    // The lab's edited histogram strategy joins them; an image kernel (a user's, an edited rotation or
    // convolution) is not a histogram strategy: it is measured by the run it is part of, not here.
    std::optional<measure::EditedSource> edited;
    if (const auto& edit = job.request.edited; edit && edit->stage == "histogram")
        edited = measure::EditedSource{edit->strategy, edit->label, edit->text};
    auto comparison =
        measure::compareHistogramStrategies(device, *processed, job.request.histogramParams(), job.count,
                                            hooks, measure::kCompareBaseline, edited);
    // A cancelled comparison keeps the strategies it measured; a superseded one is dropped.
    onOwner([this, id = job.id, comparison = std::move(comparison)] {
        if (id == latestId_.load()) emit compareReady(comparison);
    });
}

}  // namespace hs::ui
