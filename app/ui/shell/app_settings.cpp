#include "ui/shell/app_settings.hpp"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <algorithm>
#include <cmath>

#include "engine/ops/histogram/histogram.hpp"
#include "engine/stages/stage.hpp"

namespace hs::ui {

QString kindDefaultStrategy(std::string_view kind) {
    return QString::fromUtf8(stages::findKind(kind).defaultStrategy());
}

namespace {
const QString kGeometry = QStringLiteral("window/geometry");
const QString kState = QStringLiteral("window/state");
const QString kDeviceName = QStringLiteral("run/device");
const QString kPlatformName = QStringLiteral("run/platform");
const QString kDeviceSelector = QStringLiteral("run/deviceSelector");
const QString kStrategy = QStringLiteral("run/strategy");
const QString kBins = QStringLiteral("run/bins");
const QString kIgnoreTransparent = QStringLiteral("run/ignore_transparent");
const QString kRepeatCount = QStringLiteral("run/repeatCount");
const QString kHistogramLog = QStringLiteral("histogram/log");
const QString kHistogramCumulative = QStringLiteral("histogram/cumulative");
const QString kHistogramClipPeak = QStringLiteral("histogram/clipPeak");
const QString kHistogramChannels = QStringLiteral("histogram/channels");
const QString kRecordRuns = QStringLiteral("run/record");
const QString kStartDevice = QStringLiteral("start/device");
const QString kStartDeviceName = QStringLiteral("start/deviceName");
const QString kKeptRuns = QStringLiteral("run/keptRuns");
const QString kProgramCache = QStringLiteral("cache/programs");
const QString kTypingPause = QStringLiteral("input/typingPauseMs");
const QString kRotate = QStringLiteral("transform/rotate");
const QString kAngle = QStringLiteral("transform/angle");
const QString kFitCanvas = QStringLiteral("transform/fitCanvas");
const QString kSampling = QStringLiteral("transform/sampling");
const QString kRotateStrategy = QStringLiteral("transform/rotateStrategy");
const QString kConvolve = QStringLiteral("transform/convolve");
const QString kFilter = QStringLiteral("transform/filter");
const QString kFilterParameterGroup = QStringLiteral("transform/");
const QString kCustomMatrix = QStringLiteral("transform/customMatrix");
const QString kConvolveStrategy = QStringLiteral("transform/convolveStrategy");
const QString kStagePages = QStringLiteral("stages");
const QString kPlotWidth = QStringLiteral("export/plotWidth");
const QString kPlotHeight = QStringLiteral("export/plotHeight");
const QString kPlotDpi = QStringLiteral("export/plotDpi");
const QString kLastFolder = QStringLiteral("files/lastFolder");
const QString kRecentFiles = QStringLiteral("files/recent");

// Recent entries are compared as absolute, clean paths so "./a.png" and "a.png" are one entry.
QString canonicalEntry(const QString& path) {
    return QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}

// The number stored under `key`; `fallback` when there is none, or it is not a finite number.
double finiteValue(const QSettings& settings, const QString& key, double fallback) {
    bool ok = false;
    const double value = settings.value(key, fallback).toDouble(&ok);
    return ok && std::isfinite(value) ? value : fallback;
}

bool validBins(int bins) {
    return bins >= 1 && bins <= histogram::kMaxBins;
}
}  // namespace

QString filterParameterKey(const convolve::FilterKind& kind, const convolve::FilterParameter& parameter) {
    return QString::fromStdString(kind.name + "/" + parameter.name);
}

QMap<QString, double> defaultFilterParameters() {
    QMap<QString, double> values;
    for (const auto* kind : convolve::filterKinds()) {
        for (const auto& parameter : kind->parameters)
            values[filterParameterKey(*kind, parameter)] = parameter.defaultValue;
    }
    return values;
}

AppSettings::AppSettings()
    : path_(QSettings(QSettings::IniFormat, QSettings::UserScope, QStringLiteral("HistoScope"),
                      QStringLiteral("histoscope"))
                .fileName()) {
    load();
}

AppSettings::AppSettings(const QString& path) : path_(path) {
    load();
}

void AppSettings::load() {
    const QSettings settings(path_, QSettings::IniFormat);
    windowGeometry_ = settings.value(kGeometry).toByteArray();
    windowState_ = settings.value(kState).toByteArray();
    deviceName_ = settings.value(kDeviceName).toString();
    platformName_ = settings.value(kPlatformName).toString();
    deviceSelector_ = settings.value(kDeviceSelector).toString();
    strategy_ = settings.value(kStrategy).toString();
    setBins(settings.value(kBins, histogram::kMaxBins).toInt());
    ignoreTransparent_ = settings.value(kIgnoreTransparent, false).toBool();
    const Preferences preferenceDefaults;
    setPreferences({settings.value(kStartDevice).toString(), settings.value(kStartDeviceName).toString(),
                    settings.value(kKeptRuns, preferenceDefaults.keptRuns).toInt(),
                    settings.value(kRecordRuns, preferenceDefaults.recordRuns).toBool(),
                    settings.value(kProgramCache, preferenceDefaults.programCache).toBool(),
                    settings.value(kTypingPause, preferenceDefaults.typingPauseMs).toInt()});
    setRepeatCount(settings.value(kRepeatCount, kDefaultRepeatCount).toInt());
    if (settings.contains(kHistogramChannels))
        histogramDisplay_ = HistogramDisplay{
            settings.value(kHistogramLog).toBool(), settings.value(kHistogramCumulative).toBool(),
            settings.value(kHistogramClipPeak).toBool(), settings.value(kHistogramChannels).toStringList()};
    // Values out of range are left to the panel's widgets, which clamp them like typed ones.
    const TransformSettings defaults;
    transform_.rotate = settings.value(kRotate, defaults.rotate).toBool();
    transform_.angle = finiteValue(settings, kAngle, defaults.angle);
    transform_.fitCanvas = settings.value(kFitCanvas, defaults.fitCanvas).toBool();
    transform_.sampling = settings.value(kSampling, defaults.sampling).toString();
    transform_.rotateStrategy = settings.value(kRotateStrategy, defaults.rotateStrategy).toString();
    transform_.convolve = settings.value(kConvolve, defaults.convolve).toBool();
    transform_.filter = settings.value(kFilter, defaults.filter).toString();
    for (auto parameter = transform_.filterParameters.begin(); parameter != transform_.filterParameters.end();
         ++parameter)
        parameter.value() = finiteValue(settings, kFilterParameterGroup + parameter.key(), parameter.value());
    transform_.customMatrix = settings.value(kCustomMatrix, defaults.customMatrix).toString();
    transform_.convolveStrategy = settings.value(kConvolveStrategy, defaults.convolveStrategy).toString();
    // Every generated stage page's keys, whatever kinds this build registers: stages/<kind>/<key>.
    for (const QString& key : settings.allKeys()) {
        const QStringList parts = key.split(QLatin1Char('/'));
        if (parts.size() == 3 && parts[0] == kStagePages)
            transform_.stagePages[parts[1]][parts[2]] = settings.value(key).toString();
    }
    const PlotExportSize plotDefaults;
    setPlotExportSize({settings.value(kPlotWidth, plotDefaults.width).toInt(),
                       settings.value(kPlotHeight, plotDefaults.height).toInt(),
                       settings.value(kPlotDpi, plotDefaults.dpi).toInt()});
    lastFolder_ = settings.value(kLastFolder).toString();
    for (const QString& path : settings.value(kRecentFiles).toStringList()) {
        if (recentFiles_.size() < kMaxRecentFiles && !recentFiles_.contains(canonicalEntry(path)))
            recentFiles_ << canonicalEntry(path);
    }
}

bool AppSettings::save() const {
    QSettings settings(path_, QSettings::IniFormat);
    if (clearFileOnSave_) settings.clear();
    settings.setValue(kGeometry, windowGeometry_);
    settings.setValue(kState, windowState_);
    settings.setValue(kDeviceName, deviceName_);
    settings.setValue(kPlatformName, platformName_);
    settings.setValue(kDeviceSelector, deviceSelector_);
    settings.setValue(kStrategy, strategy_);
    settings.setValue(kBins, bins_);
    settings.setValue(kIgnoreTransparent, ignoreTransparent_);
    settings.setValue(kRepeatCount, repeatCount_);
    if (histogramDisplay_) {
        settings.setValue(kHistogramLog, histogramDisplay_->logScale);
        settings.setValue(kHistogramCumulative, histogramDisplay_->cumulative);
        settings.setValue(kHistogramClipPeak, histogramDisplay_->clipPeak);
        settings.setValue(kHistogramChannels, histogramDisplay_->channels);
    }
    settings.setValue(kRecordRuns, preferences_.recordRuns);
    settings.setValue(kStartDevice, preferences_.startDeviceSelector);
    settings.setValue(kStartDeviceName, preferences_.startDeviceName);
    settings.setValue(kKeptRuns, preferences_.keptRuns);
    settings.setValue(kProgramCache, preferences_.programCache);
    settings.setValue(kTypingPause, preferences_.typingPauseMs);
    settings.setValue(kRotate, transform_.rotate);
    settings.setValue(kAngle, transform_.angle);
    settings.setValue(kFitCanvas, transform_.fitCanvas);
    settings.setValue(kSampling, transform_.sampling);
    settings.setValue(kRotateStrategy, transform_.rotateStrategy);
    settings.setValue(kConvolve, transform_.convolve);
    settings.setValue(kFilter, transform_.filter);
    for (auto parameter = transform_.filterParameters.cbegin();
         parameter != transform_.filterParameters.cend(); ++parameter)
        settings.setValue(kFilterParameterGroup + parameter.key(), parameter.value());
    settings.setValue(kCustomMatrix, transform_.customMatrix);
    settings.setValue(kConvolveStrategy, transform_.convolveStrategy);
    for (auto kind = transform_.stagePages.cbegin(); kind != transform_.stagePages.cend(); ++kind)
        for (auto key = kind.value().cbegin(); key != kind.value().cend(); ++key)
            settings.setValue(kStagePages + QLatin1Char('/') + kind.key() + QLatin1Char('/') + key.key(),
                              key.value());
    settings.setValue(kPlotWidth, plotExportSize_.width);
    settings.setValue(kPlotHeight, plotExportSize_.height);
    settings.setValue(kPlotDpi, plotExportSize_.dpi);
    settings.setValue(kLastFolder, lastFolder_);
    settings.setValue(kRecentFiles, recentFiles_);
    settings.sync();
    return settings.status() == QSettings::NoError;
}

void AppSettings::reset() {
    windowGeometry_.clear();
    windowState_.clear();
    deviceName_.clear();
    platformName_.clear();
    deviceSelector_.clear();
    strategy_.clear();
    bins_ = histogram::kMaxBins;
    ignoreTransparent_ = false;
    repeatCount_ = kDefaultRepeatCount;
    histogramDisplay_.reset();
    preferences_ = {};
    transform_ = {};
    plotExportSize_ = {};
    lastFolder_.clear();
    recentFiles_.clear();
    // Keys written only when set (the histogram's display, stage pages) go from the file too.
    clearFileOnSave_ = true;
}

Preferences Preferences::clamped() const {
    Preferences clamped = *this;
    clamped.keptRuns = std::clamp(keptRuns, kMinKeptRuns, kMaxKeptRuns);
    clamped.typingPauseMs = std::clamp(typingPauseMs, kMinTypingPauseMs, kMaxTypingPauseMs);
    return clamped;
}

PlotExportSize PlotExportSize::clamped() const {
    return {std::clamp(width, kMinSide, kMaxSide), std::clamp(height, kMinSide, kMaxSide),
            std::clamp(dpi, kMinDpi, kMaxDpi)};
}

void AppSettings::setDevice(const QString& platformName, const QString& deviceName, const QString& selector) {
    platformName_ = platformName;
    deviceName_ = deviceName;
    deviceSelector_ = selector;
}

void AppSettings::setBins(int bins) {
    bins_ = validBins(bins) ? bins : histogram::kMaxBins;
}

void AppSettings::setRepeatCount(int count) {
    repeatCount_ = count >= 1 && count <= kMaxRepeatCount ? count : kDefaultRepeatCount;
}

void AppSettings::addRecentFile(const QString& path) {
    const QString entry = canonicalEntry(path);
    recentFiles_.removeAll(entry);
    recentFiles_.prepend(entry);
    while (recentFiles_.size() > kMaxRecentFiles) recentFiles_.removeLast();
}

void AppSettings::removeRecentFile(const QString& path) {
    recentFiles_.removeAll(canonicalEntry(path));
}

}  // namespace hs::ui
