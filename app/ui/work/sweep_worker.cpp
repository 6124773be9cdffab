#include "ui/work/sweep_worker.hpp"

#include "engine/ops/tuning.hpp"
#include "engine/runtime/runtime.hpp"
#include "io/files/files.hpp"

namespace hs::ui {

namespace {

// A filter file named by a stage's values, through io's bounded reader.
std::string readStageFile(const std::string& path, std::uint64_t maxBytes, std::string_view what) {
    return io::readWholeFile(path, static_cast<std::size_t>(maxBytes), what);
}

}  // namespace

SweepWorker::SweepWorker(QObject* parent) : Worker(QStringLiteral("histoscope-sweep"), parent) {}

SweepWorker::~SweepWorker() {
    stopping_ = true;
    cancelRequested_ = true;
    stopThread();
}

void SweepWorker::start(session::SweepSpec spec) {
    cancelRequested_ = false;
    onWorker([this, spec = std::move(spec)]() mutable {
        if (stopping_) return;
        try {
            DeviceContext& device = session().device(spec.device);
            spec.context = &device;
            const auto sweep = session::runSweep(
                session(), spec, readStageFile, [this](std::size_t done, std::size_t total) {
                    onOwner([this, done, total] {
                        emit progress(static_cast<int>(done), static_cast<int>(total));
                    });
                    return !cancelRequested_;
                });
            onOwner([this, sweep, info = device.info()] {
                if (sweep)
                    emit finished(*sweep, info);
                else
                    emit cancelled();
            });
        } catch (const std::exception& error) {
            onOwner([this, message = QString::fromUtf8(error.what())] { emit failed(message); });
        }
    });
}

void SweepWorker::adopt(const QString& selector, const std::string& strategy, const lab::Point& values) {
    onWorker([this, selector, strategy, values] {
        if (stopping_) return;
        try {
            DeviceContext& device = session().device(selector.toStdString());
            tuning::Values stored;
            for (const auto& [name, value] : values) stored[name] = std::stoi(value);
            tuning::store(device.programCache(), device.info(), strategy, stored);
            onOwner([this] { emit adopted(); });
        } catch (const std::exception& error) {
            onOwner([this, message = QString::fromUtf8(error.what())] { emit failed(message); });
        }
    });
}

}  // namespace hs::ui
