#pragma once
// The base of the app's engine workers: the controller (the runs of the shown image) and the Visual words tab
// (descriptors, k-means, word assignment, the sweep). Each has a thread of its own, below the GUI thread's
// priority, and a session (runtime, programs, device-input cache) that is made, used and destroyed on that
// thread only, so the GUI thread never makes an OpenCL call. Work posted to a worker runs in order; results
// go back to the thread that owns the worker.

#include <QObject>
#include <QString>
#include <functional>
#include <memory>

#include "session/session.hpp"

class QThread;

namespace hs::ui {

class Worker : public QObject {
    Q_OBJECT

  public:
    ~Worker() override;

    // Whether the sessions of the process keep compiled kernels in the program-binary cache (the Preferences'
    // choice; HISTOSCOPE_PROGRAM_CACHE=off still wins). A session made after the call follows it: the app
    // sets it before its workers start, and a change takes effect at the next start (a session's contexts and
    // programs live as long as it does).
    static void setProgramCacheAllowed(bool allowed);
    static bool programCacheAllowed();

  protected:
    // Starts the thread, named `threadName` (what a debugger or `top -H` shows).
    Worker(const QString& threadName, QObject* parent);

    // Runs `work` on the worker thread after everything posted before it.
    void onWorker(std::function<void()> work);
    // Runs `deliver` on the thread that owns the worker (the GUI thread), after what was delivered before.
    void onOwner(std::function<void()> deliver);
    // Worker thread only: the session, made on first use (OpenClError when no OpenCL runtime can be opened;
    // the next use tries again), its program cache as programCacheAllowed() says when it is made.
    session::Session& session();
    // Stops the thread once what was posted has run: `release` runs on it first (what holds OpenCL objects of
    // the session's contexts), then the session goes. A derived worker calls it from its destructor, while
    // its own members still exist; afterwards nothing may be posted.
    void stopThread(const std::function<void()>& release = {});
    // The worker thread, for an object that must live there (the display link).
    QThread* workerThread() const { return thread_; }

  private:
    QThread* thread_ = nullptr;
    QObject* context_ = nullptr;  // lives on thread_: the target of the work posted there
    std::unique_ptr<session::Session> session_;
};

}  // namespace hs::ui
