#include "ui/worker_thread.hpp"

#include <QMetaObject>
#include <QObject>
#include <QString>
#include <QThread>

#ifdef __linux__
#include <sys/resource.h>
#include <unistd.h>
#endif

namespace hs::ui {

namespace {

// Run on the worker itself: the OpenCL runtime's threads it starts (PoCL creates its pool in the thread that
// first touches the platform) inherit their creator's niceness.
void runBelowInteractivePriority() {
#ifdef __linux__
    constexpr int kWorkerNiceness = 10;
    setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), kWorkerNiceness);
#endif
}

}  // namespace

void startWorkerThread(QThread& thread, QObject& context, const QString& name) {
    thread.setObjectName(name);
    context.moveToThread(&thread);
    thread.start();
    QMetaObject::invokeMethod(&context, &runBelowInteractivePriority, Qt::QueuedConnection);
}

}  // namespace hs::ui
