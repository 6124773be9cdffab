#pragma once

#include <QObject>
#include <QString>
#include <QVector>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "engine/measure/compare.hpp"
#include "engine/runtime/device_info.hpp"
#include "session/session.hpp"
#include "ui/display/display_link.hpp"
#include "ui/model/run.hpp"
#include "ui/work/worker.hpp"

namespace hs {
class DeviceContext;
}
namespace hs::archive {
struct Record;
}

namespace hs::ui {

// Turns UI intents into session runs on its worker thread (ui/worker.hpp). It keeps only the thread, latest
// request wins and cancel: every run is a session::RunSpec (the image stages, the histogram, the execution
// mode), the pixels on the device from the upload to the display (see DisplayLink).
//
// Latest request wins: a new request replaces the one waiting (at most one waits), so a dragged slider never
// builds a backlog. A run in flight finishes; its result is still shown when the newer request is for the
// same image and device (the view follows a drag instead of waiting for it to stop), and dropped otherwise.
// Run ×N and Compare stop between repetitions once superseded or cancelled. Cancel abandons every request
// made so far: a run on the device cannot be interrupted, so its result, when it comes, is discarded
// (discarded()), never shown; Compare delivers the strategies it measured. Results arrive as signals on the
// thread that owns the controller.
class Controller : public Worker {
    Q_OBJECT

  public:
    explicit Controller(QObject* parent = nullptr);
    ~Controller() override;

    // Where processed images go: `link`'s context moves to the worker thread, which presents every processed
    // image through it. Call once, before start(); the link must outlive the controller. Without a link the
    // processed image is read back and handed over as host pixels.
    void setDisplay(DisplayLink* link);
    // Creates the OpenCL runtime on the worker thread; devicesReady() follows.
    void start();
    bool devicesKnown() const { return devicesKnown_; }
    const std::vector<DeviceInfo>& devices() const { return devices_; }

    // Each returns the request's id; results carry it.
    quint64 runHistogram(const RunRequest& request);
    // `count` measured runs, each reported by histogramReady() and progress().
    quint64 runRepeated(const RunRequest& request, int count);
    // Every strategy of the registry on the request's image and device (measure::compareHistogramStrategies:
    // the pixels uploaded once, one untimed warm-up, then `repetitions` measured runs each).
    quint64 runCompare(const RunRequest& request, int repetitions);
    // Abandons the requests made so far (see above); cancelled() says so. Nothing when idle.
    void cancel();

    // A request is waiting or running.
    bool busy() const { return finishedId_ != latestId_.load(); }
    // Requests the worker actually started; superseded waiting requests never start.
    int startedRequests() const { return startedRequests_.load(); }

    // Run ×N records each of its runs (all its repetitions, one record) in the run archive of
    // archive::Settings::fromEnvironment(), on the worker thread; runRecorded() says how that went. On at
    // construction.
    void setRecording(bool on) { recording_ = on; }
    bool recording() const { return recording_.load(); }

    // Test hook: `probe` runs on the worker thread each time it is about to make engine calls — before each
    // request, and before each candidate of an `auto` trial — so that a test can see which thread does the
    // work and hold the worker there, which makes the device's speed irrelevant to what the test asserts.
    void setWorkerProbe(std::function<void()> probe);

  signals:
    void devicesReady();
    // One measured run finished (each repetition of Run ×N too).
    void histogramReady(const hs::ui::RunOutcome& outcome);
    // Run ×N and Compare: `done` of `total` measured runs.
    void progress(int done, int total);
    // The latest request's `auto` trial is about to try `candidate` (1-based) of `candidates`.
    void autoTrialProgress(int candidate, int candidates, const QString& strategy);
    // Compare's measurements, for the views to present.
    void compareReady(const hs::measure::Comparison& comparison);
    void failed(const hs::ui::RunFailure& failure);
    void busyChanged(bool busy);
    // cancel() abandoned the requests up to `id`; the worker may still be finishing a run on the device.
    void cancelled(quint64 id);
    // The result of a cancelled request, which the worker could not interrupt: for the record, not to show.
    void discarded(const hs::ui::RunOutcome& outcome);
    // A Run ×N was recorded as run `id` of the archive, or not (id 0): `problem` is the archive's one line.
    void runRecorded(qint64 id, const QString& problem);

  private:
    enum class JobKind { Histogram, Repeated, Compare };
    struct Job {
        quint64 id = 0;
        JobKind kind = JobKind::Histogram;
        RunRequest request;
        int count = 1;
    };

    quint64 submit(JobKind kind, const RunRequest& request, int count);
    // Worker thread: runs waiting jobs until none is left.
    void drain();
    void execute(const Job& job);
    void executeCompare(const Job& job);
    // The session's spec of `request` on `device` (null: the host alone).
    session::RunSpec specOf(const RunRequest& request, DeviceContext* device) const;
    // The outcome before the run: the request, the device and how processed images reach the screen.
    RunOutcome prepare(const Job& job, DeviceContext* device);
    // The outcome of `report`: its stages, histogram and timings, and the processed image presented.
    void complete(RunOutcome& outcome, session::RunReport& report);
    // One run, its outcome shown; Run ×N: `count` runs through the session's repetitions, each shown.
    void runOnce(const Job& job);
    void runRepeatedly(const Job& job);
    // Worker thread: writes `record` to the archive and says so through runRecorded().
    void recordRun(const archive::Record& record);
    // The request's image after its image stages, on the host (Compare measures histograms of it).
    std::shared_ptr<const ImageRGBA8> processedImage(DeviceContext* device, const RunRequest& request);
    // Null for an empty selector (host strategies only); throws OpenClError when the device cannot be opened.
    DeviceContext* openDevice(const QString& selector);
    bool stillWanted(const Job& job) const;
    // Queues `deliver` onto the controller's thread, where it runs only while `id` is still the latest.
    template <typename Deliver>
    void post(quint64 id, Deliver&& deliver);
    // Queues a run's result: discarded if its request was cancelled, else shown if it is the latest, or newer
    // than the last shown and for the image and device of the latest request; `shown` runs after it is shown.
    void postResult(RunOutcome outcome, std::function<void()> shown = {});
    void finished(quint64 id);
    // Worker thread: calls the test probe, if one is set.
    void probe();

    DisplayLink* display_ = nullptr;  // used on the worker thread only
    std::mutex probeMutex_;
    std::function<void()> probe_;

    std::vector<DeviceInfo> devices_;
    bool devicesKnown_ = false;

    std::mutex waitingMutex_;
    std::optional<Job> waiting_;
    std::atomic<quint64> latestId_{0};
    std::atomic<quint64> cancelledId_{0};
    std::atomic<int> startedRequests_{0};
    std::atomic<bool> recording_{true};
    quint64 finishedId_ = 0;
    // The controller's thread only: what the latest request is about, and the newest result shown.
    std::shared_ptr<const ImageRGBA8> latestImage_;
    QString latestDevice_;
    quint64 shownId_ = 0;
};

}  // namespace hs::ui
