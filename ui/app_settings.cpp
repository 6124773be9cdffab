#include "ui/app_settings.hpp"

#include <QDir>
#include <QFileInfo>
#include <QSettings>

#include "ops/histogram/histogram.hpp"

namespace hs::ui {

namespace {
const QString kGeometry = QStringLiteral("window/geometry");
const QString kState = QStringLiteral("window/state");
const QString kDeviceName = QStringLiteral("run/device");
const QString kPlatformName = QStringLiteral("run/platform");
const QString kStrategy = QStringLiteral("run/strategy");
const QString kBins = QStringLiteral("run/bins");
const QString kLastFolder = QStringLiteral("files/lastFolder");
const QString kRecentFiles = QStringLiteral("files/recent");

// Recent entries are compared as absolute, clean paths so "./a.png" and "a.png" are one entry.
QString canonicalEntry(const QString& path) {
    return QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}
}  // namespace

AppSettings::AppSettings()
    : settings_(std::make_unique<QSettings>(QSettings::IniFormat, QSettings::UserScope,
                                            QStringLiteral("HistoScope"), QStringLiteral("histoscope"))) {}

AppSettings::AppSettings(const QString& path)
    : settings_(std::make_unique<QSettings>(path, QSettings::IniFormat)) {}

AppSettings::~AppSettings() = default;

QByteArray AppSettings::windowGeometry() const {
    return settings_->value(kGeometry).toByteArray();
}
void AppSettings::setWindowGeometry(const QByteArray& geometry) {
    settings_->setValue(kGeometry, geometry);
}
QByteArray AppSettings::windowState() const {
    return settings_->value(kState).toByteArray();
}
void AppSettings::setWindowState(const QByteArray& state) {
    settings_->setValue(kState, state);
}

QString AppSettings::deviceName() const {
    return settings_->value(kDeviceName).toString();
}
QString AppSettings::platformName() const {
    return settings_->value(kPlatformName).toString();
}
void AppSettings::setDevice(const QString& platformName, const QString& deviceName) {
    settings_->setValue(kPlatformName, platformName);
    settings_->setValue(kDeviceName, deviceName);
}

QString AppSettings::strategy() const {
    return settings_->value(kStrategy).toString();
}
void AppSettings::setStrategy(const QString& strategy) {
    settings_->setValue(kStrategy, strategy);
}

int AppSettings::bins() const {
    const int bins = settings_->value(kBins, histogram::kMaxBins).toInt();
    return bins >= 1 && bins <= histogram::kMaxBins ? bins : histogram::kMaxBins;
}
void AppSettings::setBins(int bins) {
    settings_->setValue(kBins, bins);
}

QString AppSettings::lastFolder() const {
    return settings_->value(kLastFolder).toString();
}
void AppSettings::setLastFolder(const QString& folder) {
    settings_->setValue(kLastFolder, folder);
}

QStringList AppSettings::recentFiles() const {
    return settings_->value(kRecentFiles).toStringList();
}

void AppSettings::addRecentFile(const QString& path) {
    const QString entry = canonicalEntry(path);
    QStringList files = recentFiles();
    files.removeAll(entry);
    files.prepend(entry);
    while (files.size() > kMaxRecentFiles) files.removeLast();
    settings_->setValue(kRecentFiles, files);
}

void AppSettings::removeRecentFile(const QString& path) {
    QStringList files = recentFiles();
    files.removeAll(canonicalEntry(path));
    settings_->setValue(kRecentFiles, files);
}

void AppSettings::clearRecentFiles() {
    settings_->remove(kRecentFiles);
}

void AppSettings::sync() {
    settings_->sync();
}

}  // namespace hs::ui
