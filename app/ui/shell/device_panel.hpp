#pragma once

#include <QString>
#include <QWidget>
#include <optional>
#include <vector>

#include "runtime/device_info.hpp"

class QComboBox;
class QTableWidget;

namespace hs::ui {

// Where the work runs: platform and device dropdowns over every OpenCL device, and a table of every
// capability of the selected one. A device that failed keeps a warning mark with the reason as tooltip, so
// the user can see why and pick another.
class DevicePanel : public QWidget {
    Q_OBJECT

  public:
    explicit DevicePanel(QWidget* parent = nullptr);

    // Replaces the list; selects the first device (without emitting deviceChanged).
    void setDevices(const std::vector<DeviceInfo>& devices);
    // Selects the device with this "P:D" selector and emits deviceChanged; false when there is none.
    bool selectDevice(const QString& selector);
    std::optional<DeviceInfo> currentDevice() const;
    // The "P:D" selector of the current device; empty when there is no device.
    QString currentSelector() const;
    // A warning icon with the reason as tooltip, until clearFailure() (the device worked again).
    void markFailed(const QString& selector, const QString& reason);
    void clearFailure(const QString& selector);

    QComboBox* platformBox() const { return platforms_; }
    QComboBox* deviceBox() const { return devicesBox_; }
    QTableWidget* propertiesTable() const { return properties_; }

  signals:
    void deviceChanged(const QString& selector);

  private:
    void fillDeviceBox(int platformIndex);
    void showProperties();
    const DeviceInfo* deviceAt(int comboIndex) const;

    std::vector<DeviceInfo> devices_;
    QComboBox* platforms_ = nullptr;
    QComboBox* devicesBox_ = nullptr;
    QTableWidget* properties_ = nullptr;
    bool filling_ = false;
};

}  // namespace hs::ui
