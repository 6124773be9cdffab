#pragma once
// Edit ▸ Preferences: what a user sets once — the device at start, the runs kept, recording runs, the
// program-binary cache (on or off, its folder, Clear), the pause of typed values — and Reset All Settings.
// The dialog edits a copy; the window applies it on OK (MainWindow::applyPreferences).

#include <QDialog>
#include <QString>
#include <vector>

#include "engine/runtime/device_info.hpp"
#include "ui/shell/app_settings.hpp"

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;

namespace hs::ui {

// The compiled kernels in the program-binary cache's folder: how many and their bytes.
struct ProgramCacheContents {
    int entries = 0;
    qint64 bytes = 0;
};
ProgramCacheContents programCacheContents(const QString& folder);
// Removes the compiled kernels (programs/*.bin, regular files only) from the cache's folder; other records
// (`auto`'s choices) stay. False when one could not be removed.
bool clearProgramCache(const QString& folder);
// The folder the program-binary cache uses (HISTOSCOPE_CACHE_DIR, else the user's cache folder).
QString programCacheFolder();

class PreferencesDialog final : public QDialog {
    Q_OBJECT

  public:
    PreferencesDialog(const Preferences& current, const std::vector<DeviceInfo>& devices,
                      QWidget* parent = nullptr);

    // What the dialog shows now.
    Preferences preferences() const;
    // The user confirmed Reset All Settings (the dialog closed accepted).
    bool resetRequested() const { return resetRequested_; }

  private:
    void showCacheContents();

    QComboBox* startDevice_;
    QSpinBox* keptRuns_;
    QCheckBox* recordRuns_;
    QCheckBox* programCache_;
    QLabel* cacheContents_;
    QSpinBox* typingPause_;
    QString cacheFolder_;
    bool resetRequested_ = false;
};

}  // namespace hs::ui
