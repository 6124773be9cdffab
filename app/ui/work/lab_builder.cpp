#include "ui/work/lab_builder.hpp"

#include <chrono>

#include "engine/runtime/device_info.hpp"
#include "engine/runtime/error.hpp"
#include "engine/runtime/runtime.hpp"

namespace hs::ui {

LabBuilder::LabBuilder(QObject* parent) : Worker(QStringLiteral("histoscope-lab"), parent) {
    qRegisterMetaType<LabBuildResult>();
}

LabBuilder::~LabBuilder() {
    stopThread();
}

quint64 LabBuilder::build(const QString& text, const QString& label, const QString& selector) {
    const quint64 id = latestId_.fetch_add(1) + 1;
    bool drainPosted = false;
    {
        std::lock_guard lock(mutex_);
        drainPosted = waiting_.has_value();
        waiting_ = Request{id, text.toStdString(), label.toStdString(), selector.toStdString()};
    }
    // One drain per waiting request is enough: a replaced request's drain builds its replacement.
    if (!drainPosted) onWorker([this] { drain(); });
    return id;
}

void LabBuilder::drain() {
    std::optional<Request> request;
    {
        std::lock_guard lock(mutex_);
        request.swap(waiting_);
    }
    if (!request) return;
    ++buildsStarted_;
    LabBuildResult result;
    result.id = request->id;
    try {
        Runtime& runtime = session().runtime();
        const std::vector<DeviceInfo>& devices = runtime.devices();
        if (devices.empty()) throw OpenClError("clGetPlatformIDs", 0, "no OpenCL device");
        const int platform = request->selector.empty()
                                 ? devices.front().platformIndex
                                 : selectDevice(devices, request->selector).platformIndex;
        for (const DeviceInfo& info : devices) {
            if (info.platformIndex != platform) continue;
            LabDeviceBuild build;
            build.device = QString::fromStdString(info.name);
            build.selector = QString::fromStdString(info.selector());
            const auto start = std::chrono::steady_clock::now();
            try {
                DeviceContext& device = runtime.open(info);
                const cl::Program program = device.programFromText(request->label, request->text, {});
                build.built = true;
                // A successful build's log holds its warnings; a program loaded from the cache may have none.
                try {
                    build.log =
                        lab::parseBuildLog(program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device.device()));
                } catch (const cl::Error&) {
                }
            } catch (const OpenClError& error) {
                build.log = lab::parseBuildLog(error.buildLog());
                if (error.buildLog().empty()) build.failure = QString::fromUtf8(error.what());
            }
            build.milliseconds =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            result.devices.push_back(std::move(build));
        }
    } catch (const Error& error) {
        LabDeviceBuild none;
        none.failure = QString::fromUtf8(error.what());
        result.devices.push_back(std::move(none));
    }
    if (result.id != latestId_.load()) return;
    onOwner([this, result = std::move(result)] {
        if (result.id == latestId_.load()) emit built(result);
    });
}

}  // namespace hs::ui
