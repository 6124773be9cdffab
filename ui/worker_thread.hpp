#pragma once
// The threads the app's engine work runs on (the controller's, the Visual words tab's).

class QObject;
class QString;
class QThread;

namespace hs::ui {

// Names and starts `thread` with `context` living in it, and lowers that thread below the GUI thread: when
// the OpenCL device is the CPU itself (PoCL), its kernels then cannot starve the event loop.
void startWorkerThread(QThread& thread, QObject& context, const QString& name);

}  // namespace hs::ui
