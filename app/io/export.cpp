#include "io/export.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <limits>

#include "ops/histogram/statistics.hpp"
#include "runtime/error.hpp"

namespace hs::io {

namespace {

QJsonValue integer(std::uint64_t value) {
    return QJsonValue(static_cast<qint64>(value));
}

QString text(std::string_view value) {
    return QString::fromUtf8(value.data(), static_cast<qsizetype>(value.size()));
}

// RFC 4180: quote a field that holds a separator, a quote or a line break.
QByteArray csvField(std::string_view value) {
    QByteArray field(value.data(), static_cast<qsizetype>(value.size()));
    if (!field.contains(',') && !field.contains('"') && !field.contains('\n') && !field.contains('\r'))
        return field;
    field.replace("\"", "\"\"");
    return '"' + field + '"';
}

QJsonArray countsJson(const std::vector<std::uint64_t>& counts) {
    QJsonArray array;
    for (const auto count : counts) array.append(integer(count));
    return array;
}

constexpr int kTraceProcess = 1;

// Temporaries are ".<name>.<pid>.<n>.histoscope-tmp" beside the target: hidden, tied to their writer.
constexpr const char* kTemporarySuffix = ".histoscope-tmp";
std::atomic<unsigned> temporaryCounter{0};

QString temporaryPrefix(const QFileInfo& target) {
    return "." + target.fileName() + ".";
}

// Removes the temporaries of `target` whose writer no longer runs (killed mid-write).
void removeStaleTemporaries(const QFileInfo& target) {
    QDir folder = target.dir();
    const QString prefix = temporaryPrefix(target);
    const QStringList candidates =
        folder.entryList({prefix + "*" + kTemporarySuffix}, QDir::Files | QDir::Hidden | QDir::System);
    for (const QString& name : candidates) {
        bool isPid = false;
        const auto writer = static_cast<pid_t>(name.mid(prefix.size()).section('.', 0, 0).toLong(&isPid));
        if (isPid && writer > 0 && ::kill(writer, 0) != 0 && errno == ESRCH) folder.remove(name);
    }
}

QString fileKind(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device node";
    return "a special file";
}

QJsonObject timingJson(const Timing& timing) {
    return QJsonObject{{"stage", text(stageName(timing.stage))}, {"name", text(timing.name)},
                       {"queued_ns", integer(timing.queuedNs)},  {"submit_ns", integer(timing.submitNs)},
                       {"start_ns", integer(timing.startNs)},    {"end_ns", integer(timing.endNs)}};
}

}  // namespace

void checkReplaceable(const QString& path) {
    struct stat status;
    if (::stat(QFile::encodeName(path).constData(), &status) != 0 || S_ISREG(status.st_mode)) return;
    throw InputError((path + ": is " + fileKind(status.st_mode) + ", not a regular file; it is left as it is")
                         .toStdString());
}

void writeFileAtomically(const QString& path, const QByteArray& data) {
    const auto failed = [&](int error) {
        return InputError(
            (path + ": cannot write: " + QString::fromLocal8Bit(std::strerror(error))).toStdString());
    };
    if (path.isEmpty()) throw InputError("cannot write: an empty path names no file");
    checkReplaceable(path);
    // A symbolic link stays one: its target gets the new contents, as a plain write would give it.
    const QFileInfo named(path);
    const QString canonical = named.isSymLink() ? named.canonicalFilePath() : QString();
    const QFileInfo target(canonical.isEmpty() ? path : canonical);
    removeStaleTemporaries(target);
    const QByteArray temporary = QFile::encodeName(target.dir().filePath(
        temporaryPrefix(target) +
        QString("%1.%2%3").arg(getpid()).arg(temporaryCounter.fetch_add(1)).arg(kTemporarySuffix)));
    // The umask applies as to any new file; a file being replaced passes its permissions on.
    const int fd = ::open(temporary.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0) throw failed(errno);
    const auto abandon = [&](int error) {
        ::close(fd);
        ::unlink(temporary.constData());
        return failed(error);
    };
    const QByteArray destination = QFile::encodeName(target.filePath());
    struct stat previous;
    if (::stat(destination.constData(), &previous) == 0 && ::fchmod(fd, previous.st_mode & 07777) != 0)
        throw abandon(errno);
    for (qsizetype written = 0; written < data.size();) {
        const ssize_t count =
            ::write(fd, data.constData() + written, static_cast<std::size_t>(data.size() - written));
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) throw abandon(errno);
        written += count;
    }
    // A full disk or quota often shows only when the data reaches the disk.
    if (::fdatasync(fd) != 0) throw abandon(errno);
    if (::close(fd) != 0) {
        const int error = errno;
        ::unlink(temporary.constData());
        throw failed(error);
    }
    if (::rename(temporary.constData(), destination.constData()) != 0) {
        const int error = errno;
        ::unlink(temporary.constData());
        throw failed(error);
    }
}

QJsonObject histogramJson(const histogram::Histogram& histogram) {
    QJsonObject object;
    for (const auto channel : histogram::kChannels)
        object.insert(text(histogram::channelName(channel)), countsJson(histogram[channel]));
    return object;
}

QByteArray histogramCsv(const histogram::Histogram& histogram) {
    QByteArray csv = "bin,lower,upper";
    for (const auto channel : histogram::kChannels)
        csv += ',' + QByteArray(histogram::channelName(channel).data());
    csv += '\n';
    for (int bin = 0; bin < histogram.bins; ++bin) {
        const auto [lower, upper] = histogram::binValues(bin, histogram.bins);
        csv += QByteArray::number(bin) + ',' + QByteArray::number(lower) + ',' + QByteArray::number(upper);
        for (const auto channel : histogram::kChannels)
            csv += ',' + QByteArray::number(
                             static_cast<qulonglong>(histogram[channel][static_cast<std::size_t>(bin)]));
        csv += '\n';
    }
    return csv;
}

QJsonObject deviceJson(const DeviceInfo& device) {
    QJsonArray extensions;
    for (const auto& extension : device.extensions) extensions.append(text(extension));
    return QJsonObject{
        {"platform", text(device.platformName)},
        {"platform_vendor", text(device.platformVendor)},
        {"platform_version", text(device.platformVersion)},
        {"platform_index", device.platformIndex},
        {"device_index", device.deviceIndex},
        {"selector", text(device.selector())},
        {"name", text(device.name)},
        {"vendor", text(device.vendor)},
        {"driver", text(device.driverVersion)},
        {"opencl", text(device.openclVersion)},
        {"opencl_c", text(device.openclCVersion)},
        {"type", text(deviceTypeName(device.type))},
        {"compute_units", integer(device.computeUnits)},
        {"max_clock_mhz", integer(device.maxClockMHz)},
        {"global_mem_bytes", integer(device.globalMemBytes)},
        {"max_alloc_bytes", integer(device.maxAllocBytes)},
        {"local_mem_bytes", integer(device.localMemBytes)},
        {"constant_mem_bytes", integer(device.constantMemBytes)},
        {"max_work_group_size", integer(device.maxWorkGroupSize)},
        {"image_support", device.imageSupport},
        {"image2d_max_width", integer(device.image2dMaxWidth)},
        {"image2d_max_height", integer(device.image2dMaxHeight)},
        {"pipe_support", device.pipeSupport},
        {"fp64", device.fp64},
        {"profiling_resolution_ns", integer(device.profilingResolutionNs)},
        {"gl_sharing", device.hasExtension("cl_khr_gl_sharing")},
        {"extensions", extensions},
    };
}

QJsonArray timingsJson(const std::vector<Timing>& timings) {
    QJsonArray array;
    for (const auto& timing : timings) array.append(timingJson(timing));
    return array;
}

QJsonArray timingsJson(const std::vector<std::vector<Timing>>& runs) {
    QJsonArray array;
    for (std::size_t run = 0; run < runs.size(); ++run) {
        for (const auto& timing : runs[run]) {
            QJsonObject object = timingJson(timing);
            object.insert("run", static_cast<qint64>(run));
            array.append(object);
        }
    }
    return array;
}

QByteArray timingsCsv(const std::vector<std::vector<Timing>>& runs) {
    QByteArray csv = "run,stage,name,queued_ns,submit_ns,start_ns,end_ns,duration_ns\n";
    for (std::size_t run = 0; run < runs.size(); ++run) {
        for (const auto& timing : runs[run]) {
            csv += QByteArray::number(static_cast<qulonglong>(run)) + ',' +
                   csvField(stageName(timing.stage)) + ',' + csvField(timing.name);
            for (const auto ns :
                 {timing.queuedNs, timing.submitNs, timing.startNs, timing.endNs, timing.durationNs()})
                csv += ',' + QByteArray::number(static_cast<qulonglong>(ns));
            csv += '\n';
        }
    }
    return csv;
}

QByteArray chromeTrace(const std::vector<std::vector<Timing>>& runs, const QString& deviceName) {
    std::uint64_t origin = std::numeric_limits<std::uint64_t>::max();
    for (const auto& run : runs) {
        for (const auto& timing : run) origin = std::min(origin, timing.startNs);
    }
    const auto microseconds = [](std::uint64_t ns) { return static_cast<double>(ns) / 1000.0; };
    // Every event carries ts and dur, the metadata too, so simple consumers can treat all events alike.
    const auto metadata = [](const char* what, int thread, const QString& name) {
        return QJsonObject{{"name", what},
                           {"ph", "M"},
                           {"ts", 0},
                           {"dur", 0},
                           {"pid", kTraceProcess},
                           {"tid", thread},
                           {"args", QJsonObject{{"name", name}}}};
    };

    QJsonArray events;
    events.append(metadata("process_name", 0, deviceName));
    std::vector<Stage> stagesSeen;
    for (std::size_t run = 0; run < runs.size(); ++run) {
        for (const auto& timing : runs[run]) {
            const int track = static_cast<int>(timing.stage) + 1;
            if (std::find(stagesSeen.begin(), stagesSeen.end(), timing.stage) == stagesSeen.end()) {
                stagesSeen.push_back(timing.stage);
                events.append(metadata("thread_name", track, text(stageName(timing.stage))));
            }
            events.append(QJsonObject{
                {"name", text(timing.name)},
                {"cat", text(stageName(timing.stage))},
                {"ph", "X"},
                {"ts", microseconds(timing.startNs - origin)},
                {"dur", microseconds(timing.durationNs())},
                {"pid", kTraceProcess},
                {"tid", track},
                {"args", QJsonObject{{"run", static_cast<qint64>(run)},
                                     {"queued_ns", integer(timing.queuedNs)},
                                     {"submit_ns", integer(timing.submitNs)}}},
            });
        }
    }
    const QJsonObject trace{{"traceEvents", events}, {"displayTimeUnit", "ns"}};
    return QJsonDocument(trace).toJson(QJsonDocument::Indented);
}

}  // namespace hs::io
