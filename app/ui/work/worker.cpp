#include "ui/work/worker.hpp"

#include <QMetaObject>
#include <QThread>
#include <atomic>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace hs::ui {

namespace {

// Run on the worker itself: the OpenCL runtime's threads it starts (PoCL creates its pool in the thread that
// first touches the platform) inherit their creator's niceness, so that kernels on the CPU cannot starve the
// GUI's event loop.
void runBelowInteractivePriority() {
#ifdef __linux__
    constexpr int kWorkerNiceness = 10;
    setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), kWorkerNiceness);
#endif
}

std::atomic<bool> programCacheAllowedByUser{true};

}  // namespace

void Worker::setProgramCacheAllowed(bool allowed) {
    programCacheAllowedByUser = allowed;
}

bool Worker::programCacheAllowed() {
    return programCacheAllowedByUser;
}

Worker::Worker(const QString& threadName, QObject* parent)
    : QObject(parent), thread_(new QThread(this)), context_(new QObject) {
    thread_->setObjectName(threadName);
    context_->moveToThread(thread_);
    thread_->start();
    onWorker(&runBelowInteractivePriority);
}

Worker::~Worker() {
    stopThread();
}

void Worker::onWorker(std::function<void()> work) {
    QMetaObject::invokeMethod(context_, std::move(work), Qt::QueuedConnection);
}

void Worker::onOwner(std::function<void()> deliver) {
    QMetaObject::invokeMethod(this, std::move(deliver), Qt::QueuedConnection);
}

session::Session& Worker::session() {
    if (!session_) {
        ProgramCacheSettings cache = ProgramCacheSettings::fromEnvironment();
        cache.enabled = cache.enabled && programCacheAllowedByUser;
        session_ = std::make_unique<session::Session>(std::move(cache));
    }
    return *session_;
}

void Worker::stopThread(const std::function<void()>& release) {
    if (!context_) return;
    QMetaObject::invokeMethod(
        context_,
        [this, &release] {
            if (release) release();
            session_.reset();
        },
        Qt::BlockingQueuedConnection);
    thread_->quit();
    thread_->wait();
    delete context_;
    context_ = nullptr;
}

}  // namespace hs::ui
