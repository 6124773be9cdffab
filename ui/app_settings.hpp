#pragma once

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <memory>

class QSettings;

namespace hs::ui {

// What the app remembers between sessions. A thin typed layer over QSettings so the keys live in one place
// and tests can point it at a private file instead of the user's configuration.
class AppSettings {
  public:
    static constexpr int kMaxRecentFiles = 10;

    // The user's settings (organisation "HistoScope", application "histoscope").
    AppSettings();
    // Settings kept in the INI file at `path`.
    explicit AppSettings(const QString& path);
    ~AppSettings();
    AppSettings(const AppSettings&) = delete;
    AppSettings& operator=(const AppSettings&) = delete;

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray& geometry);
    QByteArray windowState() const;
    void setWindowState(const QByteArray& state);

    // The device is remembered by name and platform: indices change when drivers come and go.
    QString deviceName() const;
    QString platformName() const;
    void setDevice(const QString& platformName, const QString& deviceName);

    QString strategy() const;
    void setStrategy(const QString& strategy);
    int bins() const;
    void setBins(int bins);

    QString lastFolder() const;
    void setLastFolder(const QString& folder);

    // Most recent first, at most kMaxRecentFiles, no duplicates.
    QStringList recentFiles() const;
    void addRecentFile(const QString& path);
    void removeRecentFile(const QString& path);
    void clearRecentFiles();

    void sync();

  private:
    std::unique_ptr<QSettings> settings_;
};

}  // namespace hs::ui
