#include "cli/commands/work_bounds.hpp"

#include <unistd.h>

#include <thread>

namespace hs::cli {

namespace {

QString gibibytes(double bytes) {
    return QString::number(bytes / (1024.0 * 1024.0 * 1024.0), 'f', 1) + " GiB";
}

QString duration(double seconds) {
    if (seconds < 120) return QString::number(seconds, 'f', 0) + " s";
    if (seconds < 3600) return QString::number(seconds / 60, 'f', 0) + " min";
    if (seconds < 2 * 86400) return QString::number(seconds / 3600, 'f', 1) + " h";
    return QString::number(seconds / 86400, 'g', 3) + " days";
}

}  // namespace

double multiplyAddsPerSecond(const DeviceInfo* device) {
    if (device == nullptr) return std::max(1u, std::thread::hardware_concurrency()) * 4e9 * 16;
    const double lanes = device->type == DeviceType::Gpu ? 128 : 16;
    return std::max(1u, device->computeUnits) * std::max(1u, device->maxClockMHz) * 1e6 * lanes;
}

double machineMemoryBytes() {
    return static_cast<double>(sysconf(_SC_PHYS_PAGES)) * static_cast<double>(sysconf(_SC_PAGE_SIZE));
}

void addForceOption(ArgumentParser& parser) {
    parser.addFlag("force",
                   "Run even what cannot fit this machine by the estimate made before starting (more memory "
                   "than it has, or more than an hour of work).");
}

void refuseUnlessItFits(const ArgumentParser& parser, const QString& request, const WorkEstimate& estimate) {
    const double memory = machineMemoryBytes();
    const bool tooBig = estimate.bytes > memory;
    const bool tooLong = estimate.seconds > kLongestWorkSeconds;
    if ((!tooBig && !tooLong) || parser.isSet("force")) return;
    QString why = request + " would need about " + gibibytes(estimate.bytes) + " of memory";
    if (tooBig) why += " (this machine has " + gibibytes(memory) + ")";
    why += " and about " + duration(estimate.seconds);
    if (tooLong) why += " (more than " + duration(kLongestWorkSeconds) + ")";
    throw parser.usageError(why + "; --force runs it anyway");
}

}  // namespace hs::cli
