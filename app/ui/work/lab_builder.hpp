#pragma once
// The kernel lab's builds (docs/kernel-lab.md): a user kernel's text compiled on every device of one
// platform, on a worker thread of its own (ui/work/worker.hpp), so that the GUI thread never waits for a
// driver. Builds go through each device's program cache like every other program. Latest text wins: a build
// asked for while another waits replaces it, so typing never queues builds.

#include <QMetaType>
#include <QString>
#include <QVector>
#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <string>

#include "engine/lab/build_log.hpp"
#include "ui/work/worker.hpp"

namespace hs::ui {

// One device's build of the lab's text.
struct LabDeviceBuild {
    QString device;  // the device's name
    QString selector;
    bool built = false;
    double milliseconds = 0;  // wall time of the build (a cached program loads in far less)
    lab::ParsedLog log;       // the driver's log, parsed (warnings come with a successful build too)
    QString failure;          // why it did not build when the driver gave no log
};

struct LabBuildResult {
    quint64 id = 0;
    QVector<LabDeviceBuild> devices;
};

class LabBuilder : public Worker {
    Q_OBJECT

  public:
    explicit LabBuilder(QObject* parent = nullptr);
    ~LabBuilder() override;

    // Builds `text` (named `label` in the driver's messages) on every device of the platform of the device
    // `selector` names (empty: the first platform); built() follows with the latest request's result only.
    quint64 build(const QString& text, const QString& label, const QString& selector);
    // Builds the worker actually started (superseded requests never start).
    int buildsStarted() const { return buildsStarted_.load(); }

  signals:
    void built(const hs::ui::LabBuildResult& result);

  private:
    void drain();

    struct Request {
        quint64 id = 0;
        std::string text;
        std::string label;
        std::string selector;
    };
    std::mutex mutex_;
    std::optional<Request> waiting_;
    std::atomic<quint64> latestId_{0};
    std::atomic<int> buildsStarted_{0};
};

}  // namespace hs::ui

Q_DECLARE_METATYPE(hs::ui::LabBuildResult)
