#include "ui/shell/device_panel.hpp"

#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QSignalBlocker>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>
#include <set>

#include "engine/runtime/device_properties.hpp"

namespace hs::ui {

namespace {

QString text(const std::string& value) {
    return QString::fromStdString(value);
}

QString summary(const DeviceInfo& device) {
    return QStringLiteral("%1, %2 compute units, %3")
        .arg(text(std::string(deviceTypeName(device.type))))
        .arg(device.computeUnits)
        .arg(text(binarySize(device.globalMemBytes)));
}

// One row per property of the schema (runtime/device_properties.hpp), in its order; the extensions one per
// line under a label that counts them.
std::vector<std::pair<QString, QString>> describe(const DeviceInfo& d) {
    std::vector<std::pair<QString, QString>> rows;
    for (const auto& property : deviceProperties()) {
        QString label =
            QString::fromUtf8(property.label.data(), static_cast<qsizetype>(property.label.size()));
        if (property.kind == DeviceProperty::Kind::List)
            label += QStringLiteral(" (%1)").arg(std::get<std::vector<std::string>>(property.read(d)).size());
        rows.emplace_back(label, text(displayValue(property, d, "\n")));
    }
    return rows;
}

}  // namespace

DevicePanel::DevicePanel(QWidget* parent) : QWidget(parent) {
    platforms_ = new QComboBox(this);
    devicesBox_ = new QComboBox(this);
    for (auto* box : {platforms_, devicesBox_}) {
        box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
        box->setMinimumContentsLength(16);
    }
    properties_ = new QTableWidget(0, 2, this);
    properties_->setHorizontalHeaderLabels({tr("Property"), tr("Value")});
    properties_->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    properties_->horizontalHeader()->setStretchLastSection(true);
    properties_->verticalHeader()->hide();
    properties_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    properties_->setSelectionBehavior(QAbstractItemView::SelectRows);
    properties_->setAlternatingRowColors(true);
    properties_->setWordWrap(true);
    // Tab leaves the table at once: its cells are read, not edited, and walking them took ~60 presses
    // before the Transform panel.
    properties_->setTabKeyNavigation(false);

    auto* choices = new QFormLayout;
    choices->addRow(tr("&Platform"), platforms_);
    choices->addRow(tr("&Device"), devicesBox_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(choices);
    layout->addWidget(properties_, 1);

    connect(platforms_, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (filling_) return;
        fillDeviceBox(index);
        showProperties();
        emit deviceChanged(currentSelector());
    });
    connect(devicesBox_, &QComboBox::currentIndexChanged, this, [this] {
        if (filling_) return;
        showProperties();
        emit deviceChanged(currentSelector());
    });
}

void DevicePanel::setDevices(const std::vector<DeviceInfo>& devices) {
    devices_ = devices;
    filling_ = true;
    platforms_->clear();
    std::set<int> seen;
    for (const auto& device : devices_) {
        if (seen.insert(device.platformIndex).second)
            platforms_->addItem(text(device.platformName), device.platformIndex);
    }
    fillDeviceBox(platforms_->currentIndex());
    filling_ = false;
    showProperties();
}

void DevicePanel::fillDeviceBox(int platformComboIndex) {
    const bool wasFilling = filling_;
    filling_ = true;
    devicesBox_->clear();
    const int platform = platforms_->itemData(platformComboIndex).toInt();
    for (std::size_t i = 0; i < devices_.size(); ++i) {
        const auto& device = devices_[i];
        if (device.platformIndex != platform) continue;
        // The selector first: it tells identical devices apart where a narrow panel cuts the name short.
        devicesBox_->addItem(QStringLiteral("%1 · %2").arg(text(device.selector()), text(device.name)),
                             static_cast<int>(i));
        devicesBox_->setItemData(devicesBox_->count() - 1, summary(device), Qt::ToolTipRole);
    }
    filling_ = wasFilling;
}

const DeviceInfo* DevicePanel::deviceAt(int comboIndex) const {
    const QVariant index = devicesBox_->itemData(comboIndex);
    return index.isValid() ? &devices_[static_cast<std::size_t>(index.toInt())] : nullptr;
}

std::optional<DeviceInfo> DevicePanel::currentDevice() const {
    const DeviceInfo* device = deviceAt(devicesBox_->currentIndex());
    return device ? std::optional<DeviceInfo>(*device) : std::nullopt;
}

QString DevicePanel::currentSelector() const {
    const DeviceInfo* device = deviceAt(devicesBox_->currentIndex());
    return device ? text(device->selector()) : QString();
}

bool DevicePanel::selectDevice(const QString& selector) {
    for (const auto& device : devices_) {
        if (text(device.selector()) != selector) continue;
        {
            const QSignalBlocker blockPlatforms(platforms_);
            const QSignalBlocker blockDevices(devicesBox_);
            platforms_->setCurrentIndex(platforms_->findData(device.platformIndex));
            fillDeviceBox(platforms_->currentIndex());
            for (int i = 0; i < devicesBox_->count(); ++i) {
                if (deviceAt(i)->selector() == device.selector()) devicesBox_->setCurrentIndex(i);
            }
        }
        showProperties();
        emit deviceChanged(selector);
        return true;
    }
    return false;
}

void DevicePanel::markFailed(const QString& selector, const QString& reason) {
    for (int i = 0; i < devicesBox_->count(); ++i) {
        if (text(deviceAt(i)->selector()) != selector) continue;
        devicesBox_->setItemIcon(i, style()->standardIcon(QStyle::SP_MessageBoxWarning));
        devicesBox_->setItemData(i, tr("Failed: %1").arg(reason), Qt::ToolTipRole);
    }
}

void DevicePanel::clearFailure(const QString& selector) {
    for (int i = 0; i < devicesBox_->count(); ++i) {
        if (text(deviceAt(i)->selector()) != selector || devicesBox_->itemIcon(i).isNull()) continue;
        devicesBox_->setItemIcon(i, QIcon());
        devicesBox_->setItemData(i, summary(*deviceAt(i)), Qt::ToolTipRole);
    }
}

void DevicePanel::showProperties() {
    const DeviceInfo* device = deviceAt(devicesBox_->currentIndex());
    const auto rows = device ? describe(*device) : std::vector<std::pair<QString, QString>>{};
    properties_->setRowCount(static_cast<int>(rows.size()));
    for (int row = 0; row < properties_->rowCount(); ++row) {
        const auto& [name, value] = rows[static_cast<std::size_t>(row)];
        auto* nameItem = new QTableWidgetItem(name);
        nameItem->setTextAlignment(Qt::AlignLeft | Qt::AlignTop);
        auto* valueItem = new QTableWidgetItem(value);
        valueItem->setToolTip(value);
        properties_->setItem(row, 0, nameItem);
        properties_->setItem(row, 1, valueItem);
    }
    properties_->resizeRowsToContents();
}

}  // namespace hs::ui
