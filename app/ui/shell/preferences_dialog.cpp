#include "ui/shell/preferences_dialog.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include "engine/runtime/program_cache.hpp"

namespace hs::ui {

namespace {

// The entries' folder inside the cache's (engine/runtime/program_cache.cpp keeps binaries there).
QDir programsFolder(const QString& folder) {
    return QDir(QDir(folder).filePath(QStringLiteral("programs")));
}

QFileInfoList programEntries(const QString& folder) {
    QFileInfoList entries;
    for (const QFileInfo& entry :
         programsFolder(folder).entryInfoList({QStringLiteral("*.bin")}, QDir::Files | QDir::NoSymLinks))
        entries << entry;
    return entries;
}

}  // namespace

QString programCacheFolder() {
    return QString::fromStdString(ProgramCacheSettings::fromEnvironment().directory.string());
}

ProgramCacheContents programCacheContents(const QString& folder) {
    ProgramCacheContents contents;
    for (const QFileInfo& entry : programEntries(folder)) {
        ++contents.entries;
        contents.bytes += entry.size();
    }
    return contents;
}

bool clearProgramCache(const QString& folder) {
    bool removedAll = true;
    for (const QFileInfo& entry : programEntries(folder))
        removedAll = QFile::remove(entry.absoluteFilePath()) && removedAll;
    return removedAll;
}

PreferencesDialog::PreferencesDialog(const Preferences& current, const std::vector<DeviceInfo>& devices,
                                     QWidget* parent)
    : QDialog(parent),
      startDevice_(new QComboBox),
      keptRuns_(new QSpinBox),
      recordRuns_(new QCheckBox(tr("Record Run ×N's runs in the run archive"))),
      programCache_(new QCheckBox(tr("Keep compiled kernels between starts (from the next start)"))),
      cacheContents_(new QLabel),
      typingPause_(new QSpinBox),
      cacheFolder_(programCacheFolder()) {
    setObjectName(QStringLiteral("preferencesDialog"));
    setWindowTitle(tr("Preferences — HistoScope"));

    startDevice_->setObjectName(QStringLiteral("startDevice"));
    startDevice_->addItem(tr("The last one used"));
    for (const DeviceInfo& device : devices) {
        const QString selector = QString::fromStdString(device.selector());
        startDevice_->addItem(QStringLiteral("%1  %2").arg(selector, QString::fromStdString(device.name)),
                              QStringList{selector, QString::fromStdString(device.name)});
    }
    if (!current.startDeviceSelector.isEmpty()) {
        const int index =
            startDevice_->findData(QStringList{current.startDeviceSelector, current.startDeviceName});
        if (index >= 0) {
            startDevice_->setCurrentIndex(index);
        } else {
            // A fixed device this machine does not have now stays chosen until the user picks another.
            startDevice_->addItem(
                tr("%1  %2 (not present)").arg(current.startDeviceSelector, current.startDeviceName),
                QStringList{current.startDeviceSelector, current.startDeviceName});
            startDevice_->setCurrentIndex(startDevice_->count() - 1);
        }
    }
    startDevice_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    startDevice_->setMinimumContentsLength(28);
    startDevice_->setToolTip(tr("The device the window chooses when it starts"));

    keptRuns_->setObjectName(QStringLiteral("keptRuns"));
    keptRuns_->setRange(Preferences::kMinKeptRuns, Preferences::kMaxKeptRuns);
    keptRuns_->setValue(current.keptRuns);
    keptRuns_->setToolTip(
        tr("How many runs the Timings dock keeps for its statistics and exports; the "
           "oldest go first"));
    recordRuns_->setObjectName(QStringLiteral("recordRuns"));
    recordRuns_->setChecked(current.recordRuns);
    recordRuns_->setToolTip(tr("As Run ▸ Record Runs: each Run ×N becomes one run of the History dock"));

    programCache_->setObjectName(QStringLiteral("programCache"));
    programCache_->setChecked(current.programCache);
    programCache_->setToolTip(
        tr("Kernels compiled once are loaded from the cache at the next start instead of being built again"));
    auto* folder = new QLabel(QDir::toNativeSeparators(cacheFolder_));
    folder->setObjectName(QStringLiteral("cacheFolder"));
    folder->setTextInteractionFlags(Qt::TextSelectableByMouse);
    folder->setWordWrap(true);
    cacheContents_->setObjectName(QStringLiteral("cacheContents"));
    auto* clear = new QPushButton(tr("C&lear"));
    clear->setObjectName(QStringLiteral("clearCache"));
    clear->setToolTip(tr("Remove the compiled kernels; the next runs build them again"));
    connect(clear, &QPushButton::clicked, this, [this] {
        if (!clearProgramCache(cacheFolder_))
            QMessageBox::warning(this, tr("Cannot clear the cache"),
                                 tr("%1: some compiled kernels could not be removed")
                                     .arg(QDir::toNativeSeparators(cacheFolder_)));
        showCacheContents();
    });
    showCacheContents();

    typingPause_->setObjectName(QStringLiteral("typingPause"));
    typingPause_->setRange(Preferences::kMinTypingPauseMs, Preferences::kMaxTypingPauseMs);
    typingPause_->setSingleStep(100);
    typingPause_->setSuffix(tr(" ms"));
    typingPause_->setValue(current.typingPauseMs);
    typingPause_->setToolTip(tr("A typed number is taken (and runs) after Enter, Tab or this pause"));

    auto* runs = new QGroupBox(tr("Runs"));
    auto* runsForm = new QFormLayout(runs);
    runsForm->addRow(tr("Device at start:"), startDevice_);
    runsForm->addRow(tr("Runs kept:"), keptRuns_);
    runsForm->addRow(recordRuns_);
    runsForm->addRow(tr("Typing pause:"), typingPause_);

    auto* cache = new QGroupBox(tr("Program-binary cache"));
    auto* cacheForm = new QFormLayout(cache);
    cacheForm->addRow(programCache_);
    cacheForm->addRow(tr("Folder:"), folder);
    auto* contentsRow = new QHBoxLayout;
    contentsRow->addWidget(cacheContents_, 1);
    contentsRow->addWidget(clear);
    cacheForm->addRow(tr("Holds:"), contentsRow);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    auto* reset = buttons->addButton(tr("&Reset All Settings…"), QDialogButtonBox::ResetRole);
    reset->setObjectName(QStringLiteral("resetAllSettings"));
    reset->setToolTip(
        tr("Every setting of the window back to a first start's: panels, transforms, "
           "histogram, exports, recent files and these preferences"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(reset, &QPushButton::clicked, this, [this] {
        const auto answer = QMessageBox::question(
            this, tr("Reset all settings?"),
            tr("Every setting goes back to a first start's: the layout, the transforms, the histogram's "
               "display, the recent files and these preferences. Runs in the archive stay."),
            QMessageBox::Reset | QMessageBox::Cancel, QMessageBox::Cancel);
        if (answer != QMessageBox::Reset) return;
        resetRequested_ = true;
        accept();
    });

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(runs);
    layout->addWidget(cache);
    layout->addStretch(1);
    layout->addWidget(buttons);
    // The title in full, whatever the style's font.
    setMinimumWidth(fontMetrics().horizontalAdvance(windowTitle()) + 160);
}

Preferences PreferencesDialog::preferences() const {
    Preferences preferences;
    const QStringList device = startDevice_->currentData().toStringList();
    if (device.size() == 2) {
        preferences.startDeviceSelector = device[0];
        preferences.startDeviceName = device[1];
    }
    preferences.keptRuns = keptRuns_->value();
    preferences.recordRuns = recordRuns_->isChecked();
    preferences.programCache = programCache_->isChecked();
    preferences.typingPauseMs = typingPause_->value();
    return preferences;
}

void PreferencesDialog::showCacheContents() {
    const ProgramCacheContents contents = programCacheContents(cacheFolder_);
    cacheContents_->setText((contents.entries == 1 ? tr("1 compiled kernel, %1")
                                                   : tr("%1 compiled kernels, %2").arg(contents.entries))
                                .arg(QLocale().formattedDataSize(contents.bytes)));
}

}  // namespace hs::ui
